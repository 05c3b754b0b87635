"""What every procedure reads from the request: the columns its law's
variables are bound to, the constants the notes give, what is asked and
what it must be compared with.

The request (`analysis/request.py`) has already decided all of this, with a
reason for each item; a procedure only looks it up, so a folder is never
read twice by two sets of rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.quantities import dimensionality, factor
from labwright.analysis.request import AnalysisRequest, GivenConstant
from labwright.analysis.results import Comparison
from labwright.ingest.types import Column, Dataset, ReadResult


def entries_of(request: AnalysisRequest, procedure: str) -> list[ModelEntry]:
    """The catalogue entries the request names that this procedure answers."""
    keys = {m.key for m in request.models if m.key} | {b.model for b in request.bindings}
    return [e for e in catalogue() if e.key in keys and e.procedure == procedure]


@dataclass(frozen=True)
class BoundTable:
    """One table with the law's variables bound to its columns."""

    entry: ModelEntry
    dataset: Dataset
    columns: dict[str, Column]  # variable name -> column
    reason: str

    def xy(self) -> tuple[Column, Column] | None:
        """The first bound independent variable's column and the response's,
        or None when either is not bound (one x, one y: every procedure's
        table)."""
        x = next(
            (self.columns[v.name] for v in self.entry.independents if v.name in self.columns),
            None,
        )
        y = self.columns.get(self.entry.response.name)
        return None if x is None or y is None else (x, y)


def _dataset(read: ReadResult, file: str, sheet: str | None) -> Dataset | None:
    for ds in read.datasets:
        ds_sheet = ds.provenance.sheet if ds.provenance else None
        if ds.source == file and (sheet is None or ds_sheet == sheet):
            return ds
    return None


_LINE = re.compile(r"(line\d+)\.[xy]$")


def figure_line(column: str) -> str:
    """The line of a saved figure a column belongs to ("line2.x" -> "line2"),
    "" for a table's column: each line of a figure is fitted on its own."""
    m = _LINE.match(column)
    return m.group(1) if m else ""


def bound_tables(request: AnalysisRequest, read: ReadResult, entry: ModelEntry) -> list[BoundTable]:
    """Every table whose columns the request binds to the entry's variables
    (each binding a column of the file it names)."""
    groups: dict[tuple[str, str | None, str], dict[str, Column]] = {}
    reasons: dict[tuple[str, str | None, str], list[str]] = {}
    for b in request.bindings:
        if b.model != entry.key or b.source != "column":
            continue
        ds = _dataset(read, b.file, b.sheet)
        if ds is None:
            continue
        col = next((c for c in ds.columns if c.name == b.column and c.is_numeric), None)
        if col is None:
            continue
        # The lines of a saved figure (line1.x, line1.y) are tables of their own.
        line = figure_line(b.column) if ds.kind == "figure" else ""
        key = (ds.source, ds.provenance.sheet if ds.provenance else None, line)
        groups.setdefault(key, {})[b.variable] = col
        reasons.setdefault(key, []).append(f"{b.variable} = {b.column} ({b.evidence.reason})")
    out = []
    for key, cols in groups.items():
        ds = _dataset(read, key[0], key[1])
        if ds is not None:
            out.append(BoundTable(entry, ds, cols, "; ".join(reasons[key])))
    return out


@dataclass(frozen=True)
class Given:
    """A constant the notes give, in the unit the procedure computes in."""

    value: float
    se: float
    unit: str
    constant: GivenConstant


def given(request: AnalysisRequest, symbols: tuple[str, ...], unit: str) -> Given | None:
    """The notes' value for one of `symbols`, converted to `unit`; failing
    the symbols, the only given constant of that dimension (the request
    keeps the symbol the catalogue or the notes wrote)."""
    want = dimensionality(unit)
    named = [c for c in request.constants if c.symbol in symbols]
    alike = [c for c in request.constants if c.unit and dimensionality(c.unit) == want]
    pick = named[0] if named else alike[0] if len(alike) == 1 else None
    if pick is None:
        return None
    f = factor(pick.unit, unit) if pick.unit else None
    if f is None:
        return None
    return Given(pick.value * f, (pick.uncertainty or 0.0) * f, unit, pick)


def asked(request: AnalysisRequest, quantity: str) -> bool:
    return any(a.quantity == quantity for a in request.asked)


def expected(request: AnalysisRequest, quantity: str, unit: str | None) -> Comparison | None:
    """The value the notes give for a quantity, in the answer's unit."""
    for e in request.expected:
        if e.quantity != quantity:
            continue
        f = 1.0
        if unit and e.unit:
            conv = factor(e.unit, unit)
            if conv is None:
                continue
            f = conv
        unc = None if e.uncertainty is None else e.uncertainty * f
        return Comparison(e.value * f, unc, unit, "the notes", e.evidence.source)
    return None
