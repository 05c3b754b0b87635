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
