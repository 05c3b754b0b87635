"""A series of runs in words and figures: the quantity found in each run
(a table), the law fitted across the runs and what it gives; the per-run
quantity against the parameter with the law's curve.

The sentence frames are this kind's own (EN, ZH), every number through the
ledger with the run files' provenance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
from labwright.agent.offline.writers.script import KindScript
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.procedures.run_series import RunSeriesBinding, RunSeriesResult

RunSeriesAnalysis = Analysis[RunSeriesBinding, RunSeriesResult]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "intro": "Each of the {n} files {pattern} is one run at the {p} its name gives. In each "
                 "run {q} was found by the {per} law:",
        "head_file": "Run",
        "cap": "{q} of each run of {pattern}.",
        "law": "The {law} law fitted across the runs (weighted by each run's standard error) "
               "gives:",
        "widened": " The runs scatter about the law more than their own errors allow (reduced "
                   "$\\chi^2 = {chi}$); the uncertainties are widened by its square root.",
        "value": "{name} ${v}$ {u}",
        "cap_fig": "{q} of each run of {pattern} against {p}, with the {law} law fitted across "
                   "the runs.",
    },
    "zh": {
        "intro": "{pattern} 的 {n} 个文件各为一次实验，{p} 由文件名给出。每次实验由{per}求得 {q}：",
        "head_file": "实验",
        "cap": "{pattern} 各次实验的 {q}。",
        "law": "对各次结果拟合{law}（以各自标准误差加权），得：",
        "widened": "各次结果相对定律的离散超出其自身误差（约化 $\\chi^2 = {chi}$），不确定度已按其平方根放大。",
        "value": "{name} ${v}$ {u}",
        "cap_fig": "{pattern} 各次实验的 {q} 对 {p}，及跨实验拟合的{law}。",
    },
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    return _FRAMES["zh" if lang == "zh" else "en"][key].format(**values)


def _name(text: Any, lang: str) -> str:
    return str(text.zh if lang == "zh" else text.en)


def text(a: RunSeriesAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    what = f"runs of {a.source}"
    pattern = src_file(a.source)
    q, p = src_text(r.variable), src_text(r.parameter)
    out = [_f(lang, "intro", n=ledger.count(len(r.runs), None, f"number of {what}"),
              pattern=pattern, p=p, q=q, per=src_text(_name(r.per_run.name, lang)))]  # fmt: skip
    rows = []
    for run in r.runs:
        prov = run.columns[-1].provenance if run.columns else None
        rows.append([
            src_file(run.dataset.source),
            f"${ledger.num(run.value, prov, f'{r.parameter} of {run.dataset.source} (file name)')}$",
            f"${ledger.measured(run.quantity, run.se, prov, f'{r.quantity} of {run.dataset.source} ({r.per_run.key})')}$",
        ])  # fmt: skip
    pu, qu = unit_text(r.parameter_unit), unit_text(r.quantity_unit)
    head = [
        _f(lang, "head_file"),
        f"{p}" + (f" ({pu})" if pu else ""),
        f"{q}" + (f" ({qu})" if qu else ""),
    ]
    out.append(float_table("lrr", head, rows, _f(lang, "cap", q=q, pattern=pattern)))
    values = []
    for ans in r.answers():
        values.append(_f(lang, "value", name=src_text(_name(ans.label, lang)), u=unit_tex(ans.unit),
                         v=ledger.measured(ans.value, ans.se or 0.0, None,
                                           f"{ans.quantity}, {r.law.key} across the {what}")))  # fmt: skip
    law = _f(lang, "law", law=src_text(_name(r.law.name, lang))) + " " + "; ".join(values) + "."
    if r.birge > 1:
        chi = ledger.num(
            r.fit.redchi, None, f"reduced chi-square, {r.law.key} across the {what}", sig=3
        )
        law += _f(lang, "widened", chi=chi)
    out.append(law)
    return "\n\n".join(out) + "\n"


def figures(a: RunSeriesAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    x = np.array([run.value for run in r.runs])
    y = np.array([run.quantity for run in r.runs])
    layers: list[dict[str, Any]] = [
        {"type": "scatter", "x": b.arr(x), "y": b.arr(y), "color": "#1f77b4"}
    ]
    grid = np.linspace(float(x.min()), float(x.max()), 100)
    try:
        curve = r.fit.curve({r.parameter: grid})
        layers.append(
            {"type": "line", "x": b.arr(grid), "y": b.arr(curve), "color": "#c0392b", "lw": 1.5}
        )
    except (ValueError, KeyError):
        pass  # the curve needs what the grid does not give: the points alone
    p1: dict[str, Any] = {"xlabel": axis_label(r.parameter, r.parameter_unit),
                          "ylabel": axis_label(r.variable, r.quantity_unit), "layers": layers}  # fmt: skip
    spec = {"panels": [p1], "ncols": 1, "size": [5.5, 3.4]}
    cap = _f(lang, "cap_fig", q=src_text(r.variable), pattern=src_file(a.source),
             p=src_text(r.parameter), law=src_text(_name(r.law.name, lang)))  # fmt: skip
    return [plan_figure(key, b, spec, cap, a)]


def script(a: RunSeriesAnalysis) -> KindScript:
    r = a.result
    runs = [(run.dataset.source, run.value, run.quantity, run.se) for run in r.runs]
    code = f"""# The {r.quantity} of each run ({r.per_run.key}) and the {r.law.key} law across the runs
# of {a.source} are computed by the fit engine; the block states the per-run values the
# report prints (file, {r.parameter} from the file name, {r.quantity}, its SE).
runs = {runs!r}
for file, value, quantity, se in runs:
    report(f"{r.parameter} of {{file}} (file name)", value)
"""
    return KindScript((), code)
