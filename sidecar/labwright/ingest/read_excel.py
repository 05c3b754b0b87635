"""Reader for Excel workbooks (.xlsx, .xlsm): every sheet, through pandas and openpyxl.

Cached formula values are read (what Excel last displayed), never formulas.
The header is located like in text tables, since sheets often carry a title
row or a block of metadata above the column names.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pandas as pd

from labwright.messages import say

from .base import Item, ReaderContext, ReadError
from .tabular import column_names, frame_to_columns, locate_header, preamble_metadata
from .types import Dataset, Provenance, Skipped

_HEADER_SCAN_ROWS = 200


def _sheet_dataset(
    frame: pd.DataFrame, name: str, prov: Provenance, max_rows: int
) -> Dataset | None:
    frame = frame.dropna(how="all").dropna(axis=1, how="all")
    if frame.empty:
        return None
    head = frame.head(_HEADER_SCAN_ROWS).astype(object).values.tolist()
    info = locate_header(head)
    if info is None:
        return None
    body = frame.iloc[info.data_start :]
    notes = []
    if len(body) > max_rows:
        body = body.iloc[:max_rows]
        notes.append(f"Only the first {max_rows:,} rows were read.")
    names, units = column_names(body.shape[1], info.header, info.units)
    columns = frame_to_columns(body.reset_index(drop=True), names, units, prov, notes=notes)
    if not any(c.is_numeric for c in columns):
        return None
    dataset = Dataset(
        name=name, source=prov.file, kind="table", columns=columns, provenance=prov, notes=notes
    )
    dataset.metadata.update(preamble_metadata(info.preamble))
    return dataset


def read_excel(path: Path, ctx: ReaderContext) -> list[Item]:
    if not zipfile.is_zipfile(path):
        raise ReadError("read.excel_invalid")
    try:
        sheets = pd.read_excel(
            path,
            sheet_name=None,
            header=None,
            engine="openpyxl",
            nrows=ctx.max_rows + _HEADER_SCAN_ROWS,
        )
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ReadError("read.excel_unopened") from exc
    items: list[Item] = []
    single = len(sheets) == 1
    for sheet, frame in sheets.items():
        name = ctx.name if single else ctx.sub(str(sheet))
        dataset = _sheet_dataset(frame, name, Provenance(ctx.rel, sheet=str(sheet)), ctx.max_rows)
        if dataset is None:
            items.append(
                Skipped(
                    ctx.rel,
                    say("read.sheet_no_numbers", sheet=str(sheet), file=ctx.rel),
                    variable=str(sheet),
                )
            )
        else:
            items.append(dataset)
    return items
