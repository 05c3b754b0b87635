"""The standard error of a period when the noise is not white.

The sinusoid fit's SE assumes independent residuals around a cycle of fixed
phase. Natural cycles are neither: the sunspot numbers' residuals have a
lag-1 autocorrelation of 0.8, and the cycle's phase wanders from one cycle
to the next (the Schwabe cycle lasts 9 to 14 years). The fit then claimed
P = 11.04 ± 0.02 years from 26 cycles, an SE ten times smaller than the
cycles' own spread allows. Two widenings, the larger is kept (never below
the fit's own SE):

- autocorrelated residuals: the SE times sqrt((1 + ρ)/(1 − ρ)), ρ the
  residuals' lag-1 autocorrelation (Quenouille's effective sample size);
- phase drift (the O−C diagram of variable-star work): the series is cut
  into segments of SEGMENT_CYCLES cycles, the phase of the fitted frequency
  is fitted in each, and the phases are a straight line in time whose slope
  is the frequency's correction. Its SE comes from a generalised least
  squares fit in which the phases scatter independently and also drift as
  a random walk, the ratio of the two variances chosen by restricted
  maximum likelihood (REML) on a grid: a clean cycle gives ratio 0 (the
  ordinary line, about the fit's SE), a wandering one the random walk's
  larger SE. Used when at least MIN_SEGMENTS segments fit.

The compendium's script repeats these steps (writers/periodogram.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEGMENT_CYCLES = 2.0
MIN_SEGMENTS = 5
MIN_SEGMENT_POINTS = 5
#: Random-walk to white variance ratios searched by REML (0 first: ties keep it).
RATIOS = (0.0, *np.geomspace(1e-3, 1e3, 61).tolist())


@dataclass(frozen=True)
class PeriodError:
    f_se: float
    #: which SE was kept: "fit", "autocorrelation" or "phase drift"
    source: str
    rho: float
    segments: int


def segment_phases(t: np.ndarray, y: np.ndarray, f: float) -> tuple[np.ndarray, np.ndarray]:
    """(centre time, phase) of each segment of SEGMENT_CYCLES cycles, the
    phase of a sinusoid of frequency `f` (with a level and a slope) fitted
    in it; phases unwrapped."""
    t0 = float(np.mean(t))
    k = int((float(t[-1] - t[0]) * f) // SEGMENT_CYCLES)
    if k < MIN_SEGMENTS:
        return np.empty(0), np.empty(0)
    edges = np.linspace(float(t[0]), float(t[-1]), k + 1)
    centres, phases = [], []
    for i in range(k):
        inside = (t >= edges[i]) & ((t <= edges[i + 1]) if i == k - 1 else (t < edges[i + 1]))
        if int(inside.sum()) < MIN_SEGMENT_POINTS:
            continue
        w = 2 * np.pi * f * (t[inside] - t0)
        x = np.column_stack([np.ones(w.size), t[inside] - t0, np.sin(w), np.cos(w)])
        c = np.linalg.lstsq(x, y[inside], rcond=None)[0]
        centres.append(float(np.mean(t[inside])))
        phases.append(float(np.arctan2(c[3], c[2])))
    return np.asarray(centres), np.unwrap(np.asarray(phases))


def drift_se(centres: np.ndarray, phases: np.ndarray) -> float:
    """SE of the frequency from the phases' line (white + random-walk scatter,
    their ratio by REML)."""
    k = centres.size
    x = np.column_stack([np.ones(k), centres - centres.mean()])
    steps = (centres - centres[0]) / float(np.mean(np.diff(centres)))
    walk = np.minimum.outer(steps, steps)
    best: tuple[float, float] | None = None
    for ratio in RATIOS:
        vi = np.linalg.inv(np.eye(k) + ratio * walk)
        xtvx = x.T @ vi @ x
        beta = np.linalg.solve(xtvx, x.T @ vi @ phases)
        r = phases - x @ beta
        s2 = float(r @ vi @ r) / (k - 2)
        if s2 <= 0:
            return 0.0
        ll = -0.5 * ((k - 2) * np.log(s2) - np.linalg.slogdet(vi)[1] + np.linalg.slogdet(xtvx)[1])
        if best is None or ll > best[0]:
            best = (float(ll), float(np.sqrt(s2 * np.linalg.inv(xtvx)[1, 1])))
    assert best is not None
    return best[1] / (2 * np.pi)


def period_error(
    t: np.ndarray, y: np.ndarray, f: float, fit_se: float, residual: np.ndarray
) -> PeriodError:
    """The frequency's SE for non-white noise (module docstring); `t` sorted,
    `residual` the sinusoid fit's, in the order of `t`."""
    rho = float(np.corrcoef(residual[:-1], residual[1:])[0, 1]) if residual.size > 2 else 0.0
    rho = rho if np.isfinite(rho) else 0.0
    candidates = [(fit_se, "fit")]
    if 0 < rho < 1:
        candidates.append((fit_se * float(np.sqrt((1 + rho) / (1 - rho))), "autocorrelation"))
    centres, phases = segment_phases(t, y, f)
    if centres.size >= MIN_SEGMENTS:
        candidates.append((drift_se(centres, phases), "phase drift"))
    se, source = max(candidates, key=lambda c: c[0])
    return PeriodError(se, source, rho, int(centres.size))
