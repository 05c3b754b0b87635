"""The data functions a catalogue entry's start rules may call.

A start rule is an expression over the data arrays of the bound variables
(`max(v)`, `at_half(S, v)`, `-slope(t, log(c))`), parsed by the safe
evaluator with these functions added to its table. Each reads what a
scientist reads off a plot before fitting: the largest value, where the
curve reaches half its rise, the slope of a log plot, the period of an
oscillation. They ignore points that are not finite (the log of a noisy
value near zero) and return a finite float whenever the data allow one, so
a start is always a number the fit can begin from.

The engine sorts the data by the first independent variable before it
evaluates start rules, so `first` and `last` mean the ends of the curve.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from labwright.analysis.catalogue.expr import ARRAY, FUNCTIONS, Backend

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


def _arr(values: Any) -> FloatArray:
    return np.atleast_1d(np.asarray(values, dtype=float))


def _pair(x: Any, y: Any) -> tuple[FloatArray, FloatArray]:
    xs, ys = np.broadcast_arrays(_arr(x), _arr(y))
    keep = np.isfinite(xs) & np.isfinite(ys)
    return xs[keep], ys[keep]


def _finite(values: Any) -> FloatArray:
    a = _arr(values)
    return a[np.isfinite(a)]


def _or(value: float, default: float = 1.0) -> float:
    return value if math.isfinite(value) else default


def _max(values: Any) -> float:
    a = _finite(values)
    return float(a.max()) if a.size else 1.0


def _min(values: Any) -> float:
    a = _finite(values)
    return float(a.min()) if a.size else 0.0


def _mean(values: Any) -> float:
    a = _finite(values)
    return float(a.mean()) if a.size else 0.0


def _median(values: Any) -> float:
    a = _finite(values)
    return float(np.median(a)) if a.size else 0.0


def _std(values: Any) -> float:
    a = _finite(values)
    return float(a.std(ddof=1)) if a.size > 1 else 1.0


def _span(values: Any) -> float:
    a = _finite(values)
    return float(np.ptp(a)) if a.size else 1.0


def _absmax(values: Any) -> float:
    a = _finite(values)
    return float(np.abs(a).max()) if a.size else 1.0


def _first(values: Any) -> float:
    a = _finite(values)
    return float(a[0]) if a.size else 0.0


def _last(values: Any) -> float:
    a = _finite(values)
    return float(a[-1]) if a.size else 0.0


def _edge(values: Any, head: bool) -> float:
    a = _finite(values)
    if not a.size:
        return 0.0
    k = max(2, a.size // 10)
    return float(a[:k].mean() if head else a[-k:].mean())


def _head(values: Any) -> float:
    """Mean of the first tenth (at least two points): the start of a curve, less noisy."""
    return _edge(values, head=True)


def _tail(values: Any) -> float:
    """Mean of the last tenth: the level a curve settles to."""
    return _edge(values, head=False)


def _at_max(x: Any, y: Any) -> float:
    xs, ys = _pair(x, y)
    return float(xs[np.argmax(ys)]) if xs.size else 0.0


def _at_min(x: Any, y: Any) -> float:
    xs, ys = _pair(x, y)
    return float(xs[np.argmin(ys)]) if xs.size else 0.0


def _line(x: Any, y: Any) -> tuple[float, float]:
    xs, ys = _pair(x, y)
    if xs.size < 2 or np.ptp(xs) == 0:
        return 0.0, _mean(ys) if ys.size else 0.0
    slope, intercept = np.polyfit(xs, ys, 1)
    return float(slope), float(intercept)


def _slope(x: Any, y: Any) -> float:
    """Least-squares slope of y on x."""
    return _line(x, y)[0]


def _intercept(x: Any, y: Any) -> float:
    """Least-squares intercept of y on x (the value at x = 0)."""
    return _line(x, y)[1]


def _loglog_slope(x: Any, y: Any) -> float:
    """The exponent b of y = a x^b, from the slope on log-log axes."""
    xs, ys = _pair(x, y)
    keep = (xs > 0) & (ys > 0)
    return _or(_slope(np.log(xs[keep]), np.log(ys[keep])), 1.0)


def _x_at(x: Any, y: Any, level: Any) -> float:
    """The first x where y crosses `level` (linear interpolation), else the
    x whose y is closest to it."""
    xs, ys = _pair(x, y)
    target = float(np.mean(_arr(level)))
    if not xs.size:
        return 0.0
    d = ys - target
    for i in range(xs.size - 1):
        if d[i] == 0:
            return float(xs[i])
        if d[i] * d[i + 1] < 0:
            return float(xs[i] - d[i] * (xs[i + 1] - xs[i]) / (d[i + 1] - d[i]))
    return float(xs[np.argmin(np.abs(d))])


def _at_half(x: Any, y: Any) -> float:
    """The x where y is halfway between its smallest and largest value
    (Km of a saturating curve, the midpoint of a sigmoid)."""
    _, ys = _pair(x, y)
    if not ys.size:
        return 0.0
    return _x_at(x, y, 0.5 * (ys.min() + ys.max()))


def _fwhm(x: Any, y: Any) -> float:
    """The full width at half height of the largest peak above the lowest value."""
    xs, ys = _pair(x, y)
    if xs.size < 3:
        return _or(_span(xs) / 4, 1.0)
    order = np.argsort(xs)
    xs, ys = xs[order], ys[order]
    top = int(np.argmax(ys))
    half = 0.5 * (ys[top] + ys.min())
    left = right = None
    for i in range(top, 0, -1):
        if ys[i - 1] < half <= ys[i]:
            left = xs[i - 1] + (half - ys[i - 1]) * (xs[i] - xs[i - 1]) / (ys[i] - ys[i - 1])
            break
    for i in range(top, xs.size - 1):
        if ys[i + 1] < half <= ys[i]:
            right = xs[i] + (ys[i] - half) * (xs[i + 1] - xs[i]) / (ys[i] - ys[i + 1])
            break
    if left is None and right is None:
        return float(np.ptp(xs)) / 2
    if left is None:
        assert right is not None
        return 2 * float(right - xs[top])
    if right is None:
        return 2 * float(xs[top] - left)
    return float(right - left)


def _period(x: Any, y: Any) -> float:
    """The dominant period of y(x) (Lomb–Scargle periodogram, which does not
    need even sampling), refined by a parabola through the highest bin."""
    from scipy.signal import lombscargle

    xs, ys = _pair(x, y)
    if xs.size < 4 or np.ptp(xs) == 0:
        return _or(_span(xs), 1.0)
    order = np.argsort(xs)
    xs, ys = xs[order], ys[order] - np.mean(ys)
    span = float(np.ptp(xs))
    steps = np.diff(xs)
    step = float(np.median(steps[steps > 0])) if np.any(steps > 0) else span / xs.size
    # From one cycle over the whole span to the Nyquist frequency, 10 bins per 1/span.
    f_lo, f_hi = 0.5 / span, 0.5 / step
    n = int(min(20000, max(200, 10 * (f_hi - f_lo) * span)))
    freqs = np.linspace(f_lo, f_hi, n)
    power = lombscargle(xs, ys, 2 * np.pi * freqs, precenter=False)
    k = int(np.argmax(power))
    f = freqs[k]
    if 0 < k < n - 1:
        a, b, c = power[k - 1], power[k], power[k + 1]
        denom = a - 2 * b + c
        if denom != 0:
            f += 0.5 * (a - c) / denom * (freqs[1] - freqs[0])
    return float(1.0 / f) if f > 0 else span


def _sin_cos(x: Any, y: Any, f: Any) -> tuple[float, float]:
    """Least-squares a, b of y = a sin(2π f x) + b cos(2π f x) + c."""
    xs, ys = _pair(x, y)
    freq = float(np.mean(_arr(f)))
    if xs.size < 3:
        return 1.0, 0.0
    w = 2 * np.pi * freq * xs
    design = np.column_stack([np.sin(w), np.cos(w), np.ones_like(xs)])
    coef, *_ = np.linalg.lstsq(design, ys, rcond=None)
    return float(coef[0]), float(coef[1])


def _phase(x: Any, y: Any, f: Any) -> float:
    """φ of y = A sin(2π f x + φ) + c at a known frequency f (A > 0)."""
    a, b = _sin_cos(x, y, f)
    return math.atan2(b, a)


def _amplitude(x: Any, y: Any, f: Any) -> float:
    """A of y = A sin(2π f x + φ) + c at a known frequency f."""
    a, b = _sin_cos(x, y, f)
    return _or(math.hypot(a, b), 1.0)


def _decay_rate(x: Any, y: Any) -> float:
    """k of y = a e^{-k x} + c (rising or falling towards the level c): the
    slope of log|y - c| over the part of the curve well away from the level."""
    xs, ys = _pair(x, y)
    if xs.size < 3:
        return _or(1.0 / _span(xs), 1.0)
    order = np.argsort(xs)
    xs, ys = xs[order], ys[order]
    level = _tail(ys)
    d = np.abs(ys - level)
    keep = d > 0.15 * d.max()
    # Stop at the first point that came close to the level (noise beyond it).
    if not keep.all():
        first_close = int(np.argmin(keep)) if not keep[0] else int(np.argmax(~keep))
        keep[first_close:] = False
    if keep.sum() < 2:
        keep = d > 0
    rate = -_slope(xs[keep], np.log(d[keep]))
    span = float(np.ptp(xs))
    if not math.isfinite(rate) or rate <= 0:
        rate = 2.0 / span if span > 0 else 1.0
    # The curve was followed over span; a rate far outside 0.1..100 per span is noise.
    return float(np.clip(rate, 0.1 / span, 100.0 / span)) if span > 0 else rate


def _envelope_rate(x: Any, y: Any) -> float:
    """γ of an oscillation whose amplitude falls as e^{-γ x}: the slope of
    the log of the heights of successive extremes about the final level."""
    from scipy.signal import find_peaks

    xs, ys = _pair(x, y)
    if xs.size < 6:
        return 0.0
    order = np.argsort(xs)
    xs, ys = xs[order], ys[order]
    d = np.abs(ys - np.median(ys))
    peaks, _ = find_peaks(
        d, distance=max(1, int(_period(xs, ys) / 3 / _or(float(np.median(np.diff(xs))), 1.0)))
    )
    if peaks.size < 3:
        return 0.0
    rate = -_slope(xs[peaks], np.log(np.maximum(d[peaks], 1e-300)))
    return float(max(rate, 0.0)) if math.isfinite(rate) else 0.0


def _mid(values: Any) -> float:
    """Halfway between the smallest and the largest value."""
    a = _finite(values)
    return float(0.5 * (a.min() + a.max())) if a.size else 0.0


def _count(values: Any) -> float:
    return float(_finite(values).size)


DATA_FUNCTIONS: Mapping[str, Callable[..., float]] = {
    "max": _max,
    "min": _min,
    "mean": _mean,
    "median": _median,
    "std": _std,
    "span": _span,
    "absmax": _absmax,
    "first": _first,
    "last": _last,
    "head": _head,
    "tail": _tail,
    "mid": _mid,
    "count": _count,
    "at_max": _at_max,
    "at_min": _at_min,
    "at_half": _at_half,
    "x_at": _x_at,
    "fwhm": _fwhm,
    "slope": _slope,
    "intercept": _intercept,
    "loglog_slope": _loglog_slope,
    "period": _period,
    "phase": _phase,
    "amplitude": _amplitude,
    "decay_rate": _decay_rate,
    "envelope_rate": _envelope_rate,
}
_ARITIES = {
    "at_max": 2, "at_min": 2, "at_half": 2, "x_at": 3, "fwhm": 2, "slope": 2, "intercept": 2,
    "loglog_slope": 2, "period": 2, "phase": 3, "amplitude": 3, "decay_rate": 2,
    "envelope_rate": 2,
}  # fmt: skip

#: Names a start rule may call, with their arities: the math functions and
#: the data functions.
START_FUNCTIONS: Mapping[str, int] = {
    **FUNCTIONS,
    **{name: _ARITIES.get(name, 1) for name in DATA_FUNCTIONS},
}

#: The array backend with the data functions: evaluates start rules.
STARTS: Backend = ARRAY.with_functions(DATA_FUNCTIONS)
