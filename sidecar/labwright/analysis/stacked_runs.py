"""Runs of one experiment, one file per value of a parameter, as one table.

A law with two independent variables is often measured one file per value
of the second: rates against [S] at each inhibitor concentration
(`I_5uM.csv`), a decay at each temperature. Fitted file by file, the law
has a variable missing, and the notes' constant (Ki) is not found. Stacked,
with the file names' value as a column, the law is fitted once over all the
runs (a global fit), as a scientist would.

The stacked table exists only when the runs' file names give a quantity
(not a run number) and every run file has the same numeric columns; its
source names the runs' pattern with ", all runs" so it is never taken for
one of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from labwright.analysis.request import FileRole
from labwright.ingest.types import Column, Dataset, Provenance

#: How the stacked table's source ends: never a file's name.
SUFFIX = ", all runs"


def stacked_source(pattern: str) -> str:
    return pattern + SUFFIX


def is_stacked(ds: Dataset) -> bool:
    return ds.source.endswith(SUFFIX)


def parameter_column_note(parameter: str) -> str:
    """What the parameter column's provenance says of it."""
    return f"{parameter}, from the file names"


def stack_runs(datasets: Sequence[Dataset], files: Sequence[FileRole]) -> Dataset | None:
    """The run files as one table with the file names' value as a column
    (named by the parameter's symbol, in its unit), or None."""
    from labwright.analysis.request_rules import file_pattern

    runs = [f for f in files if f.role == "run"]
    if len(runs) < 2 or any(f.value is None for f in runs):
        return None
    parameter = runs[0].parameter
    if not parameter or parameter == "run" or any(f.parameter != parameter for f in runs):
        return None
    if len({f.unit for f in runs}) != 1:
        return None
    tables: list[tuple[FileRole, Dataset]] = []
    for run in runs:
        ds = next(
            (
                d
                for d in datasets
                if d.kind == "table"
                and d.source == run.file
                and (run.sheet is None or (d.provenance and d.provenance.sheet == run.sheet))
            ),
            None,
        )
        if ds is None:
            return None
        tables.append((run, ds))
    names = [c.name for c in tables[0][1].columns if c.is_numeric]
    if not names or any(
        [c.name for c in ds.columns if c.is_numeric] != names for _, ds in tables[1:]
    ):
        return None
    if any({ds.column(n).unit for _, ds in tables} != {tables[0][1].column(n).unit} for n in names):
        return None  # the runs disagree on a unit: not one table
    if any(n.strip().casefold() == parameter.casefold() for n in names):
        return None  # the tables hold the parameter already: nothing to add
    source = stacked_source(file_pattern([r.file for r in runs]))
    lengths = [len(ds.column(names[0]).values) for _, ds in tables]
    values = np.concatenate(
        [np.full(n, float(run.value or 0.0)) for (run, _), n in zip(tables, lengths, strict=True)]
    )
    columns = [
        Column(
            name=parameter,
            values=values,
            provenance=Provenance(file=source, column=parameter_column_note(parameter)),
            unit=runs[0].unit,
        )
    ]
    for name in names:
        first = tables[0][1].column(name)
        columns.append(
            Column(
                name=name,
                values=np.concatenate(
                    [np.asarray(ds.column(name).values, dtype=float) for _, ds in tables]
                ),
                provenance=Provenance(file=source, column=name),
                unit=first.unit,
            )
        )
    return Dataset(
        name=source,
        source=source,
        kind="table",
        columns=columns,
        provenance=Provenance(file=source),
        notes=[f"{len(tables)} run files stacked; {parameter} from each file's name"],
    )
