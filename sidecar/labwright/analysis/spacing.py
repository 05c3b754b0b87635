"""The spacing of successive maxima (or minima) of a swept curve.

Franck–Hertz curves, interference fringes and resonance series all ask the
same thing: the maxima are (nearly) equally spaced along the swept
variable, and the spacing is the answer. Each maximum's position is found
as the peaks kind finds it (a Gaussian fitted over the peak,
`peaks.find_peaks`). The spacing is what lab notes ask for — the mean of
the successive differences ΔU_i = U_{i+1} − U_i, with the standard error of
that mean from their scatter (SD/sqrt(m)), which carries any variation of
the spacing along the curve. The slope of the positions against their
order (weighted least squares) is given beside it as the check: the two
agree when the peaks are equally spaced.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.results import Answer
from labwright.ingest.types import Column

MIN_PEAKS = 3


@dataclass(frozen=True)
class SpacingResult:
    x: Column  # the swept variable
    y: Column  # the curve
    minima: bool  # the notes ask for the minima's spacing
    positions: tuple[float, ...]
    position_se: tuple[float, ...]
    spacing: float  # the mean of the successive differences
    se: float  # SD of the differences / sqrt(their number)
    slope: float  # positions against order (the check)
    slope_se: float
    intercept: float
    energy: bool  # the notes ask for the energy: e times a spacing in volts, in eV

    @property
    def n(self) -> int:
        return len(self.positions)

    def answers(self) -> list[Answer]:
        what = "minima" if self.minima else "maxima"
        what_zh = "极小值" if self.minima else "极大值"
        how = Text(
            f"mean of the {self.n - 1} differences of successive {what} (Gaussian centres); "
            "SE = SD/sqrt(n)",
            f"{self.n - 1} 个相邻{what_zh}（高斯峰中心）位置之差的平均值；标准误差 = 标准差/sqrt(n)",
        )
        sources = (self.x.provenance, self.y.provenance)
        rows = f"{self.n} {what}"
        out = [
            Answer("spacing", Text(f"spacing of successive {what}", f"相邻{what_zh}的间距"),
                   rf"\Delta {_symbol(self.x)}", self.spacing, self.se, self.x.unit, how, None,
                   True, None, sources, rows)
        ]  # fmt: skip
        if self.energy and (self.x.unit or "").strip() == "V":
            out.append(
                Answer("E", Text("excitation energy", "激发能"), "E", self.spacing, self.se, "eV",
                       Text("e times the spacing of successive maxima", "e 乘以相邻极大值的间距"),
                       None, True, None, sources, rows)
            )  # fmt: skip
        return out


def _symbol(col: Column) -> str:
    """The swept variable's letter for ΔU, Δx: its name when a symbol."""
    m = re.match(r"([A-Za-z]{1,2})(?![A-Za-z])", col.name.strip())
    return m.group(1) if m else "x"


def find_spacing(x: Column, y: Column, *, minima: bool, energy: bool) -> SpacingResult | None:
    """The spacing of the curve's successive maxima (minima), or None when
    fewer than `MIN_PEAKS` are found."""
    from statsmodels.regression.linear_model import WLS
    from statsmodels.tools.tools import add_constant

    from labwright.analysis.peaks import find_peaks

    xv = np.asarray(x.values, dtype=float)
    yv = np.asarray(y.values, dtype=float)
    found = find_peaks(xv, -yv if minima else yv, x.name, y.name)
    if found is None or len(found.peaks) < MIN_PEAKS:
        return None
    peaks = sorted(found.peaks, key=lambda p: p.centre)
    pos = np.array([p.centre for p in peaks])
    pse = np.array([p.centre_se for p in peaks])
    order = np.arange(1.0, pos.size + 1.0)
    design = add_constant(order)
    weights = 1.0 / pse**2 if np.all(np.isfinite(pse) & (pse > 0)) else np.ones_like(pos)
    fit = WLS(pos, design, weights=weights).fit()  # SE scaled by the residual scatter
    diffs = np.diff(pos)
    spacing = float(diffs.mean())
    se = float(diffs.std(ddof=1) / math.sqrt(diffs.size))
    if not (math.isfinite(spacing) and math.isfinite(se) and spacing > 0 and se > 0):
        return None
    return SpacingResult(x, y, minima, tuple(float(p) for p in pos), tuple(float(s) for s in pse),
                         spacing, se, float(fit.params[1]), float(fit.bse[1]),
                         float(fit.params[0]), energy)  # fmt: skip
