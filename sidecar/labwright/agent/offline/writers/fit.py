"""The fit kind in words and figures: the law with its formula, which column
is which variable (and why), what was done to the data (background,
averaging), the fitted parameters and derived quantities with their SE; the
data with the fitted curve and the residuals, and the law's customary
linearised plot (Lineweaver–Burk, ln k against 1/T) as a companion figure.

Every number goes through the ledger with the provenance of the response
column; the frames are this kind's own (EN, ZH).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.pyformat import expression
from labwright.agent.offline.results_table import unit_tex
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure
from labwright.agent.offline.writers.script import KindScript, read_table
from labwright.analysis.analyses.fit import FitBinding, FitOutcome
from labwright.analysis.catalogue.custom import formula_latex
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import asks_log_axes, axis_label, unit_mathtext

FitAnalysis = Analysis[FitBinding, FitOutcome]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "intro": "The {law} ${latex}$ was fitted to {file} by least squares ({n} points): {binds}.",
        "bind": "${sym}$ is {col}",
        "prep": "Before the fit, {what}.",
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
        "peaks": "拟合了 {n} 个{shape}峰叠加在{baseline}基线上的模型（{chosen}）；上式为其中一个峰。",
        "by_aicc_both": "峰数与基线由修正的赤池信息准则选定",
        "by_notes_both": "峰数与基线按实验说明的要求",
        "by_notes_count": "峰数按实验说明的要求，基线由修正的赤池信息准则选定",
        "by_notes_base": "基线按实验说明的要求，峰数由修正的赤池信息准则选定",
        "gives": "拟合得到 {values}{quality}。",
        "weighted": "（按给定不确定度加权）",
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


def _what(a: FitAnalysis) -> str:
    return f"{a.result.entry.key} fitted to {a.source}"


def text(a: FitAnalysis, ledger: Ledger, lang: str) -> str:
    out_ = a.result
    b, res = out_.binding, out_.result
    e = b.entry
    prov = b.response.provenance
    what = _what(a)
    law = _name(a, lang)
    if not res.ok:
        why = res.message(lang) if res.message else ""
        return _f(lang, "failed", law=law, file=src_file(a.source), why=src_text(why)) + "\n"
    sep = "; " if lang == "en" else "；"
    latex, names = _as_written(a)
    binds = sep.join(
        _f(lang, "bind", sym=names.get(v.name, v.name) if len(names.get(v.name, v.name)) == 1
           else f"\\mathrm{{{names.get(v.name, v.name)}}}",
           col=src_text(b.columns[v.name].name + (f" ({b.units[v.name]})" if b.units.get(v.name) else "")))
        for v in e.variables
    )  # fmt: skip
    parts = [_f(lang, "intro", law=law, latex=f"\\lwtext{{{latex}}}", file=src_file(a.source), binds=binds,
                n=ledger.count(res.n, prov, f"points in the {what}"))]  # fmt: skip
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
        cap = _f(lang, "cap", law=law, file=src_file(a.source), y=src_text(ycol.name),
                 x=src_text(b.columns[xname].name))  # fmt: skip
    else:
        x = np.asarray(res.fitted, dtype=float)
        xlabel = axis_label(_f(lang, "fitted"), b.units.get(yname))
        span = np.array([np.nanmin(y), np.nanmax(y)])
        p1 = {"xlabel": xlabel, "ylabel": ylabel,
              "layers": [{"type": "scatter", "x": fb.arr(x), "y": fb.arr(y), "color": "#1f77b4"},
                         {"type": "line", "x": fb.arr(span), "y": fb.arr(span), "color": "#888888",
                          "lw": 1.0}]}  # fmt: skip
        cap = _f(lang, "cap_obs", law=law, file=src_file(a.source), y=src_text(ycol.name))
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
    cap = _f(lang, "cap_lin", file=src_file(a.source))
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
        lines.append(f"{_py(v.name)} = {expr} * {sc.factor!r}  # {v.name} in SI base units")
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
        f"def law_{tag}(x, {', '.join(_py(n) for n in pnames)}):",
        f"    ({names},) = x" if len(e.independents) == 1 else f"    {names} = x",
        *(f"    {_py(k)} = {v!r}" for k, v in consts.items()),
        *(
            [f"    return {body}"]
            if response == 1.0
            else ["    # in the response's unit", f"    return ({body}) / {response!r}"]
        ),
        f"model = lmfit.Model(law_{tag}, independent_vars=['x'])",
        f"params = model.make_params(**{starts!r})",
        f"fit_{tag} = model.fit(y, params, x=({names},), "
        "weights=None if sigma is None else 1 / sigma, scale_covar=sigma is None)",
    ]
    return lines


def _to_display(e: Any, data: Any, name: str) -> float:
    from labwright.analysis import engine

    prep = engine._prepare(e, data)
    assert not isinstance(prep, engine.FitResult)
    return float(prep.plan.display[name][1] / prep.plan.params[name].factor)


#: The numpy names a catalogue formula may use bare (the law functions).
_NUMPY_NAMES = ("exp", "log", "log10", "sqrt", "sin", "cos", "tan", "pi", "arctan", "tanh")


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
    bare = (f"from numpy import {', '.join(names)}",) if names else ()
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
    for var, n in b.per.items():  # a column timed over n periods ("10T"): one period
        spans = reps if var == e.response.name else [b.columns[var].name]
        lines.append(f"data[{spans!r}] = data[{spans!r}] / {n}  # the time of {n} periods")
    xs = {v.name: f"data[{b.columns[v.name].name!r}].to_numpy()" for v in e.independents}
    if len(scans) > 1:
        pass  # y and sigma are the scans' mean (above)
    elif len(reps) > 1 and b.request.replicates != "average":
        lines.append(f"y = np.concatenate([data[c].to_numpy() for c in {reps!r}])")
        xs = {k: f"np.tile({v}, {len(reps)})" for k, v in xs.items()}
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
            col = next(
                (c for c in ds.numeric_columns if c.name == b.response.name),
                ds.numeric_columns[-1],
            )
            lines.append(
                f"y = y - {read_table(ds, 'bg').split(' = ', 1)[1]}[{col.name!r}].mean()  # background"
            )
    if res.peaks:
        lines += _peak_lines(a, xs[e.independents[0].name])
        return KindScript(_imports("\n".join(lines)), "\n".join(lines) + "\n")
    law = _law_lines(e, out_.data, res, xs, "law")
    if law is None:
        return KindScript((), f"# The {e.name.en} on this temperature scale is not written out.\n")
    lines += law
    lines.append(f"what = {what!r}")
    lines.append('report(f"points in the {what}", len(y))')
    for p in [p.name for p in e.parameters if p.name in res.values]:
        k = _to_display(e, out_.data, p)
        lines.append(
            f"value = fit_law.params[{_py(p)!r}]  # to {res.units.get(p) or 'a pure number'}"
        )
        lines.append(f'report(f"{p}, {{what}} (SE)", value.value * {k!r})')
        lines.append(f'report(f"standard uncertainty of {p}, {{what}} (SE)", value.stderr * {k!r})')
    return KindScript(_imports("\n".join(lines)), "\n".join(lines) + "\n")


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
    lines += ["fit_law = model.fit(y, params, x=x, weights=None if sigma is None else 1 / sigma, "
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
        lines.append(f"value = fit_law.params[{lm!r}]")
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


def _replace_name(text: str, name: str, new: str) -> str:
    import re

    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", new, text)


def _replicates_of(b: FitBinding) -> list[Any]:
    from labwright.analysis.analyses.fit import replicate_columns

    return replicate_columns(b.dataset, b.response)
