"""Numbered columns whose number is the law's own count.

A resonance tube's first and second resonances are written side by side as
"L1, L2"; a grating's first and second orders as "θ1, θ2"; the rings of
Newton's rings as "D5 ... D10". They look like repeats of one quantity
(`replicates.py`), but the number is a variable of the law (the resonance
number n, the order m, the ring number m): each reading is a point at its
own count, not another reading of the same point. When a law's count
variable is held by no column and the law's response is read in such a
numbered group, the table is read long (`unpivot`): one row per reading,
the count from the column's number, the table's other numeric columns
repeated beside it (a tuning fork's frequency holds for both of its
resonances). The request records the reshaping (`NumberedReadings`) so the
analysis, the report and the exported script read the same table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from labwright.analysis.replicates import STEM, replicate_stems
from labwright.analysis.request import Evidence, NumberedReadings
from labwright.ingest.types import Column, Dataset, Provenance

#: Counts beyond this are no law's order or ring number (a year, a sample id).
MAX_COUNT = 100


def numbered_group(ds: Dataset, column: str) -> tuple[list[str], list[int]] | None:
    """The numbered siblings of `column` (itself included) and their numbers,
    in the numbers' order; None when the column is not numbered, the numbers
    repeat, or one is no plausible count."""
    numeric = [c.name for c in ds.columns if c.is_numeric]
    stems = replicate_stems(numeric)
    stem = stems.get(column)
    if stem is None:
        return None
    group = [n for n in numeric if stems.get(n, "").casefold() == stem.casefold()]
    numbers = []
    for name in group:
        m = STEM.match(name)
        if m is None:
            return None
        numbers.append(int(m.group(2)))
    if len(set(numbers)) != len(numbers) or not all(0 <= n <= MAX_COUNT for n in numbers):
        return None
    ordered = sorted(zip(numbers, group, strict=True))
    return [g for _, g in ordered], [n for n, _ in ordered]


def long_source(source: str, columns: Sequence[str]) -> str:
    """The long table's name: its file and the columns it unfolds ("tube.csv,
    L1/L2"); never a file's name, and free of the characters of a file
    pattern (the fit kind reads `*?[` as one)."""
    shown = list(columns) if len(columns) <= 3 else [columns[0], "...", columns[-1]]
    return f"{source}, {'/'.join(shown)}"


def numbered_readings(
    ds: Dataset, column: str, response: str, count: str, evidence: Evidence
) -> NumberedReadings | None:
    """The record of reading `ds` long by the numbered group of `column`:
    the response named `response`, the count `count`."""
    found = numbered_group(ds, column)
    if found is None:
        return None
    columns, numbers = found
    sheet = ds.provenance.sheet if ds.provenance else None
    taken = {c.name.casefold() for c in ds.columns if c.name not in columns}
    if response.casefold() in taken or count.casefold() in taken:
        return None  # the long table's names would clash with the table's own
    return NumberedReadings(
        file=ds.source,
        sheet=sheet,
        columns=tuple(columns),
        numbers=tuple(numbers),
        response=response,
        count=count,
        evidence=evidence,
    )


def unpivot(ds: Dataset, spec: NumberedReadings) -> Dataset | None:
    """`ds` read long as `spec` says; None when its columns are not there."""
    by_name = {c.name: c for c in ds.columns}
    if any(name not in by_name or not by_name[name].is_numeric for name in spec.columns):
        return None
    readings = [by_name[name] for name in spec.columns]
    k = len(readings)
    rows = len(readings[0].values)
    source = long_source(ds.source, spec.columns)
    sheet = ds.provenance.sheet if ds.provenance else None

    def provenance(column: str) -> Provenance:
        return Provenance(file=ds.source, sheet=sheet, column=column)

    kept = [
        Column(
            name=c.name,
            values=np.tile(np.asarray(c.values, dtype=float), k),
            provenance=provenance(c.name),
            unit=c.unit,
        )
        for c in ds.columns
        if c.is_numeric and c.name not in spec.columns
    ]
    count = Column(
        name=spec.count,
        values=np.repeat(np.asarray(spec.numbers, dtype=float), rows),
        provenance=provenance(f"the numbers of {', '.join(spec.columns)}"),
    )
    units = {c.unit for c in readings}
    response = Column(
        name=spec.response,
        values=np.concatenate([np.asarray(c.values, dtype=float) for c in readings]),
        provenance=provenance(", ".join(spec.columns)),
        unit=units.pop() if len(units) == 1 else None,
    )
    return Dataset(
        name=source,
        source=source,
        kind="table",
        columns=[*kept, count, response],
        provenance=Provenance(file=ds.source, sheet=sheet),
        notes=[
            f"{', '.join(spec.columns)} read as one column {spec.response}, "
            f"{spec.count} = {', '.join(str(n) for n in spec.numbers)} from their names"
        ],
    )


def with_long_tables(
    datasets: Sequence[Dataset], specs: Sequence[NumberedReadings]
) -> list[Dataset]:
    """The long tables `specs` ask for, made from `datasets`."""
    out = []
    for spec in specs:
        ds = next(
            (
                d
                for d in datasets
                if d.kind == "table"
                and d.source == spec.file
                and (d.provenance.sheet if d.provenance else None) == spec.sheet
            ),
            None,
        )
        long = unpivot(ds, spec) if ds is not None else None
        if long is not None:
            out.append(long)
    return out


def spec_of(specs: Sequence[NumberedReadings], ds: Dataset) -> NumberedReadings | None:
    """The record a long table was made by (`unpivot`); None for any other table."""
    return next((spec for spec in specs if long_source(spec.file, spec.columns) == ds.source), None)
