"""The fit engine (analysis/engine.py) on what a lab folder really gives:
missing columns and inputs, too few points, units that do not fit the law,
fixed parameters, known uncertainties, a start rule that misleads."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue import example
from labwright.analysis.catalogue.load import catalogue, entry_with
from labwright.analysis.engine import FitData, fit, linear


def _data(key: str, seed: int = 1) -> FitData:
    return example.generate(catalogue()[key], seed).data


def test_a_missing_column_is_one_sentence_in_both_languages() -> None:
    entry = catalogue()["michaelis_menten"]
    data = _data("michaelis_menten")
    result = fit(entry, FitData(variables={"S": data.variables["S"]}, units=data.units))
    assert not result.ok and result.message is not None
    assert "v" in result.message.en and result.message("zh") != result.message.en
    assert result.message.en.count(".") == 1


def test_too_few_points_and_rows_that_are_not_numbers() -> None:
    entry = catalogue()["radioactive_decay"]
    data = _data("radioactive_decay")
    n = np.asarray(data.variables["N"], dtype=float).copy()
    n[3:] = np.nan
    short = fit(entry, FitData(variables={"t": data.variables["t"], "N": n}, units=data.units))
    assert not short.ok and "3 usable points" in short.message.en  # type: ignore[union-attr]
    n = np.asarray(data.variables["N"], dtype=float).copy()
    n[[2, 5]] = np.nan
    result = fit(entry, FitData(variables={"t": data.variables["t"], "N": n}, units=data.units))
    assert result.ok and result.n == n.size - 2
    assert np.isnan(result.residuals[[2, 5]]).all() and not result.used[2]
    assert np.isfinite(result.residuals[result.used]).all()


def test_columns_in_units_the_law_cannot_take_are_refused() -> None:
    entry = catalogue()["pendulum_small_angle"]
    data = _data("pendulum_small_angle")
    result = fit(entry, FitData(variables=data.variables, units={"L": "kg", "T": "s"}))
    assert not result.ok and "kg" in result.message.en  # type: ignore[union-attr]


def test_an_input_the_formula_needs_and_one_only_a_derived_quantity_needs() -> None:
    mm = catalogue()["michaelis_menten"]
    data = _data("michaelis_menten")
    without = fit(mm, FitData(variables=data.variables, units=data.units))
    assert without.ok and "kcat" not in without.values
    assert set(without.skipped) == {"kcat", "efficiency"}
    assert "enzyme concentration" in without.skipped["kcat"].en
    # An input inside the formula itself: the fit cannot start without it.
    needs = entry_with(mm, formula="v = Vmax*S/(Km + S)*(E0/E0)")
    result = fit(needs, FitData(variables=data.variables, units=data.units))
    assert not result.ok and "E0" in result.message.en  # type: ignore[union-attr]
    given = fit(needs, FitData(variables=data.variables, units=data.units, inputs={"E0": 0.05}))
    assert given.ok


def test_an_uncertain_input_widens_the_derived_uncertainty_only() -> None:
    from uncertainties import ufloat

    entry = catalogue()["michaelis_menten"]
    data = _data("michaelis_menten")
    exact = fit(entry, FitData(variables=data.variables, units=data.units, inputs={"E0": 0.05}))
    loose = fit(
        entry,
        FitData(variables=data.variables, units=data.units, inputs={"E0": ufloat(0.05, 0.005)}),
    )
    assert loose.se("Vmax") == pytest.approx(exact.se("Vmax"))
    assert loose.se("kcat") > 2 * exact.se("kcat")
    # The input in nM: the same enzyme, the same turnover number.
    nano = fit(
        entry,
        FitData(variables=data.variables, units=data.units, inputs={"E0": 50.0},
                input_units={"E0": "nM"}),
    )  # fmt: skip
    assert nano.value("kcat") == pytest.approx(exact.value("kcat"), rel=1e-9)


def test_a_fixed_parameter_is_held_in_its_display_unit() -> None:
    entry = catalogue()["eyring"]
    data = _data("eyring")
    free = fit(entry, data)
    held = fit(entry, FitData(variables=data.variables, units=data.units, sigma=data.sigma,
                              fixed={"dH": 61.0}))  # fmt: skip
    assert held.ok and held.value("dH") == 61.0 and held.se("dH") == 0.0
    assert held.fixed == ("dH",) and held.dof == free.dof + 1
    wrong = fit(entry, FitData(variables=data.variables, units=data.units, fixed={"Q": 1.0}))
    assert not wrong.ok


def test_known_uncertainties_are_not_rescaled_by_the_scatter() -> None:
    entry = catalogue()["hooke_spring"]
    data = _data("hooke_spring")
    sigma = np.full(np.asarray(data.variables["F"]).size, 0.02)
    weighted = fit(entry, FitData(variables=data.variables, units=data.units, sigma=sigma))
    twice = fit(entry, FitData(variables=data.variables, units=data.units, sigma=2 * sigma))
    assert weighted.weighted and weighted.value("k") == pytest.approx(twice.value("k"))
    assert twice.se("k") == pytest.approx(2 * weighted.se("k"), rel=1e-6)
    unweighted = fit(entry, data)
    assert not unweighted.weighted
    assert weighted.chisqr == pytest.approx(unweighted.chisqr / 0.02**2, rel=1e-6)


def test_a_misleading_start_rule_is_recovered_by_other_starts() -> None:
    entry = catalogue()["radioactive_decay"]
    data = _data("radioactive_decay")
    good = fit(entry, data)
    # A start 1000 times too fast leaves the decay flat at the background:
    # the first fit fails, the perturbed starts find the minimum.
    bad_start = tuple(
        p if p.name != "lam" else type(p)(**{**p.__dict__, "start": "1000*decay_rate(t, N)"})
        for p in entry.parameters
    )
    misled = fit(entry_with(entry, parameters=bad_start), data)
    assert misled.ok and misled.starts_tried > 1
    assert misled.value("lam") == pytest.approx(good.value("lam"), rel=1e-4)


def test_the_curve_reproduces_the_fitted_values() -> None:
    entry = catalogue()["michaelis_menten"]
    data = _data("michaelis_menten")
    result = fit(entry, data)
    assert np.allclose(result.curve({"S": data.variables["S"]}), result.fitted)
    assert np.allclose(result.fitted + result.residuals, data.variables["v"])
    assert 0.9 < result.r2 <= 1.0 and result.dof == result.n - 2


def test_a_linearised_plot_that_names_a_parameter_takes_it_from_the_full_fit() -> None:
    entry = catalogue()["radioactive_decay"]
    data = _data("radioactive_decay")
    line = linear(entry, data)
    full = fit(entry, data)
    assert line.ok and set(line.values) == {"lam", "N0"}
    assert abs(line.value("lam") - full.value("lam")) < 5 * full.se("lam")
    no_line = linear(catalogue()["hooke_spring"], _data("hooke_spring"))
    assert not no_line.ok and no_line.message is not None


def test_the_linearised_plot_is_shown_in_the_datas_units() -> None:
    # Lineweaver–Burk of rates in µM/min was drawn in SI base units
    # (1/v in s·m³/mol); Arrhenius' ln k of a k in 1/min as ln of 1/s.
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.engine import FitData, linear

    entries = {e.key: e for e in catalogue()}
    s = np.array([0.5, 1, 2, 4, 8, 16.0])
    v = 10 * s / (3 + s)
    line = linear(
        entries["michaelis_menten"], FitData({"S": s, "v": v}, {"S": "mM", "v": "uM/min"})
    )
    assert line.ok
    assert np.allclose(line.x_shown, 1 / s) and np.allclose(line.y_shown, 1 / v)
    assert line.x_unit == "mM⁻¹" and line.y_unit == "min/µM"
    t = np.array([20, 30, 40, 50.0])
    k = 1e3 * np.exp(-5000 / (t + 273.15))
    line = linear(entries["arrhenius"], FitData({"T": t, "k": k}, {"T": "degC", "k": "1/min"}))
    assert np.allclose(line.x_shown, 1 / (t + 273.15)) and line.x_unit == "K⁻¹"
    assert np.allclose(line.y_shown, np.log(k)) and line.y_unit is None
