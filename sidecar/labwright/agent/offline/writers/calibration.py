"""The calibration in words and figures: the line through the standards,
the unknowns read back from it (a table), LOD and LOQ, or the standard
addition's x-intercept; the standards with the line and the unknowns on
it, and the residuals.

The sentence frames are this kind's own (EN, ZH), every number through the
ledger with the columns' provenance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.results_table import unit_tex
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import (
    Builder,
    KeyMaker,
    float_table,
    plan_figure,
    unit_text,
)
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.procedures.calibration import (
    CalibrationBinding,
    CalibrationResult,
)
from labwright.analysis.procedures.slope_law import SlopeAnswer

CalibrationAnalysis = Analysis[CalibrationBinding, CalibrationResult]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "line": "The {n} standards in {file} give the calibration line {y} $= a + b\\,${x} "
                "({fit}): $b = {b}$ {bu}, $a = {a}$ {yu}, residual standard deviation "
                "$s_y = {s}$ {yu}, $R^2 = {r2}$.",
        "ols": "ordinary least squares",
        "wls": "weighted by the replicates' variances",
        "unknowns": "The unknowns in {file} were read back from the line "
                    "($x_0 = (\\bar y_0 - a)/b$, with the standard error of inverse prediction):",
        "limits": "Limit of detection ${k1}\\,s_y/b = {lod}$ {xu}; limit of quantification "
                  "${k2}\\,s_y/b = {loq}$ {xu}.",
        "addition": "Standard addition: the line crosses zero response at "
                    "${x} = -a/b$, so the sample's concentration is $c_x = a/b = {c}$ {xu}.",
        "slope_law": "The {law} (${formula}$) makes the slope proportional to ${sym}$ (the "
                     "notes give its other symbols), so ${sym} = {v}$ {u}.",
        "head_sample": "Unknown",
        "head_m": "$m$",
        "head_y": "mean response",
        "head_x0": "$x_0$",
        "cap_table": "Unknowns read back from the calibration line of {file}.",
        "cap": "Calibration of {file}: the standards with the fitted line and the unknowns on it "
               "(left), and the residuals of the standards (right).",
        "lg_std": "standards",
        "lg_line": "line",
        "lg_unknown": "unknowns",
        "resid": "residual",
    },
    "zh": {
        "line": "{file} 中的 {n} 个标准点给出校准直线 {y} $= a + b\\,${x}（{fit}）："
                "$b = {b}$ {bu}，$a = {a}$ {yu}，残差标准差 $s_y = {s}$ {yu}，$R^2 = {r2}$。",
        "ols": "普通最小二乘",
        "wls": "以重复测量方差加权",
        "unknowns": "{file} 中的未知样由校准直线反算（$x_0 = (\\bar y_0 - a)/b$，附反算标准误差）：",
        "limits": "检出限 ${k1}\\,s_y/b = {lod}$ {xu}；定量限 ${k2}\\,s_y/b = {loq}$ {xu}。",
        "addition": "标准加入法：直线在响应为零处与 {x} 轴交于 $-a/b$，故样品浓度 "
                    "$c_x = a/b = {c}$ {xu}。",
        "slope_law": "{law}（${formula}$）中斜率与 ${sym}$ 成正比（其余量取自实验说明），"
                     "故 ${sym} = {v}$ {u}。",
        "head_sample": "未知样",
        "head_m": "$m$",
        "head_y": "平均响应",
        "head_x0": "$x_0$",
        "cap_table": "由 {file} 的校准直线反算的未知样浓度。",
        "cap": "{file} 的校准：标准点、拟合直线及其上的未知样（左），标准点的残差（右）。",
        "lg_std": "标准点",
        "lg_line": "直线",
        "lg_unknown": "未知样",
        "resid": "残差",
    },
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    return _FRAMES["zh" if lang == "zh" else "en"][key].format(**values)


def _what(a: CalibrationAnalysis) -> str:
    return f"calibration of {a.source}"


def _slope_unit(r: CalibrationResult) -> str | None:
    xu, yu = r.x.unit, r.y.unit
    if not xu:
        return yu
    return f"{yu or '1'}/({xu})" if "/" in xu else f"{yu or '1'}/{xu}"


def _slope_law_what(sl: SlopeAnswer, what: str) -> str:
    return f"{sl.parameter.label.en}, {what} (from the slope)"


def text(a: CalibrationAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.y.provenance
    what = _what(a)
    fit = "WLS" if r.weighted else "OLS"
    xu, yu = unit_text(r.x.unit), unit_text(r.y.unit)
    out = [_f(
        lang, "line", n=ledger.count(r.xs.size, prov, f"standards in the {what}"),
        file=src_file(a.source), y=src_text(r.y.name), x=src_text(r.x.name),
        fit=_f(lang, "wls" if r.weighted else "ols"), bu=unit_text(_slope_unit(r)), yu=yu,
        b=ledger.measured(r.b, r.se_b, prov, f"slope, {what} ({fit})"),
        a=ledger.measured(r.a, r.se_a, prov, f"intercept, {what} ({fit})"),
        s=ledger.num(r.s_y, prov, f"residual standard deviation, {what}", sig=3),
        r2=ledger.num(r.r2, prov, f"R^2, {what}", sig=4),
    )]  # fmt: skip
    if r.addition and r.c_sample is not None and r.c_sample_se is not None:
        c = ledger.measured(r.c_sample, r.c_sample_se, prov, f"sample concentration, {what}")
        out.append(_f(lang, "addition", x=src_text(r.x.name), c=c, xu=xu))
        return "\n\n".join(out) + "\n"
    for sl in r.slope_laws:
        p = sl.parameter
        out.append(_f(
            lang, "slope_law", law=sl.entry.name.zh if lang == "zh" else sl.entry.name.en,
            formula=sl.entry.latex, sym=p.latex, u=unit_tex(sl.unit),
            v=ledger.measured(sl.value, sl.se, prov, _slope_law_what(sl, what)),
        ))  # fmt: skip
    if r.unknowns and r.unknown_table is not None:
        uprov = r.unknown_y.provenance if r.unknown_y else prov
        rows = []
        for u in r.unknowns:
            label = u.label.zh if lang == "zh" else u.label.en
            rows.append([
                src_text(label),
                f"${ledger.count(u.readings.size, uprov, f'readings of {u.label.en}, {what}')}$",
                f"${ledger.num(float(np.mean(u.readings)), uprov, f'mean response of {u.label.en}, {what}')}$",
                f"${ledger.measured(u.x0, u.se, uprov, f'{u.label.en}, {what} (inverse prediction)')}$",
            ])  # fmt: skip
        head = [_f(lang, "head_sample"), _f(lang, "head_m"), _f(lang, "head_y"),
                _f(lang, "head_x0") + (f" ({xu})" if xu else "")]  # fmt: skip
        file = src_file(r.unknown_table.name)
        out.append(_f(lang, "unknowns", file=file) + "\n"
                   + float_table("lrrr", head, rows, _f(lang, "cap_table", file=file)))  # fmt: skip
    out.append(_f(
        lang, "limits", xu=xu,
        k1=ledger.num(3.3, None, "factor of s_y/b in the limit of detection (constant)", sig=2),
        k2=ledger.count(10, None, "factor of s_y/b in the limit of quantification (constant)"),
        lod=ledger.measured(r.lod, r.lod_se, prov, f"limit of detection, {what}"),
        loq=ledger.measured(r.loq, r.loq_se, prov, f"limit of quantification, {what}"),
    ))  # fmt: skip
    return "\n\n".join(out) + "\n"


def figures(a: CalibrationAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    lo = min(0.0, float(r.xs.min()), *(u.x0 for u in r.unknowns))
    if r.addition and r.c_sample is not None:
        lo = min(lo, -r.c_sample * 1.1)
    grid = np.linspace(lo, float(r.xs.max()) * 1.05, 100)
    layers: list[dict[str, Any]] = [
        {"type": "scatter", "x": b.arr(r.xs), "y": b.arr(r.ys), "color": "#1f77b4", "label": _f(lang, "lg_std")},
        {"type": "line", "x": b.arr(grid), "y": b.arr(r.a + r.b * grid), "color": "#c0392b", "lw": 1.5,
         "label": _f(lang, "lg_line")},
    ]  # fmt: skip
    if r.unknowns:
        x0 = np.array([u.x0 for u in r.unknowns])
        y0 = np.array([float(np.mean(u.readings)) for u in r.unknowns])
        layers.append({"type": "scatter", "x": b.arr(x0), "y": b.arr(y0), "color": "#2ca02c",
                       "label": _f(lang, "lg_unknown")})  # fmt: skip
    xlabel = axis_label(r.x.name, r.x.unit)
    p1: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label(r.y.name, r.y.unit), "legend": True,
                          "layers": layers}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label(_f(lang, "resid"), r.y.unit),
          "layers": [{"type": "scatter", "x": b.arr(r.xs), "y": b.arr(r.ys - (r.a + r.b * r.xs)), "color": "#1f77b4"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    return [plan_figure(key, b, spec, _f(lang, "cap", file=src_file(a.source)), a)]


def script(a: CalibrationAnalysis) -> KindScript:
    r = a.result
    what = _what(a)
    fit = "WLS" if r.weighted else "OLS"
    x, y = r.x.name, r.y.name
    code = f"""{read_table(a.binding.table.dataset)}
what = {what!r}
std = df[[{x!r}, {y!r}]].astype(float).dropna()
x, y = std[{x!r}].to_numpy(), std[{y!r}].to_numpy()
X = add_constant(x, has_constant="add")
if {r.weighted!r}:  # every standard in replicate: weights 1/s^2 of its replicates
    var = std.groupby({x!r})[{y!r}].var(ddof=1)
    fit = WLS(y, X, weights=1.0 / var.loc[x].to_numpy()).fit()
else:
    fit = OLS(y, X).fit()
a, b = fit.params
cov = fit.cov_params()
s_y = np.sqrt(fit.scale)
report(f"standards in the {{what}}", x.size)
report(f"slope, {{what}} ({fit})", b)
report(f"standard uncertainty of slope, {{what}} ({fit})", np.sqrt(cov[1, 1]))
report(f"intercept, {{what}} ({fit})", a)
report(f"standard uncertainty of intercept, {{what}} ({fit})", np.sqrt(cov[0, 0]))
report(f"residual standard deviation, {{what}}", s_y)
report(f"R^2, {{what}}", fit.rsquared)
"""
    if r.addition:
        code += """c = a / b  # the x-intercept's magnitude
c_se = np.sqrt(cov[0, 0] + c**2 * cov[1, 1] - 2 * c * cov[0, 1]) / abs(b)
report(f"sample concentration, {what}", c)
report(f"standard uncertainty of sample concentration, {what}", c_se)
"""
    elif r.unknowns and r.unknown_table is not None and r.unknown_y is not None:
        ids = r.unknown_ids.name if r.unknown_ids is not None else None
        replicates = r.one_sample
        code += f"""{read_table(r.unknown_table, "udf")}
yy = udf[{r.unknown_y.name!r}].astype(float)
ids = {ids!r}  # the column that labels the unknowns (never fitted)
if ids is None:
    unknowns = [(f"concentration of unknown {{i}}", [v]) for i, v in enumerate(yy, 1) if np.isfinite(v)]
elif {replicates!r}:  # it numbers replicate readings of one sample
    unknowns = [("sample concentration", list(yy.dropna()))]
else:
    name = udf[ids].map(lambda v: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v).strip())
    unknowns = [(f"concentration of sample {{k}}", list(yy[name == k].dropna())) for k in dict.fromkeys(name)]
x0s, y0s = [], []  # the unknowns on the line, for the figure
read_back = {{}}  # label -> (x0, its SE)
for label, readings in unknowns:
    y0, m = np.mean(readings), len(readings)
    x0 = (y0 - a) / b
    x0s.append(x0)
    y0s.append(y0)
    var_y0 = s_y**2 / m  # WLS: the variance of the nearest standard's replicates
    if {r.weighted!r}:
        var_y0 = var.iloc[np.argmin(np.abs(var.index.to_numpy() - x0))] / m
    se = np.sqrt(var_y0 + cov[0, 0] + x0**2 * cov[1, 1] + 2 * x0 * cov[0, 1]) / abs(b)
    report(f"readings of {{label}}, {{what}}", m)
    report(f"mean response of {{label}}, {{what}}", y0)
    report(f"{{label}}, {{what}} (inverse prediction)", x0)
    report(f"standard uncertainty of {{label}}, {{what}} (inverse prediction)", se)
    read_back[label] = x0, se
"""
    laws: dict[str, AnswerCode] = {}
    for i, sl in enumerate(r.slope_laws, start=1):
        # The law's slope per unit of its parameter, in SI base units, with
        # the notes' values put in (ε l per ε: l), as one factor.
        name = _slope_law_what(sl, what)
        code += f"""q{i} = b * {sl.per_slope!r}  # {sl.entry.formula}: {sl.parameter.name} from the slope
q{i}_se = np.hypot(np.sqrt(cov[1, 1]) * {abs(sl.per_slope)!r}, q{i} * {sl.given_rel!r})
report({name!r}, q{i})
report({"standard uncertainty of " + name!r}, q{i}_se)
"""
        laws[sl.parameter.name] = AnswerCode(f"q{i}", f"q{i}_se")
    # The answers the results table and the discussion restate
    # (compendium_answers.py): where this block leaves each one.
    answers = {
        "b": AnswerCode("b", "np.sqrt(cov[1, 1])"),
        "a": AnswerCode("a", "np.sqrt(cov[0, 0])"),
    }
    answers |= laws
    if "read_back[label]" in code:  # the unknowns, one answer each
        for u in r.unknowns:
            label = u.label.en
            answers[f"x0/{label}"] = AnswerCode(
                f"read_back[{label!r}][0]", f"read_back[{label!r}][1]"
            )
    if r.addition:
        answers["c_sample"] = AnswerCode("c", "c_se")
    else:
        # LOD and LOQ: k s_y / b; their relative SE combines that of s_y
        # (1/sqrt(2 (n - 2)) for a normal sample) and that of b.
        code += """lod_factor, loq_factor = 3.3, 10
report("factor of s_y/b in the limit of detection (constant)", lod_factor)
report("factor of s_y/b in the limit of quantification (constant)", loq_factor)
rel = np.hypot(1 / np.sqrt(2 * max(x.size - 2, 1)), np.sqrt(cov[1, 1]) / abs(b))
lod, loq = lod_factor * s_y / abs(b), loq_factor * s_y / abs(b)
lod_se, loq_se = lod * rel, loq * rel
report(f"limit of detection, {what}", lod)
report(f"standard uncertainty of limit of detection, {what}", lod_se)
report(f"limit of quantification, {what}", loq)
report(f"standard uncertainty of limit of quantification, {what}", loq_se)
"""
        answers |= {"LOD": AnswerCode("lod", "lod_se"), "LOQ": AnswerCode("loq", "loq_se")}
    return KindScript(
        (
            "import numpy as np",
            "from statsmodels.regression.linear_model import OLS, WLS",
            "from statsmodels.tools.tools import add_constant",
        ),
        code,
        answers=answers,
    )


def drawing(a: CalibrationAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The standards with the line (and the unknowns on it), and the
    standards' residuals; the line drawn from 0 (or the x-intercept of a
    standard addition, or the lowest unknown) to 5 % past the last standard."""
    r = a.result
    # The unknowns are on the line when the block read them back (`script`).
    unknowns = bool(r.unknowns) and not r.addition and r.unknown_table is not None
    unknowns = unknowns and r.unknown_y is not None
    low = ["0.0", "x.min()"] + (["*x0s"] if unknowns else [])
    if r.addition:
        low.append("-1.1 * c")
    line = ['("scatter", x, y)', '("line", grid, a + b * grid)']
    if unknowns:
        line.append('("scatter", x0s, y0s)')
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            f"grid = np.linspace(min({', '.join(low)}), x.max() * 1.05, 100)",
            call(plan.key, [line, ['("scatter", x, y - (a + b * x))', '("hline", 0.0)']]),
        ]
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
