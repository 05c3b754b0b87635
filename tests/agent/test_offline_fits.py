"""Fits recover known parameters from generated noisy data, within their uncertainty."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.fits import MIN_R2, fit_with, fit_xy


def _within(fit, truth, k=3.0):  # type: ignore[no-untyped-def]
    for value, sigma, expected in zip(fit.params, fit.sigmas, truth, strict=True):
        assert abs(value - expected) <= k * sigma + 1e-12, (fit.model.key, value, sigma, expected)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_linear_recovered(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = np.linspace(0.2, 1.0, 12)
    y = 4.02 * x + 0.05 + rng.normal(0, 0.02, x.size)
    fit = fit_xy(x, y)
    assert fit is not None and fit.model.key == "linear"
    _within(fit, (4.02, 0.05))
    assert fit.r2 > 0.99 and fit.n == 12


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_exponential_decay_recovered(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 5, 41)
    u = 9.0 * np.exp(-t / 1.1) + rng.normal(0, 0.03, t.size)
    fit = fit_xy(t, u)
    assert fit is not None and fit.model.key == "exponential"
    _within(fit, (9.0, 1.1))


@pytest.mark.parametrize("seed", [7, 8])
def test_power_law_recovered(seed: int) -> None:
    rng = np.random.default_rng(seed)
    length = np.linspace(0.2, 1.0, 9)
    period = 2 * np.pi / np.sqrt(9.81) * length**0.5 * (1 + rng.normal(0, 0.003, length.size))
    fit = fit_xy(length, period)
    assert fit is not None and fit.model.key == "power"
    _within(fit, (2 * np.pi / np.sqrt(9.81), 0.5))


def test_quadratic_recovered() -> None:
    rng = np.random.default_rng(9)
    x = np.linspace(-3, 3, 30)
    y = 1.5 * x**2 - 2.0 * x + 0.5 + rng.normal(0, 0.2, x.size)
    fit = fit_xy(x, y)
    assert fit is not None and fit.model.key == "quadratic"
    _within(fit, (1.5, -2.0, 0.5))


def test_noise_gives_no_fit() -> None:
    rng = np.random.default_rng(10)
    x = np.linspace(0, 10, 40)
    assert fit_xy(x, rng.normal(0, 1, x.size)) is None


def test_too_few_points_or_constant_gives_no_fit() -> None:
    assert fit_xy(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.0])) is None
    assert fit_xy(np.arange(10.0), np.full(10, 3.0)) is None


def test_nan_pairs_are_dropped() -> None:
    x = np.linspace(0, 1, 12)
    y = 2 * x + 1
    y[3] = np.nan
    fit = fit_xy(x, y)
    assert fit is not None and fit.n == 11


def test_choice_is_deterministic() -> None:
    rng = np.random.default_rng(11)
    x = np.linspace(1, 5, 20)
    y = 3 * x + rng.normal(0, 0.1, x.size)
    a, b = fit_xy(x, y), fit_xy(x.copy(), y.copy())
    assert a is not None and b is not None
    assert a.model.key == b.model.key and a.params == b.params


def test_fit_with_named_model_and_threshold_constant() -> None:
    x = np.linspace(1, 4, 10)
    fit = fit_with("linear", x, 2 * x)
    assert fit is not None and fit.params[0] == pytest.approx(2.0)
    assert 0 < MIN_R2 < 1


def test_decay_into_the_noise_floor_is_still_exponential() -> None:
    """A decay recorded down to zero has samples of both signs (the scope capture)."""
    rng = np.random.default_rng(12)
    t = np.arange(0, 0.5, 1e-3)
    v = 5.0 * np.exp(-t / 0.1) + rng.normal(0, 0.02, t.size)
    assert (v < 0).any()
    fit = fit_xy(t, v)
    assert fit is not None and fit.model.key == "exponential"
    _within(fit, (5.0, 0.1))


@pytest.mark.parametrize("seed", [14, 15])
def test_cooling_towards_ambient_is_exponential_with_offset(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = np.arange(0, 1800, 30.0)
    temp = 22.0 + 18.0 * np.exp(-t / 240.0) + rng.normal(0, 0.1, t.size)
    fit = fit_xy(t, temp)
    assert fit is not None and fit.model.key == "exponential_offset"
    _within(fit, (18.0, 240.0, 22.0))


def test_charging_curve_is_exponential_with_negative_amplitude() -> None:
    rng = np.random.default_rng(16)
    t = np.linspace(0, 5, 50)
    u = 9.0 * (1 - np.exp(-t / 1.0)) + rng.normal(0, 0.03, t.size)
    fit = fit_xy(t, u)
    assert fit is not None and fit.model.key == "exponential_offset"
    _within(fit, (-9.0, 1.0, 9.0))
