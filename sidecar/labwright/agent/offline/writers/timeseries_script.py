"""The compendium's lines for the time-series kind (issue 23): each series'
span, its trend with HAC errors (and the rate in the unit the notes ask),
the acceleration, the change point or the levels, the annual cycle and the
anomalies, as `labwright.analysis.timeseries.analyse_series` computed them;
and the figures `timeseries.figures` draws, redrawn from those fits.

Kept apart from timeseries.py (the kind's words and figures): the helpers
here are the script's own code, written out for the reader.
"""

from __future__ import annotations

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.writers.common import MAX_POINTS
from labwright.agent.offline.writers.script import (
    AnswerCode,
    KindScript,
    read_table,
    report_with_se,
)
from labwright.agent.offline.writers.timeseries import TimeSeriesAnalysis, cycle_slots
from labwright.analysis.analyses.timeseries import TimeSeriesPart
from labwright.analysis.question import RATE_YEARS
from labwright.analysis.timeseries import Segments, SeriesResult
from labwright.analysis.wide import MonthlyWide, month_of
from labwright.ingest.types import Column

_DECIMAL_YEARS = '''def decimal_years(dates):
    """Calendar dates as decimal years (1 July 2000 is about 2000.5)."""
    dates = pd.DatetimeIndex(dates)
    start = pd.to_datetime(pd.DataFrame({"year": dates.year, "month": 1, "day": 1}))
    end = pd.to_datetime(pd.DataFrame({"year": dates.year + 1, "month": 1, "day": 1}))
    fraction = (dates - pd.DatetimeIndex(start)) / (pd.DatetimeIndex(end) - pd.DatetimeIndex(start))
    return dates.year.to_numpy(dtype=float) + np.asarray(fraction, dtype=float)
'''

_QUARTER_YEARS = '''def quarter_years(labels):
    """Quarterly periods written as text (1974Q1, Q1 1974, 1974年第1季度) as
    decimal years at the middle of the quarter."""
    year_first = r"^(\\d{4})\\s*[-_/ ]?\\s*[Qq]([1-4])$"
    year_first_zh = r"^(\\d{4})\\s*年?\\s*第?\\s*([1-4一二三四])\\s*季度?$"
    quarter_first = r"^[Qq]([1-4])\\s*[-_/ ]?\\s*(\\d{4})$"
    out = []
    for text in labels.astype(str).str.strip():
        m = re.match(year_first, text) or re.match(year_first_zh, text)
        q = re.match(quarter_first, text)
        if m:
            year = int(m.group(1))
            quarter = "一二三四".find(m.group(2)) + 1 or int(m.group(2))
        elif q:
            year, quarter = int(q.group(2)), int(q.group(1))
        else:
            out.append(np.nan)
            continue
        out.append(year + (quarter - 0.5) / 4)
    return np.array(out)
'''

_TREND = '''def trend_fit(t, y, quadratic=False):
    """The series' finite values in time order and their OLS trend with
    Newey-West (HAC) errors, fitted together with the annual harmonics (up to
    two) the sampling resolves when it can show a cycle (distinct times at most half a year apart
    over two years or more): left in the residuals, a cycle would inflate
    the trend's standard error. Coefficients: level at t_ref (the mean time,
    rounded), slope per year, (t - t_ref)^2 when `quadratic`, then the sine
    and cosine of each harmonic."""
    keep = np.isfinite(t) & np.isfinite(y)
    order = np.argsort(t[keep], kind="stable")
    t, y = t[keep][order], y[keep][order]
    distinct = np.unique(t)
    step = np.median(np.diff(distinct)) if distinct.size > 1 else 0.0
    harmonics = 0
    if step <= 0.5 and np.ptp(t) >= 2.0:
        # The k-th harmonic needs more than 2k samples a year (quarterly: the first only).
        harmonics = sum(2 * k * step < 1 - 1e-9 for k in (1, 2))
    t_ref = np.round(np.mean(t))
    design = [np.ones_like(t), t - t_ref] + ([(t - t_ref) ** 2] if quadratic else [])
    for k in range(1, harmonics + 1):
        design += [np.sin(2 * np.pi * k * t), np.cos(2 * np.pi * k * t)]
    maxlags = int(np.floor(4 * (t.size / 100.0) ** (2.0 / 9.0)))
    model = OLS(y, np.column_stack(design))
    fit = model.fit(cov_type="HAC", cov_kwds={"maxlags": maxlags}) if maxlags > 0 else model.fit()
    return t, y, fit
'''

_MONTHS = '''def calendar_months(t):
    """The calendar year and month (1-12) of decimal years, through the
    calendar (1 August is 0.581 of its year, not 7/12), to the minute."""
    t = np.asarray(t, dtype=float)
    year = np.floor(t).astype(int)
    start = pd.to_datetime(pd.DataFrame({"year": year, "month": 1, "day": 1}))
    end = pd.to_datetime(pd.DataFrame({"year": year + 1, "month": 1, "day": 1}))
    minutes = np.round((t - year) * (end - start).dt.total_seconds().to_numpy() / 60.0)
    stamps = start + pd.to_timedelta(minutes * 60, unit="s")
    return stamps.dt.year.to_numpy(), stamps.dt.month.to_numpy()
'''

_CYCLE = '''def annual_cycle(t, y, fit):
    """The climatology (mean and SE of the detrended values by calendar
    month, 1-12) and the amplitude of the first annual harmonic with its SE.

    The detrending is STL (period 12, robust) of the monthly means, gaps
    interpolated, read back at each time. The amplitude is the length of
    the harmonic's sine and cosine coefficients in the trend fit, its SE by
    the delta method from their HAC covariance."""
    year, month = calendar_months(t)
    index = (year - int(np.floor(t[0]))) * 12 + month - 1
    means = pd.Series(y).groupby(index).mean()
    means = means.reindex(range(index.min(), index.max() + 1))
    means = means.interpolate(limit_direction="both")
    grid = np.floor(t[0]) + (means.index.to_numpy() + 0.5) / 12.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stl = STL(means.to_numpy(dtype=float), period=12, robust=True).fit()
    detrended = pd.Series(y - np.interp(t, grid, np.asarray(stl.trend)))
    by_month = detrended.groupby(month)
    climatology = by_month.mean().reindex(range(1, 13))
    climatology_se = (by_month.std(ddof=1) / np.sqrt(by_month.size())).reindex(range(1, 13))
    s, c = fit.params[2], fit.params[3]
    amplitude = np.hypot(s, c)
    gradient = np.array([s, c]) / amplitude
    amplitude_se = np.sqrt(gradient @ fit.cov_params()[2:4, 2:4] @ gradient)
    return climatology, climatology_se, amplitude, amplitude_se
'''

_RATE_AT = '''def rate_at(fit, t, at):
    """The rate b + 2c (at - t_ref) of a quadratic trend fit at time `at`, and its SE."""
    g = np.zeros(len(fit.params))
    g[1], g[2] = 1.0, 2.0 * (at - np.round(np.mean(t)))
    return g @ fit.params, np.sqrt(g @ fit.cov_params() @ g)
'''

_SPLIT = '''def best_split(y, shortest):
    """Index of the first value after the split of `y` into two constant
    levels with the least squared error, each at least `shortest` long
    (exact search with cumulative sums)."""
    n, c1, c2 = y.size, np.cumsum(y), np.cumsum(y * y)
    k = np.arange(shortest, n - shortest + 1)
    s1, q1 = c1[k - 1], c2[k - 1]
    s2, q2 = c1[-1] - s1, c2[-1] - q1
    return int(k[np.argmin((q1 - s1 * s1 / k) + (q2 - s2 * s2 / (n - k)))])
'''

_CHANGE = '''def change_point(t, y, at=None):
    """Index of the first value after the change: the one at the time the
    notes name, or the best split into two constant levels (each at least a
    tenth of the values, and 3)."""
    if at is not None:
        return int(np.searchsorted(t, at))
    return best_split(y, max(3, y.size // 10))
'''

_LEVELS = '''def level_bounds(y, cuts=None):
    """Where the series' constant levels begin and end: at `cuts` (the
    indexes the notes name), or found by binary segmentation: the best
    split of any level (each part at least a twentieth of the values, and 3)
    is kept while it lowers the BIC of the piecewise-constant model (a level
    and a break position per level), five splits at most."""
    n, shortest = y.size, max(3, y.size // 20)

    def sse(part):
        return np.sum((part - part.mean()) ** 2) if part.size else 0.0

    def bic(total, levels):
        return n * np.log(max(total, 1e-300) / n) + (2 * levels - 1) * np.log(n)

    if cuts is None:
        cuts = []
        while len(cuts) < 5:
            bounds = [0, *cuts, n]
            now = sum(sse(y[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))
            best = None
            for a, b in zip(bounds, bounds[1:], strict=False):
                if b - a < 2 * shortest:
                    continue
                k = a + best_split(y[a:b], shortest)
                gain = sse(y[a:b]) - sse(y[a:k]) - sse(y[k:b])
                if best is None or gain > best[1]:
                    best = (k, gain)
            if best is None or bic(now - best[1], len(cuts) + 2) >= bic(now, len(cuts) + 1):
                break
            cuts = sorted([*cuts, best[0]])
    return [0, *cuts, n]
'''


def melt_lines(wide: MonthlyWide, values: str) -> tuple[str, str, str]:
    """The script's lines that read a year x month table as one monthly
    series, as analysis/wide.py reads it: `months` (the month columns in
    calendar order), `t` (decimal years, each value in the middle of its
    month, rows by year) and the values into `values`."""
    months = list(wide.month_columns)
    numbers = [month_of(m) for m in months]
    return (
        f"months = {months!r}",
        f"t = (df[{wide.year_column!r}].to_numpy(dtype=float)[:, None]"
        f" + (np.array({numbers!r}) - 0.5) / 12).ravel()",
        f"{values} = df[months].to_numpy(dtype=float).ravel()",
    )


def time_code(time: tuple[Column, ...], fmt: str) -> tuple[str, dict[str, str]] | None:
    """The line giving `t` (decimal years of every row) from `df`, read from
    the `time` columns as `fmt` (analysis/dates.py), with the helpers it
    needs; None for a time axis the script cannot read back."""
    cols = [c.name for c in time]
    if not cols:
        return None
    if fmt == "timestamp" and time[0].origin:
        line = f"t = decimal_years(pd.Timestamp({time[0].origin!r}) + pd.to_timedelta(df[{cols[0]!r}], unit='s'))"
        return line, {"decimal_years": _DECIMAL_YEARS}
    if fmt in ("yyyymmdd", "yyyymm"):
        pattern = "%Y%m%d" if fmt == "yyyymmdd" else "%Y%m"
        width = 8 if fmt == "yyyymmdd" else 6
        text = f"df[{cols[0]!r}].map(lambda v: f'{{int(v):0{width}d}}' if np.isfinite(v) else None)"
        line = f"t = decimal_years(pd.to_datetime({text}, format={pattern!r}, errors='coerce'))"
        return line, {"decimal_years": _DECIMAL_YEARS}
    if fmt in ("decimal_year", "year"):
        return f"t = df[{cols[0]!r}].to_numpy(dtype=float)", {}
    if fmt in ("year+month", "year+quarter") and len(cols) == 2:
        per = 12 if fmt == "year+month" else 4
        line = f"t = (df[{cols[0]!r}] + (df[{cols[1]!r}] - 0.5) / {per}).to_numpy(dtype=float)"
        return line, {}
    if fmt == "quarter":
        return f"t = quarter_years(df[{cols[0]!r}])", {"quarter_years": _QUARTER_YEARS}
    return None


def _when(what: str, at: str, monthly: bool | str) -> list[str]:
    """The lines stating a time as the report tells it (`writers.common.when`):
    its year, and its month or quarter when the data resolve them."""
    lines = [f"report({'year of ' + what!r}, np.floor({at}))"]
    if monthly == "quarter":
        month = f"calendar_months([{at}])[1][0]"
        lines.append(f"report({'quarter of ' + what!r}, ({month} - 1) // 3 + 1)")
    elif monthly:
        lines.append(f"report({'month of ' + what!r}, calendar_months([{at}])[1][0])")
    return lines


def _level_lines(sg: Segments, name: str, monthly: bool | str) -> list[str]:
    """Several constant levels (at the points the notes name, or found),
    each level's span, mean and count, Welch's test between neighbours;
    the report's table row by row."""
    out = ["# The levels between change points, compared by Welch's t-test."]
    if sg.named:
        starts = [seg.start for seg in sg.segments[1:]]
        out.append(f"bounds = level_bounds(ys, list(np.searchsorted(ts, {starts!r})))")
    else:
        out.append("bounds = level_bounds(ys)")
    out += [
        f"splits[{name!r}] = bounds  # for the figure",
        f"report({'levels of ' + name!r}, len(bounds) - 1)",
    ]
    for i in range(1, len(sg.segments) + 1):
        mean = f"mean of {name} in level {i}"
        out += [
            f"level = ys[bounds[{i - 1}] : bounds[{i}]]",
            *_when(f"start of level {i}", f"ts[bounds[{i - 1}]]", monthly),
            *_when(f"end of level {i}", f"ts[bounds[{i}] - 1]", monthly),
            f"report({mean!r}, level.mean())",
            f"report({'standard uncertainty of ' + mean!r}, level.std(ddof=1) / np.sqrt(level.size))",
            f"report({f'values in level {i}'!r}, level.size)",
        ]  # fmt: skip
    for i in range(1, len(sg.segments)):
        what = f"Welch p-value between levels {i} and {i + 1} of {name}"
        out += [
            f"welch = stats.ttest_ind(ys[bounds[{i - 1}] : bounds[{i}]], ys[bounds[{i}] : bounds[{i + 1}]], equal_var=False)",
            f"report({what!r}, welch.pvalue)",
        ]  # fmt: skip
    return out


def _part_lines(a: TimeSeriesAnalysis, r: SeriesResult, name: str, values: str) -> list[str]:
    """One series: its span, the trend (and the rate in the unit the notes
    ask), acceleration, the change, the annual cycle and the anomalies, as
    the analysis ran them (`labwright.analysis.timeseries.analyse_series`)."""
    monthly: bool | str = "quarter" if r.quarterly else r.step_years < 0.9
    out = [f"# {name}", f"ts, ys, fit = trend_fit(t, {values})"]
    out += _when("the first value", "ts[0]", monthly) + _when("the last value", "ts[-1]", monthly)
    out.append('report("values in the series", ts.size)')
    out.append(f"fitted[{name!r}] = ts, ys, fit  # for the figures")
    if r.trend is not None:
        what = f"trend of {name} per year (OLS, HAC errors)"
        out += [
            "slope, se = fit.params[1], fit.bse[1]",
            *report_with_se(what, "slope", "se"),
            f"report({'R^2 of the trend fit of ' + name!r}, fit.rsquared)",
        ]
        per = a.result.rate_unit
        if per in RATE_YEARS:
            what = f"trend of {name} per {per}"
            out += [
                f"per = {RATE_YEARS[per]!r}  # years in a {per}",
                *report_with_se(what, "slope * per", "se * per"),
            ]
    if r.acceleration is not None:
        what = f"change of the rate of {name} per year (quadratic trend, HAC)"
        out += [
            "# The trend with a quadratic term: is the rise speeding up? Acceleration 2c.",
            f"quad = trend_fit(t, {values}, quadratic=True)[2]",
            *report_with_se(what, "2 * quad.params[2]", "2 * quad.bse[2]"),
            f"report({'p-value of the quadratic term of ' + name!r}, quad.pvalues[2])",
            "# Accelerating when that p-value is below 5 %.",
            'report("significance level in per cent (constant)", 5)',
        ]
        for end, at in (("start", "ts[0]"), ("end", "ts[-1]")):
            what = f"rate of {name} at the {end} (quadratic trend)"
            out += [
                f"rate, rate_se = rate_at(quad, ts, {at})",
                *report_with_se(what, "rate", "rate_se"),
            ]
    if r.change is not None:
        before, after = f"mean of {name} before the change", f"mean of {name} after the change"
        out += [
            "# Two levels, before and after the change, compared by Welch's t-test.",
            f"k = change_point(ts, ys, at={r.change.at!r})" if r.change.named
            else "k = change_point(ts, ys)",
            "before, after = ys[:k], ys[k:]",
            *_when("the change point", "ts[k]", monthly),
            f"report({before!r}, before.mean())",
            f"report({'standard uncertainty of ' + before!r}, before.std(ddof=1) / np.sqrt(before.size))",
            f"report({after!r}, after.mean())",
            f"report({'standard uncertainty of ' + after!r}, after.std(ddof=1) / np.sqrt(after.size))",
            'report("values before the change", before.size)',
            'report("values after the change", after.size)',
            "welch = stats.ttest_ind(before, after, equal_var=False)",
            'report("Welch t statistic", welch.statistic)',
            'report("Welch t-test p-value", welch.pvalue)',
        ]  # fmt: skip
    if r.segments is not None:
        out += _level_lines(r.segments, name, monthly)
    if r.seasonal is not None:
        out += [
            "climatology, climatology_se, amp, amp_se = annual_cycle(ts, ys, fit)",
            f"report({'amplitude of the annual cycle of ' + name!r}, amp)",
            f"report({'standard uncertainty of amplitude of the annual cycle of ' + name!r}, amp_se)",
        ]  # fmt: skip
        for extreme, at in (
            ("maximum", "climatology.idxmax()"),
            ("minimum", "climatology.idxmin()"),
        ):
            if r.quarterly:  # one month in three is filled: the quarter is named
                out.append(f'report("quarter of the climatology {extreme}", ({at} - 1) // 3 + 1)')
            else:
                out.append(f'report("month of the climatology {extreme}", {at})')
        out.append('report("years covered by the climatology", ts[-1] - ts[0])')
    if "outliers" in a.goals and r.trend_curve is not None:
        out += [
            "# Anomalies: residuals from the trend (and cycle) beyond 3 robust SDs (MAD x 1.4826).",
            "resid = ys - fit.fittedvalues",
            "robust_sd = np.median(np.abs(resid - np.median(resid))) * 1.4826",
            'report("anomaly threshold in robust standard deviations (constant)", 3)',
            'report("anomalies", np.sum(np.abs(resid) > 3 * robust_sd))',
        ]
    return out


def script(a: TimeSeriesAnalysis) -> KindScript:
    b, found = a.binding, a.result
    imports: set[str] = {
        "import numpy as np",
        "import pandas as pd",
        "from statsmodels.regression.linear_model import OLS",
    }
    helpers = {"trend_fit": _TREND, "calendar_months": _MONTHS}
    lines = [read_table(b.dataset), "fitted = {}  # series name -> (times, values, trend fit)"]
    if any(p.result.segments is not None for p in found.parts):
        lines.append("splits = {}  # series name -> where its levels begin and end")
    series: list[tuple[str, str]] = []  # (expression of the values, the name the report uses)
    if b.wide is not None:
        # A year x month table read as one monthly series: rows by year, the
        # month columns in calendar order, each value in the middle of its month.
        months, times, values = melt_lines(b.wide, "monthly")
        lines += [months, 'report("month columns in the table", len(months))', times, values]
        series = [("monthly", p.column.name) for p in found.parts[:1]]
    else:
        got = time_code(b.time, b.time_format)
        if got is None or len(b.measured) != len(b.columns):
            # One series per group, or a time axis the script cannot read
            # back: the rates are stated in the report, not recomputed here.
            return KindScript(code=f"# {a.source}: the time series is not recomputed here.\n")
        line, more = got
        helpers.update(more)
        lines.append(line)
        series = [
            (f"df[{p.column.name!r}].to_numpy(dtype=float)", p.column.name) for p in found.parts
        ]
    by_name = {p.column.name: p.result for p in found.parts}
    answers: dict[str, AnswerCode] = {}
    asked = bool(found.answers())
    for expr, name in series:
        lines += _part_lines(a, by_name[name], name, expr)
        if asked and by_name[name].trend is not None:
            # The trend is the notes' question: the results table restates it.
            lines.append("trend, trend_se = slope, se")
            answers["trend"] = AnswerCode("trend", "trend_se")
    # Every other column's rate, for the table that ranks them.
    done = {name for _expr, name in series}
    for col, _trend in found.rates:
        if col.name in done or b.wide is not None:
            continue
        what = f"trend of {col.name} per year (OLS, HAC errors)"
        lines += [
            f"fit = trend_fit(t, df[{col.name!r}].to_numpy(dtype=float))[2]",
            *report_with_se(what, "fit.params[1]", "fit.bse[1]"),
            f"report({'R^2 of the trend fit of ' + col.name!r}, fit.rsquared)",
        ]
    code = "\n".join(lines) + "\n"
    if "annual_cycle(" in code:
        helpers["annual_cycle"] = _CYCLE
        imports |= {"import warnings", "from statsmodels.tsa.seasonal import STL"}
    if "rate_at(" in code:
        helpers["rate_at"] = _RATE_AT
    if "change_point(" in code or "level_bounds(" in code:
        helpers["best_split"] = _SPLIT
        imports.add("from scipy import stats")
    if "change_point(" in code:
        helpers["change_point"] = _CHANGE
    if "level_bounds(" in code:
        helpers["level_bounds"] = _LEVELS
    if "quarter_years" in helpers:
        imports.add("import re")
    return KindScript(tuple(sorted(imports)), code, helpers, answers=answers)


def drawing(a: TimeSeriesAnalysis, plans: list[FigurePlan]) -> KindScript:
    """Each series on a date axis with its trend (and the quadratic trend,
    the two levels of a change, the anomalies circled) and its climatology;
    a year x month table as a map. The layers `figures` draws, from the
    fits the block left in `fitted` (and the levels in `splits`)."""
    found = a.result
    if "fitted[" not in script(a).code:
        return KindScript()
    wanted: list[tuple[str, TimeSeriesPart | None]] = []
    for part in found.parts:
        wanted.append(("series", part))
        if part.result.seasonal is not None:
            wanted.append(("cycle", part))
    if found.wide is not None:
        wanted.append(("map", None))
    if len(wanted) != len(plans):
        return KindScript()
    lines: list[str] = []
    for plan, (what, one) in zip(plans, wanted, strict=True):
        if one is None:
            lines += [caption_comment(plan.key, plan.caption), call(plan.key, [['("heatmap", df[months].to_numpy(dtype=float))']])]  # fmt: skip
            continue
        r, name = one.result, one.column.name
        head = [caption_comment(plan.key, plan.caption), f"ts, ys, fit = fitted[{name!r}]"]
        if what == "cycle":
            slots = cycle_slots(r.seasonal.counts if r.seasonal else (), r.quarterly, "en")[0]
            lines += head + [
                "climatology, climatology_se = annual_cycle(ts, ys, fit)[:2]",
                f"slots = {slots!r}  # the calendar slots drawn (months, or the quarters filled)",
                "slot = np.arange(1, len(slots) + 1, dtype=float)",
                "mean = climatology.to_numpy()[slots]",
                "se = np.nan_to_num(climatology_se.to_numpy()[slots])",
                call(plan.key, [['("errorbar", slot, mean, se)', '("hline", 0.0)']]),
            ]  # fmt: skip
            continue
        body = [
            "dates = (ts - 1970.0) * 365.2425  # matplotlib's date numbers: days since 1970",
            f"step = -(-ts.size // {MAX_POINTS})  # at most {MAX_POINTS} points drawn",
        ]
        layers = [f'("{"line" if r.years.size > 60 else "scatter"}", dates[::step], ys[::step])']
        if r.trend is not None:
            body.append("trend = fit.params[0] + fit.params[1] * (ts - np.round(np.mean(ts)))")
            layers.append('("line", dates, trend)')
        if r.acceleration is not None:
            body += [
                "quad = trend_fit(ts, ys, quadratic=True)[2]",
                "dt = ts - np.round(np.mean(ts))",
                "curve = quad.params[0] + quad.params[1] * dt + quad.params[2] * dt**2",
            ]
            layers.append('("line", dates, curve)')
        if r.segments is not None:
            body.append(f"bounds = splits[{name!r}]")
            for i in range(len(r.segments.segments)):
                a_, b_ = f"bounds[{i}]", f"bounds[{i + 1}]"
                layers.append(f'("line", dates[[{a_}, {b_} - 1]], [ys[{a_} : {b_}].mean()] * 2)')
                if i:
                    layers.append(f'("vline", dates[{a_}])')
        if r.change is not None:
            at = repr(r.change.at) if r.change.named else "None"
            body.append(f"k = change_point(ts, ys, at={at})")
            layers += [
                '("line", dates[[0, k - 1]], [ys[:k].mean()] * 2)',
                '("line", dates[[k, -1]], [ys[k:].mean()] * 2)',
                '("vline", dates[k])',
            ]
        if r.anomalies:
            body += [
                "resid = ys - fit.fittedvalues",
                "robust_sd = np.median(np.abs(resid - np.median(resid))) * 1.4826",
                "far = np.flatnonzero(np.abs(resid) > 3 * robust_sd)",
            ]
            layers.append('("ring", dates[far], ys[far])')
        lines += head + body + [call(plan.key, [layers])]
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
