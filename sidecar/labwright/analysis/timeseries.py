"""Time series: trend, seasonal cycle, change point and anomalies.

Time is in decimal years, so a trend is a rate per year (the natural unit for
calendar data). The trend is an OLS fit (statsmodels) of the values on time,
with the first two annual harmonics as extra regressors when the series has a
seasonal cycle, so the cycle neither biases the rate nor inflates its error;
standard errors are HAC (Newey-West), because residuals of a time series are
rarely independent and plain OLS errors would be too small. The cycle is
shown as a climatology: the mean of the detrended values per calendar month,
the detrending done by STL (statsmodels) on the monthly means. A change point
is the one the notes name, or the split that best divides the series into two
constant levels; the levels are compared with Welch's t-test (scipy).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

MIN_POINTS = 8
MIN_CYCLES = 2.0
_SUB_YEAR_STEP = 0.5  # years: finer sampling can show an annual cycle


@dataclass(frozen=True)
class Trend:
    slope: float  # per year
    se: float
    intercept_at: float  # fitted value at `t_ref`
    t_ref: float
    n: int
    r2: float
    harmonics: int  # annual harmonics fitted alongside (0 = none)


@dataclass(frozen=True)
class Seasonal:
    amplitude: float  # of the first annual harmonic
    amplitude_se: float
    climatology: tuple[float, ...]  # 12 monthly means of the detrended series
    climatology_se: tuple[float, ...]
    counts: tuple[int, ...]
    peak_month: int  # 1..12
    trough_month: int
    n_cycles: float


@dataclass(frozen=True)
class ChangePoint:
    at: float  # decimal year of the first value after the change
    named: bool  # True when the notes named the point
    mean_before: float
    se_before: float
    n_before: int
    mean_after: float
    se_after: float
    n_after: int
    t: float
    p: float


@dataclass(frozen=True)
class Acceleration:
    """y = a + b (t - t_ref) + c (t - t_ref)^2 (+ the annual harmonics), HAC
    errors: the acceleration is 2c, the rate at a time t is b + 2c (t - t_ref)."""

    accel: float  # per year per year
    se: float
    p: float
    rate_start: float
    rate_start_se: float
    rate_end: float
    rate_end_se: float
    t_ref: float
    coef: tuple[float, float, float]  # a, b, c (trend part only, for the figure)


@dataclass(frozen=True)
class Segment:
    start: float  # decimal year of the first value
    end: float  # of the last value
    mean: float
    se: float
    n: int


@dataclass(frozen=True)
class Segments:
    """Several levels: at the points the notes name, or found by binary
    segmentation (each split kept while it lowers the BIC of a piecewise
    constant model), with Welch's t-test between neighbouring levels."""

    segments: tuple[Segment, ...]
    named: bool
    tests: tuple[tuple[float, float], ...]  # (t, p) between segment i and i+1


@dataclass
class SeriesResult:
    years: np.ndarray  # decimal years of the finite pairs, sorted
    values: np.ndarray
    step_years: float  # median sampling step
    trend: Trend | None = None
    seasonal: Seasonal | None = None
    change: ChangePoint | None = None
    acceleration: Acceleration | None = None
    segments: Segments | None = None
    anomalies: list[int] = field(default_factory=list)  # indexes into years/values
    anomaly_sigma: float = 3.0
    trend_curve: np.ndarray | None = None  # fitted trend (+cycle) at `years`

    @property
    def quarterly(self) -> bool:
        """Sampled once a quarter: times and the cycle are named by quarter."""
        return 0.2 < self.step_years < 0.3


def sampling(years: np.ndarray) -> tuple[int, float]:
    """The number of distinct times and the median step between them.

    Over distinct times: readings repeated at one time (a panel of firms per
    year, two readings a year) give zero steps, and yearly data passed off as
    sub-annual got annual harmonics that are singular at whole years
    (amplitudes of 1e11)."""
    distinct = np.unique(years)
    step = float(np.median(np.diff(distinct))) if distinct.size > 1 else 0.0
    return int(distinct.size), step


def cycle_visible(step_years: float, span_years: float) -> bool:
    """Whether sampling this fine over this long can show an annual cycle."""
    return step_years <= _SUB_YEAR_STEP and span_years >= MIN_CYCLES


def annual_harmonics(step_years: float) -> int:
    """The annual harmonics (at most two) a sampling step resolves: the k-th
    needs more than 2k samples a year. Quarterly data resolve only the
    first: the second's cosine is zero at the middle of every quarter, a
    column of rounding noise that made the trend depend on the BLAS kernel
    of the machine (a report and its script, run with two kernels, drew
    trend lines 1e-4 apart)."""
    return sum(1 for k in (1, 2) if 2 * k * step_years < 1 - 1e-9)


def _ols(design: np.ndarray, y: np.ndarray, maxlags: int) -> object:
    # The module, not statsmodels.api: the api import pulls in every model
    # statsmodels has and costs seconds on a cold start.
    from statsmodels.regression.linear_model import OLS

    model = OLS(y, design)
    if maxlags > 0:
        return model.fit(cov_type="HAC", cov_kwds={"maxlags": maxlags})
    return model.fit()


def _design(t: np.ndarray, t_ref: float, harmonics: int) -> np.ndarray:
    cols = [np.ones_like(t), t - t_ref]
    for k in range(1, harmonics + 1):
        cols += [np.sin(2 * math.pi * k * t), np.cos(2 * math.pi * k * t)]
    return np.column_stack(cols)


def _maxlags(n: int) -> int:
    # Newey-West's rule of thumb for the bandwidth.
    return int(math.floor(4 * (n / 100.0) ** (2.0 / 9.0)))


def fit_trend(t: np.ndarray, y: np.ndarray, harmonics: int = 0) -> tuple[Trend, np.ndarray, object]:
    t_ref = float(np.round(np.mean(t)))
    design = _design(t, t_ref, harmonics)
    res = _ols(design, y, _maxlags(t.size))
    params = np.asarray(res.params)  # type: ignore[attr-defined]
    bse = np.asarray(res.bse)  # type: ignore[attr-defined]
    trend = Trend(
        slope=float(params[1]),
        se=float(bse[1]),
        intercept_at=float(params[0]),
        t_ref=t_ref,
        n=int(t.size),
        r2=float(res.rsquared),  # type: ignore[attr-defined]
        harmonics=harmonics,
    )
    return trend, design @ params, res


def fit_acceleration(t: np.ndarray, y: np.ndarray, harmonics: int) -> Acceleration | None:
    """The trend with a quadratic term: is the rise speeding up (CO2) or not."""
    if t.size < MIN_POINTS + 2:
        return None
    t_ref = float(np.round(np.mean(t)))
    base = _design(t, t_ref, harmonics)
    design = np.column_stack([base[:, :2], (t - t_ref) ** 2, base[:, 2:]])
    res = _ols(design, y, _maxlags(t.size))
    params = np.asarray(res.params)  # type: ignore[attr-defined]
    cov = np.asarray(res.cov_params())  # type: ignore[attr-defined]
    pvalues = np.asarray(res.pvalues)  # type: ignore[attr-defined]

    def rate(at: float) -> tuple[float, float]:
        g = np.zeros(params.size)
        g[1], g[2] = 1.0, 2.0 * (at - t_ref)
        return float(g @ params), float(math.sqrt(max(g @ cov @ g, 0.0)))

    r0, r0_se = rate(float(t[0]))
    r1, r1_se = rate(float(t[-1]))
    return Acceleration(
        accel=float(2 * params[2]), se=float(2 * math.sqrt(max(cov[2, 2], 0.0))),
        p=float(pvalues[2]), rate_start=r0, rate_start_se=r0_se, rate_end=r1, rate_end_se=r1_se,
        t_ref=t_ref, coef=(float(params[0]), float(params[1]), float(params[2])),
    )  # fmt: skip


def calendar_months(years: np.ndarray) -> np.ndarray:
    """Months since January of the first year, from decimal years, through
    the calendar: months are not twelfths of a year, and `floor(frac * 12)`
    put dates stamped on the 1st (1 August = 0.581 of the year) in the month
    before, so Eurostat's August trough was reported as July."""
    whole = np.floor(years).astype(np.int64)
    start = (whole - 1970).astype("datetime64[Y]").astype("datetime64[s]")
    length = ((whole - 1969).astype("datetime64[Y]").astype("datetime64[s]") - start).astype(float)
    # Rounded to the minute: 1 August 00:00 must not come back as 31 July 23:59:59.9.
    offset = np.round((years - whole) * length / 60.0).astype(np.int64) * 60
    stamps = start + offset.astype("timedelta64[s]")
    month = stamps.astype("datetime64[M]").astype(np.int64)  # months since 1970-01
    return np.asarray(month - (int(whole[0]) - 1970) * 12)


def _monthly(years: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Monthly means on a regular grid (gaps interpolated) for STL."""
    import pandas as pd

    month_index = calendar_months(years)
    frame = pd.DataFrame({"m": month_index, "v": values}).groupby("m")["v"].mean()
    full = frame.reindex(range(int(month_index.min()), int(month_index.max()) + 1))
    full = full.interpolate(limit_direction="both")
    grid_years = np.floor(years[0]) + (full.index.to_numpy() + 0.5) / 12.0
    return grid_years, full.to_numpy(dtype=float)


def seasonal_cycle(years: np.ndarray, values: np.ndarray, trend_res: object) -> Seasonal | None:
    n_cycles = float(years[-1] - years[0])
    if n_cycles < MIN_CYCLES:
        return None
    from statsmodels.tsa.seasonal import STL

    grid, monthly = _monthly(years, values)
    if grid.size < 24:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stl = STL(monthly, period=12, robust=True).fit()
    trend_on_data = np.interp(years, grid, np.asarray(stl.trend))
    detrended = values - trend_on_data
    months = (calendar_months(years) % 12) + 1
    clim, ses, counts = [], [], []
    for m in range(1, 13):
        sel = detrended[months == m]
        counts.append(int(sel.size))
        clim.append(float(sel.mean()) if sel.size else float("nan"))
        ses.append(float(sel.std(ddof=1) / math.sqrt(sel.size)) if sel.size > 1 else float("nan"))
    params = np.asarray(trend_res.params)  # type: ignore[attr-defined]
    cov = np.asarray(trend_res.cov_params())  # type: ignore[attr-defined]
    a, b = params[2], params[3]
    amp = math.hypot(a, b)
    grad = np.array([a / amp, b / amp]) if amp > 0 else np.zeros(2)
    amp_se = float(math.sqrt(max(grad @ cov[2:4, 2:4] @ grad, 0.0)))
    arr = np.array(clim)
    return Seasonal(
        amplitude=float(amp),
        amplitude_se=amp_se,
        climatology=tuple(clim),
        climatology_se=tuple(ses),
        counts=tuple(counts),
        peak_month=int(np.nanargmax(arr)) + 1,
        trough_month=int(np.nanargmin(arr)) + 1,
        n_cycles=n_cycles,
    )


def _best_split(y: np.ndarray, min_seg: int) -> int:
    """Index of the first value after the split that minimises the squared
    error of two constant levels (exact search with cumulative sums)."""
    n = y.size
    c1 = np.cumsum(y)
    c2 = np.cumsum(y * y)
    best, best_k = math.inf, min_seg
    for k in range(min_seg, n - min_seg + 1):
        s1, q1 = c1[k - 1], c2[k - 1]
        s2, q2 = c1[-1] - s1, c2[-1] - q1
        sse = (q1 - s1 * s1 / k) + (q2 - s2 * s2 / (n - k))
        if sse < best:
            best, best_k = sse, k
    return best_k


def change_point(years: np.ndarray, values: np.ndarray, at: float | None) -> ChangePoint | None:
    from scipy import stats

    n = values.size
    min_seg = max(3, n // 10)
    if n < 2 * min_seg:
        return None
    if at is not None:
        k = int(np.searchsorted(years, at))
        named = True
        if k < 2 or n - k < 2:
            return None
    else:
        k = _best_split(values, min_seg)
        named = False
    before, after = values[:k], values[k:]
    test = stats.ttest_ind(before, after, equal_var=False)
    return ChangePoint(
        at=float(years[k]),
        named=named,
        mean_before=float(before.mean()),
        se_before=float(before.std(ddof=1) / math.sqrt(before.size)),
        n_before=int(before.size),
        mean_after=float(after.mean()),
        se_after=float(after.std(ddof=1) / math.sqrt(after.size)),
        n_after=int(after.size),
        t=float(test.statistic),
        p=float(test.pvalue),
    )


MAX_CHANGES = 5


def _sse(y: np.ndarray) -> float:
    return float(np.sum((y - y.mean()) ** 2)) if y.size else 0.0


def _bic(n: int, sse: float, k_segments: int) -> float:
    # A level and a break position per segment (the first has no break).
    return n * math.log(max(sse, 1e-300) / n) + (2 * k_segments - 1) * math.log(n)


def _binary_segmentation(y: np.ndarray, min_seg: int) -> list[int]:
    cuts: list[int] = []
    while len(cuts) < MAX_CHANGES:
        bounds = [0, *cuts, y.size]
        sse_now = sum(_sse(y[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))
        best = None
        for a, b in zip(bounds, bounds[1:], strict=False):
            if b - a < 2 * min_seg:
                continue
            k = a + _best_split(y[a:b], min_seg)
            gain = _sse(y[a:b]) - _sse(y[a:k]) - _sse(y[k:b])
            if best is None or gain > best[1]:
                best = (k, gain)
        if best is None:
            break
        new_sse = sse_now - best[1]
        if _bic(y.size, new_sse, len(cuts) + 2) >= _bic(y.size, sse_now, len(cuts) + 1):
            break
        cuts = sorted([*cuts, best[0]])
    return cuts


def segment_levels(years: np.ndarray, values: np.ndarray, at: list[float]) -> Segments | None:
    """Levels between the named points (two or more), or found from the data."""
    from scipy import stats

    n = values.size
    min_seg = max(3, n // 20)
    # Named points inside the series (a "1871-1970" span in the notes names
    # its ends, not changes); none inside: found from the data.
    cuts = sorted({int(np.searchsorted(years, a)) for a in at})
    cuts = [k for k in cuts if 2 <= k <= n - 2]
    named = bool(cuts)
    if not cuts:
        cuts = _binary_segmentation(values, min_seg)
    if not cuts:
        return None
    bounds = [0, *cuts, n]
    segs, parts = [], []
    for a, b in zip(bounds, bounds[1:], strict=False):
        part = values[a:b]
        parts.append(part)
        se = float(part.std(ddof=1) / math.sqrt(part.size)) if part.size > 1 else math.nan
        segs.append(
            Segment(float(years[a]), float(years[b - 1]), float(part.mean()), se, int(part.size))
        )
    tests = []
    for p1, p2 in zip(parts, parts[1:], strict=False):
        r = stats.ttest_ind(p1, p2, equal_var=False)
        tests.append((float(r.statistic), float(r.pvalue)))
    return Segments(tuple(segs), named, tuple(tests))


def analyse_series(
    years: np.ndarray,
    values: np.ndarray,
    *,
    trend: bool = True,
    seasonal: bool = False,
    change: bool = False,
    change_at: float | None = None,
    anomalies: bool = False,
    acceleration: bool = False,
    segments: bool = False,
    change_points: list[float] | None = None,
) -> SeriesResult | None:
    """Run the requested parts on one series; None when too short."""
    t = np.asarray(years, dtype=float)
    y = np.asarray(values, dtype=float)
    keep = np.isfinite(t) & np.isfinite(y)
    t, y = t[keep], y[keep]
    order = np.argsort(t, kind="stable")
    t, y = t[order], y[order]
    if t.size < MIN_POINTS or np.ptp(t) <= 0:
        return None
    _, step = sampling(t)
    out = SeriesResult(years=t, values=y, step_years=step)
    can_cycle = cycle_visible(step, float(np.ptp(t)))
    # The annual harmonics go into the trend fit whenever the sampling can show
    # a cycle, asked for or not: left in the residuals, a cycle inflates the
    # trend's standard error (and biases it over a non-whole number of years).
    harmonics = annual_harmonics(step) if can_cycle else 0
    if trend or seasonal or anomalies:
        tr, curve, res = fit_trend(t, y, harmonics)
        out.trend_curve = curve
        if trend:
            out.trend = tr
        if harmonics:
            out.seasonal = seasonal_cycle(t, y, res) if seasonal else None
        if anomalies:
            resid = y - curve
            mad = float(np.median(np.abs(resid - np.median(resid)))) * 1.4826
            if mad > 0:
                out.anomalies = [int(i) for i in np.flatnonzero(np.abs(resid) > 3 * mad)]
    if acceleration:
        out.acceleration = fit_acceleration(t, y, harmonics)
    if segments:
        out.segments = segment_levels(t, y, list(change_points or []))
    elif change:
        out.change = change_point(t, y, change_at)
    return out
