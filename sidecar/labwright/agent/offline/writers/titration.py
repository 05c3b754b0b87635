"""The titration in words and figures: the end point by the derivative and
by the fitted curve, the pKa and the pH at half-equivalence, the analyte's
concentration; the curve with its fit and the end point, and dpH/dV.

The sentence frames are this kind's own (EN, ZH), every number through the
ledger with the columns' provenance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.procedures.titration import (
    HH_SLOPE_TOLERANCE,
    TitrationBinding,
    TitrationResult,
)

TitrationAnalysis = Analysis[TitrationBinding, TitrationResult]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "intro": "The pH curve in {file} ({n} additions of titrant, {v} against {ph}) was read "
                 "as a titration.",
        "derivative": "The first derivative $\\mathrm{{d\\,pH}}/\\mathrm{{d}}V$ peaks at "
                      "$V = {vd}$ {unit}.",
        "weak": "The charge balance of a weak monoprotic analyte titrated with a strong "
                "titrant fits the whole curve better (AICc) than that of a strong one; it gives "
                "the equivalence volume $V_\\mathrm{{eq}} = {veq}$ {unit}.",
        "strong": "The charge balance of a strong analyte titrated with a strong titrant fits "
                  "the whole curve (AICc better than a weak analyte's); it gives the "
                  "equivalence volume $V_\\mathrm{{eq}} = {veq}$ {unit}.",
        "sigmoid": "Without the titrant's concentration and the sample's volume the curve "
                   "cannot be modelled chemically; a logistic sigmoid fitted to the jump puts "
                   "the equivalence volume at $V_\\mathrm{{eq}} = {veq}$ {unit} (its SE "
                   "includes the distance from the derivative's end point).",
        "pka_fit": "The same fit gives $\\mathrm{{p}}K_\\mathrm{{a}} = {pka}$.",
        "pka_hh": "The Henderson--Hasselbalch fit of the buffer region (${lo}$--${hi}$\\,\\% of "
                  "$V_\\mathrm{{eq}}$) gives $\\mathrm{{p}}K_\\mathrm{{a}} = {pka}$.",
        "half": " The pH at half-equivalence is {half}.",
        "conc": "With $c_\\mathrm{{titrant}} = {ct}$ mol/L and a sample of {vs} {unit}, the "
                "concentration of the {what} is $c = {c}$ mol/L (a \\lwtext{{1:1}} reaction; the "
                "uncertainty propagated).",
        "acid": "acid",
        "base": "base",
        "cap": "Titration curve of {file}: pH against the volume of titrant with the fitted "
               "curve and the equivalence point (left), and the first derivative (right).",
        "lg_data": "data",
        "lg_fit": "fit",
        "lg_eq": "equivalence",
    },
    "zh": {
        "intro": "{file} 中的 pH 曲线（滴定剂加入 {n} 次，{v} 对 {ph}）按滴定曲线处理。",
        "derivative": "一阶导数 $\\mathrm{{d\\,pH}}/\\mathrm{{d}}V$ 在 $V = {vd}$ {unit} 处取极大值。",
        "weak": "以强滴定剂滴定弱一元酸（碱）的电荷平衡模型拟合整条曲线（AICc 优于强酸（碱）模型），"
                "得等当点体积 $V_\\mathrm{{eq}} = {veq}$ {unit}。",
        "strong": "以强滴定剂滴定强酸（碱）的电荷平衡模型拟合整条曲线（AICc 优于弱酸（碱）模型），"
                  "得等当点体积 $V_\\mathrm{{eq}} = {veq}$ {unit}。",
        "sigmoid": "笔记未给出滴定剂浓度与样品体积，无法按化学模型拟合；对突跃部分拟合 logistic 曲线，"
                   "得等当点体积 $V_\\mathrm{{eq}} = {veq}$ {unit}（标准误差包含与导数法终点之差）。",
        "pka_fit": "同一拟合给出 $\\mathrm{{p}}K_\\mathrm{{a}} = {pka}$。",
        "pka_hh": "缓冲区（$V_\\mathrm{{eq}}$ 的 ${lo}$--${hi}$\\,\\%）的 Henderson--Hasselbalch 拟合给出 "
                  "$\\mathrm{{p}}K_\\mathrm{{a}} = {pka}$。",
        "half": "半等当点处的 pH 为 {half}。",
        "conc": "由 $c_\\mathrm{{titrant}} = {ct}$ mol/L 与样品体积 {vs} {unit}，{what}的浓度为 "
                "$c = {c}$ mol/L（按 \\lwtext{{1:1}} 计量，误差传递）。",
        "acid": "酸",
        "base": "碱",
        "cap": "{file} 的滴定曲线：pH 对滴定剂体积，含拟合曲线与等当点（左）；一阶导数（右）。",
        "lg_data": "数据",
        "lg_fit": "拟合",
        "lg_eq": "等当点",
    },
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    return _FRAMES["zh" if lang == "zh" else "en"][key].format(**values)


def _what(a: TitrationAnalysis) -> str:
    return f"titration of {a.source}"


def text(a: TitrationAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.ph.provenance
    what = _what(a)
    unit = unit_text(r.unit)
    out = [
        _f(lang, "intro", file=src_file(a.source), n=ledger.count(r.v.size, prov, f"points in the {what}"),
           v=src_text(r.volume.name), ph=src_text(r.ph.name)),
        _f(lang, "derivative", unit=unit,
           vd=ledger.num(r.v_eq_derivative, prov, f"volume at the maximum of dpH/dV, {what}")),
    ]  # fmt: skip
    veq = ledger.measured(r.v_eq, r.v_eq_se, prov, f"equivalence volume, {what} ({r.fit.model})")
    body = _f(lang, r.fit.model, veq=veq, unit=unit)
    if r.pka is not None and r.pka_se is not None:
        frame = "pka_fit" if r.pka_method == "charge balance" else "pka_hh"
        pka = ledger.measured(r.pka, r.pka_se, prov, f"pKa, {what} ({r.pka_method})")
        lo = ledger.count(10, None, "lower edge of the buffer region, per cent of V_eq (constant)")
        hi = ledger.count(90, None, "upper edge of the buffer region, per cent of V_eq (constant)")
        body += " " + _f(lang, frame, pka=pka, lo=lo, hi=hi)
        if r.ph_half is not None:
            half = ledger.num(r.ph_half, prov, f"pH at half-equivalence, {what}", sig=3)
            body += _f(lang, "half", half=f"${half}$")
    out.append(body)
    if (
        r.c_analyte is not None
        and r.c_analyte_se is not None
        and r.c_titrant is not None
        and r.v_sample is not None
    ):
        out.append(_f(
            lang, "conc", what=_f(lang, "acid" if r.rising else "base"), unit=unit,
            ct=ledger.num(r.c_titrant.value, None, "titrant concentration (the notes)"),
            vs=f"${ledger.num(r.v_sample.value, None, 'sample volume (the notes)')}$",
            c=ledger.measured(r.c_analyte, r.c_analyte_se, prov, f"concentration of the analyte, {what}"),
        ))  # fmt: skip
    return "\n\n".join(out) + "\n"


def figures(a: TitrationAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    xlabel = axis_label(r.volume.name, r.volume.unit)
    p1: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label(r.ph.name, None), "legend": True,
          "layers": [{"type": "scatter", "x": b.arr(r.v), "y": b.arr(r.ph_values), "color": "#1f77b4",
                      "label": _f(lang, "lg_data")},
                     {"type": "line", "x": b.arr(r.fit.grid), "y": b.arr(r.fit.curve), "color": "#c0392b",
                      "lw": 1.5, "label": _f(lang, "lg_fit")},
                     {"type": "vline", "x": r.v_eq, "color": "#888888", "label": _f(lang, "lg_eq")}]}  # fmt: skip
    mid = (r.v[1:] + r.v[:-1]) / 2
    slope = np.abs(np.diff(r.ph_values) / np.diff(r.v))
    p2: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label("dpH/dV", f"1/{r.unit}"),
          "layers": [{"type": "line", "x": b.arr(mid), "y": b.arr(slope), "color": "#1f77b4", "lw": 1.2},
                     {"type": "scatter", "x": b.arr(mid), "y": b.arr(slope), "color": "#1f77b4"},
                     {"type": "vline", "x": r.v_eq_derivative, "color": "#888888"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    return [plan_figure(key, b, spec, _f(lang, "cap", file=src_file(a.source)), a)]


def script(a: TitrationAnalysis) -> KindScript:
    r = a.result
    what = _what(a)
    ct = (r.c_titrant.value, r.c_titrant.se) if r.c_titrant else (None, 0.0)
    vs = (r.v_sample.value, r.v_sample.se) if r.v_sample else (None, 0.0)
    code = f"""{read_table(a.binding.table.dataset)}
what = {what!r}
data = df[[{r.volume.name!r}, {r.ph.name!r}]].astype(float).dropna().groupby({r.volume.name!r}).mean()
v, ph = data.index.to_numpy(dtype=float), data[{r.ph.name!r}].to_numpy(dtype=float)
rising = ph[-1] > ph[0]
q = ph if rising else 14.0 - ph  # a base titrated with an acid: the same in pOH
report(f"points in the {{what}}", v.size)
v_d = derivative_end_point(v, q)
report(f"volume at the maximum of dpH/dV, {{what}}", v_d)
(c_t, c_t_se), (v0, v0_se) = {ct!r}, {vs!r}  # titrant (mol/L) and sample volume, from the notes
model = {r.fit.model!r}  # the curve the report chose ({", ".join(r.considered)} compared by AICc)
if model == "sigmoid":
    fit = fit_sigmoid(v[jump(v, q)], q[jump(v, q)], v_d)
    v_eq, v_eq_se = fit.params["v_eq"].value, np.hypot(fit.params["v_eq"].stderr, (fit.params["v_eq"].value - v_d) / 2)
else:
    fit = fit_charge_balance(v, q, v_d, c_t, v0, weak=model == "weak")
    v_eq, v_eq_se = fit.params["v_eq"].value, fit.params["v_eq"].stderr
report(f"equivalence volume, {{what}} ({{model}})", v_eq)
report(f"standard uncertainty of equivalence volume, {{what}} ({{model}})", v_eq_se)
pka = None
lower, upper = 10, 90  # the buffer region, per cent of V_eq
if model == "weak":
    pka, pka_se, how = fit.params["pka"].value, fit.params["pka"].stderr, "charge balance"
elif model == "sigmoid":
    # No chemistry to fit: pKa = pH - log10(V / (V_eq - V)) averaged over the
    # buffer region, when its pH rises one unit per decade of the ratio (a
    # strong analyte's barely moves and has no pKa); SE from the scatter and V_eq.
    vs = v[(v > lower / 100 * v_eq) & (v < upper / 100 * v_eq)]
    qs = q[(v > lower / 100 * v_eq) & (v < upper / 100 * v_eq)]
    ratio = np.log10(vs / (v_eq - vs))
    if vs.size >= 3 and abs(np.polyfit(ratio, qs, 1)[0] - 1.0) <= {HH_SLOPE_TOLERANCE!r}:
        est = qs - ratio
        dv = np.mean(1 / ((v_eq - vs) * np.log(10)))  # d(mean)/dV_eq
        pka = est.mean()
        pka_se = np.hypot(est.std(ddof=1) / np.sqrt(est.size), dv * v_eq_se)
        how = "Henderson-Hasselbalch"
if pka is not None:
    pka = pka if rising else 14.0 - pka  # a base: the pKa of its conjugate acid
    report(f"pKa, {{what}} ({{how}})", pka)
    report(f"standard uncertainty of pKa, {{what}} ({{how}})", pka_se)
    report("lower edge of the buffer region, per cent of V_eq (constant)", lower)
    report("upper edge of the buffer region, per cent of V_eq (constant)", upper)
    if v.min() <= v_eq / 2:  # the textbook check: pH = pKa half way to V_eq
        half = np.interp(v_eq / 2, v, q)
        report(f"pH at half-equivalence, {{what}}", half if rising else 14.0 - half)
if c_t and v0:
    # c = c_t V_eq / V0: independent relative uncertainties add in quadrature.
    report("titrant concentration (the notes)", c_t)
    report("sample volume (the notes)", v0)
    c = c_t * v_eq / v0
    rel = np.sqrt(((c_t_se or 0) / c_t) ** 2 + (v_eq_se / v_eq) ** 2 + ((v0_se or 0) / v0) ** 2)
    c_se = abs(c) * rel
    report(f"concentration of the analyte, {{what}}", c)
    report(f"standard uncertainty of concentration of the analyte, {{what}}", c_se)
"""
    helpers = {
        "derivative_end_point": '''def derivative_end_point(v, p):
    """The volume where dpH/dV peaks: the vertex of a parabola through the
    three largest midpoint differences."""
    mid, d = (v[1:] + v[:-1]) / 2, np.diff(p) / np.diff(v)
    k = int(np.argmax(d))
    if 0 < k < d.size - 1:
        x, y = mid[k - 1 : k + 2], d[k - 1 : k + 2]
        a, b, _ = np.polyfit(x - x[1], y, 2)
        if a < 0 and x[0] <= x[1] - b / (2 * a) <= x[2]:
            return x[1] - b / (2 * a)
    return mid[k]
''',
        "fit_charge_balance": '''def charge_balance_ph(v, v_eq, pka, c_t, v0, kw=1e-14):
    """pH from the charge balance h + [Na+] = Kw/h + [A-] (bisection in pH)."""
    na, acid = c_t * v / (v0 + v), c_t * v_eq / (v0 + v)
    lo, hi = np.full(v.shape, -2.0), np.full(v.shape, 16.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        h = 10.0 ** -mid
        diss = acid if pka is None else acid * 10.0 ** -pka / (10.0 ** -pka + h)
        f = h + na - kw / h - diss
        lo, hi = np.where(f > 0, mid, lo), np.where(f > 0, hi, mid)
    return (lo + hi) / 2


def fit_charge_balance(v, p, v_start, c_t, v0, weak):
    params = lmfit.Parameters()
    span = v.max() - v.min()
    params.add("v_eq", value=v_start, min=max(1e-9, v_start - span / 2), max=v_start + span / 2)
    if weak:
        params.add("pka", value=min(max(np.interp(v_start / 2, v, p), 1.0), 13.0), min=-1.0, max=15.0)
    return lmfit.minimize(lambda ps: charge_balance_ph(v, ps["v_eq"].value, ps["pka"].value if weak else None, c_t, v0) - p, params)
''',
        "fit_sigmoid": '''def jump(v, p):
    """The jump: where the slope exceeds a tenth of its maximum, two more points each side."""
    d = np.diff(p) / np.diff(v)
    steep = np.flatnonzero(d > 0.1 * d.max())
    sel = np.zeros(v.size, dtype=bool)
    sel[max(0, steep.min() - 2) : min(v.size, steep.max() + 3) + 1] = True
    return sel if sel.sum() >= 5 else np.ones(v.size, dtype=bool)


def fit_sigmoid(v, p, v_start):
    span = v.max() - v.min()
    params = lmfit.Parameters()
    params.add("lo", value=p.min())
    params.add("hi", value=p.max())
    params.add("v_eq", value=v_start, min=v.min(), max=v.max())
    params.add("w", value=span / 50, min=span / 1e4, max=span)
    def model(ps, x):
        z = np.clip(-(x - ps["v_eq"].value) / ps["w"].value, -500, 500)
        return ps["lo"].value + (ps["hi"].value - ps["lo"].value) / (1 + np.exp(z))
    return lmfit.minimize(lambda ps: model(ps, v) - p, params)
''',
    }
    imports = ("import numpy as np", "import lmfit")
    # The answers the results table and the discussion restate (compendium_answers.py).
    answers = {"V_eq": AnswerCode("v_eq", "v_eq_se"), "pKa": AnswerCode("pka", "pka_se"),
               "c_analyte": AnswerCode("c", "c_se")}  # fmt: skip
    return KindScript(imports, code, helpers, answers=answers)


def drawing(a: TitrationAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The curve with the model fitted (300 points across the volumes) and the
    end point; dpH/dV at the midpoints with the derivative's end point."""
    r = a.result
    if r.fit.model == "sigmoid":
        curve = [
            "# The logistic was fitted to the jump alone: drawn across the jump.",
            "grid = np.linspace(v[jump(v, q)].min(), v[jump(v, q)].max(), 300)",
            'lo, hi = fit.params["lo"].value, fit.params["hi"].value',
            'centre, width = fit.params["v_eq"].value, fit.params["w"].value',
            "curve = lo + (hi - lo) / (1 + np.exp(np.clip(-(grid - centre) / width, -500, 500)))",
        ]
    else:
        pka = 'fit.params["pka"].value' if r.fit.model == "weak" else "None"
        curve = [
            "grid = np.linspace(v.min(), v.max(), 300)",
            f"curve = charge_balance_ph(grid, v_eq, {pka}, c_t, v0)",
        ]
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            *curve,
            "curve = curve if rising else 14.0 - curve",
            "mid, slope = (v[1:] + v[:-1]) / 2, np.abs(np.diff(ph) / np.diff(v))",
            call(plan.key, [
                ['("scatter", v, ph)', '("line", grid, curve)', '("vline", v_eq)'],
                ['("line", mid, slope)', '("scatter", mid, slope)', '("vline", v_d)'],
            ]),
        ]  # fmt: skip
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
