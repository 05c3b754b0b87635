"""Shared shaping of table-like cells into typed columns.

Text tables and spreadsheets share the same question: which row is the header,
is there a row of units under it, and where do the numbers start? Lab exports
often put a preamble (instrument, date, operator) above the header, so the
header is found from the data upward instead of assumed to be row one.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .types import Column, Provenance
from .units import looks_like_unit, split_suffix_units, split_unit

# Rows read from one table. Enough for any plot or fit the report makes;
# protects memory and time on multi-gigabyte logger dumps.
MAX_ROWS = 200_000

_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.]\d*)?|[.]\d+)(?:[eE][+-]?\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+(?:[eE][+-]?\d+)?$")
_DATE_OR_TIME = re.compile(
    r"^\d{1,4}[-/:.]\d{1,2}(?:[-/:.]\d{1,4})?(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$"
)
# Day-month-name dates as exported by spreadsheets and finance sites ("19-Sep-03",
# "3 Mar 2021").
_DAY_MONTH_NAME = re.compile(r"^\d{1,2}[- /][A-Za-z]{3,9}[- /]\d{2,4}$")
# Month-name-first dates ("Jan-1-1995", "Jan 1, 1995", as statistical offices
# export them); a four-digit year, so the order is never ambiguous.
_MONTH_NAME_DAY = re.compile(r"^[A-Za-z]{3,9}[- /]\d{1,2},?[- /]\d{4}$")
_SPECIAL = {"nan", "inf", "-inf", "+inf", "na", "n/a"}


def is_number(cell: object, decimal_comma: bool = False) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, (int, float, np.integer, np.floating)):
        return True
    text = str(cell).strip()
    if _NUMBER.match(text) or text.lower() in _SPECIAL:
        return True
    return decimal_comma and bool(_DECIMAL_COMMA.match(text))


def is_value(cell: object, decimal_comma: bool = False) -> bool:
    """A data-like cell: a number, or a date/time stamp."""
    if is_number(cell, decimal_comma):
        return True
    if hasattr(cell, "year") or isinstance(cell, (np.datetime64, pd.Timestamp)):
        return True
    return _is_stamp(str(cell).strip())


def _is_stamp(text: str) -> bool:
    return bool(
        _DATE_OR_TIME.match(text) or _DAY_MONTH_NAME.match(text) or _MONTH_NAME_DAY.match(text)
    )


def is_empty(cell: object) -> bool:
    if cell is None:
        return True
    if isinstance(cell, float) and np.isnan(cell):
        return True
    return str(cell).strip() == ""


def is_data_row(cells: Sequence[object], decimal_comma: bool = False) -> bool:
    """At least half of the non-empty cells are values, and at least one is a
    number or a date/time stamp.

    A stamp counts like a number: a logger's first line "12:00:00;" (the
    reading missing) or "2021-01-10,ctrl," has no number, and read as a
    header it made the first data line the column names ("12:00:00"). No
    header names a column with a time stamp."""
    filled = [c for c in cells if not is_empty(c)]
    if not filled:
        return False
    values = sum(1 for c in filled if is_value(c, decimal_comma))
    numbers = sum(1 for c in filled if is_number(c, decimal_comma))
    return (numbers >= 1 or values >= 1) and values * 2 >= len(filled)


def _year_header(
    row: Sequence[object], below: Sequence[object], decimal_comma: bool = False
) -> bool:
    """A header whose column names are consecutive years (World Bank and
    statistical-office tables: one row per country, one column per year).
    Its year cells are numbers, so it passed for the first data row and the
    table lost its header. Recognised when at least three cells run through
    consecutive whole years and the row below does not repeat them."""
    years: list[int] = []
    for c in row:
        if is_empty(c) or not is_number(c, decimal_comma):
            continue
        try:
            v = float(str(c).strip())
        except ValueError:
            return False
        if not v.is_integer() or not 1000 <= v <= 2200:
            return False
        years.append(int(v))
    if len(years) < 3 or any(b - a != 1 for a, b in zip(years, years[1:], strict=False)):
        return False
    under = [str(c).strip() for c in below if not is_empty(c)]
    return not all(u in {str(y) for y in years} for u in under if is_number(u, decimal_comma))


@dataclass
class HeaderInfo:
    data_start: int  # index of the first data row in the given rows
    header: list[str] | None = None
    units: list[str] | None = None
    preamble: list[str] = field(default_factory=list)


def _factor_rows(rows: Sequence[Sequence[object]], decimal_comma: bool = False) -> list[bool]:
    """Data rows of a table whose text columns outnumber its numbers.

    A designed experiment writes one measurement beside its factors
    ("26,A,L": breaks, wool, tension), so no row is half values and the
    half-values rule of `is_data_row` found no data at all. Such a table is
    still regular: the rows of its usual width have numbers in the same
    columns. A row is data when it has that width and a number in every
    column that holds a number in at least 80% of those rows; the header
    above has names there instead."""
    widths = [len(r) for r in rows]
    if not widths:
        return []
    width = max(set(widths), key=widths.count)
    body = [r for r in rows if len(r) == width]
    numeric = [
        j
        for j in range(width)
        if sum(is_number(r[j], decimal_comma) for r in body) >= 0.8 * len(body)
    ]
    if not numeric:
        return [False] * len(rows)
    return [len(r) == width and all(is_number(r[j], decimal_comma) for j in numeric) for r in rows]


def _main_run(rows: Sequence[Sequence[object]], flags: list[bool], first: int) -> int:
    """The start of the table's data when a short block of settings comes first.

    Oscilloscopes and loggers export a few "key,value" lines ("Sample
    interval,0.0002", "Record length,125"), then a blank line, the column
    names, often a units row, and the data. The settings are half values, so
    they passed for the first two data rows and the real header became data.
    A run of data rows that ends at a non-data row (a blank line, then names)
    is a preamble when a later run of data rows is at least four times as long
    (and at least ten rows): the data start there."""

    def run_end(i: int) -> int:
        while i < len(flags) and flags[i]:
            i += 1
        return i

    end = run_end(first)
    if end >= len(flags):
        return first
    best, best_len = first, end - first
    i = end
    while i < len(flags):
        if flags[i]:
            stop = run_end(i)
            if stop - i > best_len:
                best, best_len = i, stop - i
            i = stop
        else:
            i += 1
    first_len = end - first
    if best != first and best_len >= max(10, 4 * first_len):
        return best
    return first


def locate_header(
    rows: Sequence[Sequence[object]], decimal_comma: bool = False
) -> HeaderInfo | None:
    """Find the first run of data rows and the header (and units row) just above it.

    Returns None when the rows hold no data at all.
    """
    flags = [is_data_row(r, decimal_comma) for r in rows]
    if not any(flags):
        flags = _factor_rows(rows, decimal_comma)
    start = None
    for i, flag in enumerate(flags):
        # Two data rows in a row, or a last lone row, start the data; a single
        # numeric line in a preamble ("Samples: 500") does not.
        if flag and (i + 1 >= len(flags) or flags[i + 1] or all(is_empty(c) for c in rows[i + 1])):
            start = i
            break
    if start is None:
        return None
    start = _main_run(rows, flags, start)
    above_start = [i for i in range(start) if not all(is_empty(c) for c in rows[i])]
    width = sum(1 for c in rows[start] if not is_empty(c))
    # A header row of the same width just above means the years are data.
    named_above = bool(above_start) and (
        sum(1 for c in rows[above_start[-1]] if not is_empty(c)) >= width
    )
    if (
        not named_above
        and start + 1 < len(rows)
        and _year_header(rows[start], rows[start + 1], decimal_comma)
    ):
        start += 1  # "Country Name, ..., 1960, 1961, ...": the years are the header
    above = [i for i in range(start) if not all(is_empty(c) for c in rows[i])]
    info = HeaderInfo(data_start=start)
    if not above:
        return info
    last = above[-1]
    cells = [("" if is_empty(c) else str(c).strip()) for c in rows[last]]
    filled = [c for c in cells if c]
    header_above = (
        [("" if is_empty(c) else str(c).strip()) for c in rows[above[-2]]]
        if len(above) >= 2
        else []
    )
    if (
        filled
        and all(looks_like_unit(c) for c in filled)
        and sum(1 for c in header_above if c) == len(filled)
    ):
        # A units row under the header: both rows have the same filled cells.
        info.units = cells
        info.header = header_above
        pre = above[:-2]
    else:
        info.header = cells
        pre = above[:-1]
    info.preamble = [" ".join(str(c) for c in rows[i] if not is_empty(c)) for i in pre]
    return info


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if name in seen:
            seen[name] += 1
            out.append(f"{name}_{seen[name]}")
        else:
            seen[name] = 1
            out.append(name)
    return out


#: The name a column without a header gets: its position ("col3").
_GENERATED = re.compile(r"col\d+")


def generated_name(i: int) -> str:
    """The name of the column at 0-based position `i` of a headerless table."""
    return f"col{i + 1}"


def is_generated_name(name: str) -> bool:
    """A name that says only where the column is (`generated_name`): not a
    symbol, a quantity or a repeat number."""
    return bool(_GENERATED.fullmatch(name))


def column_names(
    n: int, header: list[str] | None, units: list[str] | None
) -> tuple[list[str], list[str | None]]:
    names: list[str] = []
    unit_list: list[str | None] = []
    for i in range(n):
        raw = header[i] if header and i < len(header) else ""
        name, unit = split_unit(raw)
        if units and i < len(units) and units[i] and not unit:
            unit = units[i].strip().strip("()[]（）") or None
        names.append(name or generated_name(i))
        unit_list.append(unit)
    # Headers such as "time_s" carry the unit as a suffix; only for columns
    # without a written unit.
    bare = [i for i, u in enumerate(unit_list) if u is None]
    for i, (name, unit) in zip(bare, split_suffix_units([names[i] for i in bare]), strict=True):
        if unit is not None and name not in names:
            names[i], unit_list[i] = name, unit
    return _unique(names), unit_list


def to_column_array(series: pd.Series, decimal_comma: bool = False) -> np.ndarray | None:
    """A float array when the column is (almost) all numbers, else text; None when empty."""
    if series.dtype.kind in "biuf":
        values = series.to_numpy(dtype=float)
        return None if np.all(np.isnan(values)) else values
    text = series.astype("string").str.strip()
    filled = text.notna() & (text != "")
    if not filled.any():
        return None
    candidate = text.str.replace(",", ".", regex=False) if decimal_comma else text
    numbers = pd.to_numeric(candidate.where(filled), errors="coerce")
    if numbers[filled].notna().mean() >= 0.9:
        return numbers.to_numpy(dtype=float, na_value=np.nan)
    return np.asarray(text.fillna("").tolist(), dtype=str)


def _elapsed_seconds(series: pd.Series) -> tuple[np.ndarray, str] | None:
    """Seconds since the first timestamp, when (nearly) every cell is a date or time."""
    if series.dtype.kind == "M":
        stamps = pd.to_datetime(series, errors="coerce")
    else:
        text = series.astype("string").str.strip()
        filled = text.notna() & (text != "")
        if not filled.any() or text[filled].map(_is_stamp).mean() < 0.9:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sample = text[filled]
            if sample.map(lambda c: bool(_DAY_MONTH_NAME.match(c))).all():
                # "19-Sep-03": day first, month name, two- or four-digit year.
                stamps = pd.to_datetime(
                    text.where(filled), errors="coerce", dayfirst=True, format="mixed"
                )
            else:
                stamps = pd.to_datetime(text.where(filled), errors="coerce")
    valid = stamps.dropna()
    if valid.empty or len(valid) < 0.9 * series.notna().sum():
        return None
    origin = valid.iloc[0]
    seconds = (stamps - origin).dt.total_seconds().to_numpy(dtype=float, na_value=np.nan)
    return seconds, str(origin)


def frame_to_columns(
    frame: pd.DataFrame,
    names: list[str],
    units: list[str | None],
    provenance: Provenance,
    decimal_comma: bool = False,
    notes: list[str] | None = None,
) -> list[Column]:
    """Typed columns from a frame of data rows; empty columns are dropped.

    Timestamp columns become seconds elapsed since their first value (unit
    "s"), with the origin recorded in `notes`: a data logger's clock column is
    the x axis of a time series, and text cannot be plotted or fitted.
    """
    columns: list[Column] = []
    for i in range(frame.shape[1]):
        name = names[i] if i < len(names) else generated_name(i)
        unit = units[i] if i < len(units) else None
        values = to_column_array(frame.iloc[:, i], decimal_comma)
        if values is None:
            continue
        origin: str | None = None
        if values.dtype.kind != "f":
            elapsed = _elapsed_seconds(frame.iloc[:, i])
            if elapsed is not None:
                values, origin = elapsed
                unit = "s"
                if notes is not None:
                    notes.append(f"Column {name} was converted to seconds since {origin}.")
        prov = Provenance(provenance.file, provenance.sheet, provenance.variable, name)
        columns.append(Column(name=name, values=values, provenance=prov, unit=unit, origin=origin))
    if columns:
        # Rows where every numeric column is empty are spacer lines, not data.
        numeric = [c.values for c in columns if c.values.dtype.kind == "f"]
        if numeric:
            keep = ~np.all(np.isnan(np.vstack(numeric)), axis=0)
            if not keep.all():
                for col in columns:
                    col.values = col.values[keep]
        for col in columns:
            if len(col.values):
                col.provenance = replace(col.provenance, rows=f"1–{len(col.values)}")
    return columns


def preamble_metadata(lines: list[str]) -> dict[str, str]:
    """Key-value lines above a table ("Instrument: Keithley 2400", "T = 293 K")."""
    out: dict[str, str] = {}
    for line in lines[:50]:
        match = re.match(r"^\s*([^:=：]{1,40}?)\s*[:=：]\s*(.+?)\s*$", line)
        if match and match[1] not in out:
            out[match[1]] = match[2][:200]
    return out
