"""The law kind in words and figures: the law the notes state, the fits
through the origin and with an intercept, the log-log exponent, the
constant it names with its propagated error, the verdict; the transformed
data with both lines from the origin, and the residuals from the law.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import KindScript, finite_rows, read_table
from labwright.analysis.analyses.law import LawBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.law import ALPHA, LawFit
from labwright.analysis.presentation import axis_label

LawAnalysis = Analysis[LawBinding, LawFit]


def _powered(name: str, power: float) -> str:
    return name if power == 1.0 else f"{name}^{power:g}"


def text(a: LawAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.law import ALPHA, constant_unit, slope_unit

    f = a.result
    prov = f.y.provenance
    what = f"law {f.statement.text} tested on {a.source}"
    ty, tx = src_text(_powered(f.y.name, f.y_power)), src_text(_powered(f.x.name, f.x_power))
    su = unit_text(slope_unit(f))
    yu = unit_text(
        f.y.unit if f.y_power == 1.0 else f"{f.y.unit}^{f.y_power:g}" if f.y.unit else None
    )
    out = [phrase(lang, "law_intro", law=src_text(f.statement.text), file=src_file(a.source),
                  ty=ty, tx=tx, n=ledger.count(f.n, prov, f"points in the {what}"))]  # fmt: skip
    better = "origin" if f.aicc0 <= f.aicc1 else "intercept"
    out.append(phrase(
        lang, "law_fits", unit=su, yunit=yu,
        s0=ledger.measured(f.slope0, f.slope0_se, prov, f"slope through the origin, {what} (OLS)"),
        s1=ledger.measured(f.slope1, f.slope1_se, prov, f"slope with an intercept, {what} (OLS)"),
        a=ledger.measured(f.intercept, f.intercept_se, prov, f"intercept, {what} (OLS)"),
        p=ledger.num(f.intercept_p, prov, f"t-test p-value of a zero intercept, {what}", sig=2),
        c0=ledger.num(f.aicc0, prov, f"AICc through the origin, {what}", sig=4),
        c1=ledger.num(f.aicc1, prov, f"AICc with an intercept, {what}", sig=4),
        better=phrase(lang, f"law_better_{better}"),
    ))  # fmt: skip
    if f.exponent is not None and f.exponent_se is not None and f.exponent_p is not None:
        out.append(phrase(
            lang, "law_exponent", y=src_text(f.y.name), x=src_text(f.x.name),
            e=ledger.measured(f.exponent, f.exponent_se, prov, f"log-log exponent of {f.y.name} on {f.x.name} (OLS)"),
            e0=ledger.num(f.expected_exponent, None, f"exponent implied by the law {f.statement.text}", sig=3),
            p=ledger.num(f.exponent_p, prov, "t-test p-value of the exponent against the law's", sig=2),
        ))  # fmt: skip
    if f.relation is not None and f.constant is not None and f.constant_se is not None:
        which = "origin" if f.through_origin else "intercept"
        out.append(phrase(
            lang, "law_constant", which=phrase(lang, f"law_which_{which}"),
            expr=src_text(f.statement.constant or ""),
            name=src_text(f.relation.name), unit=unit_text(constant_unit(f)),
            value=ledger.measured(f.constant, f.constant_se, prov,
                                  f"{f.relation.name} from the slope, {what} (SE propagated)"),
        ))  # fmt: skip
    level = ledger.count(round(ALPHA * 100), None, "significance level in per cent (constant)")
    if f.supported:
        out.append(phrase(lang, "law_supported", level=level))
    else:
        reasons = []
        if f.slope_p >= ALPHA:
            reasons.append(phrase(lang, "law_r_slope"))
        if f.intercept_p < ALPHA:
            reasons.append(phrase(lang, "law_r_intercept"))
        if f.exponent_p is not None and f.exponent_p < ALPHA:
            reasons.append(phrase(lang, "law_r_exponent"))
        sep = "; " if lang == "en" else "；"
        out.append(phrase(lang, "law_not_supported", reasons=sep.join(reasons), level=level))
    return "\n\n".join(out) + "\n"


def figures(a: LawAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    f = a.result
    key = next_key()
    b = Builder(key)
    ty = f.y.name if f.y_power == 1.0 else f"{f.y.name}^{f.y_power:g}"
    tx = f.x.name if f.x_power == 1.0 else f"{f.x.name}^{f.x_power:g}"
    uy = f.y.unit if f.y_power == 1.0 else (f"{f.y.unit}^{f.y_power:g}" if f.y.unit else None)
    ux = f.x.unit if f.x_power == 1.0 else (f"{f.x.unit}^{f.x_power:g}" if f.x.unit else None)
    # Drawn from the origin: whether the line passes through it is the question.
    grid = np.linspace(0.0, float(np.max(f.xt)) * 1.05, 100)
    p1: dict[str, Any] = {"xlabel": axis_label(tx, ux), "ylabel": axis_label(ty, uy), "legend": True,
          "layers": [{"type": "scatter", "x": b.arr(f.xt), "y": b.arr(f.yt), "color": "#1f77b4", "label": phrase(lang, "lg_data")},
                     {"type": "line", "x": b.arr(grid), "y": b.arr(f.slope1 * grid + f.intercept),
                      "color": "#999999", "lw": 1.0, "label": phrase(lang, "lg_intercept")},
                     {"type": "line", "x": b.arr(grid), "y": b.arr(f.slope0 * grid), "color": "#c0392b",
                      "lw": 1.8, "label": phrase(lang, "lg_law")}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(tx, ux), "ylabel": axis_label(phrase(lang, "axis_resid"), uy),
          "layers": [{"type": "scatter", "x": b.arr(f.xt), "y": b.arr(f.yt - f.slope0 * f.xt), "color": "#1f77b4"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    cap = phrase(lang, "cap_law", ty=src_text(ty), tx=src_text(tx), file=src_file(a.source))
    return [plan_figure(key, b, spec, cap, a)]


def script(a: LawAnalysis) -> KindScript:
    f = a.result
    what = f"law {f.statement.text} tested on {a.source}"
    solve = ""
    if f.relation is not None:
        rel = f.relation
        solve = f"""name = {rel.name!r}
# slope = {rel.factor!r} * {rel.name}^{rel.power!r}, solved for {rel.name}; delta-method SE.
slope, slope_se = (fit0.params[0], fit0.bse[0]) if fit1.pvalues[0] >= {ALPHA!r} else (fit1.params[1], fit1.bse[1])
value = (slope / {rel.factor!r}) ** (1 / {rel.power!r})
report(f"{{name}} from the slope, {{what}} (SE propagated)", value)
report(f"standard uncertainty of {{name}} from the slope, {{what}} (SE propagated)", abs(value / ({rel.power!r} * slope)) * slope_se)
"""
    positive = ""
    if f.x_power != round(f.x_power) or f.y_power != round(f.y_power):
        positive = "x, y = x[(x > 0) & (y > 0)], y[(x > 0) & (y > 0)]  # fractional powers\n"
    code = f"""{read_table(a.binding.dataset)}
{finite_rows("data", "df", [f.x.name, f.y.name])}
xcol, ycol = {f.x.name!r}, {f.y.name!r}
what = {what!r}
x, y = data[xcol].to_numpy(), data[ycol].to_numpy()
{positive}xt, yt = x ** {f.x_power!r}, y ** {f.y_power!r}
fit0 = OLS(yt, xt[:, None]).fit()  # through the origin, as the law has it
fit1 = OLS(yt, add_constant(xt)).fit()  # with an intercept
report(f"points in the {{what}}", len(xt))
report(f"slope through the origin, {{what}} (OLS)", fit0.params[0])
report(f"standard uncertainty of slope through the origin, {{what}} (OLS)", fit0.bse[0])
report(f"slope with an intercept, {{what}} (OLS)", fit1.params[1])
report(f"standard uncertainty of slope with an intercept, {{what}} (OLS)", fit1.bse[1])
report(f"intercept, {{what}} (OLS)", fit1.params[0])
report(f"standard uncertainty of intercept, {{what}} (OLS)", fit1.bse[0])
report(f"t-test p-value of a zero intercept, {{what}}", fit1.pvalues[0])
report(f"AICc through the origin, {{what}}", aicc(fit0.llf, len(xt), 1))
report(f"AICc with an intercept, {{what}}", aicc(fit1.llf, len(xt), 2))
positive = (x > 0) & (y > 0)
if positive.sum() >= 4:
    loglog = OLS(np.log(y[positive]), add_constant(np.log(x[positive]))).fit()
    exponent = f"log-log exponent of {{ycol}} on {{xcol}} (OLS)"
    report(exponent, loglog.params[1])
    report(f"standard uncertainty of {{exponent}}", loglog.bse[1])
{solve}"""
    imports = (
        "import numpy as np",
        "from statsmodels.regression.linear_model import OLS",
        "from statsmodels.tools.tools import add_constant",
        "from statsmodels.tools.eval_measures import aicc",
    )
    return KindScript(imports, code)
