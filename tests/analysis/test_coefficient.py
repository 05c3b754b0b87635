"""A named coefficient read off a straight-line fit, decided by units
(analysis/quantities.py, analysis/coefficient.py)."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.coefficient import from_slope, read_coefficients
from labwright.analysis.fits import fit_with


def test_the_notes_name_the_coefficient_in_a_sentence_that_asks_for_it() -> None:
    asks = read_coefficients(
        "Find the heat-loss coefficient of the plate from the steady-state\n"
        "temperature rise at several heater powers."
    )
    assert [(a.name, a.unit) for a in asks] == [("heat-loss coefficient", "W/K")]
    assert [a.unit for a in read_coefficients("用胡克定律求弹簧的劲度系数。")] == ["N/m"]
    # Named but not asked for, or a different quantity: nothing.
    assert read_coefficients("The thermal resistance of the mount is negligible.") == []
    assert read_coefficients("We measure the internal resistance later.") == []


def test_the_slope_or_its_reciprocal_is_chosen_by_dimension() -> None:
    (loss,) = read_coefficients("Find the heat-loss coefficient.")
    # dT (K) against P (W): the slope is in K/W, the coefficient its reciprocal.
    c = from_slope(loss, 3.1, 0.02, "W", "K")
    assert c is not None and c.reciprocal
    assert c.value == pytest.approx(1 / 3.1) and c.se == pytest.approx(0.02 / 3.1**2)
    # P against dT: the slope itself.
    c = from_slope(loss, 0.32, 0.002, "°C", "mW")
    assert c is not None and not c.reciprocal and c.value == pytest.approx(0.32e-3)
    # Units that give neither: no answer.
    assert from_slope(loss, 3.1, 0.02, "s", "K") is None
    assert from_slope(loss, 3.1, 0.02, None, "K") is None


def test_a_spring_constant_from_a_real_fit_in_millimetres() -> None:
    """Extension in mm against load in N: k = 1/slope, converted to N/m, and
    within three standard errors of the spring the data were drawn from."""
    rng = np.random.default_rng(7)
    load = np.linspace(0.5, 5.0, 10)
    k_true = 250.0  # N/m
    extension_mm = load / k_true * 1e3 + rng.normal(0.0, 0.05, load.size)
    fit = fit_with("linear", load, extension_mm)
    assert fit is not None
    (spring,) = read_coefficients("Determine the spring constant of the spring.")
    c = from_slope(spring, fit.params[0], fit.sigmas[0], "N", "mm")
    assert c is not None and c.reciprocal
    assert abs(c.value - k_true) <= 3 * c.se
