"""Wide tables: one row per year with a column per month, or many columns
of the same kind.

A year x month table is one monthly series written in twelve columns; it is
melted back into that series (all twelve columns, none dropped) so the time
series analysis applies. Any other table with many measurement columns is
shown whole: small multiples of up to `PER_FIGURE` panels, or a heatmap when
there are more columns than small multiples can show; what is left out is
counted and said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from labwright.analysis.roles import TableRoles

WIDE_MIN = 6
PER_FIGURE = 12
MAX_PANELS = 36

_MONTHS = (
    ("jan", "january", "1月", "一月"), ("feb", "february", "2月", "二月"),
    ("mar", "march", "3月", "三月"), ("apr", "april", "4月", "四月"),
    ("may", "may", "5月", "五月"), ("jun", "june", "6月", "六月"),
    ("jul", "july", "7月", "七月"), ("aug", "august", "8月", "八月"),
    ("sep", "september", "9月", "九月"), ("oct", "october", "10月", "十月"),
    ("nov", "november", "11月", "十一月"), ("dec", "december", "12月", "十二月"),
)  # fmt: skip


def month_of(name: str) -> int | None:
    """1..12 when a column name is a month (Jan, January, 1月, M01, 01)."""
    s = name.strip().lower().rstrip(".")
    for i, forms in enumerate(_MONTHS, start=1):
        if s in forms or (len(s) >= 3 and forms[1].startswith(s)) or s == "sept" and i == 9:
            return i
    m = re.fullmatch(r"m?0?(\d{1,2})", s)
    if m and 1 <= int(m.group(1)) <= 12:
        return int(m.group(1))
    return None


@dataclass
class MonthlyWide:
    year_column: str
    month_columns: list[str]  # in calendar order
    years: np.ndarray  # decimal years (mid-month), row-major: year then month
    values: np.ndarray
    other_columns: list[str]  # annual means and the like, not part of the series


def monthly_wide(roles: TableRoles) -> MonthlyWide | None:
    """The table as one monthly series, when it is a year x month table."""
    year = next((c for c in roles.columns if c.time is not None and c.time.format == "year"), None)
    if year is None:
        return None
    months: dict[int, str] = {}
    for c in roles.columns:
        if c.name == year.name or c.role not in ("measurement", "category", "constant"):
            continue
        m = month_of(c.name)
        if m is not None and m not in months:
            months[m] = c.name
    if len(months) < WIDE_MIN:
        return None
    yv = np.asarray(roles.column(year.name).values, dtype=float)
    order = sorted(months)
    cols = [months[m] for m in order]
    grid = np.column_stack([np.asarray(roles.column(c).values, dtype=float) for c in cols])
    years = (yv[:, None] + (np.array(order, dtype=float)[None, :] - 0.5) / 12.0).ravel()
    others = [
        c.name
        for c in roles.columns
        if c.name not in cols and c.name != year.name and c.role == "measurement"
    ]
    return MonthlyWide(year.name, cols, years, grid.ravel(), others)


@dataclass
class WideLayout:
    figures: list[list[str]]  # column names per small-multiples figure
    heatmap: bool  # too many columns: one heatmap of all of them instead
    left_out: list[str]


def layout(names: list[str]) -> WideLayout:
    """Small multiples of every column, split over figures; a heatmap beyond
    `MAX_PANELS` columns (then nothing is left out either)."""
    if len(names) > MAX_PANELS:
        return WideLayout([], True, [])
    figs = [names[i : i + PER_FIGURE] for i in range(0, len(names), PER_FIGURE)]
    return WideLayout(figs, False, [])
