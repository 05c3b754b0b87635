"""Small tables for the request tests, built as the readers build them."""

from __future__ import annotations

import numpy as np

from labwright.ingest.types import Column, Dataset, DocumentText, Provenance, ReadResult
from labwright.ingest.units import split_unit


def table(
    source: str, columns: dict[str, list[float] | np.ndarray], sheet: str | None = None
) -> Dataset:
    """A table whose headers are split into name and unit like a reader's."""
    cols = []
    for header, values in columns.items():
        name, unit = split_unit(header)
        prov = Provenance(source, sheet, None, name)
        cols.append(Column(name, np.asarray(values, dtype=float), prov, unit))
    return Dataset(
        name=sheet or source.rsplit("/", 1)[-1],
        source=source,
        kind="table",
        columns=cols,
        provenance=Provenance(source, sheet),
    )


def mm_values(n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    s = np.geomspace(0.1, 5.0, n)
    return s, 12.0 * s / (0.8 + s)


def folder(notes: str, *datasets: Dataset, source: str = "notes.md") -> ReadResult:
    """A read folder of tables and one notes file."""
    return ReadResult(datasets=list(datasets), documents=[DocumentText(source, notes)])
