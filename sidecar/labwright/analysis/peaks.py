"""Peaks of a spectrum (or any densely sampled curve): where, how wide, how high.

When the notes ask for lines or peaks ("the wavelengths of the main lines",
"确定主要谱线的波长"), a curve is searched for peaks that stand out of the
noise (scipy.signal.find_peaks, prominence above `MIN_SNR` times the noise
estimated from point-to-point differences and above a fraction of the
range). Peaks closer than a few widths are fitted together: each cluster by a
sum of Gaussians on a linear baseline (scipy.optimize.curve_fit), so a doublet
such as Hg 577.0 / 579.1 nm gives two centres, not one biased one. Each peak
gets its centre, FWHM and height with standard errors.

Reference values ("compare with the standard values"), when the folder holds
a column of them (named standard, reference, nominal, known, literature,
标准, 参考, 理论), are matched to the nearest peak and the difference is
given in units of its standard error.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

MIN_SNR = 8.0
MIN_FRACTION = 0.03  # of the curve's range
MAX_PEAKS = 20
MIN_POINTS = 30
_FWHM = 2.0 * math.sqrt(2.0 * math.log(2.0))
REFERENCE_NAMES = re.compile(
    r"standard|reference|nominal|known|literature|expected|标准|参考|理论|已知", re.I
)


@dataclass(frozen=True)
class Peak:
    centre: float
    centre_se: float
    fwhm: float
    fwhm_se: float
    height: float
    height_se: float
    reference: float | None = None  # the matched reference value

    @property
    def z(self) -> float | None:
        """(centre - reference) / SE: within 3 means consistent."""
        if self.reference is None or not self.centre_se > 0:
            return None
        return (self.centre - self.reference) / self.centre_se


@dataclass
class PeakResult:
    x: str  # column names
    y: str
    peaks: list[Peak]
    noise: float
    threshold: float  # prominence required
    references: list[float] = field(default_factory=list)
    reference_source: str | None = None  # "file: column" of the reference values
    unmatched: list[float] = field(default_factory=list)  # reference values with no peak


def _gauss_sum(x: np.ndarray, *p: float) -> np.ndarray:
    base = p[0] + p[1] * x
    out = np.asarray(base, dtype=float)
    for k in range(2, len(p), 3):
        a, c, s = p[k], p[k + 1], p[k + 2]
        out = out + a * np.exp(-0.5 * ((x - c) / s) ** 2)
    return out


def _clusters(idx: list[int], widths: np.ndarray, x: np.ndarray) -> list[list[int]]:
    """Peaks whose centres are within three widths of each other fit together."""
    groups: list[list[int]] = []
    for j, i in enumerate(idx):
        if groups:
            prev = groups[-1][-1]
            jp = idx.index(prev)
            if abs(x[i] - x[prev]) < 3.0 * max(widths[j], widths[jp]):
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


def find_peaks(x: np.ndarray, y: np.ndarray, xname: str, yname: str) -> PeakResult | None:
    from scipy.signal import find_peaks as sp_find_peaks
    from scipy.signal import peak_widths

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size < MIN_POINTS:
        return None
    order = np.argsort(x)
    x, y = x[order], y[order]
    step = float(np.median(np.diff(x)))
    # Noise from second differences (a smooth line cancels out of them).
    d2 = np.diff(y, 2)
    noise = float(1.4826 * np.median(np.abs(d2 - np.median(d2))) / math.sqrt(6.0))
    span = float(np.ptp(y))
    if span <= 0:
        return None
    threshold = max(MIN_SNR * noise, MIN_FRACTION * span)
    idx, _props = sp_find_peaks(y, prominence=threshold)
    if idx.size == 0:
        return PeakResult(xname, yname, [], noise, threshold)
    if idx.size > MAX_PEAKS:  # the most prominent ones
        prom = _props["prominences"]
        idx = np.sort(idx[np.argsort(prom)[::-1][:MAX_PEAKS]])
    widths = peak_widths(y, idx, rel_height=0.5)[0] * step  # FWHM in x units
    widths = np.maximum(widths, 2 * step)
    ilist = [int(i) for i in idx]
    fitted: list[tuple[np.ndarray, np.ndarray, list[Peak], float, float]] = []
    for group in _clusters(ilist, widths, x):
        gw = [float(widths[ilist.index(i)]) for i in group]
        lo = x[group[0]] - 3 * gw[0]
        hi = x[group[-1]] + 3 * gw[-1]
        sel = (x >= lo) & (x <= hi)
        xs, ys = x[sel], y[sel]
        base = float(np.min(ys))
        p0: list[float] = [base, 0.0]
        for i, w in zip(group, gw, strict=True):
            p0 += [float(y[i] - base), float(x[i]), w / _FWHM]
        got = _fit(xs, ys, p0, lo, hi)
        if got is not None:
            fitted.append((xs, ys, got[0], got[1], base))
    # A blended doublet (Hg 577.0/579.1 nm at this resolution) shows as one
    # peak much wider than the others: try two Gaussians there and keep them
    # when the corrected Akaike criterion clearly prefers them.
    single = [f[2][0].fwhm for f in fitted if len(f[2]) == 1]
    typical = float(np.median(single)) if len(single) >= 3 else math.nan
    peaks: list[Peak] = []
    for xs, ys, found, aicc1, base in fitted:
        if len(found) == 1 and np.isfinite(typical) and found[0].fwhm > 1.4 * typical:
            p = found[0]
            sig = typical / _FWHM
            p0 = [
                base,
                0.0,
                p.height,
                p.centre - p.fwhm / 4,
                sig,
                p.height,
                p.centre + p.fwhm / 4,
                sig,
            ]
            two = _fit(xs, ys, p0, float(xs[0]), float(xs[-1]))
            if two is not None and len(two[0]) == 2 and two[1] < aicc1 - 10.0:
                found = two[0]
        peaks.extend(found)
    peaks.sort(key=lambda p: p.centre)
    return PeakResult(xname, yname, peaks, noise, threshold)


def _fit(
    xs: np.ndarray, ys: np.ndarray, p0: list[float], lo: float, hi: float
) -> tuple[list[Peak], float] | None:
    """Sum of Gaussians on a linear baseline; the peaks and the fit's AICc."""
    from scipy.optimize import curve_fit

    n, k = xs.size, len(p0)
    if n <= k + 2:
        return None
    try:
        popt, pcov = curve_fit(_gauss_sum, xs, ys, p0=p0, maxfev=20000)
    except (RuntimeError, ValueError):
        return None
    rss = float(np.sum((ys - _gauss_sum(xs, *popt)) ** 2))
    aicc = n * math.log(max(rss, 1e-300) / n) + 2 * k + 2 * k * (k + 1) / (n - k - 1)
    perr = np.sqrt(np.clip(np.diag(pcov), 0.0, None))
    out = []
    for j in range(2, len(popt), 3):
        a, c, s = popt[j], popt[j + 1], abs(popt[j + 2])
        if not (lo <= c <= hi) or a <= 0:
            continue
        out.append(Peak(float(c), float(perr[j + 1]), float(_FWHM * s),
                        float(_FWHM * perr[j + 2]), float(a), float(perr[j])))  # fmt: skip
    return out, aicc


def match_references(result: PeakResult, references: list[float], source: str) -> None:
    """Pair each reference value with the nearest peak within two FWHM;
    a reference without a peak is listed as unmatched."""
    refs = sorted({float(r) for r in references if np.isfinite(r)})
    result.references = refs
    result.reference_source = source
    taken: set[int] = set()
    for r in refs:
        best, dist = None, math.inf
        for k, p in enumerate(result.peaks):
            d = abs(p.centre - r)
            if k not in taken and d <= 2 * max(p.fwhm, 1e-12) and d < dist:
                best, dist = k, d
        if best is None:
            result.unmatched.append(r)
            continue
        taken.add(best)
        p = result.peaks[best]
        result.peaks[best] = Peak(
            p.centre, p.centre_se, p.fwhm, p.fwhm_se, p.height, p.height_se, r
        )
