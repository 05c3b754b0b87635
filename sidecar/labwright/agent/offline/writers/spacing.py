"""The spacing kind in words and figures: the positions of the successive
maxima (minima) of a swept curve and their spacing as the slope of the
positions against their order; the curve with its maxima marked, and the
positions against order with the fitted line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.peaks import FIND_PEAKS_CODE
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.analyses.spacing import SpacingBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.spacing import SpacingResult

SpacingAnalysis = Analysis[SpacingBinding, SpacingResult]


def _what(r: SpacingResult) -> tuple[str, str]:
    return ("minimum", "minima") if r.minima else ("maximum", "maxima")


def _position_what(r: SpacingResult, i: int) -> str:
    return f"position of {_what(r)[0]} {i} of {r.y.name} (Gaussian centre)"


def _spacing_what(r: SpacingResult) -> str:
    return f"mean spacing of successive {_what(r)[1]} of {r.y.name}"


def _slope_what(r: SpacingResult) -> str:
    return f"spacing of successive {_what(r)[1]} of {r.y.name} (slope against order)"


def text(a: SpacingAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.x.provenance
    n = ledger.count(r.n, prov, f"{_what(r)[1]} of {r.y.name} found")
    positions = ", ".join(
        f"${ledger.num(p, prov, _position_what(r, i), sig=4)}$"
        for i, p in enumerate(r.positions, start=1)
    )
    spacing = ledger.measured(r.spacing, r.se, prov, _spacing_what(r))
    slope = ledger.measured(r.slope, r.slope_se, prov, _slope_what(r))
    unit = unit_text(r.x.unit)
    x, y = src_text(r.x.name), src_text(r.y.name)
    if lang == "zh":
        kind = "极小值" if r.minima else "极大值"
        return (
            f"{y} 随 {x} 的曲线上找到 {n} 个{kind}，位置（高斯峰中心）依次为 {positions}~{unit}。"
            f"相邻{kind}位置之差的平均值为 $\\Delta = {spacing}$~{unit}"
            "（标准误差由各差值的离散得出；整体平移不影响差值）。"
            f"作为检验，位置对序号的加权最小二乘直线斜率为 ${slope}$~{unit}。\n"
        )
    return (
        f"The curve of {y} against {x} has {n} {_what(r)[1]}, at {positions}~{unit} "
        "(centres of Gaussians fitted over each). The mean of the differences of successive "
        f"{_what(r)[1]} is $\\Delta = {spacing}$~{unit}, its standard error from their scatter; "
        "a shift common to all of them (a contact potential) cancels in the differences. As a "
        f"check, the weighted least-squares slope of the positions against their order is "
        f"${slope}$~{unit}.\n"
    )


def figures(a: SpacingAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    xv = np.asarray(r.x.values, dtype=float)
    yv = np.asarray(r.y.values, dtype=float)
    pos = np.asarray(r.positions)
    at = np.interp(pos, xv, yv)
    order = np.arange(1.0, pos.size + 1.0)
    key = next_key()
    b = Builder(key)
    zh = lang == "zh"
    p1: dict[str, Any] = {
        "xlabel": axis_label(r.x.name, r.x.unit),
        "ylabel": axis_label(r.y.name, r.y.unit),
        "layers": [
            {"type": "line", "x": b.arr(xv), "y": b.arr(yv), "color": "#1f4e79", "lw": 1.0},
            {"type": "ring", "x": b.arr(pos), "y": b.arr(at), "color": "#c0392b",
             "labels": [str(i) for i in range(1, pos.size + 1)]},
        ],
    }  # fmt: skip
    p2: dict[str, Any] = {
        "xlabel": "序号 n" if zh else "order n",
        "ylabel": axis_label(r.x.name, r.x.unit),
        "integer_x": True,
        "layers": [
            {"type": "scatter", "x": b.arr(order), "y": b.arr(pos), "color": "#1f77b4"},
            {"type": "line", "x": b.arr(order), "y": b.arr(r.intercept + r.spacing * order),
             "color": "#b2182b", "lw": 1.4},
        ],
    }  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    kind = ("极小值" if r.minima else "极大值") if zh else _what(r)[1]
    if zh:
        cap = (
            f"{src_file(a.source)}：曲线及其{kind}（左），{kind}位置对序号的直线，"
            "斜率即间距（右）。"
        )
    else:
        cap = (
            f"{src_file(a.source)}: the curve with its {kind} numbered (left); their positions "
            "against order, whose slope is the spacing (right)."
        )
    return [plan_figure(key, b, spec, cap, a)]


def script(a: SpacingAnalysis) -> KindScript:
    r = a.result
    sign = "-" if r.minima else ""
    x, y = r.x.name, r.y.name
    what = _what(r)
    code = f"""{read_table(a.binding.dataset)}
FWHM = 2 * np.sqrt(2 * np.log(2))
x = df[{x!r}].to_numpy(dtype=float)
peaks, noise, threshold = find_and_fit_peaks(x, {sign}df[{y!r}].to_numpy(dtype=float))
positions = np.array([p[0] for p in peaks])
position_se = np.array([p[1] for p in peaks])
report({what[1] + " of " + y + " found"!r}, positions.size)
for i, p in enumerate(positions, start=1):
    report(f"position of {what[0]} {{i}} of {y} (Gaussian centre)", p)
# The check: the slope of the positions against their order (weighted by the
# positions' SEs; the SE scaled by the scatter about the line).
order = np.arange(1.0, positions.size + 1.0)
weights = 1 / position_se**2 if np.all(position_se > 0) else np.ones_like(positions)
line = WLS(positions, add_constant(order), weights=weights).fit()
report({_slope_what(r)!r}, line.params[1])
report({"standard uncertainty of " + _slope_what(r)!r}, line.bse[1])
differences = np.diff(positions)
spacing = differences.mean()
spacing_se = differences.std(ddof=1) / np.sqrt(differences.size)
report({_spacing_what(r)!r}, spacing)
report({"standard uncertainty of " + _spacing_what(r)!r}, spacing_se)
"""
    imports = (
        "import numpy as np",
        "from statsmodels.regression.linear_model import WLS",
        "from statsmodels.tools.tools import add_constant",
        "from scipy import signal",
        "from scipy.optimize import curve_fit",
    )
    answers = {"spacing": AnswerCode("spacing", "spacing_se")}
    if r.energy and (r.x.unit or "").strip() == "V":
        answers["E"] = AnswerCode("spacing", "spacing_se")
    return KindScript(imports, code, {"find_and_fit_peaks": FIND_PEAKS_CODE}, answers)
