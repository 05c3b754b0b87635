"""Column roles: what each column of a table is, with the reason.

Roles: "time" (calendar time in any of the forms `dates` knows), "index"
(row counters, unique keys, run or trial numbers), "category" (text labels,
or a few integer codes without a unit), "measurement" (a quantity, with its
unit from the header, the notes or a description file), "constant" (a single
value), "empty". The roles decide what may be fitted against what: only a
measurement is ever an x or a y of a fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from labwright.analysis.dates import (
    MONTH,
    QUARTER,
    TimeAxis,
    from_quarter_text,
    from_year_part,
    is_part_column,
    recognise,
)
from labwright.analysis.notes import NoteFacts
from labwright.ingest.types import Column, Dataset

Role = Literal["time", "index", "category", "measurement", "constant", "empty"]

_INDEX_NAMES = re.compile(
    r"^(id|idx|index|no|no\.|nr|num|number|n|#|row|obs|observation|case|key|sample(?:_?id)?|"
    r"subject|trial|run|rep|replicate|repeat|serial|step|point|pt|line|entry|item|序号|编号|样品编号|次数|试验号)$|(^|_)id$",
    re.I,
)
_CATEGORY_NAMES = re.compile(
    r"(class|group|type|species|category|label|treatment|batch|site|station|sex|gender|"
    r"condition|kind|variety|strain|组|类|类别|分组|品种|处理)",
    re.I,
)
# Names a reader gives a column it could not name (headerless files, pandas).
_GENERIC_NAMES = re.compile(r"^(col\d+|column\d+|unnamed(:\s*\d+)?|v\d+|)$", re.I)
# A symbol-like name (x, t, L, T_1, dose, x1): a variable, not a counter.
_SYMBOL = re.compile(r"^[A-Za-z\u0370-\u03ff](?:[_^]?[A-Za-z0-9\u0370-\u03ff]){0,5}$")
MAX_CODES = 12  # integer codes with at most this many levels can be categories


@dataclass(frozen=True)
class ColumnRole:
    name: str
    role: Role
    reason: str
    unit: str | None = None
    time: TimeAxis | None = None
    levels: tuple[str, ...] = ()  # category labels in code order


@dataclass
class TableRoles:
    dataset: Dataset
    columns: list[ColumnRole] = field(default_factory=list)
    time: TimeAxis | None = None  # the table's time axis when it has one

    def of(self, role: Role) -> list[ColumnRole]:
        return [c for c in self.columns if c.role == role]

    def role_of(self, name: str) -> ColumnRole:
        return next(c for c in self.columns if c.name == name)

    def column(self, name: str) -> Column:
        return self.dataset.column(name)

    @property
    def measurements(self) -> list[Column]:
        return [self.dataset.column(c.name) for c in self.of("measurement")]


def _finite(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    return np.asarray(v[np.isfinite(v)])


# Names that are also the symbol of a count ("N = counts in 20 s", "n
# photons"): such a column numbers rows only when its values rise one by one
# or at least never repeat and always rise.
_COUNT_OR_INDEX = re.compile(r"^(n|num|number|no\.?|nr|#)$", re.I)


def _numbers_rows(name: str, v: np.ndarray) -> bool:
    """Whole numbers under an index's name are row numbers, unless the name
    is also a count's symbol and the values do not rise: Poisson counts of a
    decay, headed N, are measurements."""
    if not _COUNT_OR_INDEX.match(name):
        return True
    return v.size > 1 and bool(np.all(np.diff(v) > 0))


def _integral(v: np.ndarray) -> bool:
    return v.size > 0 and bool(np.all(np.abs(v - np.round(v)) < 1e-9))


def _text_role(col: Column, facts: NoteFacts) -> ColumnRole:
    values = [str(v).strip() for v in col.values]
    filled = [v for v in values if v]
    if not filled:
        return ColumnRole(col.name, "empty", "no values")
    uniq = list(dict.fromkeys(filled))
    if len(uniq) == 1:
        return ColumnRole(col.name, "constant", f"the single value {uniq[0]!r}")
    axis = from_quarter_text(col)
    if axis is not None:
        return ColumnRole(col.name, "time", axis.reason, time=axis)
    # All different: a label per row (eight cities, one row each), not groups;
    # groups of one row have no spread and nothing to compare.
    if len(uniq) == len(filled) and len(filled) >= 3:
        return ColumnRole(col.name, "index", "text values, all different: a key or label per row")
    return ColumnRole(
        col.name, "category", f"text with {len(uniq)} distinct values", levels=tuple(uniq)
    )


def _numeric_role(col: Column, facts: NoteFacts, n_rows: int) -> ColumnRole:
    v = _finite(col.values)
    unit = col.unit or facts.units.get(col.name.strip().lower())
    if v.size == 0:
        return ColumnRole(col.name, "empty", "no finite values")
    uniq = np.unique(v)
    if uniq.size == 1:
        return ColumnRole(col.name, "constant", "a single value throughout", unit)
    name = col.name.strip()
    integral = _integral(v)
    if not col.unit and _INDEX_NAMES.search(name) and integral and _numbers_rows(name, v):
        return ColumnRole(
            col.name, "index", f"named {name!r} and holding whole numbers: an identifier"
        )
    axis = recognise(col)
    if axis is not None:
        return ColumnRole(col.name, "time", axis.reason, col.unit, time=axis)
    d = np.diff(np.asarray(col.values, dtype=float))
    if not unit and integral and v.size >= 3 and np.all(d == 1):
        if _INDEX_NAMES.search(name) or _GENERIC_NAMES.match(name) or not _SYMBOL.match(name):
            return ColumnRole(
                col.name, "index", "consecutive whole numbers without a unit: a row counter"
            )
        # "x" beside "x^2" and "x^3": a variable that happens to step by one.
        return ColumnRole(
            col.name, "measurement", f"consecutive whole numbers named as a variable ({name!r})"
        )
    if not col.unit and _INDEX_NAMES.search(name) and integral and _numbers_rows(name, v):
        return ColumnRole(
            col.name, "index", f"named {name!r} and holding whole numbers: an identifier"
        )
    symbol = bool(_SYMBOL.match(name)) and not _GENERIC_NAMES.match(name)
    if (
        not unit  # a unit the notes give makes it a measurement ("column 3 = T in kelvin")
        and integral
        and uniq.size == v.size
        and v.size >= 8
        and np.all(d > 0)
        and not symbol
    ):
        return ColumnRole(
            col.name, "index", "increasing whole numbers without a unit, all different: a key"
        )
    named_category = bool(_CATEGORY_NAMES.search(name))
    small_codes = uniq.size <= MAX_CODES and v.size >= 2 * uniq.size and uniq.min() >= -1
    if (
        integral
        and small_codes
        and (not unit)
        and (named_category or (uniq.size <= 6 and uniq.max() - uniq.min() == uniq.size - 1))
    ):
        levels = tuple(facts.labels.get(str(int(c)), str(int(c))) for c in uniq)
        why = f"{uniq.size} whole-number codes without a unit"
        if named_category:
            why += f", named {name!r}"
        return ColumnRole(col.name, "category", why, levels=levels)
    why = "numbers with a unit" if unit else "numbers without a unit"
    if unit and not col.unit:
        why = "numbers; unit from the notes"
    return ColumnRole(col.name, "measurement", why, unit)


def infer_roles(ds: Dataset, facts: NoteFacts | None = None) -> TableRoles:
    """Roles of every column of a table dataset (other kinds get none)."""
    facts = facts or NoteFacts()
    out = TableRoles(ds)
    if ds.kind != "table":
        return out
    for col in ds.columns:
        if col.is_numeric:
            out.columns.append(_numeric_role(col, facts, ds.n_rows))
        else:
            out.columns.append(_text_role(col, facts))
    _year_month(out)
    times = out.of("time")
    if times and out.time is None:
        out.time = times[0].time
    if out.time is not None:
        _period_counters(out)
    return out


_COUNTER_NAMES = re.compile(r"^(t|time|period|obs|n|step|tid|时间|期)$", re.I)


def _period_counters(out: TableRoles) -> None:
    """Beside a calendar time column, a column named TIME (or period) that
    counts 1, 2, 3... is the period's number, not a measured variable: it
    must not enter a regression or a per-column trend."""
    for i, c in enumerate(out.columns):
        if c.role != "measurement" or c.unit or not _COUNTER_NAMES.match(c.name.strip()):
            continue
        v = np.asarray(out.dataset.column(c.name).values, dtype=float)
        if v.size >= 3 and np.all(np.isfinite(v)) and np.all(np.diff(v) == 1):
            out.columns[i] = ColumnRole(
                c.name,
                "index",
                "consecutive whole numbers beside a calendar time: a period counter",
            )


def _year_month(out: TableRoles) -> None:
    """A year column next to a month or quarter column is one time axis; the
    month or quarter is then part of the date, not a category or a measurement."""
    year = next((c for c in out.columns if c.time is not None and c.time.format == "year"), None)
    if year is None:
        return
    # Monthly data (a month column, 1..12) or quarterly data (a quarter
    # column, 1..4): that column is part of the date, not a category with
    # twelve or four groups. The first kind found decides.
    found = (
        (part, c)
        for part in (MONTH, QUARTER)
        for c in out.dataset.columns
        if c.name != year.name and is_part_column(c, part)
    )
    part, part_col = next(found, (None, None))
    if part is None or part_col is None:
        return
    axis = from_year_part(out.dataset.column(year.name), part_col, part)
    if axis is None:
        return
    out.time = axis
    out.columns = [
        ColumnRole(c.name, "time", f"{part.word} of the date ({axis.reason})", time=axis)
        if c.name == part_col.name
        else c
        for c in out.columns
    ]
