"""The compendium's helper for the generic least-squares models of the x-y
path and the file series (`labwright.analysis.fits`): the same functions,
starting values and covariance, written out as plain scipy."""

from __future__ import annotations

FIT_MODEL = '''MODELS = {
    "linear": lambda x, a, b: a * x + b,
    "power": lambda x, a, b: a * np.power(x, b),
    "exponential": lambda x, a, tau: a * np.exp(-x / tau),
    "exponential_offset": lambda x, a, tau, c: a * np.exp(-x / tau) + c,
    "quadratic": lambda x, a, b, c: a * x * x + b * x + c,
}


def fit_model(key, x, y):
    """Least squares of one model: (parameters, standard errors, R^2, n, RSS)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if key in ("linear", "quadratic"):
        params, cov = np.polyfit(x, y, 1 if key == "linear" else 2, cov=True)
    else:
        if key == "power":  # a straight line on log-log axes
            if np.any(x <= 0) or np.any(y <= 0):
                raise ValueError("a power law needs positive values")
            b, log_a = np.polyfit(np.log(x), np.log(y), 1)
            p0 = [np.exp(log_a), b]
        elif key == "exponential":  # from the points on the dominant sign
            sign = 1.0 if y[np.argmax(np.abs(y))] > 0 else -1.0
            on = sign * y > 0
            if on.sum() < 3 or np.unique(x[on]).size < 2:
                raise ValueError("too few points on one side of zero")
            slope, intercept = np.polyfit(x[on], np.log(sign * y[on]), 1)
            if slope == 0:
                raise ValueError("no decay")
            p0 = [sign * np.exp(intercept), -1.0 / slope]
        else:  # towards a level C read at the end where the curve settles
            order = np.argsort(x)
            xs, ys = x[order], y[order]
            tail = max(3, xs.size // 10)
            first, last = ys[:tail], ys[-tail:]
            c0 = float(np.median(last if np.ptp(last) <= np.ptp(first) else first))
            d = ys - c0
            sign = 1.0 if d[np.argmax(np.abs(d))] > 0 else -1.0
            on = sign * d > 0.05 * (np.ptp(ys) or 1.0)
            if on.sum() < 3 or np.unique(xs[on]).size < 2:
                raise ValueError("too few points away from the level")
            slope, intercept = np.polyfit(xs[on], np.log(sign * d[on]), 1)
            if slope == 0:
                raise ValueError("no decay")
            p0 = [sign * np.exp(intercept), -1.0 / slope, c0]
        params, cov = curve_fit(MODELS[key], x, y, p0=p0, maxfev=5000)
    rss = np.sum((y - MODELS[key](x, *params)) ** 2)
    r2 = 1.0 - rss / np.sum((y - y.mean()) ** 2)
    return params, np.sqrt(np.abs(np.diag(cov))), r2, x.size, rss
'''
IMPORTS = ("import numpy as np", "from scipy.optimize import curve_fit")

CHOOSE_MODEL = '''SYMBOLS = {"linear": ["a", "b"], "power": ["a", "b"], "exponential": ["A", "\\\\tau"],
           "exponential_offset": ["A", "\\\\tau", "C"], "quadratic": ["a", "b", "c"]}
# A relation is reported only when its model explains this share of the variance.
MIN_R2 = 0.9


def choose_model(x, y):
    """The model the report chose for y(x): lowest AICc, a simpler model kept
    when within 2 of the best (or as good in R^2), the extra term of a nested
    model dropped when within 3 SE of zero; none when R^2 < 0.9."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if x.size < 5 or np.unique(x).size < 3 or np.ptp(y) == 0:
        return None
    fits = {}
    for key in MODELS:  # in order of preference
        try:
            params, errors, r2, n, rss = fit_model(key, x, y)
        except (RuntimeError, ValueError, TypeError, np.linalg.LinAlgError):
            continue
        k = len(params)
        if n < max(5, k + 2) or not np.all(np.isfinite(errors)) or not np.all(np.isfinite(params)):
            continue
        aicc = n * np.log(max(rss, 1e-300) / n) + 2 * k + 2 * k * (k + 1) / (n - k - 1)
        fits[key] = (params, errors, r2, n, aicc)
    if not fits:
        return None
    best = min(fits, key=lambda k: fits[k][4])
    for key in fits:
        if fits[key][4] <= fits[best][4] + 2.0 or fits[key][2] >= fits[best][2] - 1e-9:
            best = key
            break
    simpler = {"exponential_offset": ("exponential", 2), "quadratic": ("linear", 0)}.get(best)
    if simpler and simpler[0] in fits and abs(fits[best][0][simpler[1]]) <= 3 * fits[best][1][simpler[1]]:
        best = simpler[0]
    return (best, *fits[best][:4]) if fits[best][2] >= MIN_R2 else None
'''
