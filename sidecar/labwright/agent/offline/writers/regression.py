"""The regression kind in words and figures: the fit's summary, the
coefficient table (with units, and without the flagged rows when there are
any), the flagged rows; the data with the line (one predictor) or observed
against fitted, studentized residuals and Cook's distance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, float_table, plan_figure
from labwright.agent.offline.writers.script import KindScript, finite_rows, read_table
from labwright.analysis.analyses.regression import RegressionBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.regression import RegressionResult

RegressionAnalysis = Analysis[RegressionBinding, RegressionResult]


ALPHA = 0.05


def _unit_of(a: RegressionAnalysis, name: str) -> str | None:
    """The unit of a coefficient: the response's per the predictor's."""
    ds = a.binding.dataset
    uy, ux = ds.column(a.result.response).unit, ds.column(name).unit
    return f"{uy}/{ux}" if uy and ux else uy or (f"1/{ux}" if ux else None)


def findings(a: RegressionAnalysis, ledger: Ledger, lang: str) -> list[str]:
    """How the response moves with each predictor that matters (the
    coefficient's sign, value and p), and which predictors show no effect."""
    r = a.result
    prov = a.binding.dataset.column(r.response).provenance
    what = f"regression of {r.response}"
    y = src_text(r.response)
    out = []
    quiet = []
    for c in r.coefficients:
        if c.name == "const":
            continue
        if c.p >= ALPHA:
            quiet.append(src_text(c.name))
            continue
        unit = _unit_of(a, c.name)
        out.append(phrase(
            lang, "reg_finding_up" if c.value > 0 else "reg_finding_down", y=y, x=src_text(c.name),
            value=ledger.measured(c.value, c.se, prov, f"coefficient {c.name} of the {what}"),
            # Without units the coefficient is per unit of the predictor.
            u=f"~{src_text(unit)}" if unit else phrase(lang, "reg_per_unit", x=src_text(c.name)),
            p=ledger.num(c.p, prov, f"p-value of coefficient {c.name}", sig=2),
        ))  # fmt: skip
    if quiet:
        out.append(phrase(lang, "reg_finding_none", y=y, xs=", ".join(quiet)))
    return out


def text(a: RegressionAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    ds = a.binding.dataset
    prov = ds.column(r.response).provenance
    what = f"regression of {r.response}"
    uy = ds.column(r.response).unit
    out = phrase(
        lang, "reg_intro" if len(r.predictors) > 1 else "reg_intro_simple", y=src_text(r.response), xs=", ".join(src_text(p) for p in r.predictors),
        n=ledger.count(r.n, prov, f"rows in the {what}"),
        r2=ledger.num(r.r2, prov, f"R^2 of the {what}", sig=3),
        r2a=ledger.num(r.r2_adj, prov, f"adjusted R^2 of the {what}", sig=3),
        s=ledger.num(r.resid_se, prov, f"residual standard error of the {what}", sig=3),
        unit=f"~{src_text(uy)}" if uy else "",
        p=ledger.num(r.f_p, prov, f"F-test p-value of the {what}", sig=2),
    ) + "\n"  # fmt: skip
    rows = []
    units = False
    for c in r.coefficients:
        name = phrase(lang, "reg_intercept") if c.name == "const" else src_text(c.name)
        value, _, se = ledger.measured(
            c.value, c.se, prov, f"coefficient {c.name} of the {what}"
        ).partition(" \\pm ")
        unit = uy if c.name == "const" else _unit_of(a, c.name)
        units = units or bool(unit)
        rows.append([
            name, f"${value}$", f"${se}$", src_text(unit) if unit else "",
            f"${ledger.num(c.t, prov, f't of coefficient {c.name}', sig=3)}$",
            f"${ledger.num(c.p, prov, f'p-value of coefficient {c.name}', sig=2)}$",
        ])  # fmt: skip
    keys = ["col_coef", "col_estimate", "col_se", "col_unit", "col_t", "col_p"]
    if not units:  # no unit anywhere: no empty column
        keys.remove("col_unit")
        rows = [r_[:3] + r_[4:] for r_ in rows]
    w = r.without_flagged
    if w is not None:
        keys.append("col_without")
        wc = {c.name: c for c in w.coefficients}
        for row, c in zip(rows, r.coefficients, strict=True):
            c2 = wc.get(c.name)
            row.append(f"${ledger.measured(c2.value, c2.se, prov, f'coefficient {c.name} of the {what} without the flagged rows')}$" if c2 else "--")  # fmt: skip
    head = [phrase(lang, k) for k in keys]
    out += float_table("lrr" + ("l" if units else "") + "rr" + ("r" if w is not None else ""), head, rows, phrase(lang, "reg_table_caption", y=src_text(r.response),
                                                    file=src_file(a.source)))  # fmt: skip
    lim = ledger.num(2.5, None, "studentized-residual limit for flagging (constant)", sig=2)
    four = ledger.count(4, None, "Cook's distance screening rule 4/n (constant)")
    if r.outliers:
        items = [
            phrase(lang, "reg_row", row=ledger.count(o.row + 1, prov, "row number (1-based) of a flagged row"),
                   r=ledger.num(o.studentized, prov, f"studentized residual of row {o.row + 1}", sig=3),
                   d=ledger.num(o.cooks, prov, f"Cook's distance of row {o.row + 1}", sig=2))
            for o in r.outliers
        ]  # fmt: skip
        out += phrase(lang, "reg_outliers", lim=lim, four=four, rows="; ".join(items)) + "\n"
        w = r.without_flagged
        if w is not None:
            out += "\n" + phrase(
                lang, "reg_without", n=ledger.count(w.n, prov, f"rows in the {what} without the flagged rows"),
                r2=ledger.num(w.r2, prov, f"R^2 of the {what} without the flagged rows", sig=3),
                s=ledger.num(w.resid_se, prov, f"residual standard error of the {what} without the flagged rows", sig=3),
                unit=f"~{src_text(uy)}" if uy else "",
            ) + "\n"  # fmt: skip
    else:
        out += phrase(lang, "reg_no_outliers", lim=lim, four=four) + "\n"
    return out


def figures(a: RegressionAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    ds = a.binding.dataset
    key = next_key()
    b = Builder(key)
    y = np.asarray(ds.column(r.response).values, dtype=float)[r.rows]
    unit = ds.column(r.response).unit
    lo, hi = (
        float(np.nanmin([y.min(), r.fitted.min()])),
        float(np.nanmax([y.max(), r.fitted.max()])),
    )
    flagged = [i for i, row in enumerate(r.rows) if any(o.row == row for o in r.outliers)]
    fi = np.array(flagged, dtype=int)
    p1: dict[str, Any] = {"xlabel": axis_label(phrase(lang, "axis_fitted"), unit), "ylabel": axis_label(r.response, unit),
          "layers": [{"type": "line", "x": b.arr([lo, hi]), "y": b.arr([lo, hi]), "color": "#888888"},
                     {"type": "scatter", "x": b.arr(r.fitted), "y": b.arr(y), "color": "#1f77b4"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(phrase(lang, "axis_fitted"), unit), "ylabel": phrase(lang, "axis_stud"),
          "layers": [{"type": "scatter", "x": b.arr(r.fitted), "y": b.arr(r.studentized), "color": "#1f77b4"},
                     {"type": "hline", "y": 2.5, "color": "#c0392b"}, {"type": "hline", "y": -2.5, "color": "#c0392b"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    p3: dict[str, Any] = {"xlabel": phrase(lang, "axis_row"), "ylabel": phrase(lang, "axis_cooks"), "integer_x": True,
          "layers": [{"type": "stem", "x": b.arr(r.rows + 1), "y": b.arr(r.cooks), "color": "#1f77b4"},
                     {"type": "hline", "y": 4.0 / r.n, "color": "#c0392b"}]}  # fmt: skip
    x1 = None
    if len(r.predictors) == 1:
        # One predictor: the data against it with the fitted line is what a
        # reader checks first (observed against fitted says the same less directly).
        xcol = ds.column(r.predictors[0])
        x1 = np.asarray(xcol.values, dtype=float)[r.rows]
        order = np.argsort(x1)
        p1 = {"xlabel": axis_label(xcol.name, xcol.unit), "ylabel": axis_label(r.response, unit),
              "layers": [{"type": "scatter", "x": b.arr(x1), "y": b.arr(y), "color": "#1f77b4"},
                         {"type": "line", "x": b.arr(x1[order]), "y": b.arr(r.fitted[order]),
                          "color": "#222222"}]}  # fmt: skip
    if fi.size:
        ring = {"type": "ring", "color": "#d35400", "labels": [str(int(r.rows[i]) + 1) for i in fi]}
        p1["layers"].append(
            {**ring, "x": b.arr((r.fitted if x1 is None else x1)[fi]), "y": b.arr(y[fi])}
        )
        p2["layers"].append({**ring, "x": b.arr(r.fitted[fi]), "y": b.arr(r.studentized[fi])})
    spec = {"panels": [p1, p2, p3], "ncols": 3, "size": [9.0, 3.2]}
    cap = phrase(lang, "cap_regression", y=src_text(r.response), file=src_file(a.source))
    if x1 is not None:
        cap = phrase(lang, "cap_regression_simple", y=src_text(r.response),
                     x=src_text(r.predictors[0]), file=src_file(a.source))  # fmt: skip
    return [plan_figure(key, b, spec, cap, a)]


def script(a: RegressionAnalysis) -> KindScript:
    r = a.result
    what = f"regression of {r.response}"
    code = f"""{read_table(a.binding.dataset)}
response, predictors = {r.response!r}, {list(r.predictors)!r}
what = {what!r}


def regression(data):
    fit = OLS(data[response], add_constant(data[predictors])).fit()
    influence = OLSInfluence(fit)
    return fit, influence.resid_studentized_internal, influence.cooks_distance[0]


{finite_rows("data", "df", [r.response, *r.predictors])}
fit, studentized, cooks = regression(data)
n = int(fit.nobs)
report(f"rows in the {{what}}", n)
report(f"R^2 of the {{what}}", fit.rsquared)
report(f"adjusted R^2 of the {{what}}", fit.rsquared_adj)
report(f"residual standard error of the {{what}}", np.sqrt(fit.scale))
report(f"F-test p-value of the {{what}}", fit.f_pvalue)
for term in ["const", *predictors]:
    report(f"coefficient {{term}} of the {{what}}", fit.params[term])
    report(f"standard uncertainty of coefficient {{term}} of the {{what}}", fit.bse[term])
    report(f"t of coefficient {{term}}", fit.tvalues[term])
    report(f"p-value of coefficient {{term}}", fit.pvalues[term])
# Rows flagged, never dropped from this fit: studentized residual beyond 2.5
# or Cook's distance above 4/n (row numbers counted from 1).
STUDENTIZED_LIMIT, COOKS_RULE = 2.5, 4
report("studentized-residual limit for flagging (constant)", STUDENTIZED_LIMIT)
report("Cook's distance screening rule 4/n (constant)", COOKS_RULE)
flagged = data.index[(np.abs(studentized) > STUDENTIZED_LIMIT) | (cooks > COOKS_RULE / n)]
for row, r_i, d_i in zip(flagged, studentized[data.index.isin(flagged)], cooks[data.index.isin(flagged)], strict=True):
    report("row number (1-based) of a flagged row", row + 1)
    report(f"studentized residual of row {{row + 1}}", r_i)
    report(f"Cook's distance of row {{row + 1}}", d_i)
if len(flagged) and n - len(flagged) >= len(predictors) + 3:
    refit, _, _ = regression(data.drop(index=flagged))
    report(f"rows in the {{what}} without the flagged rows", int(refit.nobs))
    report(f"R^2 of the {{what}} without the flagged rows", refit.rsquared)
    report(f"residual standard error of the {{what}} without the flagged rows", np.sqrt(refit.scale))
    for term in ["const", *predictors]:
        report(f"coefficient {{term}} of the {{what}} without the flagged rows", refit.params[term])
        report(
            f"standard uncertainty of coefficient {{term}} of the {{what}} without the flagged rows",
            refit.bse[term],
        )
"""
    imports = (
        "import numpy as np",
        "from statsmodels.regression.linear_model import OLS",
        "from statsmodels.tools.tools import add_constant",
        "from statsmodels.stats.outliers_influence import OLSInfluence",
    )
    return KindScript(imports, code)


def drawing(a: RegressionAnalysis, plans: list[FigurePlan]) -> KindScript:
    """Observed against fitted (or the data against the one predictor with
    the line), the studentized residuals with the flagging limits, and
    Cook's distance by row with 4/n; the flagged rows circled."""
    r = a.result
    ring = bool(r.outliers)
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            "fitted = fit.fittedvalues.to_numpy()",
            "observed = data[response].to_numpy()",
            "rows = data.index.to_numpy()",
            "circled = data.index.isin(flagged)",
        ]
        if len(r.predictors) == 1:
            lines += [
                "along = data[predictors[0]].to_numpy()",
                "order = np.argsort(along)",
            ]
            first = ['("scatter", along, observed)', '("line", along[order], fitted[order])']
            first += ['("ring", along[circled], observed[circled])'] if ring else []
        else:
            lines.append(
                "lo, hi = min(observed.min(), fitted.min()), max(observed.max(), fitted.max())"
            )
            first = ['("line", [lo, hi], [lo, hi])', '("scatter", fitted, observed)']
            first += ['("ring", fitted[circled], observed[circled])'] if ring else []
        second = ['("scatter", fitted, studentized)', '("hline", STUDENTIZED_LIMIT)',
                  '("hline", -STUDENTIZED_LIMIT)', '("hline", 0.0)']  # fmt: skip
        second += ['("ring", fitted[circled], studentized[circled])'] if ring else []
        third = ['("stem", rows + 1, cooks)', '("hline", COOKS_RULE / n)']
        lines.append(call(plan.key, [first, second, third]))
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
