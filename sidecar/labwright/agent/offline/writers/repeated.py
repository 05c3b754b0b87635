"""The repeated-measurements kind in words and figures: mean, spread,
standard error and the best estimate; the readings in order with their mean
and a one-SD band, and their histogram.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.analyses.repeated import RepeatedBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.repeated import Repeated

RepeatedAnalysis = Analysis[RepeatedBinding, Repeated]


def text(a: RepeatedAnalysis, ledger: Ledger, lang: str) -> str:
    s = a.result
    col = a.binding.column
    prov = col.provenance
    mean, sd = ledger.mean_and_spread(s.mean, s.sd, prov)
    text = phrase(
        lang, "rep_text", y=src_text(s.name), unit=unit_text(col.unit),
        n=ledger.count(s.n, prov, "number of readings"), mean=mean, sd=sd,
        se=ledger.num(s.se, prov, "standard error of the mean", sig=2),
        best=ledger.measured(s.mean, s.se, prov, "mean of the readings (best estimate)"),
    )  # fmt: skip
    if s.shapiro_p is not None:
        text += phrase(
            lang, "rep_normal", p=ledger.num(s.shapiro_p, prov, "Shapiro-Wilk p-value", sig=2)
        )
    return text + "\n"


def figures(a: RepeatedAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    s = a.result
    col = a.binding.column
    v = np.asarray(col.values, dtype=float)
    v = v[np.isfinite(v)]
    key = next_key()
    b = Builder(key)
    idx = np.arange(1, v.size + 1, dtype=float)
    p1: dict[str, Any] = {"xlabel": phrase(lang, "axis_reading"), "ylabel": axis_label(col.name, col.unit), "integer_x": True,
          "layers": [{"type": "scatter", "x": b.arr(idx), "y": b.arr(v), "color": "#1f77b4"},
                     {"type": "hline", "y": s.mean, "color": "#c0392b"},
                     {"type": "band", "y0": s.mean - s.sd, "y1": s.mean + s.sd, "color": "#c0392b"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(col.name, col.unit), "ylabel": phrase(lang, "axis_count"),
          "layers": [{"type": "hist", "y": b.arr(v)}, {"type": "vline", "x": s.mean, "color": "#c0392b"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    cap = phrase(lang, "cap_repeated", y=src_text(col.name), file=src_file(a.source))
    return [plan_figure(key, b, spec, cap, a)]


def script(a: RepeatedAnalysis) -> KindScript:
    col = a.binding.column.name
    code = f"""{read_table(a.binding.dataset)}
readings = df[{col!r}].to_numpy(dtype=float)
readings = readings[np.isfinite(readings)]
n = readings.size
mean = readings.mean()
sd = readings.std(ddof=1)
se = sd / np.sqrt(n)
report("number of readings", n)
report("mean", mean)
report("sample standard deviation (ddof=1)", sd)
report("standard error of the mean", se)
report("mean of the readings (best estimate)", mean)
report("standard uncertainty of mean of the readings (best estimate)", se)
"""
    # The mean the notes ask ("the resistance", "the mean density D") is an
    # answer: the restatement after the block compares it as the report does.
    asked = a.result.asked
    answers = {asked: AnswerCode("mean", "se")} if asked else {}
    return KindScript(("import numpy as np",), code, answers=answers)


def drawing(a: RepeatedAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The readings in order with their mean and one SD either side, and
    their histogram with the mean."""
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            "order = np.arange(1, n + 1, dtype=float)",
            call(plan.key, [
                ['("scatter", order, readings)', '("hline", mean)', '("band", mean - sd, mean + sd)'],
                ['("hist", readings)', '("vline", mean)'],
            ]),
        ]  # fmt: skip
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
