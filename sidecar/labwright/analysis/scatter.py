"""Whether a fit's scatter grows with the value: the variance model of a
least-squares fit without stated uncertainties.

A multimeter's error is a percentage of the reading, a diode's current is
read over five decades: the scatter is relative, and an unweighted fit lets
the largest values decide alone (a diode's ideality factor 1.875 ± 0.006
for 1.85; a thermistor's R25 3.8 SE off). A careful analyst looks at the
residuals of the first fit and, when their size follows the fitted value,
refits with weights 1/ŷ². Here the two variance models, constant and
proportional to the value, are compared by their profile likelihood on the
first fit's residuals (each has one scale parameter); the relative one is
taken only when it is clearly better, over a range of fitted values wide
enough to tell them apart, so that data with constant scatter are never
reweighted by chance. Residuals that run in long stretches of one sign say
the law misses the data somewhere (real cooling and growth curves do): their
sizes then follow the misfit, not the noise, and the fit is left unweighted,
as it is on a temperature in °C, whose zero is not the quantity's.
"""

from __future__ import annotations

import math

import numpy as np

#: At least this many points, and fitted values spanning at least this
#: factor, before the variance model is judged.
MIN_POINTS = 8
MIN_SPAN = 3.0
#: The log-likelihood the relative model must gain (a likelihood ratio of
#: e^4 ≈ 55: "very strong" on Jeffreys' scale).
MIN_GAIN = 4.0
#: A runs test of the first fit's residual signs below this p: the law misses
#: the data, and the residuals' sizes say nothing of the noise.
MIN_RUNS_P = 0.05


def relative_scatter(
    fitted: np.ndarray, residuals: np.ndarray, parameters: int, runs_p: float | None = None
) -> float | None:
    """The relative standard deviation of the scatter (0.005 for 0.5 %) when
    it grows in proportion to the fitted value; None when the scatter is as
    well described as constant, or the data cannot tell. `runs_p`: the runs
    test of the residuals' signs, when one was made."""
    if runs_p is not None and runs_p < MIN_RUNS_P:
        return None
    y = np.asarray(fitted, dtype=float)
    r = np.asarray(residuals, dtype=float)
    ok = np.isfinite(y) & np.isfinite(r)
    y, r = y[ok], r[ok]
    n = int(y.size)
    if n < max(MIN_POINTS, parameters + 3):
        return None
    size = np.abs(y)
    if np.any(size == 0) or not (np.all(y > 0) or np.all(y < 0)):
        return None
    if size.max() / size.min() < MIN_SPAN:
        return None
    ss_constant = float(np.sum(r**2))
    ss_relative = float(np.sum((r / size) ** 2))
    if ss_constant <= 0 or ss_relative <= 0:
        return None
    # Profile log-likelihoods of normal errors with sd = s and sd = s·|ŷ|.
    log_constant = -0.5 * n * math.log(ss_constant / n)
    log_relative = -0.5 * n * math.log(ss_relative / n) - float(np.sum(np.log(size)))
    if log_relative - log_constant < MIN_GAIN:
        return None
    return math.sqrt(ss_relative / (n - parameters))
