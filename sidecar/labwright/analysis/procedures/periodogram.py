"""The period of a cyclic series: the periodogram's peak, refined by a
sinusoid fitted at it.

Evenly sampled series: `scipy.signal.periodogram` of the linearly detrended
values (a slow drift would otherwise fill the lowest bins); uneven sampling
(gaps, cloudy nights): the Lomb–Scargle periodogram on a grid from one
cycle per span to the median sampling's Nyquist frequency, oversampled
tenfold. The peak frequency starts a least-squares fit (lmfit) of
y = y0 + c t + a sin(2π f t) + b cos(2π f t) with f free; its SE gives the
period's, P = 1/f, s_P = s_f/f². The trend term c is there so that a drift
does not bias the period, never reported as the answer: the notes ask for a
cycle, not a trend.

A cycle is claimed only when its peak is unlikely to be noise: the highest of
a periodogram's some N/2 independent bins always looks like a peak, and
white noise around a trend (a daily price with a steady rise) gave a
"period" of a few days. The sinusoid's share of the detrended
residuals, p = (RSS_trend − RSS_sine)/RSS_trend, has the single-frequency
false-alarm probability (1 − p)^((N−3)/2) (Zechmeister & Kürster 2009, the
generalised Lomb–Scargle periodogram); over the M independent frequencies
searched (span × bandwidth) the probability that noise alone gives a peak
this high is 1 − (1 − that)^M (Horne & Baliunas 1986). Above MAX_FALSE_ALARM
no period is claimed and the series is left to the time-series analysis.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.procedures.common import (
    BoundTable,
    asked,
    bound_tables,
    entries_of,
    expected,
)
from labwright.analysis.procedures.period_error import period_error
from labwright.analysis.quantities import parse_unit
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_rules.words import is_chinese
from labwright.analysis.results import Answer
from labwright.analysis.wide import MonthlyWide
from labwright.ingest.types import Column, Dataset

MIN_POINTS = 12
MIN_CYCLES = 2.0  # a period is claimed only when the series spans this many
UNEVEN = 0.01  # relative spread of the sampling steps above which Lomb–Scargle is used
OVERSAMPLE = 10
LS_MIN_OVERSAMPLE = 3  # bins per peak width the Lomb–Scargle grid never goes below
LS_BUDGET = 2_000_000  # points x frequencies of one Lomb–Scargle grid
MAX_FALSE_ALARM = 0.01  # a cycle is claimed only when noise gives a peak this high less often
#: Calendar codes whose numbers are not a linear time (20191231 → 20200101
#: jumps by 8870): a period "in these units" is meaningless.
_CALENDAR_CODES = frozenset({"yyyymmdd", "yyyymm"})


@dataclass
class PeriodResult:
    entry: ModelEntry
    t: Column
    y: Column
    ts: np.ndarray
    ys: np.ndarray
    time_unit: str | None
    method: str  # "Lomb-Scargle" | "periodogram"
    freqs: np.ndarray
    power: np.ndarray
    f_peak: float
    f: float
    f_se: float
    amplitude: float
    amplitude_se: float
    phase: float
    level: float
    trend: float
    request: AnalysisRequest | None = None
    #: The sinusoid fit's own SE of f, and which SE `f_se` is
    #: (period_error.py: "fit", "autocorrelation", "phase drift").
    f_se_fit: float = 0.0
    se_source: str = "fit"

    @property
    def period(self) -> float:
        return 1.0 / self.f

    @property
    def period_se(self) -> float:
        return self.f_se / self.f**2

    def model(self, t: np.ndarray) -> np.ndarray:
        return np.asarray(
            self.level
            + self.trend * t
            + self.amplitude * np.sin(2 * np.pi * self.f * t + self.phase)
        )

    def answers(self) -> list[Answer]:
        req = self.request or AnalysisRequest()
        key = self.entry.key
        src = (self.t.provenance, self.y.provenance)
        rows = f"all {self.ts.size}"
        how = periodogram_method(self.method, self.se_source)
        u = self.time_unit
        fu = f"1/{u}" if u else None
        return [
            Answer("P", Text("period", "周期"), "P", self.period, self.period_se, u, how, key,
                   True, expected(req, "P", u), src, rows),
            Answer("f_cycle", Text("frequency of the cycle", "周期频率"), "f", self.f, self.f_se,
                   fu, how, key, asked(req, "f_cycle"), expected(req, "f_cycle", fu), src, rows),
            Answer("A", Text("amplitude", "振幅"), "A", self.amplitude, self.amplitude_se,
                   self.y.unit, how, key, asked(req, "A"), None, src, rows),
        ]  # fmt: skip


#: How the period's SE was found, by `PeriodError.source`.
_SE_HOW: dict[str, Text] = {
    "fit": Text("from the fit", "来自拟合"),
    "autocorrelation": Text(
        "from the fit, widened for the residuals' autocorrelation (effective sample size)",
        "来自拟合，并按残差的自相关（有效样本量）放大",
    ),
    "phase drift": Text(
        "from the drift of the cycle's phase between segments of two cycles (O−C, "
        "white and random-walk scatter by REML), larger than the fit's",
        "来自各两周期分段的相位漂移（O−C，白噪声与随机游走方差由 REML 估计），大于拟合给出的值",
    ),
}


def periodogram_method(method: str, se_source: str) -> Text:
    """The answers' method in both languages: the periodogram `method`
    ("Lomb-Scargle" or "periodogram") and how the period's SE was found
    (a key of `_SE_HOW`)."""
    se_how = _SE_HOW[se_source]
    name = "Lomb-Scargle periodogram" if method == "Lomb-Scargle" else "periodogram"
    return Text(
        f"peak of the {name}, refined by a sinusoid fitted at it "
        f"(lmfit, with a linear trend term); SE {se_how.en}",
        f"{'Lomb–Scargle ' if method == 'Lomb-Scargle' else ''}周期图的峰，"
        f"再在该频率附近拟合正弦（lmfit，含线性趋势项）精化；标准误差{se_how.zh}",
    )


def periodogram_methods() -> list[Text]:
    """Every method text `answers` can give (the numbers appendix's Chinese
    forms are looked up by the English one the ledger records)."""
    return [periodogram_method(m, s) for m in ("Lomb-Scargle", "periodogram") for s in _SE_HOW]


#: Chinese names of a time axis that are units of time themselves.
_ZH_TIME_NAMES: dict[str, str] = {
    "年": "year", "年份": "year", "年度": "year", "月": "month", "月份": "month",
    "日": "day", "天": "day", "天数": "day", "小时": "hour", "分钟": "minute", "秒": "s",
}  # fmt: skip


def time_unit(col: Column) -> str | None:
    """The column's unit, or its name when the name is a unit of time
    ("day", "year": a light curve's or a census's time axis; "年份", "天"
    in Chinese headers, the lynx census's period had no unit)."""
    if col.unit:
        return col.unit
    zh = _ZH_TIME_NAMES.get(col.name.strip())
    if zh is not None:
        return zh
    unit = parse_unit(col.name.strip())
    if unit is not None and str(unit.dimensionality) == "[time]":
        return col.name.strip()
    return None


def spectrum(t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, str]:
    """Frequencies (cycles per unit of t), power, and the method used."""
    from scipy import signal

    steps = np.diff(t)
    span = float(t[-1] - t[0])
    if float(np.std(steps) / np.mean(steps)) > UNEVEN:
        nyquist = 0.5 / float(np.median(steps))
        # Lomb–Scargle costs points x frequencies: a daily series of a few
        # years on the full OVERSAMPLE grid took seconds per column. The grid
        # is kept within a budget, never coarser than LS_MIN_OVERSAMPLE bins
        # per peak width (1/span), and refined around its highest bin.
        full = int(OVERSAMPLE * span * nyquist) + 1
        floor = int(LS_MIN_OVERSAMPLE * span * nyquist) + 1
        n = max(min(full, LS_BUDGET // max(t.size, 1)), floor, 100)
        freqs = np.linspace(1.0 / span, nyquist, n)
        detrended = signal.detrend(y)
        power = np.asarray(signal.lombscargle(t, detrended, 2 * np.pi * freqs))  # mean zero
        if n < full:
            k = int(np.argmax(power))
            lo, hi = freqs[max(k - 1, 0)], freqs[min(k + 1, n - 1)]
            fine = np.linspace(lo, hi, 41)
            fine_power = np.asarray(signal.lombscargle(t, detrended, 2 * np.pi * fine))
            keep = (freqs < lo) | (freqs > hi)
            freqs = np.concatenate([freqs[keep], fine])
            power = np.concatenate([power[keep], fine_power])
            order = np.argsort(freqs)
            freqs, power = freqs[order], power[order]
        return freqs, power, "Lomb-Scargle"
    fs = 1.0 / float(np.mean(steps))
    freqs, power = signal.periodogram(y, fs=fs, detrend="linear")
    return np.asarray(freqs[1:]), np.asarray(power[1:]), "periodogram"


def find_period(
    t_values: np.ndarray, y_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str, float, Any] | None:
    """(t, y, freqs, power, method, peak frequency, the lmfit result)."""
    from labwright.analysis.lmfit_import import import_lmfit

    lmfit = import_lmfit()

    t, y = np.asarray(t_values, dtype=float), np.asarray(y_values, dtype=float)
    ok = np.isfinite(t) & np.isfinite(y)
    t, y = t[ok], y[ok]
    order = np.argsort(t)
    t, y = t[order], y[order]
    if t.size < MIN_POINTS or float(t[-1] - t[0]) <= 0 or np.unique(t).size < t.size:
        return None
    freqs, power, method = spectrum(t, y)
    k = int(np.argmax(power))
    f_peak = float(freqs[k])
    if 0 < k < freqs.size - 1:  # parabola through the highest bin and its neighbours
        a, b, _ = np.polyfit(freqs[k - 1 : k + 2] - f_peak, power[k - 1 : k + 2], 2)
        if a < 0:
            f_peak += float(np.clip(-b / (2 * a), freqs[k - 1] - f_peak, freqs[k + 1] - f_peak))
    span = float(t[-1] - t[0])
    if f_peak * span < MIN_CYCLES:
        return None
    t0 = float(np.mean(t))  # centred time: a, b and f less correlated
    params = lmfit.Parameters()
    params.add("f", value=f_peak, min=f_peak * 0.8, max=f_peak * 1.2)
    params.add("a", value=float(np.std(y)))
    params.add("b", value=0.0)
    params.add("c", value=0.0)
    params.add("y0", value=float(np.mean(y)))

    def residual(ps: Any) -> np.ndarray:
        w = 2 * np.pi * float(ps["f"]) * (t - t0)
        model = float(ps["y0"]) + float(ps["c"]) * (t - t0)
        model = model + float(ps["a"]) * np.sin(w) + float(ps["b"]) * np.cos(w)
        return np.asarray(model - y)

    out = lmfit.minimize(residual, params)
    if not out.success or out.params["f"].stderr is None:
        return None
    bandwidth = float(freqs[-1] - freqs[0])
    if false_alarm(t, y, float(np.sum(out.residual**2)), span * bandwidth) > MAX_FALSE_ALARM:
        return None
    return t, y, freqs, power, method, f_peak, out


def false_alarm(t: np.ndarray, y: np.ndarray, rss_sine: float, independent: float) -> float:
    """The probability that noise around a straight line gives a periodogram
    peak that explains as much as the fitted sinusoid did (module docstring)."""
    trend = np.polyval(np.polyfit(t - np.mean(t), y, 1), t - np.mean(t))
    rss_trend = float(np.sum((y - trend) ** 2))
    if rss_trend <= 0:
        return 1.0
    p = min(max((rss_trend - rss_sine) / rss_trend, 0.0), 1.0)
    single = (1.0 - p) ** ((t.size - 3) / 2)
    # 1 − (1 − single)^M without losing a tiny `single` to rounding.
    return float(-np.expm1(max(independent, 1.0) * np.log1p(-min(single, 1.0 - 1e-16))))


def analyse_period(
    entry: ModelEntry, t: Column, y: Column, request: AnalysisRequest | None = None
) -> PeriodResult | None:
    found = find_period(np.asarray(t.values), np.asarray(y.values))
    if found is None:
        return None
    ts, ys, freqs, power, method, f_peak, out = found
    p = out.params
    a, b = float(p["a"]), float(p["b"])
    amp = math.hypot(a, b)
    # SE of the amplitude from those of a and b (their correlation is small
    # at the centred time).
    amp_se = (
        math.hypot(a * (p["a"].stderr or 0.0), b * (p["b"].stderr or 0.0)) / amp if amp else 0.0
    )
    f = float(p["f"])
    error = period_error(ts, ys, f, float(p["f"].stderr), np.asarray(out.residual))
    t0 = float(np.mean(ts))
    phase = math.atan2(b, a) - 2 * math.pi * f * t0
    level = float(p["y0"]) - float(p["c"]) * t0
    return PeriodResult(entry, t, y, ts, ys, time_unit(t), method, freqs, power, f_peak, f,
                        error.f_se, amp, amp_se, phase, level, float(p["c"]),
                        request, float(p["f"].stderr), error.source)  # fmt: skip


_DAY, _JULIAN_YEAR = 86_400.0, 31_557_600.0


def calendar_time(t: Column) -> tuple[Column, float, str | None]:
    """Dates the reader turned into seconds, in days (or Julian years of
    365.25 d for a span of two years or more): a yearly cycle is told as
    P = 1.000 year, not 3.156 × 10⁷ s. Returns the column, the seconds per
    unit, and the first date; any other column comes back as it is."""
    values = np.asarray(t.values, dtype=float)
    finite = values[np.isfinite(values)]
    if t.origin is None or t.unit != "s" or finite.size < 2:
        return t, 1.0, None
    span = float(finite.max() - finite.min())
    if span >= 2 * _JULIAN_YEAR:
        scale, unit = _JULIAN_YEAR, "year"
    elif span >= 2 * _DAY:
        scale, unit = _DAY, "day"
    else:
        return t, 1.0, None
    scaled = dataclasses.replace(t, values=values / scale, unit=unit, origin=None)
    return scaled, scale, t.origin[:10]


def _calendar_unit(years: np.ndarray) -> tuple[float, str]:
    """Units of a calendar series' time, and how many make a year, by its
    sampling: months for monthly or quarterly data, years for yearly,
    days for anything finer than a month."""
    steps = np.diff(np.unique(years[np.isfinite(years)]))
    step = float(np.median(steps)) if steps.size else 1.0
    if step >= 0.9:
        return 1.0, "year"
    if step >= 0.9 / 12:
        return 12.0, "month"
    return 365.25, "day"


def calendar_series(
    ctx: BindContext, ds: Dataset
) -> tuple[Column, Column, CalendarSeries, str] | None:
    """The time (in the unit of `_calendar_unit`, from the first value) and
    the values of a table read as one dated series (reading.py's shapes
    "monthly" and "time"), or None. Of several measured columns, the one
    the notes name first."""
    from labwright.analysis.analyses.shape_rules import named_first

    r = ctx.notes
    roles = r.roles_of(ds)
    shape = r.shape_of(ds)
    if roles is None or r.in_series(ds):
        return None
    wide = r.monthly.get(id(ds)) if shape == "monthly" else None
    if wide is not None:
        first = ds.column(wide.month_columns[0])
        years, values = np.asarray(wide.years, dtype=float), np.asarray(wide.values, dtype=float)
        name = Path(ds.source).stem
        y = Column(name, values, first.provenance, first.unit or r.facts.table_unit)
        time: tuple[Column, ...] = (ds.column(wide.year_column),)
        fmt = "year+month"
        why = f"a year x month table ({len(wide.month_columns)} month columns) read as one monthly series"
    elif shape == "time" and roles.time is not None and roles.measurements:
        from labwright.analysis.analyses.timeseries import time_columns

        time = time_columns(ds, roles)
        if not time:
            return None
        years = np.asarray(roles.time.years, dtype=float)
        y = named_first(roles.measurements, r.text)[0]
        fmt = roles.time.format
        why = f"time column ({roles.time.reason})"
    else:
        return None
    if np.isfinite(years).sum() < MIN_POINTS:
        return None
    per, unit = _calendar_unit(years)
    origin = float(np.nanmin(years))
    # Named as time, not as the year column it was partly read from.
    name = "时间" if is_chinese(r.text) else "time"
    t = Column(name, (years - origin) * per, time[0].provenance, unit)
    return t, y, CalendarSeries(time, fmt, per, unit, origin, wide), why


def _first_date(calendar: CalendarSeries) -> str:
    """The calendar series' start as the figure's axis names it: the year,
    or the year and month."""
    year = math.floor(calendar.origin)
    if calendar.unit == "year":
        return str(year)
    return f"{year}-{math.floor((calendar.origin - year) * 12) + 1:02d}"


def _calendar_code(t: Column) -> bool:
    from labwright.analysis.dates import recognise

    axis = recognise(t)
    return axis is not None and axis.format in _CALENDAR_CODES


# --- the kind --------------------------------------------------------------------------


@dataclass(frozen=True)
class CalendarSeries:
    """A series whose time no one column holds: a year column with its month
    or quarter (`time`, read as `time_format`, analysis/dates.py), or a
    year x month table (`wide`, twelve month columns a row). Its time is
    told in `unit`, `per_year` of them to a year, counted from `origin`
    (decimal years): the exported script rebuilds it the same way."""

    time: tuple[Column, ...]
    time_format: str
    per_year: float
    unit: str
    origin: float
    wide: MonthlyWide | None = None


@dataclass(frozen=True)
class PeriodBinding:
    table: BoundTable
    t: Column  # in the unit the period is told in (calendar_time)
    y: Column
    request: AnalysisRequest
    #: Seconds per unit of `t` when the file held dates (1.0 otherwise), and
    #: the first date: the exported script and the figure's axis say both.
    t_scale: float = 1.0
    since: str | None = None
    #: Set when `t` was made from a calendar axis rather than read from a column.
    calendar: CalendarSeries | None = None


class PeriodogramKind:
    name = "periodogram"

    def bind(self, ctx: BindContext) -> Sequence[Job[PeriodBinding]]:
        req = ctx.request
        free = {id(ds) for ds in ctx.free()}
        jobs: list[Job[PeriodBinding]] = []
        for entry in entries_of(req, "periodogram"):
            before = len(jobs)
            for table in bound_tables(req, ctx.read, entry):
                ty = table.xy()
                if ty is None or id(table.dataset) not in free:
                    continue
                t, y = ty
                if _calendar_code(t):
                    continue  # the time-series analysis reads such dates as dates
                why = f"the notes ask for the period of a cycle; {table.reason}"
                t, scale, since = calendar_time(t)
                b = PeriodBinding(table, t, y, req, scale, since)
                jobs.append(Job(self.name, table.dataset.source, why, b, (table.dataset,)))
            if len(jobs) == before and any(a.model == entry.key for a in req.asked):
                jobs += self._calendar_jobs(ctx, entry, free)
        return jobs

    def _calendar_jobs(
        self, ctx: BindContext, entry: ModelEntry, free: set[int]
    ) -> list[Job[PeriodBinding]]:
        """The period asked of a series on a calendar axis that no column
        holds whole (nottem's year and month columns, Mauna Loa's year x
        month table): the law's time binds no column, yet the series is
        plainly there. Only when the notes ask a quantity of the law (a
        "seasonal cycle" alone is the time-series analysis' to describe) and
        no table bound the law's own variables."""
        jobs: list[Job[PeriodBinding]] = []
        for ds in ctx.read.datasets:
            if id(ds) not in free:
                continue
            found = calendar_series(ctx, ds)
            if found is None:
                continue
            t, y, calendar, why = found
            table = BoundTable(entry, ds, {"t": t, "y": y}, why)
            b = PeriodBinding(
                table, t, y, ctx.request, since=_first_date(calendar), calendar=calendar
            )
            reason = f"the notes ask for the period of a cycle; {why}"
            jobs.append(Job(self.name, ds.source, reason, b, (ds,)))
        return jobs

    def compute(self, job: Job[PeriodBinding]) -> PeriodResult | None:
        b = job.binding
        return analyse_period(b.table.entry, b.t, b.y, b.request)

    def goals(self, job: Job[PeriodBinding], result: PeriodResult) -> list[str]:
        return ["period"]

    def uses(self, job: Job[PeriodBinding], result: PeriodResult) -> Uses:
        return Uses(x=(job.binding.t,), y=(job.binding.y,))


PERIODOGRAM = PeriodogramKind()
