"""A column the experiment set (an analysis' independent variable with few
levels) is summarised by its levels and range, never by a mean and SD."""

from __future__ import annotations

import numpy as np

from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import MAX_SET_LEVELS, summary_table
from tests.analysis.request.tables import table


def _computations(ledger: Ledger, column: str) -> set[str]:
    return {e.computation for e in ledger.entries if e.column == column}


def test_a_setting_shows_its_levels_and_range_not_its_mean() -> None:
    ds = table("springs.csv", {"m (kg)": [0.1, 0.2, 0.3, 0.1, 0.2, 0.3],
                               "x (cm)": [1.9, 4.1, 6.0, 2.1, 3.9, 6.1]})  # fmt: skip
    ledger = Ledger()
    tex = summary_table(ds, ledger, "en", {"m", "x"}, settings={"m"})
    assert "set, $" in tex
    assert _computations(ledger, "m") == {
        "number of finite values", "number of distinct values", "minimum", "maximum"
    }  # fmt: skip
    assert "mean" in _computations(ledger, "x")  # the measured one keeps its statistics


def test_an_independent_variable_with_many_values_keeps_its_statistics() -> None:
    t = np.linspace(0, 10, MAX_SET_LEVELS + 5)
    ds = table("decay.csv", {"t (s)": t, "N": np.exp(-t)})
    ledger = Ledger()
    summary_table(ds, ledger, "zh", {"t", "N"}, settings={"t"})
    assert "mean" in _computations(ledger, "t")


def test_readings_taken_as_the_independent_variable_are_not_settings() -> None:
    # Eleven currents read at eleven set voltages: few values, but readings.
    ds = table("ohm.csv", {"U (V)": np.arange(0.0, 5.01, 0.5),
                           "I (mA)": [0.02, 10.62, 21.1, 31.77, 42.3, 52.81,
                                      63.47, 74.0, 84.51, 95.13, 105.69]})  # fmt: skip
    for x in ("I", "U"):
        ledger = Ledger()
        summary_table(ds, ledger, "en", {"U", "I"}, settings={x})
        set_one = "number of distinct values" in _computations(ledger, x)
        assert set_one == (x == "U")  # the voltage steps evenly: set; the currents: read


def test_settings_are_recognised_by_equal_ratios_and_round_values() -> None:
    doses = {"c (mM)": [1.0, 2.0, 4.0, 8.0, 16.0], "lengths (m)": [0.25, 0.4, 0.55, 0.9, 1.2]}
    for name, values in doses.items():
        ds = table("design.csv", {name: values, "y": [0.11, 0.23, 0.29, 0.41, 0.57]})
        ledger = Ledger()
        short = name.split(" ")[0]
        summary_table(ds, ledger, "en", {short, "y"}, settings={short})
        assert "number of distinct values" in _computations(ledger, short)
