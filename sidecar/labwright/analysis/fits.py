"""Least-squares fits of an x-y relation, with a deterministic model choice.

Candidates, in order of preference: linear, power law, exponential,
exponential towards a level (A e^{-x/tau} + C), quadratic.
Each is fitted with scipy; the model with the lowest corrected Akaike
criterion (AICc) wins, except that a model earlier in the list is kept when it
is within `_AICC_TIE` of the best (a simpler law is preferred unless the data
clearly ask for another). A relation is reported only when the chosen model
explains most of the variance (R^2 >= `MIN_R2`); otherwise there is no fit,
which is the honest answer for noise or for a spectrum.

Kept free of LaTeX and of the ledger so the LLM pipeline can reuse it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

MIN_POINTS = 5
MIN_R2 = 0.9
_AICC_TIE = 2.0


@dataclass(frozen=True)
class Model:
    key: str
    formula: str  # LaTeX, in terms of x, y and the parameter symbols
    params: tuple[str, ...]  # parameter symbols as LaTeX
    func: Callable[..., np.ndarray]


def _linear(x: np.ndarray, a: float, b: float) -> np.ndarray:
    return a * x + b


def _power(x: np.ndarray, a: float, b: float) -> np.ndarray:
    return np.asarray(a * np.power(x, b))


def _exponential(x: np.ndarray, a: float, tau: float) -> np.ndarray:
    return np.asarray(a * np.exp(-x / tau))


def _exponential_offset(x: np.ndarray, a: float, tau: float, c: float) -> np.ndarray:
    return np.asarray(a * np.exp(-x / tau) + c)


def _quadratic(x: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    return np.asarray(a * x * x + b * x + c)


MODELS: dict[str, Model] = {
    "linear": Model("linear", "y = a x + b", ("a", "b"), _linear),
    "power": Model("power", "y = a x^{b}", ("a", "b"), _power),
    "exponential": Model("exponential", r"y = A e^{-x/\tau}", ("A", r"\tau"), _exponential),
    "exponential_offset": Model(
        "exponential_offset", r"y = A e^{-x/\tau} + C", ("A", r"\tau", "C"), _exponential_offset
    ),
    "quadratic": Model("quadratic", "y = a x^{2} + b x + c", ("a", "b", "c"), _quadratic),
}
_ORDER = ("linear", "power", "exponential", "exponential_offset", "quadratic")


@dataclass(frozen=True)
class FitResult:
    model: Model
    params: tuple[float, ...]
    sigmas: tuple[float, ...]
    r2: float
    n: int
    aicc: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return self.model.func(np.asarray(x, dtype=float), *self.params)

    def to_dict(self) -> dict[str, object]:
        """JSON-able form (the plot worker fits and sends results back)."""
        return {
            "model": self.model.key,
            "params": list(self.params),
            "sigmas": list(self.sigmas),
            "r2": self.r2,
            "n": self.n,
            "aicc": self.aicc,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FitResult:
        return cls(
            MODELS[str(data["model"])],
            tuple(float(v) for v in data["params"]),
            tuple(float(v) for v in data["sigmas"]),
            float(data["r2"]),
            int(data["n"]),
            float(data["aicc"]),
        )


def _initial_guess(key: str, x: np.ndarray, y: np.ndarray) -> list[float] | None:
    if key == "power":
        if np.any(x <= 0) or np.any(y <= 0):
            return None
        b, log_a = np.polyfit(np.log(x), np.log(y), 1)
        return [math.exp(log_a), b]
    if key == "exponential":
        # The guess comes from the points on the dominant sign only: a decay
        # measured down to the noise floor has a few samples of either sign,
        # and the fit itself then uses all of them.
        sign = 1.0 if y[np.argmax(np.abs(y))] > 0 else -1.0
        keep = sign * y > 0
        if keep.sum() < 3 or np.unique(x[keep]).size < 2:
            return None
        slope, intercept = np.polyfit(x[keep], np.log(sign * y[keep]), 1)
        if slope == 0:
            return None
        return [sign * math.exp(intercept), -1.0 / slope]
    if key == "exponential_offset":
        # Level C from the end the curve settles towards (the x extreme where
        # it changes least), then A and tau from log|y - C| as above.
        order = np.argsort(x)
        xs, ys = x[order], y[order]
        tail = max(3, xs.size // 10)
        first, last = ys[:tail], ys[-tail:]
        settled_end = last if np.ptp(last) <= np.ptp(first) else first
        c0 = float(np.median(settled_end))
        span = float(np.ptp(ys)) or 1.0
        d = ys - c0
        sign = 1.0 if d[np.argmax(np.abs(d))] > 0 else -1.0
        keep = sign * d > 0.05 * span
        if keep.sum() < 3 or np.unique(xs[keep]).size < 2:
            return None
        slope, intercept = np.polyfit(xs[keep], np.log(sign * d[keep]), 1)
        if slope == 0:
            return None
        return [sign * math.exp(intercept), -1.0 / slope, c0]
    return None


def _fit_one(key: str, x: np.ndarray, y: np.ndarray) -> FitResult | None:
    from scipy.optimize import curve_fit

    model = MODELS[key]
    k = len(model.params)
    n = x.size
    if n < max(MIN_POINTS, k + 2):
        return None
    if key in ("linear", "quadratic"):
        deg = 1 if key == "linear" else 2
        try:
            coeffs, cov = np.polyfit(x, y, deg, cov=True)
        except (np.linalg.LinAlgError, ValueError):
            return None
        params = np.asarray(coeffs)
    else:
        p0 = _initial_guess(key, x, y)
        if p0 is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                params, cov = curve_fit(model.func, x, y, p0=p0, maxfev=5000)
        except (RuntimeError, ValueError, TypeError):
            return None
    resid = y - model.func(x, *params)
    rss = float(np.sum(resid**2))
    tss = float(np.sum((y - y.mean()) ** 2))
    if not math.isfinite(rss) or tss <= 0:
        return None
    sig = np.sqrt(np.abs(np.diag(cov)))
    if not np.all(np.isfinite(sig)) or not np.all(np.isfinite(params)):
        return None
    r2 = 1.0 - rss / tss
    # AICc for Gaussian errors; a tiny floor keeps log() finite on exact data.
    aic = n * math.log(max(rss, 1e-300) / n) + 2 * k
    aicc = aic + (2 * k * (k + 1)) / (n - k - 1)
    return FitResult(model, tuple(map(float, params)), tuple(map(float, sig)), r2, n, aicc)


def fit_xy(x: np.ndarray, y: np.ndarray) -> FitResult | None:
    """The preferred model for y(x), or None when no model explains the data.

    NaN pairs are dropped first. Deterministic: same data -> same choice.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if x.size < MIN_POINTS or np.unique(x).size < 3 or np.ptp(y) == 0:
        return None
    results = [r for key in _ORDER if (r := _fit_one(key, x, y)) is not None]
    if not results:
        return None
    best = min(results, key=lambda r: r.aicc)
    for r in results:  # results are in preference order
        # The R^2 clause covers exact (noise-free) data, where AICc compares
        # logarithms of rounding errors and would pick at random.
        if r.aicc <= best.aicc + _AICC_TIE or r.r2 >= best.r2 - 1e-9:
            best = r
            break
    best = _drop_insignificant_term(best, results)
    return best if best.r2 >= MIN_R2 else None


# A model that extends a simpler one by one term (the simpler one is the
# extended one with that parameter at zero), and that parameter's index.
_NESTED = {"exponential_offset": ("exponential", 2), "quadratic": ("linear", 0)}


def _drop_insignificant_term(best: FitResult, results: list[FitResult]) -> FitResult:
    """Prefer the simpler nested model when the extra parameter is within three
    standard uncertainties of zero: the data do not clearly show that term."""
    nested = _NESTED.get(best.model.key)
    if nested is None:
        return best
    simpler_key, index = nested
    if abs(best.params[index]) > 3 * best.sigmas[index]:
        return best
    simpler = next((r for r in results if r.model.key == simpler_key), None)
    return simpler if simpler is not None else best


def fit_with(key: str, x: np.ndarray, y: np.ndarray) -> FitResult | None:
    """Fit one named model (for callers that already know the law)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    return _fit_one(key, x[keep], y[keep])
