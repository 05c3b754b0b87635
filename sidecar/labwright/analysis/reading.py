"""The folder as the analyst reads it before any kind binds: the notes as
plain text, the goals they ask (`Question`), the units and labels they state
(`NoteFacts`), every table's column roles and shape, the series of
same-shaped files, and the comparisons the notes ask for (R C, a named
coefficient).

Reading happens once per build; every kind binds from the same `Reading`.
Two things it changes on the data, on purpose and only here: a headerless
table takes its column names from a description file, and a unit the notes
state for a column ("pressure in bar") becomes the column's unit, so
tables, axes and fitted parameters agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from labwright.analysis.coefficient import CoefficientAsk
from labwright.analysis.expected import RCQuestion
from labwright.analysis.notes import NoteFacts, notes_text, read_facts
from labwright.analysis.question import Question, read_question
from labwright.analysis.roles import TableRoles, infer_roles
from labwright.analysis.series_files import FileSeries, find_series
from labwright.analysis.wide import MonthlyWide, monthly_wide
from labwright.ingest.tabular import is_generated_name
from labwright.ingest.types import Column, Dataset, ReadResult

#: What a table is, for the shape-based kinds, in the order they are tried:
#: a year x month table; a time column with measurements; a category with
#: measurements; anything else.
Shape = Literal["monthly", "time", "category", "plain"]


@dataclass
class Reading:
    question: Question
    facts: NoteFacts
    text: str = ""  # the notes as plain text (columns named in them come first)
    roles: dict[int, TableRoles] = field(default_factory=dict)  # id(dataset) -> roles
    shapes: dict[int, Shape] = field(default_factory=dict)
    monthly: dict[int, MonthlyWide] = field(default_factory=dict)
    series: list[FileSeries] = field(default_factory=list)
    # "compare it with the product RC": the components the notes give; the
    # writer compares each fitted time constant with the R C of its data set.
    rc: RCQuestion | None = None
    # "find the heat-loss coefficient": coefficients named in the notes.
    coefficient_asks: list[CoefficientAsk] = field(default_factory=list)

    def roles_of(self, ds: Dataset) -> TableRoles | None:
        return self.roles.get(id(ds))

    def shape_of(self, ds: Dataset) -> Shape | None:
        return self.shapes.get(id(ds))

    def in_series(self, ds: Dataset) -> bool:
        return any(d is ds for fs in self.series for d in fs.datasets)


def shape(roles: TableRoles, wide: MonthlyWide | None) -> Shape:
    if wide is not None:
        return "monthly"
    if roles.time is not None and roles.measurements:
        return "time"
    if roles.of("category") and roles.measurements:
        return "category"
    return "plain"


def sorted_measurement(roles: TableRoles) -> Column | None:
    """The first measurement that is sorted with 3+ distinct values: the x of
    an x-y measurement."""
    for col in roles.measurements:
        v = np.asarray(col.values, dtype=float)
        v = v[np.isfinite(v)]
        if v.size >= 3 and np.unique(v).size >= 3:
            d = np.diff(v)
            if np.all(d >= 0) or np.all(d <= 0):
                return col
    return None


def sorted_x(col: Column) -> bool:
    """Sorted (either way), every value finite, three distinct values or more:
    a column the figure path takes for x (`offline/figures.choose_x`)."""
    v = np.asarray(col.values, dtype=float)
    if v.size < 3 or not np.all(np.isfinite(v)) or np.unique(v).size < 3:
        return False
    d = np.diff(v)
    return bool(np.all(d >= 0) or np.all(d <= 0))


def _name_headerless(read: ReadResult, text: str) -> None:
    """A table without a header row (columns col1, col2, ...) takes its
    column names and units from a description file that lists exactly as
    many attributes ("1. sepal length in cm"); the file's column stays in the
    provenance."""
    from labwright.analysis.notes import described_columns

    for ds in read.datasets:
        if ds.kind != "table" or not ds.columns:
            continue
        if not all(is_generated_name(c.name) for c in ds.columns):
            continue
        described = described_columns(text, len(ds.columns))
        if described is None:
            continue
        for col, d in zip(ds.columns, described, strict=True):
            col.name = d.name
            if d.unit and not col.unit:
                col.unit = d.unit


def read_notes_and_roles(read: ReadResult) -> Reading:
    """Everything the kinds bind from, read once."""
    from labwright.analysis.coefficient import read_coefficients
    from labwright.analysis.expected import read_rc

    text = notes_text(read.documents)
    _name_headerless(read, text)
    names = [c.name for ds in read.datasets for c in ds.columns]
    reading = Reading(question=read_question(text), facts=read_facts(text, names), text=text)
    reading.rc = read_rc(text)
    if reading.rc is not None:
        reading.question.goals.setdefault("expected", "compare with the product RC")
    reading.coefficient_asks = read_coefficients(text)
    for ds in read.datasets:
        if ds.kind != "table":
            continue
        roles = reading.roles[id(ds)] = infer_roles(ds, reading.facts)
        # A unit the notes state ("pressure in bar") is the column's unit
        # for every reader of it: tables, axis labels, fitted parameters.
        for c in roles.of("measurement"):
            col = ds.column(c.name)
            if c.unit and not col.unit:
                col.unit = c.unit
        wide = monthly_wide(roles)
        if wide is not None:
            reading.monthly[id(ds)] = wide
        reading.shapes[id(ds)] = shape(roles, wide)
    reading.series = find_series(read.datasets)
    return reading
