"""The file-series kind in words and figures: one row per file (the same
model fitted to every file, or each file's mean), how each per-file quantity
varies with the run parameter; the per-file results against the parameter
with the model across the runs, and, when the notes ask, every file on its
own in an appendix.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import (
    MAX_TABLE_ROWS,
    Builder,
    KeyMaker,
    float_table,
    plain_label,
    plan_figure,
    small_multiples,
    unit_text,
)
from labwright.agent.offline.writers.script import KindScript, read_table, source_of
from labwright.analysis.analyses.series import SeriesBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.series_summary import SeriesSummary
from labwright.ingest.types import Provenance

SeriesAnalysis = Analysis[SeriesBinding, SeriesSummary]


def text(a: SeriesAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.fits import MODELS

    s = a.result
    fs = s.series
    param = _parameter(s, lang)
    out = phrase(lang, "ser_intro", k=ledger.count(len(fs.datasets), None, "files in the series"),
                 pattern=src_text(fs.pattern), param=param) + "\n"  # fmt: skip
    if s.mode == "fit" and s.model_key:
        out += phrase(lang, "ser_fit", formula=MODELS[s.model_key].formula, y=src_text(s.y),
                      x=src_text(s.x or "")) + "\n"  # fmt: skip
    else:
        out += phrase(lang, "ser_mean", y=src_text(s.y)) + "\n"
    from labwright.analysis.presentation import decimals_of

    decimals = decimals_of(np.asarray(fs.parameters, dtype=float))
    rows = []
    for i, ds in enumerate(fs.datasets[:MAX_TABLE_ROWS]):
        p = Provenance(file=ds.source)
        cells = [src_file(ds.source.rsplit("/", 1)[-1]),
                 f"${ledger.fixed(fs.parameters[i], decimals, p, 'run parameter from the file name')}$"]  # fmt: skip
        for j, q in enumerate(s.quantities):
            v, e = s.values[i, j], s.errors[i, j]
            if np.isfinite(v) and np.isfinite(e) and e > 0:
                cells.append(f"${ledger.measured(v, e, p, f'{q} of {ds.source}')}$")
            elif np.isfinite(v):
                cells.append(f"${ledger.num(v, p, f'{q} of {ds.source}')}$")
            else:
                cells.append("--")
        rows.append(cells)
    param_head = phrase(lang, "col_param")
    if fs.parameter_name != "run number":
        param_head = src_text(fs.parameter_name)
        if fs.parameter_unit:
            param_head += f" ({src_text(fs.parameter_unit)})"
    head = [phrase(lang, "col_file"), param_head] + [
        f"${q}$" if s.mode == "fit" else phrase(lang, "col_mean") for q in s.quantities
    ]
    out += float_table("l" + "r" * (1 + len(s.quantities)), head, rows,
                        phrase(lang, "ser_table_caption", pattern=src_text(fs.pattern)))  # fmt: skip
    if len(fs.datasets) > MAX_TABLE_ROWS:
        out += (
            phrase(
                lang, "ser_more", k=ledger.count(MAX_TABLE_ROWS, None, "rows in the per-file table")
            )
            + "\n"
        )
    if s.failed:
        out += (
            phrase(lang, "ser_failed", files=", ".join(src_file(f) for f in s.failed[:20])) + "\n"
        )
    out += "".join(f"{sentence}\n\n" for sentence in _series_across(s, param, ledger, lang))
    return out


def _parameter(s: SeriesSummary, lang: str) -> str:
    """The run parameter as the text names it."""
    if s.series.parameter_name == "run number":
        return "run number" if lang == "en" else "运行编号"
    return src_text(s.series.parameter_name)


def findings(a: SeriesAnalysis, ledger: Ledger, lang: str) -> list[str]:
    """How each per-file quantity depends on the run parameter (the law
    across the files, or no dependence and the mean): "how does the decay
    time depend on temperature" answered."""
    return _series_across(a.result, _parameter(a.result, lang), ledger, lang)


def _model_units(key: str, ux: str | None, uy: str | None) -> list[str | None]:
    """Units of a model's parameters for y(x) (see fits.MODELS)."""
    if key == "linear":
        return [f"{uy}/{ux}" if uy and ux else uy, uy]
    if key == "exponential":
        return [uy, ux]
    if key == "exponential_offset":
        return [uy, ux, uy]
    return [None] * 3


def _quantity_units(s: SeriesSummary) -> list[str | None]:
    if s.mode != "fit" or not s.model_key:
        return [s.unit]
    return _model_units(s.model_key, s.x_unit, s.unit)


def _primed(formula: str, symbols: tuple[str, ...]) -> tuple[str, list[str]]:
    """The across-files model with primed parameters (A', \\tau'), so they are
    not read as the per-file A and \\tau. A formula with a digit in it keeps its
    symbols: the provenance check knows the model formulas only as written."""
    if any(ch.isdigit() for ch in formula):
        return formula, list(symbols)
    for sym in symbols:
        primed = sym.replace("\\", "\\\\") + "'"  # a replacement string: backslashes doubled
        formula = re.sub(rf"(?<![A-Za-z\\]){re.escape(sym)}(?![A-Za-z])", primed, formula)
    return formula, [s + "'" for s in symbols]


def _series_across(s: SeriesSummary, param: str, ledger: Ledger, lang: str) -> list[str]:
    """How each per-file quantity varies with the run parameter, one sentence each."""
    from labwright.analysis.fits import MIN_R2

    if s.series.parameter_name == "run number" or not s.across:
        return []
    out: list[str] = []
    units = _quantity_units(s)
    pu = s.series.parameter_unit
    prov = Provenance(file=s.series.pattern)
    for j, q in enumerate(s.quantities):
        qname = f"${q}$" if s.mode == "fit" else phrase(lang, "axis_mean_of", y=src_text(s.y))
        qunit = units[j] if j < len(units) else None
        fit = s.across[j]
        what = f"fit of {q} against {s.series.parameter_name} over the files of {s.series.pattern}"
        if fit is not None:
            params = []
            formula, symbols = _primed(fit.model.formula, fit.model.params)
            for sym, value, sigma, unit in zip(
                symbols,
                fit.params,
                fit.sigmas,
                _model_units(fit.model.key, pu, qunit),
                strict=False,
            ):
                text = f"${sym} = {ledger.measured(value, sigma, prov, f'parameter {sym} of the {what}')}$"
                params.append(text + (f"~{src_text(unit)}" if unit else ""))
            out.append(phrase(
                lang, "ser_across_fit", q=qname, param=param, formula=formula,
                k=ledger.count(fit.n, prov, f"points in the {what}"), params=", ".join(params),
                r2=ledger.num(fit.r2, prov, f"R^2 of the {what}", sig=4),
            ))  # fmt: skip
        else:
            mean, se = s.across_mean[j]
            if not (np.isfinite(mean) and np.isfinite(se) and se > 0):
                continue
            out.append(phrase(
                lang, "ser_across_none", q=qname, param=param, unit=unit_text(qunit),
                min_r2=ledger.num(MIN_R2, None, "R^2 threshold for reporting a fit (constant)", sig=2),
                mean=ledger.measured(mean, se, prov, f"mean of {q} over the files of {s.series.pattern}"),
            ))  # fmt: skip
    return out


def figures(a: SeriesAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    s = a.result
    fs = s.series
    key = next_key()
    b = Builder(key)
    x = np.asarray(fs.parameters, dtype=float)
    panels = []
    for j, q in enumerate(s.quantities[:3]):
        label = (
            f"${q}$" if s.mode == "fit" else axis_label(phrase(lang, "axis_mean_of", y=s.y), s.unit)
        )
        layers: list[dict[str, Any]] = [
            {"type": "errorbar", "x": b.arr(x), "y": b.arr(s.values[:, j]),
             "yerr": b.arr(np.nan_to_num(s.errors[:, j])), "color": "#1f4e79"}]  # fmt: skip
        fit = s.across[j] if j < len(s.across) else None
        if fit is not None:  # the model across the runs, drawn above the points
            grid = np.linspace(float(np.nanmin(x)), float(np.nanmax(x)), 200)
            layers.append({"type": "line", "x": b.arr(grid), "y": b.arr(fit.predict(grid)),
                           "color": "#c0392b", "lw": 1.8})  # fmt: skip
        panels.append({"xlabel": axis_label(fs.parameter_name, fs.parameter_unit), "ylabel": label,
                       "layers": layers})  # fmt: skip
    spec = {
        "panels": panels,
        "ncols": len(panels),
        "size": [min(9.0, 3.2 * len(panels) + 0.5), 3.2],
    }
    cap = phrase(lang, "cap_series", pattern=src_text(fs.pattern))
    plans = [plan_figure(key, b, spec, cap, a)]
    if a.binding.appendix:
        plans += _series_appendix(a, next_key, lang)
    return plans


APPENDIX_PER_FIGURE = 12
APPENDIX_MAX_FIGURES = 20  # 240 files; the plan's figure cap applies as well


def _series_appendix(a: SeriesAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    """Every file of the series as a small panel (data and, in fit mode, the
    series' model with that file's parameters), twelve to a figure. Marked
    "appendix" in the spec so the writer puts them after the discussion."""
    from labwright.analysis.fits import MODELS

    s = a.result
    fs = s.series
    plans = []
    files = list(enumerate(fs.datasets))
    for start in range(
        0, min(len(files), APPENDIX_PER_FIGURE * APPENDIX_MAX_FIGURES), APPENDIX_PER_FIGURE
    ):
        key = next_key()
        b = Builder(key)
        panels: list[dict[str, Any]] = []
        for i, ds in files[start : start + APPENDIX_PER_FIGURE]:
            try:
                y = np.asarray(ds.column(s.y).values, dtype=float)
                x = (np.asarray(ds.column(s.x).values, dtype=float) if s.x
                     else np.arange(1, y.size + 1, dtype=float))  # fmt: skip
            except KeyError:
                continue
            layers: list[dict[str, Any]] = [
                {"type": "scatter", "x": b.arr(x), "y": b.arr(y), "color": "#1f77b4"}
            ]
            if s.mode == "fit" and s.model_key and np.all(np.isfinite(s.values[i])):
                grid = np.linspace(float(np.nanmin(x)), float(np.nanmax(x)), 100)
                fy = MODELS[s.model_key].func(grid, *s.values[i])
                layers.append({"type": "line", "x": b.arr(grid), "y": b.arr(fy),
                               "color": "#c0392b", "lw": 1.5})  # fmt: skip
            panels.append({"title": plain_label(ds.source.rsplit("/", 1)[-1]), "small": True,
                           "integer_x": s.x is None, "layers": layers})  # fmt: skip
        if not panels:
            continue
        spec = {**small_multiples(panels, row_height=1.8), "appendix": True}
        first = fs.datasets[start].source.rsplit("/", 1)[-1]
        last = fs.datasets[min(start + len(panels), len(fs.datasets)) - 1].source.rsplit("/", 1)[-1]
        cap = phrase(lang, "cap_series_appendix", pattern=src_text(fs.pattern),
                     first=src_file(first), last=src_file(last),
                     x=src_text(s.x or phrase(lang, "axis_row")), y=src_text(s.y))  # fmt: skip
        plans.append(plan_figure(key, b, spec, cap, a))
    return plans


def _file_pattern(pattern: str) -> tuple[str, str, str]:
    """(glob, regex of the file name, folder) of a series' pattern
    ("runs/decay_T#K.csv": the number where the # is, as series_files reads it)."""
    folder, _, name = pattern.rpartition("/")
    head, _, tail = name.partition("#")
    regex = re.escape(head) + r"(\d+(?:[._p]\d+)?)" + re.escape(tail)
    return (folder + "/" if folder else "") + head + "*" + tail, regex, folder


def script(a: SeriesAnalysis) -> KindScript:
    from labwright.agent.offline.writers.generic_fit import CHOOSE_MODEL, FIT_MODEL, IMPORTS

    s = a.result
    fs = s.series
    glob, regex, _folder = _file_pattern(fs.pattern)
    first = fs.datasets[0]
    lines = [
        f"# The files named like {fs.pattern}: the number in the name is the run's "
        + ("number." if fs.parameter_name == "run number" else f"{fs.parameter_name}."),
        "files = []",
        f"for path in DATA.glob({glob!r}):",
        f"    named = re.fullmatch({regex!r}, path.name)",
        "    if named:",
        '        number = float(named.group(1).replace("p", ".").replace("_", "."))',
        "        files.append((path.relative_to(DATA).as_posix(), number))",
        "files.sort(key=lambda f: f[1])",
        'report("files in the series", len(files))',
        f'report("rows of the first file", len(table(files[0][0])), {source_of(first.provenance)!r})',
        "for file, parameter in files:",
        '    report("run parameter from the file name", parameter, file)',
        "per_file, per_error = [], []",
    ]
    if s.mode == "fit" and s.model_key:
        lines += [
            "# The model the report fitted to every file: the one chosen for the first",
            "# files that any model explains.",
            "for file, _ in files[:5]:",
            "    " + read_table(first, file="file"),
            f"    chosen = choose_model(df[{s.x!r}], df[{s.y!r}])",
            "    if chosen is not None:",
            "        key = chosen[0]",
            "        break",
            "for file, _parameter in files:",
            "    " + read_table(first, file="file"),
            f"    params, errors, _, _, _ = fit_model(key, df[{s.x!r}], df[{s.y!r}])",
            "    for q, value, error in zip(SYMBOLS[key], params, errors, strict=False):",
            '        report(f"{q} of {file}", value, file)',
            '        report(f"standard uncertainty of {q} of {file}", error, file)',
            "    per_file.append(params)",
            "    per_error.append(errors)",
        ]
    else:
        lines += [
            "for file, _parameter in files:",
            "    " + read_table(first, file="file"),
            f"    values = df[{s.y!r}].to_numpy(dtype=float)",
            "    values = values[np.isfinite(values)]",
            "    mean, se = values.mean(), values.std(ddof=1) / np.sqrt(values.size)",
            '    report(f"mean of {file}", mean, file)',
            '    report(f"standard uncertainty of mean of {file}", se, file)',
            "    per_file.append([mean])",
            "    per_error.append([se])",
        ]
    lines += [
        "per_file, per_error = np.array(per_file), np.array(per_error)",
        "parameters = np.array([p for _, p in files])",
    ]
    if fs.parameter_name != "run number":
        from labwright.analysis.fits import MODELS

        primed = {k: _primed(m.formula, m.params)[1] for k, m in MODELS.items()}
        lines += [
            "# The parameters across the files, primed to tell them from a file's own",
            "# (a formula with a digit in it keeps its symbols).",
            f"ACROSS = {primed!r}",
            "across = []  # the model of each quantity against the run parameter",
        ]
        for j, q in enumerate(s.quantities):
            what = f"fit of {q} against {fs.parameter_name} over the files of {fs.pattern}"
            mean_what = f"mean of {q} over the files of {fs.pattern}"
            lines += [
                f"chosen = choose_model(parameters, per_file[:, {j}])",
                "across.append(chosen)",
                "if chosen is None:",
                f"    column = per_file[:, {j}][np.isfinite(per_file[:, {j}])]",
                f"    report({mean_what!r}, column.mean())",
                f"    report({'standard uncertainty of ' + mean_what!r}, "
                "column.std(ddof=1) / np.sqrt(column.size))",
                '    report("R^2 threshold for reporting a fit (constant)", MIN_R2)',
                "else:",
                "    key_across, params, errors, r2, n = chosen",
                f"    what = {what!r}",
                '    report(f"points in the {what}", n)',
                '    report(f"R^2 of the {what}", r2)',
                "    for sym, value, error in zip(ACROSS[key_across], params, errors, strict=False):",
                '        report(f"parameter {sym} of the {what}", value)',
                '        report(f"standard uncertainty of parameter {sym} of the {what}", error)',
            ]
    helpers = {"fit_model": FIT_MODEL, "choose_model": CHOOSE_MODEL}
    return KindScript((*IMPORTS, "import re"), "\n".join(lines) + "\n", helpers)


def drawing(a: SeriesAnalysis, plans: list[FigurePlan]) -> KindScript:
    """Each per-file quantity against the run parameter with its error bars,
    and the model across the runs where one explains it."""
    s = a.result
    lines: list[str] = []
    for plan in plans:
        if plan.panels is None or plan.panels.get("appendix"):
            continue
        lines += [caption_comment(plan.key, plan.caption), "panels = []"]
        lines += [
            f"for j in range({min(3, len(s.quantities))}):",
            '    layers = [("errorbar", parameters, per_file[:, j], np.nan_to_num(per_error[:, j]))]',
        ]
        if s.series.parameter_name != "run number":
            lines += [
                "    if across[j] is not None:",
                "        grid = np.linspace(np.nanmin(parameters), np.nanmax(parameters), 200)",
                '        layers.append(("line", grid, MODELS[across[j][0]](grid, *across[j][1])))',
            ]
        lines += ["    panels.append(layers)", f"figure({plan.key!r}, *panels)"]
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n" if lines else "")
