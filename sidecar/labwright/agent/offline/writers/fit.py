"""The fit kind in words and figures: the law with its formula, which column
is which variable (and why), what was done to the data (background,
averaging), the fitted parameters and derived quantities with their SE; the
data with the fitted curve and the residuals, and the law's customary
linearised plot (Lineweaver–Burk, ln k against 1/T) as a companion figure.

Every number goes through the ledger with the provenance of the response
column; the frames are this kind's own (EN, ZH).
"""

from __future__ import annotations

import keyword
import math
import re
from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.pyformat import expression
from labwright.agent.offline.results_table import unit_tex
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure
from labwright.agent.offline.writers.script import (
    AnswerCode,
    FitCode,
    KindScript,
    read_table,
    source_of,
)
from labwright.analysis.analyses.fit import MIN_POINTS, REWEIGHTINGS, FitBinding, FitOutcome
from labwright.analysis.catalogue.custom import formula_latex
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import asks_log_axes, axis_label, unit_mathtext
from labwright.analysis.transient import before_start, transient_time

FitAnalysis = Analysis[FitBinding, FitOutcome]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "intro": "The {law} ${latex}$ was fitted to {file} by least squares ({n} points): {binds}.",
        "bind": "${sym}$ is {col}",
        "prep": "Before the fit, {what}.",
        "inverted": "{x} was set and {y} read, so the law is fitted solved for {y}.",
        "peaks": "The sum of {n} {shape} peaks on a {baseline} baseline was fitted ({chosen}); "
                 "the law above is one of its peaks.",
        "by_aicc_both": "the number of peaks and the baseline chosen by the corrected Akaike criterion",
        "by_notes_both": "the number of peaks and the baseline as the notes ask",
        "by_notes_count": "the number of peaks as the notes ask, the baseline chosen by the "
                          "corrected Akaike criterion",
        "by_notes_base": "the baseline as the notes ask, the number of peaks chosen by the "
                         "corrected Akaike criterion",
        "gives": "The fit gives {values}{quality}.",
        "weighted": " (weighted by the stated uncertainties)",
        "relative": " (weighted by a relative uncertainty of ${rel}$~\\%, the scatter growing with the value)",
        "r2": "; $R^2 = {r2}$",
        "failed": "The {law} could not be fitted to {file}: {why}",
        "cap": "{law} fitted to {file}: {y} against {x} with the fitted curve (left) and the "
               "residuals (right).",
        "cap_obs": "{law} fitted to {file}: observed against fitted {y} (left) and the "
                   "residuals (right).",
        "cap_lin": "The linearised plot of {file}: the data with the straight line fitted to them "
                   "(axes in SI base units).",
        "lg_data": "data",
        "lg_fit": "fit",
        "lg_line": "straight line",
        "resid": "residual",
        "fitted": "fitted",
    },
    "zh": {
        "intro": "用最小二乘法将{law} ${latex}$ 拟合到 {file}（{n} 个数据点）：{binds}。",
        "bind": "${sym}$ 取 {col}",
        "prep": "拟合之前，{what}。",
        "inverted": "{x} 是设定的量、{y} 是读数，因此按解出 {y} 的形式拟合。",
        "peaks": "拟合了 {n} 个{shape}峰叠加在{baseline}基线上的模型（{chosen}）；上式为其中一个峰。",
        "by_aicc_both": "峰数与基线由修正的赤池信息准则选定",
        "by_notes_both": "峰数与基线按实验说明的要求",
        "by_notes_count": "峰数按实验说明的要求，基线由修正的赤池信息准则选定",
        "by_notes_base": "基线按实验说明的要求，峰数由修正的赤池信息准则选定",
        "gives": "拟合得到 {values}{quality}。",
        "weighted": "（按给定不确定度加权）",
        "relative": "（残差随数值增大，按 ${rel}$~\\% 的相对不确定度加权）",
        "r2": "；$R^2 = {r2}$",
        "failed": "{law}无法拟合到 {file}：{why}",
        "cap": "{file} 的{law}拟合：{y} 对 {x}，含拟合曲线（左）与残差（右）。",
        "cap_obs": "{file} 的{law}拟合：{y} 的观测值对拟合值（左）与残差（右）。",
        "cap_lin": "{file} 的线性化作图：数据及其直线拟合（坐标为国际单位制基本单位）。",
        "lg_data": "数据",
        "lg_fit": "拟合",
        "lg_line": "直线",
        "resid": "残差",
        "fitted": "拟合值",
    },
}  # fmt: skip


_PEAK_WORDS = {
    "gaussian": Text("Gaussian", "高斯"), "lorentzian": Text("Lorentzian", "洛伦兹"),
    "voigt": Text("Voigt", "Voigt "), "pseudo_voigt": Text("pseudo-Voigt", "赝 Voigt "),
}  # fmt: skip
_BASELINE_WORDS = {
    "none": Text("zero", "零"), "constant": Text("flat", "水平"), "linear": Text("linear", "线性"),
    "quadratic": Text("quadratic", "二次"), "cubic": Text("cubic", "三次"),
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    return _FRAMES["zh" if lang == "zh" else "en"][key].format(**values)


def _name(a: FitAnalysis, lang: str) -> str:
    e = a.result.entry
    return e.name.zh if lang == "zh" else e.name.en


def _group(a: FitAnalysis) -> str | None:
    """The group of rows fitted, when the law was fitted group by group."""
    prov = a.binding.dataset.provenance
    return prov.subset if prov is not None else None


def _what(a: FitAnalysis) -> str:
    group = _group(a)
    return f"{a.result.entry.key} fitted to {a.source}" + (f" ({group})" if group else "")


def _table(a: FitAnalysis) -> str:
    """The table fitted, as the text names it: the file, and the group of its
    rows when the law was fitted group by group ("gas.csv (Insul = Before)")."""
    group = _group(a)
    return src_file(a.source) + (f" ({src_text(group)})" if group else "")


def text(a: FitAnalysis, ledger: Ledger, lang: str) -> str:
    out_ = a.result
    b, res = out_.binding, out_.result
    e = b.entry
    prov = b.response.provenance
    what = _what(a)
    law = _name(a, lang)
    if not res.ok:
        why = res.message(lang) if res.message else ""
        return _f(lang, "failed", law=law, file=_table(a), why=src_text(why)) + "\n"
    sep = "; " if lang == "en" else "；"
    latex, names = _as_written(a)
    binds = sep.join(
        _f(lang, "bind", sym=names.get(v.name, v.name) if len(names.get(v.name, v.name)) == 1
           else f"\\mathrm{{{names.get(v.name, v.name)}}}",
           col=src_text(b.columns[v.name].name + (f" ({b.units[v.name]})" if b.units.get(v.name) else "")))
        for v in e.variables
    )  # fmt: skip
    parts = [_f(lang, "intro", law=law, latex=f"\\lwtext{{{latex}}}", file=_table(a), binds=binds,
                n=ledger.count(res.n, prov, f"points in the {what}"))]  # fmt: skip
    if e.is_inverted:
        # The catalogue writes the law the other way round (U = R I).
        parts.append(_f(lang, "inverted", x=src_text(b.independents[0].name),
                        y=src_text(b.response.name)))  # fmt: skip
    if b.prepared.notes:
        done = sep.join(t.zh if lang == "zh" else t.en for t in b.prepared.notes)
        parts.append(_f(lang, "prep", what=src_text(done)))
    if res.peaks and e.composite is not None:
        shape, base = _PEAK_WORDS[e.composite.peak], _BASELINE_WORDS[res.baseline or "none"]
        parts.append(_f(lang, "peaks", n=ledger.count(res.peaks, prov, f"peaks in the {what}"),
                        shape=shape.zh if lang == "zh" else shape.en,
                        baseline=base.zh if lang == "zh" else base.en,
                        chosen=_f(lang, _peaks_chosen(b.request.peaks, b.request.baseline))))  # fmt: skip
    values = []
    for ans in out_.answers():
        if ans.se is None:
            continue
        num = ledger.measured(ans.value, ans.se, prov, f"{ans.quantity}, {what} (SE)")
        # The symbol's digits (t_{1/2}) are not measurements, and the answer's
        # unit is pint's display form (s⁻¹), which needs math, not text.
        values.append(f"$\\lwtext{{{ans.latex}}} = {num}$ {unit_tex(ans.unit)}".rstrip())
    if out_.relative is not None:
        rel = ledger.num(100 * out_.relative, prov, f"relative scatter (%) of the {what}", sig=2)
        quality = _f(lang, "relative", rel=rel)
    else:
        quality = _f(lang, "weighted") if res.weighted else ""
    if math.isfinite(res.r2):
        quality += _f(lang, "r2", r2=ledger.num(res.r2, prov, f"R^2 of the {what}", sig=4))
    if values:
        parts.append(
            _f(lang, "gives", values=(", " if lang == "en" else "，").join(values), quality=quality)
        )
    return "\n\n".join(parts) + "\n"


def _grid(x: np.ndarray) -> np.ndarray:
    lo, hi = float(np.min(x)), float(np.max(x))
    if lo > 0 and hi / lo > 50:  # a log-spaced design: a curve that shows its knee
        return np.geomspace(lo, hi, 200)
    return np.linspace(lo, hi, 200)


def figures(a: FitAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    out_ = a.result
    b, res, data = out_.binding, out_.result, out_.data
    if not res.ok:
        return []
    e = b.entry
    yname = e.response.name
    y = np.asarray(data.variables[yname], dtype=float)
    ycol = b.response
    ylabel = axis_label(ycol.name, b.units.get(yname))
    resid = np.asarray(res.residuals, dtype=float)
    key = next_key()
    fb = Builder(key)
    law = _name(a, lang)
    indep = e.independents
    if len(indep) == 1:
        xname = indep[0].name
        x = np.asarray(data.variables[xname], dtype=float)
        grid = _grid(x)
        xlabel = axis_label(b.columns[xname].name, b.units.get(xname))
        p1: dict[str, Any] = {"xlabel": xlabel, "ylabel": ylabel, "legend": True,
              "layers": [{"type": "scatter", "x": fb.arr(x), "y": fb.arr(y), "color": "#1f77b4",
                          "label": _f(lang, "lg_data")},
                         {"type": "line", "x": fb.arr(grid), "y": fb.arr(res.curve({xname: grid})),
                          "color": "#c0392b", "lw": 1.5, "label": _f(lang, "lg_fit")}]}  # fmt: skip
        cap = _f(lang, "cap", law=law, file=_table(a), y=src_text(ycol.name),
                 x=src_text(b.columns[xname].name))  # fmt: skip
    else:
        x = np.asarray(res.fitted, dtype=float)
        xlabel = axis_label(_f(lang, "fitted"), b.units.get(yname))
        span = np.array([np.nanmin(y), np.nanmax(y)])
        p1 = {"xlabel": xlabel, "ylabel": ylabel,
              "layers": [{"type": "scatter", "x": fb.arr(x), "y": fb.arr(y), "color": "#1f77b4"},
                         {"type": "line", "x": fb.arr(span), "y": fb.arr(span), "color": "#888888",
                          "lw": 1.0}]}  # fmt: skip
        cap = _f(lang, "cap_obs", law=law, file=_table(a), y=src_text(ycol.name))
    p2: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label(_f(lang, "resid"), b.units.get(yname)),
          "layers": [{"type": "scatter", "x": fb.arr(x), "y": fb.arr(resid), "color": "#1f77b4"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    if asks_log_axes(b.notes_text) and _positive(x) and _positive(y):
        # "on log scales": the data and the curve on log axes, the residuals
        # against the same log x.
        p1.update(xlog=True, ylog=True)
        p2["xlog"] = True
    plans = [plan_figure(key, fb, {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}, cap, a)]
    companion = _linear_figure(a, next_key, lang)
    if companion is not None:
        plans.append(companion)
    return plans


def _as_written(a: FitAnalysis) -> tuple[str, dict[str, str]]:
    """The law as the notes write it, when they do (Loblolly's "h = hmax +
    (h0 - hmax) exp(-k t)", not the catalogue's A, A_0, A_∞), and the notes'
    name of each variable the formula names otherwise (its response)."""
    e = a.result.binding.entry
    written = next(
        (m.formula for m in a.result.binding.request.models
         if m.key == e.key and m.how == "formula" and m.formula),
        None,
    )  # fmt: skip
    shown = formula_latex(written) if written else None
    if shown is None:
        return e.latex, {}
    latex, response = shown
    return latex, {e.response.name: response} if response != e.response.name else {}


def _positive(v: np.ndarray) -> bool:
    finite = v[np.isfinite(v)]
    return finite.size > 0 and bool(np.all(finite > 0))


def _linear_figure(a: FitAnalysis, next_key: KeyMaker, lang: str) -> FigurePlan | None:
    """The entry's linearised plot, when it has one and the data give it."""
    from labwright.analysis.engine import linear

    out_ = a.result
    e = out_.entry
    plot = e.linear_plot
    if plot is None or not plot.from_line:
        return None
    line = linear(e, out_.data, out_.result)
    if not line.ok or line.n < 3:
        return None
    # Drawn in the data's units (1/[S] in 1/mM): the line's own fit is in SI
    # base units, which no reader of the data recognises.
    xs, ys = line.x_shown, line.y_shown
    slope, icpt = np.polyfit(xs, ys, 1)
    grid = np.linspace(float(np.min(xs)), float(np.max(xs)), 50)
    key = next_key()
    fb = Builder(key)
    xl = f"${plot.x_latex}$" if plot.x_latex else plot.x
    yl = f"${plot.y_latex}$" if plot.y_latex else plot.y
    xl += f" ({unit_mathtext(line.x_unit)})" if line.x_unit else ""
    yl += f" ({unit_mathtext(line.y_unit)})" if line.y_unit else ""
    panel: dict[str, Any] = {"xlabel": xl, "ylabel": yl, "legend": True,
             "layers": [{"type": "scatter", "x": fb.arr(xs), "y": fb.arr(ys), "color": "#1f77b4",
                         "label": _f(lang, "lg_data")},
                        {"type": "line", "x": fb.arr(grid), "y": fb.arr(slope * grid + icpt),
                         "color": "#c0392b", "lw": 1.5, "label": _f(lang, "lg_line")}]}  # fmt: skip
    # The plot's name is not printed: names like "ln k–1/T" carry digits the
    # ledger does not source; its axes say what is plotted.
    cap = _f(lang, "cap_lin", file=_table(a))
    return plan_figure(key, fb, {"panels": [panel], "ncols": 1, "size": [4.8, 3.4]}, cap, a)


def _peaks_chosen(count: int | None, baseline: str | None) -> str:
    """Which frame says how the peak count and the baseline were decided."""
    if count and baseline:
        return "by_notes_both"
    if count:
        return "by_notes_count"
    return "by_notes_base" if baseline else "by_aicc_both"


def _py(name: str) -> str:
    return "v_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _law_lines(e: Any, data: Any, res: Any, xs: dict[str, str], tag: str) -> list[str] | None:
    """Lines that fit the law `e` to `y` (and `sigma`) over the independents
    `xs` (expressions in the data's units), leaving the lmfit result in
    `fit_{tag}`: the formula evaluated in SI base units (the factors of the
    engine's own unit plan for these columns written out), started at the
    report's values, so the block checks the same minimum."""
    from labwright.analysis import engine

    prep = engine._prepare(e, data)
    if isinstance(prep, engine.FitResult):
        return None
    plan = prep.plan
    lines = []
    for v in e.independents:
        sc = plan.variables[v.name]
        expr = xs[v.name]
        if sc.absolute and sc.data_unit and sc.data_unit.strip() in ("°C", "degC", "℃"):
            expr = f"({expr} + 273.15)"
        elif sc.absolute and sc.data_unit and sc.data_unit.strip() not in ("K", "kelvin"):
            return None  # a scale the block does not write out
        scaled = expr if sc.factor == 1.0 else f"{expr} * {sc.factor!r}"
        lines.append(f"{_py(v.name)} = {scaled}  # {v.name} in SI base units")
    consts = {k: engine._nominal(v) for k, v in prep.inputs_base.items()}
    pnames = [p.name for p in e.parameters if p.name in res.values]
    body = e.formula.split("=", 1)[1].strip()
    for name in sorted(
        {*pnames, *(v.name for v in e.independents), *consts}, key=len, reverse=True
    ):
        body = _replace_name(body, name, _py(name))
    starts = {_py(p): res.value(p) / plan.display[p][1] * plan.params[p].factor for p in pnames}
    names = ", ".join(_py(v.name) for v in e.independents)
    body = expression(body)
    response = plan.variables[e.response.name].factor
    lines += [
        f"def {tag}(x, {', '.join(_py(n) for n in pnames)}):",
        f"    ({names},) = x" if len(e.independents) == 1 else f"    {names} = x",
        *(f"    {_py(k)} = {v!r}" for k, v in consts.items()),
        *(
            [f"    return {body}"]
            if response == 1.0
            else ["    # in the response's unit", f"    return ({body}) / {response!r}"]
        ),
        f"model = lmfit.Model({tag}, independent_vars=['x'])",
        f"params = model.make_params(**{starts!r})",
        f"fit = model.fit(y, params, x=({names},), "
        "weights=None if sigma is None else 1 / sigma, scale_covar=sigma is None)",
    ]
    return lines


def _to_display(e: Any, data: Any, name: str) -> float:
    from labwright.analysis import engine

    prep = engine._prepare(e, data)
    assert not isinstance(prep, engine.FitResult)
    return float(prep.plan.display[name][1] / prep.plan.params[name].factor)


#: The numpy names a catalogue formula may use bare (the law functions).
_NUMPY_NAMES = ("exp", "log", "log10", "log2", "sqrt", "sin", "cos", "tan", "arcsin", "arccos",
                "arctan", "arctan2", "sinh", "cosh", "tanh", "pi")  # fmt: skip


#: The catalogue's functions numpy has not under that name (`catalogue/expr.py`).
_SINC = '''def sinc(x):
    """sin(x)/x, 1 at 0: the catalogue's sinc (numpy's is sin(pi x)/(pi x))."""
    return np.sinc(np.asarray(x, dtype=float) / np.pi)
'''


def _special(text: str) -> dict[str, str]:
    """The helpers a law's formula needs beyond numpy's bare names."""
    return {"sinc": _SINC} if re.search(r"\bsinc\(", text) else {}


def _imports(text: str) -> tuple[str, ...]:
    """lmfit and numpy, and of the bare numpy names only those the block's
    code uses: importing all ten left nine unused (ruff F401) in pendulum's
    script. The compendium merges the blocks' `from numpy import` lines."""
    import ast

    try:
        used = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    except SyntaxError:  # never expected; then every name, as before
        used = set(_NUMPY_NAMES)
    names = sorted(n for n in _NUMPY_NAMES if n in used)
    bare: tuple[str, ...] = (f"from numpy import {', '.join(names)}",) if names else ()
    special = sorted(n for n in ("erf", "erfc") if n in used)
    bare += (f"from scipy.special import {', '.join(special)}",) if special else ()
    return ("import numpy as np", "import lmfit", *bare)


def script(a: FitAnalysis) -> KindScript:
    """The compendium block: the same law fitted with lmfit to the same
    columns (prepared as the report did: replicates, background), the
    parameters converted back to the report's units."""
    out_ = a.result
    b, res = out_.binding, out_.result
    e = b.entry
    what = _what(a)
    if not res.ok:
        return KindScript((), f"# The {e.name.en} could not be fitted to {a.source}.\n")
    lines = [read_table(b.dataset)]
    cols = [b.columns[v.name].name for v in e.independents]
    reps = [c.name for c in _replicates_of(b)]
    scans = _scans(b)
    if len(scans) > 1:  # repeat scans: averaged point by point, as the report did
        lines.append("scans = np.column_stack([\n" + "".join(
            f"    {read_table(ds, 'd').split(' = ', 1)[1]}[{col!r}].astype(float).to_numpy(),\n"
            for ds, col in scans) + "])")  # fmt: skip
        lines.append("df = df.assign(__y=scans.mean(axis=1), "
                     "__s=scans.std(axis=1, ddof=1) / np.sqrt(scans.shape[1]))")  # fmt: skip
        lines.append(f"data = df[{[*cols, '__y', '__s']!r}].astype(float).dropna()")
        sigma = "data['__s'].to_numpy()" if b.prepared.sigma is not None else "None"
        lines.append(f"y, sigma = data['__y'].to_numpy(), {sigma}")
    else:
        lines.append(f"data = df[{[*cols, *reps]!r}].astype(float).dropna()")
    start = transient_time(e)
    if (
        start is not None
        and before_start(np.asarray(b.columns[start].values, dtype=float), MIN_POINTS) is not None
    ):
        col = b.columns[start].name
        lines.append(f"data = data[data[{col!r}] >= 0]  # the law starts at {col} = 0")
    for var, n in b.per.items():  # a column timed over n periods ("10T"): one period
        spans = reps if var == e.response.name else [b.columns[var].name]
        lines.append(f"data[{spans!r}] = data[{spans!r}] / {n}  # the time of {n} periods")
    xs = _x_codes(b)
    if len(scans) > 1:
        pass  # y and sigma are the scans' mean (above)
    elif len(reps) > 1 and b.request.replicates != "average":
        lines.append(f"y = np.concatenate([data[c].to_numpy() for c in {reps!r}])")
        lines.append("sigma = None")
    elif len(reps) > 1:
        lines.append(f"reps = data[{reps!r}].to_numpy()")
        lines.append(
            "y, sigma = reps.mean(axis=1), reps.std(axis=1, ddof=1) / np.sqrt(reps.shape[1])"
        )
    else:
        lines.append(f"y, sigma = data[{reps[0]!r}].to_numpy(), None")
    for ds in b.extra:
        role = b.request.role_of(ds.source)
        if role is not None and role.role == "background":
            level = next(
                (c for c in ds.numeric_columns if c.name == b.response.name),
                ds.numeric_columns[-1],
            )
            lines.append(
                f"y = y - {read_table(ds, 'bg').split(' = ', 1)[1]}[{level.name!r}].mean()  # background"
            )
    if res.peaks:
        lines += _peak_lines(a, xs[e.independents[0].name])
        return KindScript(_imports("\n".join(lines)), "\n".join(lines) + "\n")
    law = _law_lines(e, out_.data, res, xs, _function_name(e.key))
    if law is None:
        return KindScript((), f"# The {e.name.en} on this temperature scale is not written out.\n")
    lines += law
    if out_.relative is not None:
        names = ", ".join(_py(v.name) for v in e.independents)
        lines += [
            "# The scatter grows with the value: refitted with weights from the relative",
            "# scatter, re-estimated from each refit, as the report was.",
            f"for _ in range({REWEIGHTINGS}):",
            "    size = np.abs(fit.best_fit)",
            "    residual = (y - fit.best_fit) / size",
            f"    relative = np.sqrt(np.sum(residual**2) / (len(y) - {len(res.parameters)}))",
            f"    fit = model.fit(y, fit.params, x=({names},), weights=1 / (relative * size),",
            "                    scale_covar=False)",
        ]
    lines.append(f"what = {what!r}")
    # The report's numbers of this fit carry the response column as their source.
    lines.append(f"source = {source_of(b.response.provenance)!r}")
    lines.append('report(f"points in the {what}", len(y), source)')
    if out_.relative is not None:
        lines.append('report(f"relative scatter (%) of the {what}", 100 * relative, source)')
    named = _answer_lines(a)
    if named is None:
        return KindScript((), f"# The {e.name.en}'s quantities are not written out here.\n")
    more, answers, helpers = named
    lines += more
    lines += [
        "residuals = y - fit.best_fit",
        "r2 = 1 - np.sum(residuals**2) / np.sum((y - y.mean()) ** 2)",
        'report(f"R^2 of the {what}", r2, source)',
    ]
    n_params = len(res.parameters)
    fit = FitCode("residuals", "r2", n_params, "sigma" if res.weighted else None)
    text = "\n".join(lines) + "\n"
    return KindScript(_imports(text), text, {**_special(text), **helpers}, answers, fit)


#: Variable names an answer may not take in the script (its own names).
_TAKEN = {"df", "data", "y", "sigma", "what", "value", "se", "model", "params", "fit", "source",
          "residuals", "r2", "reps", "scans", "expected", "u", "z", "x", "grid", "s_res"}  # fmt: skip


def _variable(q: str) -> str:
    name = "".join(ch if ch.isalnum() else "_" for ch in q)
    if not name.isidentifier() or keyword.iskeyword(name) or name in _TAKEN | set(_NUMPY_NAMES):
        name = f"q_{name}"
    return name


_RENAMED = {"ln": "log", "asin": "arcsin", "acos": "arccos", "atan": "arctan", "atan2": "arctan2"}


def _answer_lines(
    a: FitAnalysis,
) -> tuple[list[str], dict[str, AnswerCode], dict[str, str]] | None:
    """Lines that set each answer's value and SE in the report's unit: a
    parameter from the fit, a derived quantity by its catalogue expression
    of the fitted parameters in SI base units, its SE propagated from their
    covariance (first order, as the report's `uncertainties` does)."""
    from labwright.analysis import engine

    out_ = a.result
    e, res = out_.entry, out_.result
    prep = engine._prepare(e, out_.data)
    if isinstance(prep, engine.FitResult):
        return None
    plan = prep.plan
    lines: list[str] = []
    answers: dict[str, AnswerCode] = {}
    helpers: dict[str, str] = {}
    base: dict[str, str] = {}  # name -> its expression in base units, for later expressions
    consts = {k: engine._nominal(v) for k, v in prep.inputs_base.items()}
    for p in e.parameters:
        if p.name not in res.values:
            continue
        base[p.name] = _py(p.name)
        if p.name not in res.parameters:
            continue  # fixed by the notes: no SE of its own
        k = _to_display(e, out_.data, p.name)
        var = _variable(p.name)
        unit = res.units.get(p.name) or "a pure number"
        lines.append(f"# {p.name} in {unit}")
        times = "" if k == 1.0 else f" * {k!r}"
        lines.append(f"{var} = fit.params[{_py(p.name)!r}].value{times}")
        lines.append(f"{var}_se = fit.params[{_py(p.name)!r}].stderr{times}")
        answers[p.name] = AnswerCode(var, f"{var}_se")
    for d in e.derived:
        if d.key not in res.values or plan.derived.get(d.key) is None:
            continue
        expr = _base_expression(d.expr, base, consts)
        if expr is None:
            continue
        d_unit = plan.derived[d.key]
        assert d_unit is not None
        args = sorted({_py(n) for n in base if _py(n) in expr and n in res.parameters})
        var = _variable(d.key)
        lines.append(f"# {d.key} = {d.expr}, in {d_unit[0] or 'a pure number'}")
        if "s_res" in expr and "s_res" not in "\n".join(lines[:-1]):
            factor = plan.variables[e.response.name].factor
            lines.append(
                f"s_res = np.sqrt(np.sum((y - fit.best_fit) ** 2) / (y.size - {len(res.parameters)})) * {factor!r}"
            )
        lines.append(
            f"{var}, {var}_se = propagate(lambda {', '.join(args)}: {expression(expr)}, fit)"
        )
        if d_unit[1] != 1.0:
            lines.append(f"{var}, {var}_se = {var} / {d_unit[1]!r}, {var}_se / {d_unit[1]!r}")
        answers[d.key] = AnswerCode(var, f"{var}_se")
        base[d.key] = f"({expr})"
        helpers["propagate"] = PROPAGATE
    for q, code in answers.items():
        lines.append(f'report(f"{q}, {{what}} (SE)", {code.value}, source)')
        lines.append(f'report(f"standard uncertainty of {q}, {{what}} (SE)", {code.se}, source)')
    return lines, answers, helpers


def _base_expression(text: str, base: dict[str, str], consts: dict[str, float]) -> str | None:
    """A catalogue expression in the script's names: fitted parameters as
    the law's arguments (SI base units), earlier quantities by their own
    expression, the notes' inputs as numbers; None with a name it lacks."""
    import ast

    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id in base:
                node.id = base[node.id]
            elif node.id in consts:
                node.id = repr(consts[node.id])
            elif node.id in _RENAMED:
                node.id = _RENAMED[node.id]
            elif node.id == "n_points":
                node.id = "y.size"
            elif node.id not in _NUMPY_NAMES and node.id != "s_res" and node.id != "abs":
                return None
    return ast.unparse(tree)


PROPAGATE = '''def propagate(f, fit):
    """f at the fitted values of the parameters it takes, and its standard
    error from their covariance (first order, central differences)."""
    names = f.__code__.co_varnames[: f.__code__.co_argcount]
    x = np.array([fit.params[n].value for n in names])
    index = [fit.var_names.index(n) for n in names]
    cov = fit.covar[np.ix_(index, index)]
    grad = np.zeros(x.size)
    for i in range(x.size):
        h = 1e-6 * (abs(x[i]) or 1.0)
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        grad[i] = (f(*up) - f(*down)) / (2 * h)
    return f(*x), np.sqrt(grad @ cov @ grad)
'''


_LMFIT_MODELS = {"gaussian": "GaussianModel", "lorentzian": "LorentzianModel",
                 "voigt": "VoigtModel", "pseudo_voigt": "PseudoVoigtModel"}  # fmt: skip
#: A peak answer's role -> the lmfit parameter of its peak.
_LMFIT_NAMES = {"center": "center", "fwhm": "fwhm", "area": "amplitude", "height": "height"}


def _peak_lines(a: FitAnalysis, x: str) -> list[str]:
    """A composite fit in lmfit's own peak models, as the engine fits it
    (`engine_peaks.py`: the data's units, peaks numbered by centre), started
    at the report's values so it checks the same minimum; every answer the
    report prints with its SE is reported back."""
    from labwright.analysis.analyses.peak_answers import peak_quantities
    from labwright.analysis.engine_peaks import ROLES, baseline_names, degree

    out_ = a.result
    e, res = out_.entry, out_.result
    assert e.composite is not None
    model = _LMFIT_MODELS[e.composite.peak]
    own = baseline_names(e)
    lines = [f"x = {x}", "model = None", f"for i in range(1, {res.peaks + 1}):",
             f"    part = lmfit.models.{model}(prefix=f'p{{i}}_')",
             "    model = part if model is None else model + part"]  # fmt: skip
    deg = degree(res.baseline) if res.baseline else -1
    if deg >= 0:
        lines.append(f"model = model + lmfit.models.PolynomialModel(degree={deg}, prefix='b_')")
    lines.append("params = model.make_params()")
    for rank in range(1, res.peaks + 1):
        for role, lm in (("center", "center"), ("sigma", "sigma"), ("area", "amplitude"),
                         ("fraction", "fraction")):  # fmt: skip
            if f"{role}_{rank}" in res.values:
                lines.append(f"params['p{rank}_{lm}'].set(value={res.value(f'{role}_{rank}')!r})")
    for k in range(deg + 1):
        lines.append(f"params['b_c{k}'].set(value={res.value(f'c{k}')!r})")
    lines += ["fit = model.fit(y, params, x=x, weights=None if sigma is None else 1 / sigma, "
              "scale_covar=sigma is None)", f"what = {_what(a)!r}",
              'report(f"points in the {what}", len(y))',
              f'report(f"peaks in the {{what}}", {res.peaks})']  # fmt: skip
    for q in peak_quantities(e, res):
        if q.key not in res.values or not math.isfinite(res.se(q.key)):
            continue
        role, _, index = q.key.rpartition("_")
        if q.key.startswith("c") and q.key[1:].isdigit():
            lm = f"b_{q.key}"
        elif index.isdigit() and role in _LMFIT_NAMES:
            lm = f"p{index}_{_LMFIT_NAMES[role]}"
        elif ROLES.get(q.key) in _LMFIT_NAMES:  # one peak: the entry's own names
            lm = f"p1_{_LMFIT_NAMES[ROLES[q.key]]}"
        elif q.key in own:  # the formula's baseline (b0), chosen as it is written
            lm = f"b_c{own.index(q.key)}"
        else:
            continue
        lines.append(f"value = fit.params[{lm!r}]")
        lines.append(f'report(f"{q.key}, {{what}} (SE)", value.value)')
        lines.append(f'report(f"standard uncertainty of {q.key}, {{what}} (SE)", value.stderr)')
    return lines


def _scans(b: FitBinding) -> list[tuple[Any, str]]:
    """The tables averaged as repeat scans (the bound one first) and the
    response's column in each."""
    from labwright.analysis.analyses.fit import matching_column

    repeats = [ds for ds in b.extra if (r := b.request.role_of(ds.source)) and r.role == "repeat"]
    if not repeats:
        return []
    out = [(b.dataset, b.response.name)]
    for ds in repeats:
        col = matching_column(ds, b.response)
        if col is not None:
            out.append((ds, col.name))
    return out


def _function_name(key: str) -> str:
    """The law's Python function: named after the catalogue entry."""
    name = "".join(ch if ch.isalnum() else "_" for ch in key).strip("_") or "law"
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"law_{name}"


def _x_codes(b: FitBinding) -> dict[str, str]:
    """Each independent's values as the fit takes them, in the data's units
    (tiled when replicate columns are fitted together)."""
    e = b.entry
    xs = {v.name: f"data[{b.columns[v.name].name!r}].to_numpy()" for v in e.independents}
    reps = _replicates_of(b)
    if len(_scans(b)) <= 1 and len(reps) > 1 and b.request.replicates != "average":
        xs = {k: f"np.tile({v}, {len(reps)})" for k, v in xs.items()}
    return xs


def _to_base(e: Any, data: Any, name: str, values: str) -> str | None:
    """`values` of the independent `name` (data units) in SI base units, as
    the law takes them (`_law_lines`)."""
    from labwright.analysis import engine

    prep = engine._prepare(e, data)
    if isinstance(prep, engine.FitResult):
        return None
    sc = prep.plan.variables[name]
    if sc.absolute and sc.data_unit and sc.data_unit.strip() in ("°C", "degC", "℃"):
        return f"({values} + 273.15) * {sc.factor!r}"
    if sc.absolute and sc.data_unit and sc.data_unit.strip() not in ("K", "kelvin"):
        return None
    return values if sc.factor == 1.0 else f"{values} * {sc.factor!r}"


def drawing(a: FitAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The compendium's calls that redraw the fit's figures from its block:
    the data with the fitted curve and the residuals, and the linearised
    plot with its straight line."""
    out_ = a.result
    b, res = out_.binding, out_.result
    e = b.entry
    if not res.ok or res.peaks or len(e.independents) != 1:
        return KindScript()
    name = e.independents[0].name
    x = np.asarray(out_.data.variables[name], dtype=float)
    lo, hi = float(np.min(x)), float(np.max(x))
    spaced = "geomspace" if lo > 0 and hi / lo > 50 else "linspace"
    grid_base = _to_base(e, out_.data, name, "grid")
    if grid_base is None:
        return KindScript()
    lines: list[str] = []
    for plan in plans:
        if plan.panels is None:
            continue
        if len(plan.panels["panels"]) == 2:  # the fit and its residuals
            lines += [
                caption_comment(plan.key, plan.caption),
                f"x = {_x_codes(b)[name]}",
                f"grid = np.{spaced}(x.min(), x.max(), 200)",
                call(plan.key, [
                    ['("scatter", x, y)', f'("line", grid, fit.eval(x=({grid_base},)))'],
                    ['("scatter", x, y - fit.best_fit)', '("hline", 0.0)'],
                ]),
            ]  # fmt: skip
        else:
            linear = _linear_lines(a)
            if linear is None:
                continue
            lines += [caption_comment(plan.key, plan.caption), *linear]
            lines.append(
                call(
                    plan.key,
                    [['("scatter", lx, ly)', '("line", lgrid, slope * lgrid + intercept)']],
                )
            )
    # The linearised plot's lines may use the law's bare numpy names (log).
    code = "\n".join(lines) + "\n" if lines else ""
    return KindScript(_imports(code) if code else (), code)


def _linear_lines(a: FitAnalysis) -> list[str] | None:
    """The linearised plot's coordinates in the data's units (what the report
    draws, `engine.linear`'s x_shown, y_shown) and its straight line."""
    from labwright.analysis.catalogue.expr import ARRAY
    from labwright.analysis.engine import _expr, linear

    out_ = a.result
    e, b = out_.entry, out_.binding
    plot = e.linear_plot
    if plot is None:
        return None
    line = linear(e, out_.data, out_.result)
    if not line.ok:
        return None
    names = {v.name: code for v, code in zip(e.independents, _x_codes(b).values(), strict=True)}
    names[e.response.name] = "y"
    raws = []
    for text in (plot.x, plot.y):
        expr = _expr(text)
        if not expr.names <= set(names):
            return None  # a parameter or an input in the plot's axis
        with np.errstate(all="ignore"):
            raw = np.asarray(expr.evaluate(dict(out_.data.variables), ARRAY), dtype=float)
        raws.append(np.broadcast_to(raw, np.asarray(out_.data.variables[e.response.name]).shape))
    keep = np.isfinite(raws[0]) & np.isfinite(raws[1])
    code: list[str] = []
    if not keep.all():
        code.append("# A point whose coordinate is not a number (ln of a value <= 0) is left out.")
        code.append('with np.errstate(invalid="ignore", divide="ignore"):')
    for axis, text, raw, shown in (
        ("lx", plot.x, raws[0], line.x_shown), ("ly", plot.y, raws[1], line.y_shown)
    ):  # fmt: skip
        shown = np.asarray(shown, dtype=float)
        ok = raw[keep] != 0
        if shown.shape != raw[keep].shape or not ok.any():
            return None
        k = float(shown[ok][0] / raw[keep][ok][0])
        if not np.allclose(shown, raw[keep] * k, rtol=1e-9):
            return None
        body = expression(_substitute(text, names))
        indent = "" if keep.all() else "    "
        code.append(f"{indent}{axis} = {body}" + ("" if k == 1.0 else f" * {k!r}"))
    if not keep.all():
        code += ["keep = np.isfinite(lx) & np.isfinite(ly)", "lx, ly = lx[keep], ly[keep]"]
    return code + [
        "slope, intercept = np.polyfit(lx, ly, 1)",
        "lgrid = np.linspace(lx.min(), lx.max(), 50)",
    ]


def _substitute(text: str, names: dict[str, str]) -> str:
    import ast

    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = names[node.id]
    return ast.unparse(tree)


def _replace_name(text: str, name: str, new: str) -> str:
    import re

    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", new, text)


def _replicates_of(b: FitBinding) -> list[Any]:
    from labwright.analysis.analyses.fit import replicate_columns

    return replicate_columns(b.dataset, b.response)
