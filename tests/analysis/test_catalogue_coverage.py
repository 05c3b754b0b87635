"""Every catalogue entry ships its own check: data generated from its
example are fitted back by the one engine (analysis/engine.py), and each
parameter is recovered within 3 standard errors in at least 95% of 100
seeded draws. Derived quantities are checked against a hand computation
(value, propagated uncertainty with the parameters' correlation, unit), and
the unit handling against the same data written in other units."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from uncertainties import covariance_matrix

from labwright.analysis.catalogue import example
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.engine import FitData, FitResult, fit, in_display_units, linear

DRAWS = 100
COVERAGE = 0.95
ENTRIES = catalogue().entries


def _seed(entry: ModelEntry) -> int:
    return zlib.crc32(entry.key.encode())  # stable across runs and processes


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_every_entry_has_an_example(entry: ModelEntry) -> None:
    assert entry.example is not None, (
        f"{entry.source_file}: {entry.key} has no [model.example]; add one so the entry is checked"
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_parameters_are_recovered_within_three_standard_errors(entry: ModelEntry) -> None:
    if entry.example is None:
        pytest.fail(f"{entry.key} has no example")
    draws = example.draws(entry, DRAWS, _seed(entry))
    units = draws[0].data.units
    truth = in_display_units(entry, units, draws[0].truth)
    hits = dict.fromkeys(truth, 0)
    failed: list[str] = []
    for d in draws:
        result = fit(entry, d.data)
        if not result.ok:
            failed.append(result.message.en if result.message else "no message")
            continue
        for name, true in truth.items():
            if abs(result.value(name) - true) <= 3 * result.se(name):
                hits[name] += 1
    low = {name: k / DRAWS for name, k in hits.items() if k < COVERAGE * DRAWS}
    assert not low, (
        f"{entry.key}: recovered within 3 SE in too few draws {low} "
        f"({len(failed)} fits failed{': ' + failed[0] if failed else ''})"
    )


def _fit_example(key: str, seed: int = 7) -> tuple[ModelEntry, FitData, FitResult]:
    entry = catalogue()[key]
    data = example.generate(entry, seed).data
    result = fit(entry, data)
    assert result.ok, result.message
    return entry, data, result


def _covariance(result: FitResult, *names: str) -> np.ndarray:
    return np.asarray(covariance_matrix([result.values[n] for n in names]), dtype=float)


def test_michaelis_menten_derived_quantities_carry_the_correlation() -> None:
    entry, data, result = _fit_example("michaelis_menten")
    vmax, km = result.value("Vmax"), result.value("Km")
    e0 = float(data.inputs["E0"])
    cov = _covariance(result, "Vmax", "Km")
    assert cov[0, 1] != 0  # Vmax and Km are correlated in a saturation curve
    # efficiency = Vmax/(E0*Km): gradient by hand, J C J^T with the covariance.
    grad = np.array([1 / (e0 * km), -vmax / (e0 * km**2)])
    eff = result.values["efficiency"]
    assert eff.nominal_value == pytest.approx(vmax / (e0 * km), rel=1e-9)
    assert eff.std_dev == pytest.approx(math.sqrt(grad @ cov @ grad), rel=1e-6)
    # kcat = Vmax/E0: (µM/min)/µM is per minute.
    assert result.value("kcat") == pytest.approx(vmax / e0, rel=1e-9)
    assert result.units["kcat"] == "min⁻¹"
    assert result.units["Vmax"] == "µM/min" and result.units["Km"] == "mM"


def test_eyring_gibbs_energy_by_hand_in_display_units() -> None:
    entry, data, result = _fit_example("eyring")
    assert result.units["dH"] == "kJ/mol" and result.units["dS"] == "J/(mol·K)"
    dh, ds = result.value("dH"), result.value("dS")  # kJ/mol, J/(mol K)
    cov = _covariance(result, "dH", "dS")
    grad = np.array([1.0, -298.15 / 1000])  # dG in kJ/mol
    dg = result.values["dG_298"]
    assert result.units["dG_298"] == "kJ/mol"
    assert dg.nominal_value == pytest.approx(dh - 298.15 * ds / 1000, rel=1e-9)
    assert dg.std_dev == pytest.approx(math.sqrt(grad @ cov @ grad), rel=1e-6)


def test_first_order_half_life_is_in_the_unit_of_the_time_column() -> None:
    entry = catalogue()["rate_first_order"]
    data = example.generate(entry, 3).data
    in_s = fit(entry, data)
    minutes = FitData(
        variables={"t": np.asarray(data.variables["t"]) / 60, "c": data.variables["c"]},
        units={"t": "min", "c": "mM"},
    )
    in_min = fit(entry, minutes)
    assert in_min.units["k"] == "min⁻¹" and in_min.units["t_half"] == "min"
    assert in_min.value("k") == pytest.approx(60 * in_s.value("k"), rel=1e-6)
    assert in_min.value("t_half") == pytest.approx(in_s.value("t_half") / 60, rel=1e-6)
    assert in_s.value("t_half") == pytest.approx(math.log(2) / in_s.value("k"), rel=1e-9)


def test_celsius_data_for_an_absolute_law_are_put_in_kelvin() -> None:
    entry, data, kelvin = _fit_example("arrhenius")
    celsius = FitData(
        variables={"T": np.asarray(data.variables["T"]) - 273.15, "k": data.variables["k"]},
        units={"T": "°C", "k": "1/s"},
        sigma=data.sigma,
    )
    result = fit(entry, celsius)
    assert result.ok, result.message
    assert result.units["Ea"] == "kJ/mol"
    for name in ("Ea", "A"):
        assert result.value(name) == pytest.approx(kelvin.value(name), rel=1e-6)
        assert result.se(name) == pytest.approx(kelvin.se(name), rel=1e-4)
    # The curve is drawn over the data's own scale (°C), in the rate's unit.
    grid = np.asarray(celsius.variables["T"])
    assert np.allclose(result.curve({"T": grid}), result.fitted, rtol=1e-9)
    # Read as a pure number on the Celsius scale, the same values give another,
    # wrong activation energy: the conversion is what made them agree.
    wrong = fit(entry, FitData(variables=celsius.variables, units={"T": "K", "k": "1/s"}))
    assert not wrong.ok or abs(wrong.value("Ea") - kelvin.value("Ea")) > 10 * kelvin.se("Ea")


def test_a_rate_in_another_unit_gives_the_same_eyring_enthalpy() -> None:
    # k_B*T/h is in 1/s: a rate column in 1/min must be converted for the
    # formula, and the entropy (the prefactor's log) moves if it is not.
    entry, data, per_s = _fit_example("eyring")
    per_min = FitData(
        variables={"T": data.variables["T"], "k": np.asarray(data.variables["k"]) * 60},
        units={"T": "K", "k": "1/min"},
        sigma=None if data.sigma is None else np.asarray(data.sigma) * 60,
    )
    result = fit(entry, per_min)
    assert result.value("dS") == pytest.approx(per_s.value("dS"), rel=1e-6)
    assert result.value("dH") == pytest.approx(per_s.value("dH"), rel=1e-6)


def test_the_linearised_method_reads_the_parameters_off_the_line() -> None:
    entry, data, full = _fit_example("arrhenius")
    line = linear(entry, data)
    assert line.ok and line.units["Ea"] == "kJ/mol"
    # Both methods estimate the same activation energy from the same points.
    assert abs(line.value("Ea") - full.value("Ea")) < 3 * math.hypot(line.se("Ea"), full.se("Ea"))
    # The line is ln k against 1/T: its slope is -Ea/R (Ea in J/mol).
    assert line.slope.nominal_value == pytest.approx(-line.value("Ea") * 1000 / 8.314462618)
