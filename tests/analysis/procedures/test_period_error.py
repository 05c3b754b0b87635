"""The period's SE when the cycle's phase wanders or the residuals are red
(analysis/procedures/period_error.py)."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.procedures.periodogram import analyse_period
from labwright.ingest.types import Column, Provenance

ENTRY = next(e for e in catalogue() if e.key == "periodic_signal")


def _col(name: str, v: np.ndarray) -> Column:
    return Column(name, np.asarray(v, dtype=float), Provenance("s.csv", column=name), None)


def _cycle(seed: int, wander: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = np.arange(0, 250.0)
    phase = np.cumsum(rng.normal(0, wander, t.size))  # a random walk of the phase
    return t, 3 * np.sin(2 * np.pi * t / 11.0 + phase) + rng.normal(0, 0.5, t.size)


def test_a_wandering_cycle_gets_the_se_of_its_phase_drift() -> None:
    # Sunspots: 11.04 ± 0.02 years from a fit that took the cycle's phase as
    # fixed; the truth of a wandering cycle fell outside 3 SE in most draws.
    hits = n = 0
    for seed in range(40):
        t, y = _cycle(seed, 0.08)
        r = analyse_period(ENTRY, _col("year", t), _col("count", y))
        assert r is not None
        n += 1
        hits += abs(r.f - 1 / 11.0) <= 3 * r.f_se
        assert r.f_se >= r.f_se_fit
    assert hits >= 0.8 * n, (hits, n)


def test_a_clean_cycle_keeps_about_the_fits_se() -> None:
    ratios, hits = [], 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        t = np.arange(0, 250.0)
        y = 3 * np.sin(2 * np.pi * t / 11.0 + 1) + rng.normal(0, 1, t.size)
        r = analyse_period(ENTRY, _col("year", t), _col("count", y))
        assert r is not None
        ratios.append(r.f_se / r.f_se_fit)
        hits += abs(r.f - 1 / 11.0) <= 3 * r.f_se
    assert float(np.median(ratios)) < 1.6, ratios
    assert hits >= 28
