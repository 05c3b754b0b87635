"""A column without a unit takes the unit the notes ask an answer in."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.asked_units import _solve, _unit_text

from .tables import folder as notes_folder
from .tables import table


@pytest.mark.parametrize(
    ("raw", "unit"),
    [("per day", "1/day"), ("days", "day"), ("1/min", "1/min"), ("hours", "h"), ("banana", None)],
)
def test_the_unit_after_an_asked_quantity(raw: str, unit: str | None) -> None:
    assert _unit_text(raw) == unit


def test_the_variables_unit_is_solved_from_the_parameters_template() -> None:
    assert _solve("1/{t}", "t", "1/day") == "day"
    assert _solve("{t}", "t", "min") == "min"
    assert _solve("{N}", "t", "day") is None  # the template does not use the variable


def test_a_growth_rate_asked_per_day_makes_the_unitless_time_days() -> None:
    t = np.arange(0.0, 22.0, 2.0)
    w = 900 / (1 + np.exp((35 - t) / 11.4)) + np.random.default_rng(1).normal(0, 1.0, t.size)
    folder = notes_folder(
        "Fit the logistic growth curve W(t) = Asym / (1 + exp((t_mid - t) / s)) whose "
        "growth rate is r = 1/s. Report the growth rate r (per day) and the inflection "
        "time t_mid (days).",
        table("chick.csv", {"Time": t, "weight": w}),
    )
    req = read_request(folder, catalogue())
    assert {b.variable: b.unit for b in req.bindings if b.column == "Time"} == {"t": "day"}
    answers = {a["quantity"]: a for a in analyse_folder(folder, req).record()["answers"]}
    assert answers["r"]["unit"] in ("d⁻¹", "1/d", "1/day", "day⁻¹")
