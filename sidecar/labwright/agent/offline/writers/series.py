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
from labwright.agent.offline.writers.script import KindScript, read_table
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
    param = (
        phrase(lang, "col_param")
        if fs.parameter_name == "run number"
        else src_text(fs.parameter_name)
    )
    if lang == "en" and fs.parameter_name == "run number":
        param = "run number"
    if lang == "zh" and fs.parameter_name == "run number":
        param = "运行编号"
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
    out += _series_across(s, param, ledger, lang)
    return out


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


def _series_across(s: SeriesSummary, param: str, ledger: Ledger, lang: str) -> str:
    """How each per-file quantity varies with the run parameter."""
    from labwright.analysis.fits import MIN_R2

    if s.series.parameter_name == "run number" or not s.across:
        return ""
    out = ""
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
            out += phrase(
                lang, "ser_across_fit", q=qname, param=param, formula=formula,
                k=ledger.count(fit.n, prov, f"points in the {what}"), params=", ".join(params),
                r2=ledger.num(fit.r2, prov, f"R^2 of the {what}", sig=4),
            ) + "\n\n"  # fmt: skip
        else:
            mean, se = s.across_mean[j]
            if not (np.isfinite(mean) and np.isfinite(se) and se > 0):
                continue
            out += phrase(
                lang, "ser_across_none", q=qname, param=param, unit=unit_text(qunit),
                min_r2=ledger.num(MIN_R2, None, "R^2 threshold for reporting a fit (constant)", sig=2),
                mean=ledger.measured(mean, se, prov, f"mean of {q} over the files of {s.series.pattern}"),
            ) + "\n\n"  # fmt: skip
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


def script(a: SeriesAnalysis) -> KindScript:
    from labwright.agent.offline.writers.generic_fit import FIT_MODEL, IMPORTS

    s = a.result
    fs = s.series
    files = [(ds.source, fs.parameters[i]) for i, ds in enumerate(fs.datasets)]
    lines = [f"files = {files!r}", "per_file = []"]
    if s.mode == "fit" and s.model_key:
        lines += [
            "for file, _parameter in files:",
            "    " + read_table(fs.datasets[0], file="file"),
            f"    params, errors, _, _, _ = fit_model({s.model_key!r}, df[{s.x!r}], df[{s.y!r}])",
            f"    for q, value, error in zip({list(s.quantities)!r}, params, errors, strict=False):",
            '        report(f"{q} of {file}", value)',
            '        report(f"standard uncertainty of {q} of {file}", error)',
            "    per_file.append(params)",
        ]
    else:
        lines += [
            "for file, _parameter in files:",
            "    " + read_table(fs.datasets[0], file="file"),
            f"    values = df[{s.y!r}].to_numpy(dtype=float)",
            "    values = values[np.isfinite(values)]",
            "    mean, se = values.mean(), values.std(ddof=1) / np.sqrt(values.size)",
            '    report(f"mean of {file}", mean)',
            '    report(f"standard uncertainty of mean of {file}", se)',
            "    per_file.append([mean])",
        ]
    lines += ["per_file = np.array(per_file)", "parameters = np.array([p for _, p in files])"]
    if fs.parameter_name != "run number":
        for j, q in enumerate(s.quantities):
            fit = s.across[j] if j < len(s.across) else None
            what = f"fit of {q} against {fs.parameter_name} over the files of {fs.pattern}"
            if fit is not None:
                _, symbols = _primed(fit.model.formula, fit.model.params)
                lines += [
                    f"what = {what!r}",
                    f"params, errors, r2, n, _ = fit_model({fit.model.key!r}, parameters, per_file[:, {j}])",
                    'report(f"points in the {what}", n)',
                    'report(f"R^2 of the {what}", r2)',
                    f"for sym, value, error in zip({symbols!r}, params, errors, strict=False):",
                    '    report(f"parameter {sym} of the {what}", value)',
                    '    report(f"standard uncertainty of parameter {sym} of the {what}", error)',
                ]
            else:
                mean_what = f"mean of {q} over the files of {fs.pattern}"
                lines += [
                    f"column = per_file[:, {j}][np.isfinite(per_file[:, {j}])]",
                    f"report({mean_what!r}, column.mean())",
                    f"report({'standard uncertainty of ' + mean_what!r}, column.std(ddof=1) / np.sqrt(column.size))",
                ]
    return KindScript(IMPORTS, "\n".join(lines) + "\n", {"fit_model": FIT_MODEL})
