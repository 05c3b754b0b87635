"""Recognise calendar time in a column, whatever way it was written.

Handled: timestamps the readers already turned into seconds (they keep the
origin), `YYYYMMDD` and `YYYYMM` integers, decimal years (1958.208), a plain
year column, and a year column plus a month column. Every recognised column
becomes decimal years (the natural unit for rates "per year") and
datetime64 values (for a real date axis). The reason says which rule fired,
so a wrong guess can be seen and argued with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from labwright.ingest.types import Column

_YEAR_NAMES = re.compile(r"^(year|yr|yyyy|jahr|année|annee|年|年份|年度)$|(^|_)year(s)?($|_)", re.I)
_MONTH_NAMES = re.compile(r"^(month|mon|mo|mm|monat|月|月份)$", re.I)
_QUARTER_NAMES = re.compile(r"^(quarter|qtr|qr|q|quartal|trimestre|季度|季)$", re.I)
# "1974Q1", "1974-Q1", "1974 q1", "Q1 1974", "1974年第1季度": quarterly periods as text.
_QUARTER_TEXT = (
    re.compile(r"^(\d{4})\s*[-_/ ]?\s*[Qq]([1-4])$"),
    re.compile(r"^[Qq]([1-4])\s*[-_/ ]?\s*(\d{4})$"),
    re.compile(r"^(\d{4})\s*年?\s*第?\s*([1-4一二三四])\s*季度?$"),
)
_CN_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4}
_DATE_NAMES = re.compile(
    r"(^|[_\s])(date|day|time|datetime|timestamp|period|yyyymmdd|decimal[_\s]?date|日期|时间)($|[_\s])",
    re.I,
)
MIN_YEAR, MAX_YEAR = 1000, 2200


@dataclass(frozen=True)
class TimeAxis:
    """A column read as calendar time."""

    format: str  # "timestamp", "yyyymmdd", "yyyymm", "decimal_year", "year", "year+month"
    years: np.ndarray  # decimal years, NaN where missing
    dates: np.ndarray  # datetime64[s]
    reason: str


def _finite(v: np.ndarray) -> np.ndarray:
    return np.asarray(v[np.isfinite(v)])


def _to_decimal_years(dates: pd.DatetimeIndex) -> np.ndarray:
    year = dates.year.to_numpy(dtype=float)
    start = pd.to_datetime(pd.DataFrame({"year": dates.year, "month": 1, "day": 1}))
    end = pd.to_datetime(pd.DataFrame({"year": dates.year + 1, "month": 1, "day": 1}))
    frac = (dates - pd.DatetimeIndex(start)).total_seconds() / (
        pd.DatetimeIndex(end) - pd.DatetimeIndex(start)
    ).total_seconds()
    return np.asarray(year + np.asarray(frac, dtype=float))


def _axis(fmt: str, dates: pd.DatetimeIndex, reason: str) -> TimeAxis:
    ok = ~dates.isna()
    years = np.full(len(dates), np.nan)
    if ok.any():
        years[ok] = _to_decimal_years(dates[ok])
    stamps = dates.to_numpy(dtype="datetime64[s]")
    return TimeAxis(fmt, years, stamps, reason)


def _is_integral(v: np.ndarray) -> bool:
    return v.size > 0 and bool(np.all(np.abs(v - np.round(v)) < 1e-9))


def _monotone(v: np.ndarray) -> bool:
    d = np.diff(v)
    return v.size >= 3 and bool(np.all(d >= 0) or np.all(d <= 0))


def from_timestamp(col: Column) -> TimeAxis | None:
    """Seconds since an origin the reader recorded (ISO dates, `19-Sep-03`)."""
    if col.origin is None or not col.is_numeric:
        return None
    try:
        origin = pd.Timestamp(col.origin)
    except (ValueError, TypeError):
        return None
    secs = np.asarray(col.values, dtype=float)
    dates = pd.DatetimeIndex(
        [origin + pd.Timedelta(seconds=float(s)) if np.isfinite(s) else pd.NaT for s in secs]
    )
    return _axis("timestamp", dates, f"dates or timestamps in the file (from {col.origin})")


def from_yyyymmdd(col: Column) -> TimeAxis | None:
    """Eight-digit integers that are valid calendar dates, e.g. 19580329."""
    if not col.is_numeric or col.unit:
        return None
    v = _finite(np.asarray(col.values, dtype=float))
    if v.size < 3 or not _is_integral(v):
        return None
    if not (v.min() >= MIN_YEAR * 10000 + 101 and v.max() <= MAX_YEAR * 10000 + 1231):
        return None
    iv = v.astype(np.int64)
    month, day = (iv // 100) % 100, iv % 100
    if not (np.all((month >= 1) & (month <= 12)) and np.all((day >= 1) & (day <= 31))):
        return None
    text = pd.Series(np.asarray(col.values, dtype=float)).map(
        lambda x: f"{int(x):08d}" if np.isfinite(x) else None
    )
    dates = pd.DatetimeIndex(pd.to_datetime(text, format="%Y%m%d", errors="coerce"))
    if dates.isna().sum() > np.isnan(np.asarray(col.values, dtype=float)).sum():
        return None
    return _axis("yyyymmdd", dates, "eight-digit integers that are valid YYYYMMDD dates")


def from_yyyymm(col: Column) -> TimeAxis | None:
    """Six-digit YYYYMM integers; only with a date-like name or a sorted column,
    since six-digit measurements exist."""
    if not col.is_numeric or col.unit:
        return None
    v = _finite(np.asarray(col.values, dtype=float))
    if v.size < 3 or not _is_integral(v):
        return None
    if not (v.min() >= MIN_YEAR * 100 + 1 and v.max() <= MAX_YEAR * 100 + 12):
        return None
    month = v.astype(np.int64) % 100
    if not np.all((month >= 1) & (month <= 12)):
        return None
    if not (_DATE_NAMES.search(col.name) or (_monotone(v) and np.unique(v).size == v.size)):
        return None
    text = pd.Series(np.asarray(col.values, dtype=float)).map(
        lambda x: f"{int(x):06d}" if np.isfinite(x) else None
    )
    dates = pd.DatetimeIndex(pd.to_datetime(text, format="%Y%m", errors="coerce"))
    return _axis("yyyymm", dates, "six-digit integers that are valid YYYYMM months")


def _years_to_dates(years: np.ndarray) -> pd.DatetimeIndex:
    out = []
    for y in years:
        if not np.isfinite(y):
            out.append(pd.NaT)
            continue
        whole = int(np.floor(y))
        start = pd.Timestamp(year=whole, month=1, day=1)
        end = pd.Timestamp(year=whole + 1, month=1, day=1)
        out.append(start + (end - start) * float(y - whole))
    return pd.DatetimeIndex(out)


def from_decimal_year(col: Column) -> TimeAxis | None:
    """Fractional years such as 1958.208 (sorted, within a plausible range)."""
    if not col.is_numeric or col.unit:
        return None
    v = _finite(np.asarray(col.values, dtype=float))
    if v.size < 3 or _is_integral(v) or not (v.min() >= MIN_YEAR and v.max() <= MAX_YEAR):
        return None
    step = np.median(np.abs(np.diff(v))) if v.size > 1 else 0
    named = bool(_DATE_NAMES.search(col.name) or _YEAR_NAMES.search(col.name))
    if not (_monotone(v) and 0 < step <= 1.0) and not named:
        return None
    years = np.asarray(col.values, dtype=float)
    return TimeAxis(
        "decimal_year", years, _years_to_dates(years).to_numpy(dtype="datetime64[s]"),
        "fractional values between 1000 and 2200, sorted, at most a year apart: decimal years",
    )  # fmt: skip


def from_year(col: Column) -> TimeAxis | None:
    """Whole years: named so, or sorted unique integers in the range."""
    if not col.is_numeric or col.unit:
        return None
    v = _finite(np.asarray(col.values, dtype=float))
    if v.size < 3 or not _is_integral(v) or not (v.min() >= MIN_YEAR and v.max() <= MAX_YEAR):
        return None
    named = bool(_YEAR_NAMES.search(col.name.strip()))
    # Unnamed: consecutive years (a year repeated for each month counts too).
    steps = np.abs(np.diff(v))
    sequence = (
        _monotone(v) and bool(np.all(np.isin(steps, (0.0, 1.0)))) and bool(np.any(steps == 1))
    )
    if not (named or sequence):
        return None
    years = np.asarray(col.values, dtype=float)
    why = "a column named as a year" if named else "sorted whole numbers between 1000 and 2200"
    return TimeAxis(
        "year", years, _years_to_dates(years).to_numpy(dtype="datetime64[s]"), why + ": years"
    )


@dataclass(frozen=True)
class YearPart:
    """A column that divides the year beside a year column: months (1..12)
    or quarters (1..4). With the year it is one date per row."""

    word: str
    per_year: int
    names: re.Pattern[str]


MONTH = YearPart("month", 12, _MONTH_NAMES)
QUARTER = YearPart("quarter", 4, _QUARTER_NAMES)


def is_part_column(col: Column, part: YearPart) -> bool:
    """Named as the part (month, 月; quarter, 季度) and holding its numbers."""
    if not col.is_numeric:
        return False
    v = _finite(np.asarray(col.values, dtype=float))
    return (
        bool(part.names.match(col.name.strip()))
        and _is_integral(v)
        and bool(v.size and v.min() >= 1 and v.max() <= part.per_year)
    )


def from_year_part(year: Column, col: Column, part: YearPart) -> TimeAxis | None:
    """The date of each row, in the middle of its month or quarter."""
    y = np.asarray(year.values, dtype=float)
    p = np.asarray(col.values, dtype=float)
    ok = np.isfinite(y) & np.isfinite(p)
    if ok.sum() < 3:
        return None
    years = np.where(ok, y + (p - 0.5) / part.per_year, np.nan)
    return TimeAxis(
        f"year+{part.word}", years, _years_to_dates(years).to_numpy(dtype="datetime64[s]"),
        f"year column {year.name} with {part.word} column {col.name}",
    )  # fmt: skip


def _quarter_of(text: str) -> tuple[int, int] | None:
    for i, pattern in enumerate(_QUARTER_TEXT):
        m = pattern.match(text)
        if m:
            a, b = m.group(1), m.group(2)
            year, q = (int(b), int(a)) if i == 1 else (int(a), _CN_DIGITS.get(b) or int(b))
            return year, q
    return None


def from_quarter_text(col: Column) -> TimeAxis | None:
    """Text periods such as `1974Q1` (statistical offices' quarterly data)."""
    if col.is_numeric:
        return None
    cells = [str(v).strip() for v in col.values]
    filled = [c for c in cells if c]
    if len(filled) < 3:
        return None
    parsed = [_quarter_of(c) if c else None for c in cells]
    if sum(p is not None for p in parsed) < 0.9 * len(filled):
        return None
    years = np.array(
        [p[0] + (p[1] - 0.5) / 4.0 if p is not None else np.nan for p in parsed], dtype=float
    )
    if not (np.nanmin(years) >= MIN_YEAR and np.nanmax(years) <= MAX_YEAR):
        return None
    return TimeAxis(
        "quarter", years, _years_to_dates(years).to_numpy(dtype="datetime64[s]"),
        "text such as 1974Q1: quarterly periods",
    )  # fmt: skip


def recognise(col: Column) -> TimeAxis | None:
    """The first rule that reads `col` as calendar time, or None."""
    for rule in (from_timestamp, from_yyyymmdd, from_yyyymm, from_decimal_year, from_year):
        axis = rule(col)
        if axis is not None:
            return axis
    return None
