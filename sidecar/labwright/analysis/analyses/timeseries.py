"""The time-series kind: trend, cycle, change points and anomalies of the
measurements of a table with a time axis (or of a year x month table read as
one monthly series).

Binds a table whose shape is "monthly", or "time" unless panel data took it
(compared as groups) or the notes ask only for a model of one quantity on the
others (the regression answers that; the series are added when a time goal
is asked too).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from labwright.analysis import quantities
from labwright.analysis.analyses.shape_rules import (
    MAX_GROUP_SERIES,
    MAX_SERIES_COLUMNS,
    asks_time,
    is_panel,
    named_first,
    split_by_category,
)
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.question import Question
from labwright.analysis.results import Answer
from labwright.analysis.roles import TableRoles
from labwright.analysis.timeseries import (
    SeriesResult,
    Trend,
    analyse_series,
    cycle_visible,
    sampling,
)
from labwright.analysis.wide import MonthlyWide
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class TimeSeriesBinding:
    dataset: Dataset
    years: np.ndarray  # decimal years of every row
    columns: list[Column]  # in the order they are analysed (named first)
    question: Question
    limit: int = MAX_SERIES_COLUMNS  # series analysed in full; the rest get a rate only
    wide: MonthlyWide | None = None  # a year x month table melted into one series
    time: tuple[Column, ...] = ()  # the columns the time axis was read from
    time_format: str = ""  # how they were read (labwright.analysis.dates.TimeAxis.format)
    measured: tuple[Column, ...] = ()  # the table's columns behind `columns`
    # The trend is the notes' question: they ask for it and for no law's
    # quantity. "每年捕获的猞猁数量" (trapped each year) reads as a trend
    # cue, but lynx asks the period; its trend is context, not the answer.
    trend_asked: bool = False
    #: The unit of its values read from the rate the notes ask of it
    #: (request.trend_rates; "in ppm per year": ppm).
    value_unit: str | None = None


#: "in ppm per year", "in mm/yr", "单位为 mm/年": the unit of a rate asked per
#: year, whose numerator is the unit of the values.
_RATE_IN = re.compile(
    r"\bin\s+([A-Za-zµμ°%][\w°µμ%]{0,9})\s*(?:per\s+|/\s*)(?:year|yr|annum|a)\b"
    r"|单位[为是：:]\s*([A-Za-zµμ°%][\w°µμ%]{0,9})\s*/\s*(?:年|a)",
    re.I,
)


def value_unit_of_rate(text: str) -> str | None:
    """The values' unit the notes give only through a rate's ("the growth
    rate in ppm per year": ppm), when the units library reads it."""
    for m in _RATE_IN.finditer(text):
        unit = m.group(1) or m.group(2)
        if quantities.parse_unit(unit) is not None:
            return unit
    return None


@dataclass
class TimeSeriesPart:
    column: Column
    result: SeriesResult


@dataclass
class TimeSeriesFound:
    parts: list[TimeSeriesPart]
    wide: MonthlyWide | None = None
    left_out: list[str] = field(default_factory=list)  # columns without any result
    rate_unit: str | None = None  # the unit the notes ask the rate in (day, decade)
    # "Compare the growth rate of the stocks": every column's rate, those
    # beyond the limit too (trend only, no figure).
    rates: list[tuple[Column, Trend]] = field(default_factory=list)
    asked_trend: bool = False  # the notes ask for the trend itself ("the warming trend")
    #: The unit of the values when only the rate's unit says it ("in ppm per year").
    value_unit: str | None = None

    def answers(self) -> list[Answer]:
        """The trend as the answer when the notes ask for it and the table
        has one series: New Haven's "estimate the linear warming trend ...
        with its standard error" was computed and printed, yet the report
        said no asked quantity was determined."""
        with_trend = [p for p in self.parts if p.result.trend is not None]
        if not self.asked_trend or len(with_trend) != 1:
            return []
        part = with_trend[0]
        trend = part.result.trend
        assert trend is not None
        if not (np.isfinite(trend.slope) and np.isfinite(trend.se) and trend.se > 0):
            return []
        value_unit = part.column.unit or self.value_unit
        per_year = f"({value_unit})/year" if value_unit else "1/year"
        unit = quantities.parse_unit(per_year, difference=True)
        method = Text(
            "least-squares linear trend against time; standard error robust to autocorrelation "
            "(HAC)",
            "对时间的最小二乘线性趋势；标准误差对自相关稳健（HAC）",
        )
        rows = f"all {trend.n}" if trend.n == part.column.values.size else f"{trend.n} rows"
        return [
            Answer("trend", Text("linear trend", "线性趋势"), r"b", float(trend.slope),
                   float(trend.se), quantities.display(unit) if unit is not None else None,
                   method, None, True, None, (part.column.provenance,), rows)
        ]  # fmt: skip


def _flags(q: Question, step_years: float, span: float) -> dict[str, bool]:
    asked = {g for g in ("trend", "seasonal", "change", "outliers", "acceleration") if q.asks(g)}
    visible = cycle_visible(step_years, span)
    if not asked:  # nothing asked: what a scientist looks at first
        return {"trend": True, "seasonal": visible, "change": False, "anomalies": False,
                "acceleration": False, "segments": False}  # fmt: skip
    return {
        "trend": "trend" in asked or "change" not in asked,
        "seasonal": "seasonal" in asked and visible,
        "change": "change" in asked,
        "anomalies": "outliers" in asked,
        "acceleration": "acceleration" in asked,
        # More than one named point, or "change points"/"regimes": several levels.
        "segments": "change" in asked and (q.many_changes or len(q.change_points) >= 2),
    }


def time_columns(ds: Dataset, roles: TableRoles) -> tuple[Column, ...]:
    """The columns the table's time axis is read from: the year first, then
    its month or quarter; else the one column read as time."""
    axis = roles.time
    if axis is None:
        return ()
    if axis.format.startswith("year+"):
        year = [c for c in roles.of("time") if c.time is not None and c.time.format == "year"]
        part = [c for c in roles.of("time") if c.time is axis]
        return tuple(ds.column(c.name) for c in year[:1] + part[:1])
    same = [c for c in roles.of("time") if c.time is axis]
    return tuple(ds.column(c.name) for c in same[:1])


class TimeSeriesKind:
    name = "timeseries"

    def bind(self, ctx: BindContext) -> Sequence[Job[TimeSeriesBinding]]:
        r = ctx.notes
        q = r.question
        rates = ctx.request.trend_rates
        # The trend answers the notes when they ask a rate of a dated series,
        # or ask for the trend and no law's quantity ("每年捕获的猞猁数量"
        # reads as a trend cue, but lynx asks the period).
        trend_asked = bool(rates) or (q.asks("trend") and not ctx.request.asked)
        value_unit = value_unit_of_rate(r.text) if rates else None
        jobs: list[Job[TimeSeriesBinding]] = []
        for ds in ctx.read.datasets:
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds):
                continue
            claims = ctx.claimed_by(ds)
            shape = r.shape_of(ds)
            # The period asked of the same series (procedures/periodogram.py)
            # leaves its trend and seasonal cycle to be said here.
            if shape == "monthly" and not [k for k in claims if k != "periodogram"]:
                mw = r.monthly[id(ds)]
                first = ds.column(mw.month_columns[0])
                unit = first.unit or r.facts.table_unit or value_unit
                col = Column("value", mw.values, first.provenance, unit)
                why = f"a year x month table ({len(mw.month_columns)} month columns) read as one monthly series"
                binding = TimeSeriesBinding(
                    ds, mw.years, [col], q, wide=mw, time=(ds.column(mw.year_column),),
                    time_format="year+month",
                    measured=tuple(ds.column(c) for c in mw.month_columns),
                    trend_asked=trend_asked, value_unit=value_unit,
                )  # fmt: skip
                jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
            elif shape == "time" and roles.time is not None:
                if claims and is_panel(ds, roles):
                    continue  # compared as groups (and modelled when asked)
                if "regression" in claims and not asks_time(q):
                    continue  # a model was asked, nothing about time
                meas = named_first(roles.measurements, r.text)
                if len(meas) == 1 and meas[0].unit is None and value_unit:
                    meas = [
                        dataclasses.replace(meas[0], unit=value_unit)
                    ]  # axes and text say it too
                time = time_columns(ds, roles)
                split = split_by_category(ds, roles, meas)
                if split is not None:
                    cat, cols = split
                    why = f"time column ({roles.time.reason}) and category {cat}: one series per group"
                    binding = TimeSeriesBinding(
                        ds, roles.time.years, cols, q, limit=MAX_GROUP_SERIES, time=time,
                        time_format=roles.time.format, measured=tuple(meas[:2]),
                    )  # fmt: skip
                else:
                    why = f"time column ({roles.time.reason})"
                    binding = TimeSeriesBinding(
                        ds, roles.time.years, meas, q, time=time,
                        time_format=roles.time.format, measured=tuple(meas),
                        trend_asked=trend_asked, value_unit=value_unit,
                    )  # fmt: skip
                jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[TimeSeriesBinding]) -> TimeSeriesFound | None:
        b = job.binding
        q = b.question
        parts: list[TimeSeriesPart] = []
        t = np.asarray(b.years, dtype=float)
        for col in b.columns[: b.limit]:
            y = np.asarray(col.values, dtype=float)
            ok = np.isfinite(t) & np.isfinite(y)
            if ok.sum() < 8:
                continue
            n_times, step = sampling(t[ok])
            if n_times < 8:
                continue
            flags = _flags(q, step, float(np.ptp(t[ok])))
            res = analyse_series(
                t, y, change_at=q.change_at,
                change_points=q.change_points if len(q.change_points) >= 2 else None, **flags,
            )  # fmt: skip
            if res is not None:
                parts.append(TimeSeriesPart(col, res))
        if not parts:
            return None
        left = [c.name for c in b.columns[b.limit :]]
        rates: list[tuple[Column, Trend]] = []
        if left and parts[0].result.trend is not None:
            rates = [(p.column, p.result.trend) for p in parts if p.result.trend is not None]
            for col in b.columns[b.limit :]:
                res = analyse_series(t, np.asarray(col.values, dtype=float), trend=True)
                if res is not None and res.trend is not None:
                    rates.append((col, res.trend))
            done = {c.name for c, _ in rates}
            left = [n for n in left if n not in done]
        return TimeSeriesFound(parts, b.wide, left, q.rate_unit, rates, b.trend_asked, b.value_unit)

    def goals(self, job: Job[TimeSeriesBinding], result: TimeSeriesFound) -> list[str]:
        goals = ["timeseries"]
        first = result.parts[0].result
        if first.trend is not None:
            goals.append("trend")
        if first.seasonal is not None:
            goals.append("seasonal")
        if first.change is not None or first.segments is not None:
            goals.append("change")
        if first.acceleration is not None:
            goals.append("acceleration")
        if job.binding.question.asks("outliers") and any(
            p.result.trend_curve is not None for p in result.parts
        ):
            goals.append("outliers")
        return goals

    def uses(self, job: Job[TimeSeriesBinding], result: TimeSeriesFound) -> Uses:
        b = job.binding
        fitted = {c.name for c, _ in result.rates} | {p.column.name for p in result.parts}
        if b.wide is not None or len(b.measured) != len(b.columns):
            y = b.measured  # melted months, or one series per group of these
        else:
            y = tuple(c for c in b.measured if c.name in fitted)
        return Uses(x=b.time, y=y)


TIMESERIES = TimeSeriesKind()
