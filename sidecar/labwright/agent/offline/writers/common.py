"""What the kind writers share: tables, p-values and times in words, and the
builder of a "panels" figure spec.

Sentence frames come from phrases.py, numbers from the ledger with the
column's provenance, names are escaped (`src_text`, `src_file`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_text
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.ingest.types import Provenance

FigureBlock = Callable[[FigurePlan], str]
KeyMaker = Callable[[], str]
MAX_TABLE_ROWS = 40
MAX_POINTS = 5000
MONTH_TICKS = ["J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"]
_MONTHS_EN = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


# --- text ----------------------------------------------------------------------------


def unit_text(u: str | None) -> str:
    return src_text(u) if u else ""


def when(
    ledger: Ledger, lang: str, year: float, prov: Provenance, what: str, monthly: bool | str
) -> str:
    """A time as the data resolve it: a year, a month, or (`monthly` ==
    "quarter") a quarter. The month comes from the calendar, not from
    twelfths of the year (1 May 2016 is 0.33 of its year: "April")."""
    from labwright.analysis.timeseries import calendar_months

    y = int(np.floor(year))
    yt = ledger.count(y, prov, f"year of {what}")
    if not monthly:
        return f"{yt}" if lang == "en" else f"{yt} 年"
    m = int(calendar_months(np.array([year]))[0]) % 12 + 1
    if monthly == "quarter":
        q = ledger.count((m - 1) // 3 + 1, prov, f"quarter of {what}")
        return f"{yt} Q{q}" if lang == "en" else f"{yt} 年第 {q} 季度"
    if lang == "en":
        return f"{_MONTHS_EN[m - 1]} {yt}"
    return f"{yt} 年 {ledger.count(m, prov, f'month of {what}')} 月"


def month_name(
    ledger: Ledger, lang: str, m: int, prov: Provenance, what: str, quarterly: bool = False
) -> str:
    if quarterly:  # quarterly data fill one month in three: name the quarter
        q = ledger.count((m - 1) // 3 + 1, prov, what.replace("month", "quarter"))
        return f"Q{q}" if lang == "en" else f"第 {q} 季度"
    if lang == "en":
        return _MONTHS_EN[m - 1]
    return f"{ledger.count(m, prov, what)} 月"


def float_table(spec: str, head: list[str], rows: list[list[str]], caption: str) -> str:
    body = "\n".join(" & ".join(r) + r" \\" for r in rows)
    return (
        "\\begin{table}[H]\n\\centering\\small\n"
        f"\\caption{{{caption}}}\n\\begin{{tabular}}{{{spec}}}\n\\toprule\n"
        + " & ".join(head) + " \\\\\n\\midrule\n" + body + "\n\\bottomrule\n\\end{tabular}\n\\end{table}\n"
    )  # fmt: skip


def p_text(ledger: Ledger, p: float, prov: Provenance | None, what: str) -> str:
    """A p-value; below 0.001 as "< 0.001" (the studentized-range tail is not
    resolved further, statsmodels prints 0)."""
    if p < 1e-3:
        return "< " + ledger.num(1e-3, None, f"reporting floor of {what} (constant)", sig=1)
    return ledger.num(p, prov, what, sig=2)


def p_relation(ledger: Ledger, p: float, prov: Provenance | None, what: str) -> str:
    """ "= 0.032" or "< 0.001", to follow a bare $p$."""
    text = p_text(ledger, p, prov, what)
    return text if text.startswith("<") else "= " + text


def names_list(names: list[str]) -> str:
    return ", ".join(src_text(n) for n in names)


def level_phrase(ledger: Ledger, alpha: float, what: str) -> str:
    return ledger.count(round(alpha * 100), None, f"{what} in per cent (constant)")


def no_text(a: Analysis[Any, Any], ledger: Ledger, lang: str) -> str:
    """For a kind whose words are written elsewhere (the x-y path's figures)."""
    del a, ledger, lang
    return ""


def no_figures(a: Analysis[Any, Any], next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    del a, next_key, lang
    return []


def no_findings(a: Analysis[Any, Any], ledger: Ledger, lang: str) -> list[str]:
    """For a kind whose result is a quantity (an answer) or a description."""
    del a, ledger, lang
    return []


# --- figures -------------------------------------------------------------------------


class Builder:
    """Collects arrays under unique names for one figure."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.arrays: dict[str, np.ndarray] = {}

    def arr(self, values: Any) -> str:
        name = f"{self.key}_a{len(self.arrays)}"
        self.arrays[name] = np.asarray(values, dtype=float)
        return name


def small_multiples(panels: list[dict[str, Any]], row_height: float) -> dict[str, Any]:
    """A grid of small panels, four to a row, 8 inches wide."""
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    return {"panels": panels, "ncols": ncols, "size": [8.0, row_height * nrows + 0.4]}


def days(years: np.ndarray) -> np.ndarray:
    """Decimal years -> matplotlib date numbers (days since 1970-01-01)."""
    return (np.asarray(years, dtype=float) - 1970.0) * 365.2425


def thin(n: int) -> int:
    return max(1, -(-n // MAX_POINTS))


def plain_label(text: str) -> str:
    return axis_label(text, None)


def plan_figure(
    key: str, b: Builder, spec: dict[str, Any], caption: str, analysis: Analysis[Any, Any]
) -> FigurePlan:
    ds = analysis.dataset
    plan = FigurePlan(
        key, "panels", analysis.source, ds.name if ds else analysis.source, dataset=ds
    )
    plan.panels = spec
    plan.arrays = b.arrays
    plan.caption = caption
    plan.analysis = analysis
    return plan
