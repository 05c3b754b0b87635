"""The wide kind in words and figures: every measurement column of a table
without an x, as small multiples against the row number or one colour map.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file
from labwright.agent.offline.writers.common import (
    Builder,
    KeyMaker,
    plain_label,
    plan_figure,
    small_multiples,
    thin,
)
from labwright.agent.offline.writers.script import KindScript, no_script
from labwright.analysis.analyses.wide import WideBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.wide import WideLayout

WideAnalysis = Analysis[WideBinding, WideLayout]


def text(a: WideAnalysis, ledger: Ledger, lang: str) -> str:
    lay = a.result
    ds = a.binding.dataset
    k = sum(len(g) for g in lay.figures) if not lay.heatmap else len(ds.numeric_columns)
    key = "wide_heat_text" if lay.heatmap else "wide_text"
    return (
        phrase(lang, key, file=src_file(a.source), k=ledger.count(k, None, "measurement columns"))
        + "\n"
    )


def figures(a: WideAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    lay = a.result
    ds = a.binding.dataset
    plans = []
    names = [c.name for c in ds.columns if c.is_numeric]
    if lay.heatmap:
        key = next_key()
        b = Builder(key)
        cols = [c for c in ds.columns if c.name in names]
        m = np.column_stack([np.asarray(c.values, dtype=float) for c in cols])
        spec: dict[str, Any] = {"panels": [{"xlabel": phrase(lang, "axis_column"), "ylabel": phrase(lang, "axis_row"),
                            "layers": [{"type": "heatmap", "m": b.arr(m)}]}]}  # fmt: skip
        plans.append(
            plan_figure(key, b, spec, phrase(lang, "cap_wide_all", file=src_file(a.source)), a)
        )
        return plans
    for group in lay.figures:
        key = next_key()
        b = Builder(key)
        panels: list[dict[str, Any]] = []
        for name in group:
            col = ds.column(name)
            y = np.asarray(col.values, dtype=float)
            step = thin(y.size)
            panels.append({"title": plain_label(name), "small": True, "integer_x": True,
                           "layers": [{"type": "line", "x": b.arr(np.arange(1, y.size + 1)[::step]),
                                       "y": b.arr(y[::step]), "color": "#1f4e79"}]})  # fmt: skip
        spec = {**small_multiples(panels, row_height=1.7), "sharex": True}
        plans.append(
            plan_figure(key, b, spec, phrase(lang, "cap_wide", file=src_file(a.source)), a)
        )
    return plans


def script(a: WideAnalysis) -> KindScript:
    return no_script(f"{a.source}: every measurement column against its row number")
