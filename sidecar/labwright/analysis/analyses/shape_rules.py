"""Rules about a table's shape that more than one kind consults: panel data,
one series per station, the columns the notes name first, the goals that
ask about time.
"""

from __future__ import annotations

import re

import numpy as np

from labwright.analysis.groups import group_codes
from labwright.analysis.question import Question
from labwright.analysis.regression import pick_response
from labwright.analysis.roles import TableRoles
from labwright.ingest.types import Column, Dataset

MAX_SERIES_COLUMNS = 4
MAX_GROUP_MEASUREMENTS = 6
MAX_GROUP_LEVELS = 6  # more groups than this in a time-stamped table: one series
MAX_GROUP_SERIES = 12
TIME_GOALS = ("trend", "seasonal", "change", "acceleration")


def asks_time(q: Question) -> bool:
    return any(q.asks(g) for g in TIME_GOALS)


def wants_model(q: Question, roles: TableRoles) -> bool:
    """The notes ask for a dependence and the table has two measurements or more."""
    return q.asks("dependence") and len(roles.measurements) >= 2


def levels_of(ds: Dataset, roles: TableRoles) -> tuple[np.ndarray, list[str]]:
    """Codes and labels of the table's first category (labels from the notes
    when they name every code)."""
    cat = roles.of("category")[0]
    codes, levels = group_codes(ds.column(cat.name).values)
    if cat.levels and len(cat.levels) == len(levels):
        levels = list(cat.levels)
    return codes, levels


def is_panel(ds: Dataset, roles: TableRoles) -> bool:
    """Panel data: each time repeated for many units of a category (firms,
    countries, stations beyond `MAX_GROUP_LEVELS`). One series of all units
    mixed would give a meaningless trend and cycle."""
    cats = roles.of("category")
    if not cats or roles.time is None:
        return False
    _, levels = group_codes(ds.column(cats[0].name).values)
    t = np.asarray(roles.time.years, dtype=float)
    t = t[np.isfinite(t)]
    return len(levels) > MAX_GROUP_LEVELS and np.unique(t).size <= t.size / 2


def split_by_category(
    ds: Dataset, roles: TableRoles, meas: list[Column]
) -> tuple[str, list[Column]] | None:
    """Several stations (sites, samples) in one time-stamped table: one series
    per group of the first category, for the first two measurements; mixing
    them into one series would make the trend and cycle meaningless."""
    cats = roles.of("category")
    if not cats:
        return None
    codes, levels = levels_of(ds, roles)
    if not 2 <= len(levels) <= MAX_GROUP_LEVELS:
        return None
    cols = []
    for m in meas[:2]:
        y = np.asarray(m.values, dtype=float)
        for i, level in enumerate(levels):
            values = np.where(codes == i, y, np.nan)
            cols.append(Column(f"{m.name} ({level})", values, m.provenance, m.unit))
    return cats[0].name, cols


def names_column(hint: str | None, cols: list[Column]) -> bool:
    """Whether the response the notes name is one of `cols`."""
    if not hint:
        return False
    marker = "\x00"  # normalises to "", so it never matches; returned when nothing does
    return pick_response([marker, *(c.name for c in cols)][::-1], hint) != marker


def named_first(cols: list[Column], text: str) -> list[Column]:
    """Columns the notes name come first, so a limit on how many are analysed
    never drops the one the question is about ("outliers in the volume",
    "the closing price" for a column `Close`)."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w.^]*|[\u4e00-\u9fff]+", text)}

    def named(c: Column) -> bool:
        n = c.name.strip().lower()
        if not n:
            return False
        if n in words or (not n.isascii() and n in text):
            return True
        stem = n[: max(4, len(n) - 1)]
        return len(n) >= 4 and any(w.startswith(stem) for w in words)

    return sorted(cols, key=lambda c: not named(c))
