"""Typed results of reading a data folder, shared by the readers, the offline
writer and the agent. Every value carries where it came from, so a number in
the report can be traced back to a file, a sheet or variable, and a column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Bucket = Literal["documents", "images", "data", "other"]


@dataclass(frozen=True)
class Provenance:
    """Where a value came from: a file relative to the data folder, then the
    sheet (Excel), variable (MATLAB, .npz, JSON key) and column inside it."""

    file: str
    sheet: str | None = None
    variable: str | None = None
    column: str | None = None
    #: The data rows a column spans, counted from 1 after the header ("1–40"):
    #: what the numbers appendix names beside the column (issue 23).
    rows: str | None = None
    #: The rows of one group, when a value used only those ("Insul = Before":
    #: a law fitted group by group, analysis/subsets.py).
    subset: str | None = None

    def describe(self) -> str:
        parts = [self.file]
        if self.sheet:
            parts.append(f"sheet {self.sheet}")
        if self.variable:
            parts.append(f"variable {self.variable}")
        if self.column:
            parts.append(f"column {self.column}")
        if self.subset:
            parts.append(f"rows where {self.subset}")
        return ", ".join(parts)


@dataclass
class Column:
    """One named, numeric (or text) column with its unit parsed from the header."""

    name: str
    values: np.ndarray
    provenance: Provenance
    unit: str | None = None
    # Set when the readers turned date/time stamps into seconds (unit "s"):
    # the ISO timestamp of second 0, so the analysis can put the values back
    # on a calendar axis.
    origin: str | None = None

    @property
    def is_numeric(self) -> bool:
        return self.values.dtype.kind in "biuf"

    @property
    def label(self) -> str:
        return f"{self.name} ({self.unit})" if self.unit else self.name


DatasetKind = Literal["table", "matrix", "figure"]


@dataclass
class Dataset:
    """A readable unit of data.

    - "table": columns of equal length (CSV, Excel sheet, JSON records, struct fields).
    - "matrix": a 2-D numeric array (`matrix`), e.g. an image-like .mat variable.
    - "figure": the lines of a MATLAB .fig; `pairs` names the (x, y) columns
      of each line, `labels` carries title/xlabel/ylabel when present.
    """

    name: str
    source: str  # file path relative to the data folder
    kind: DatasetKind
    columns: list[Column] = field(default_factory=list)
    matrix: np.ndarray | None = None
    provenance: Provenance | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # Added by the readers (additive): key-value lines found above a table
    # ("Instrument: Keithley 2400") and named numeric scalars stored beside
    # arrays (MATLAB/.npz parameters such as R, C); both are facts the writer
    # may quote, with the dataset's provenance.
    metadata: dict[str, str] = field(default_factory=dict)
    scalars: dict[str, float] = field(default_factory=dict)
    # Set on the rows of one group of another table (analysis/subsets.py):
    # the category column and its value there ("Insul", "Before").
    subset: tuple[str, str | float] | None = None

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)

    @property
    def numeric_columns(self) -> list[Column]:
        return [c for c in self.columns if c.is_numeric]

    @property
    def n_rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0


@dataclass
class ImageInfo:
    source: str
    format: str
    width: int
    height: int
    mode: str
    thumbnail_png: bytes | None = None


@dataclass
class DocumentText:
    """Text of a notes/README/PDF file: the aim and method are quoted from here."""

    source: str
    text: str
    pages_read: int | None = None
    truncated: bool = False


@dataclass
class Skipped:
    """A file that could not be read, with one sentence saying why."""

    source: str
    reason: str
    # Set when only part of a file was skipped (one MATLAB variable, one sheet).
    variable: str | None = None


@dataclass
class FileEntry:
    path: str  # relative, POSIX separators
    size: int
    sha256: str | None
    bucket: Bucket
    symlink_outside: bool = False


@dataclass
class Inventory:
    """What is in a folder, by relative path. It does not carry the folder's own
    location: whoever reads files gets the folder explicitly (read_folder), so
    the many consumers of the listing cannot reach the user's files through it."""

    files: list[FileEntry] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class ReadResult:
    datasets: list[Dataset] = field(default_factory=list)
    images: list[ImageInfo] = field(default_factory=list)
    documents: list[DocumentText] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
