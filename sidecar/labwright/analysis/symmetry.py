"""Symmetry of a 2-D map (a thermal image, a beam profile, a field map).

When the notes ask whether a map is symmetric ("check the temperature map
for symmetry", "检查温度分布是否对称"), two questions are answered:

- where is the feature: the centroid of the map above its background (the
  median of the border), with standard errors from the pixel noise;
- is the map its own mirror image: the difference between the map and its
  left-right (and up-down) mirror about the frame's centre, compared with the
  pixel noise. For a symmetric map each independent pair differs by noise
  alone, so the sum of squared differences over 2σ² follows χ² with one degree
  of freedom per pair (its survival function, scipy.special.chdtrc, gives
  the p-value).

The noise σ is estimated from second differences along the rows (a smooth
map cancels out of them), robustly (median absolute deviation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05


@dataclass(frozen=True)
class Mirror:
    axis: str  # "left-right" or "up-down"
    rms: float  # RMS of (map - mirror) over independent pairs
    ratio: float  # rms / (sqrt(2) sigma): about 1 for a symmetric map
    chi2: float
    dof: int
    p: float


@dataclass
class SymmetryResult:
    name: str
    shape: tuple[int, int]
    noise: float
    background: float
    cx: float  # centroid, column index (0-based)
    cx_se: float
    cy: float  # centroid, row index
    cy_se: float
    centre_x: float  # the frame's centre
    centre_y: float
    mirrors: list[Mirror]
    diff_lr: np.ndarray
    diff_ud: np.ndarray

    @property
    def symmetric(self) -> bool:
        return all(m.p >= ALPHA for m in self.mirrors)

    @property
    def centred(self) -> bool:
        return (
            abs(self.cx - self.centre_x) <= 3 * self.cx_se
            and abs(self.cy - self.centre_y) <= 3 * self.cy_se
        )


def _noise(m: np.ndarray) -> float:
    d2 = np.diff(m, 2, axis=1).ravel()
    d2 = d2[np.isfinite(d2)]
    if d2.size < 10:
        return math.nan
    # A second difference of white noise has variance 6 sigma^2.
    return float(1.4826 * np.median(np.abs(d2 - np.median(d2))) / math.sqrt(6.0))


def _mirror(m: np.ndarray, flipped: np.ndarray, sigma: float, axis: str) -> Mirror:
    # chi2.sf itself, without scipy.stats's import (~0.2 s; see results.fit_quality).
    from scipy.special import chdtrc

    d = m - flipped
    # Each pair appears twice (pixel and its mirror); keep one half. A centre
    # row/column on the axis is its own mirror and carries no information.
    if axis == "left-right":
        half = d[:, : m.shape[1] // 2]
    else:
        half = d[: m.shape[0] // 2, :]
    v = half[np.isfinite(half)]
    dof = int(v.size)
    rms = float(np.sqrt(np.mean(v**2))) if dof else math.nan
    stat = float(np.sum(v**2) / (2 * sigma**2)) if sigma > 0 else math.inf
    p = float(chdtrc(dof, stat)) if dof else math.nan
    return Mirror(axis, rms, rms / (math.sqrt(2) * sigma) if sigma > 0 else math.inf, stat, dof, p)


def analyse_symmetry(matrix: np.ndarray, name: str) -> SymmetryResult | None:
    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or min(m.shape) < 5 or not np.isfinite(m).any():
        return None
    sigma = _noise(m)
    if not (np.isfinite(sigma) and sigma > 0):
        return None
    border = np.concatenate([m[0], m[-1], m[1:-1, 0], m[1:-1, -1]])
    background = float(np.nanmedian(border))
    w = np.where(np.isfinite(m), m - background, 0.0)
    w = np.clip(w, 0.0, None)
    total = float(w.sum())
    if total <= 0:
        return None
    rows, cols = np.indices(m.shape, dtype=float)
    cx = float((w * cols).sum() / total)
    cy = float((w * rows).sum() / total)
    # Delta method: d(cx)/d(w_i) = (x_i - cx) / W, each w_i with variance sigma^2.
    positive = w > 0
    cx_se = float(sigma * np.sqrt(((cols - cx) ** 2)[positive].sum()) / total)
    cy_se = float(sigma * np.sqrt(((rows - cy) ** 2)[positive].sum()) / total)
    lr, ud = m[:, ::-1], m[::-1, :]
    mirrors = [_mirror(m, lr, sigma, "left-right"), _mirror(m, ud, sigma, "up-down")]
    return SymmetryResult(
        name, (int(m.shape[0]), int(m.shape[1])), sigma, background, cx, cx_se, cy, cy_se,
        (m.shape[1] - 1) / 2.0, (m.shape[0] - 1) / 2.0, mirrors, m - lr, m - ud,
    )  # fmt: skip
