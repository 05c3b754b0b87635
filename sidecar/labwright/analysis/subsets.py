"""The rows of one group of a table, as a table of its own.

When the notes ask for a law fitted group by group ("fit the line separately
before and after insulation"), each level of the category column gives a
table of its rows: the same file, the same columns, only those rows. Every
column's provenance says which rows (`Provenance.subset`, and the data rows
counted from 1 after the header), so a number fitted to the group names its
group in the report, the appendix and the exported script (which reads the
file and keeps the group's rows: `writers/script.read_table`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from labwright.analysis.groups import group_codes
from labwright.ingest.types import Column, Dataset

#: A category of more levels than this is no set of groups to fit one by one.
MAX_LEVELS = 8


def level_values(ds: Dataset, column: str) -> list[tuple[str, str | float]]:
    """Each group of `column`: its name as shown, and its value in the column
    (text, or a number for numbered groups), in order of first appearance
    (numbers ascending)."""
    values = ds.column(column).values
    codes, names = group_codes(values)
    out: list[tuple[str, str | float]] = []
    for i, name in enumerate(names):
        first = values[int(np.flatnonzero(codes == i)[0])]
        value = float(first) if values.dtype.kind in "biuf" else str(first).strip()
        out.append((name, value))
    return out


def _row_ranges(rows: np.ndarray) -> str:
    """Data rows counted from 1: "1–26", "27–56", or "2, 5, 9–11"."""
    numbers = [int(r) + 1 for r in rows]
    spans: list[tuple[int, int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], n)
        else:
            spans.append((n, n))
    return ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)


def rows_of(ds: Dataset, column: str, name: str, value: str | float) -> Dataset:
    """The rows of `ds` whose `column` holds `value` (the group `name`)."""
    codes, names = group_codes(ds.column(column).values)
    keep = np.flatnonzero(codes == names.index(name))
    where = f"{column} = {name}"
    rows = _row_ranges(keep)
    columns = [
        Column(
            c.name,
            c.values[keep],
            replace(c.provenance, subset=where, rows=rows),
            c.unit,
            c.origin,
        )
        for c in ds.columns
    ]
    return replace(
        ds,
        name=f"{ds.name} [{where}]",
        columns=columns,
        provenance=replace(ds.provenance, subset=where) if ds.provenance else None,
        subset=(column, value),
    )


def groups_of(ds: Dataset, column: str) -> list[Dataset]:
    """One table per group of `column`; [] when it does not make 2 to
    `MAX_LEVELS` groups of at least three rows each."""
    if column not in {c.name for c in ds.columns}:
        return []
    levels = level_values(ds, column)
    if not 2 <= len(levels) <= MAX_LEVELS:
        return []
    parts = [rows_of(ds, column, name, value) for name, value in levels]
    return parts if all(p.n_rows >= 3 for p in parts) else []
