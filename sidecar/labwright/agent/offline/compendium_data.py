"""How the compendium reads each table: the raw file with pandas when that
gives the table the report read, else the table as read, written out.

The compendium's `table(file, part)` must hand its blocks the table exactly
as the report read it (`writers/script.py`). For a plain delimited file
that is one `pandas.read_csv` call, and we prove it at export time: the
candidate call runs here, on the raw file, and its frame must equal the
reader's columns (names, numbers, text). Our reader does more than pandas
does by default (spacer rows, unit rows, dates turned into seconds, MATLAB
figures, JSON, Excel with notes above the header); for those the table as
read goes into `data/as-read/` as a CSV, and the script says so beside the
line that reads it. The raw file is shipped either way (size-capped).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from labwright.ingest.types import Dataset

#: One raw file larger than this is left out of data/ (the note says why).
MAX_FILE_BYTES = 20 * 1024 * 1024
#: All raw files together.
MAX_TOTAL_BYTES = 100 * 1024 * 1024
AS_READ = "as-read"
_TEXT = {".csv", ".tsv", ".txt", ".dat"}
_SEPS: tuple[str, ...] = (",", "\t", ";", r"\s+")
_ENCODINGS: tuple[str, ...] = ("utf-8-sig", "gb18030")
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class TableReader:
    """One (file, part) the blocks read, and the expression that reads it."""

    file: str
    part: str | None
    expression: str  # uses DATA, pd, np
    #: Why the table is not read from the raw file (None: it is).
    note: str | None = None
    #: An extract written to data/as-read/ (relative to data/), if any.
    extract: str | None = None
    matrix: bool = False


def frame_of(ds: Dataset) -> pd.DataFrame:
    return pd.DataFrame({c.name: c.values for c in ds.columns})


def _same(raw: pd.DataFrame, ds: Dataset) -> bool:
    """The reader's values, column by column (names are compared by the caller)."""
    if len(raw.columns) != len(ds.columns) or len(raw) != len(
        ds.columns[0].values if ds.columns else ()
    ):
        return False
    raw = raw.set_axis([c.name for c in ds.columns], axis=1)
    for c in ds.columns:
        want = np.asarray(c.values)
        got = raw[c.name].to_numpy()
        if want.dtype.kind in "fiu":
            if got.dtype.kind not in "fiu":
                return False
            if not np.allclose(
                got.astype(float), want.astype(float), rtol=0, atol=0, equal_nan=True
            ):
                return False
        elif [str(v) for v in got] != [str(v) for v in want]:
            return False
    return True


def plan_reader(ds: Dataset, folder: Path, part: str | None) -> TableReader:
    path = folder / ds.source
    if path.suffix.lower() in _TEXT and path.is_file() and ds.columns:
        for encoding in _ENCODINGS:
            for sep in _SEPS:
                try:
                    raw = pd.read_csv(path, sep=sep, encoding=encoding)
                except (ValueError, UnicodeDecodeError, pd.errors.ParserError):
                    continue
                if _same(raw, ds):
                    args = [f"DATA / {ds.source!r}"]
                    if sep != ",":
                        args.append(f"sep={sep!r}")
                    if encoding != "utf-8-sig":
                        args.append(f"encoding={encoding!r}")
                    call = f"pd.read_csv({', '.join(args)})"
                    names = [c.name for c in ds.columns]
                    if [str(c) for c in raw.columns] != names:
                        # The report names columns without their units ("L (m)" is L).
                        call += f".set_axis({names!r}, axis=1)"
                    return TableReader(ds.source, part, call)
    if path.suffix.lower() == ".npy" and ds.matrix is not None:
        return TableReader(ds.source, part, f"np.load(DATA / {ds.source!r})", matrix=True)
    stem = _SAFE.sub("_", ds.source.replace("/", "__"))
    name = f"{AS_READ}/{stem}{'--' + _SAFE.sub('_', part) if part else ''}.csv"
    note = (
        "read by the report's reader (spacer or unit rows, dates as seconds, "
        "or a format pandas does not read as it is): its table as read is the CSV"
    )
    if ds.matrix is not None and not ds.columns:
        return TableReader(
            ds.source, part, f"np.loadtxt(DATA / {name!r}, delimiter=',')", note, name, True
        )
    return TableReader(ds.source, part, f"pd.read_csv(DATA / {name!r})", note, name)


def write_extract(reader: TableReader, ds: Dataset, data_dir: Path) -> None:
    if reader.extract is None:
        return
    target = data_dir / reader.extract
    target.parent.mkdir(parents=True, exist_ok=True)
    if reader.matrix:
        np.savetxt(target, np.asarray(ds.matrix, dtype=float), delimiter=",", fmt="%.17g")
    else:
        frame_of(ds).to_csv(target, index=False, float_format="%.17g")


@dataclass(frozen=True)
class Shipped:
    copied: list[str]
    left_out: list[tuple[str, str]]  # (file, why)


def ship_raw_files(files: list[str], folder: Path, data_dir: Path) -> Shipped:
    """Copy the raw files the analysis read into data/, size-capped."""
    copied: list[str] = []
    left: list[tuple[str, str]] = []
    total = 0
    for rel in sorted(dict.fromkeys(files)):
        src = folder / rel
        if not src.is_file() or src.is_symlink():
            left.append((rel, "not a regular file in the data folder"))
            continue
        size = src.stat().st_size
        if size > MAX_FILE_BYTES:
            left.append((rel, f"{size / 2**20:.1f} MB, over the {MAX_FILE_BYTES >> 20} MB cap"))
            continue
        if total + size > MAX_TOTAL_BYTES:
            left.append((rel, f"the compendium's {MAX_TOTAL_BYTES >> 20} MB total was reached"))
            continue
        target = data_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        total += size
        copied.append(rel)
    return Shipped(copied, left)
