"""The file shapes lab folders come in: writers for each, all to bytes.

Comma CSV with units in the headers, semicolon CSV with decimal commas (what
European spreadsheet locales save), tab-separated text with `#` comment
headers (what data loggers write), Excel workbooks with several sheets,
MATLAB .mat files, JSON records, GBK-encoded Chinese CSV.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import numpy as np

Columns = dict[str, Sequence[float] | np.ndarray]


def _fmt(value: float, digits: int) -> str:
    return f"{float(value):.{digits}g}" if digits > 0 else repr(float(value))


def _rows(cols: Columns, digits: dict[str, int] | int) -> list[list[str]]:
    names = list(cols)
    n = len(next(iter(cols.values())))
    out = []
    for i in range(n):
        row = []
        for name in names:
            d = digits if isinstance(digits, int) else digits.get(name, 6)
            row.append(_fmt(cols[name][i], d))
        out.append(row)
    return out


def csv(cols: Columns, digits: dict[str, int] | int = 6, *, sep: str = ",",
        decimal: str = ".", comments: Sequence[str] = (), encoding: str = "utf-8",
        newline: str = "\n") -> bytes:  # fmt: skip
    lines = [f"# {c}" for c in comments]
    lines.append(sep.join(cols))
    for row in _rows(cols, digits):
        cells = [c.replace(".", decimal) for c in row] if decimal != "." else row
        lines.append(sep.join(cells))
    return (newline.join(lines) + newline).encode(encoding)


def semicolon_csv(cols: Columns, digits: dict[str, int] | int = 6) -> bytes:
    return csv(cols, digits, sep=";", decimal=",")


def logger_txt(cols: Columns, comments: Sequence[str], digits: dict[str, int] | int = 6) -> bytes:
    return csv(cols, digits, sep="\t", comments=comments)


def xlsx(sheets: dict[str, Columns], digits: dict[str, int] | int = 8) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, cols in sheets.items():
        ws = wb.create_sheet(title)
        ws.append(list(cols))
        for row in _rows(cols, digits):
            ws.append([float(c) for c in row])
    buf = io.BytesIO()
    wb.save(buf)
    return _pin_zip_times(buf.getvalue())


def _pin_zip_times(data: bytes) -> bytes:
    """openpyxl stamps the current time into the zip and docProps; rewrite
    the archive with fixed times so a regenerated folder is byte-identical."""
    import re
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"2026-01-01T00:00:00Z", body)
            dst.writestr(zipfile.ZipInfo(info.filename, (2026, 1, 1, 0, 0, 0)), body)
    return out.getvalue()


def mat(variables: dict[str, np.ndarray | float]) -> bytes:
    import scipy.io

    buf = io.BytesIO()
    scipy.io.savemat(buf, {k: np.asarray(v, dtype=float) for k, v in variables.items()})
    data = bytearray(buf.getvalue())
    stamp = b"MATLAB 5.0 MAT-file Platform: posix, Created on: Thu Jan  1 00:00:00 2026"
    data[: len(stamp)] = stamp  # savemat writes the current time into the header
    return bytes(data)


def json_records(cols: Columns, digits: int = 6, meta: dict[str, object] | None = None) -> bytes:
    names = list(cols)
    n = len(next(iter(cols.values())))
    records = [{k: float(_fmt(cols[k][i], digits)) for k in names} for i in range(n)]
    body: object = {**meta, "data": records} if meta else records
    return (json.dumps(body, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def text(notes: str, encoding: str = "utf-8") -> bytes:
    return notes.strip().encode(encoding) + b"\n"
