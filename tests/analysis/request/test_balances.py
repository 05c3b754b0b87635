"""A relation written as a balance, with no one quantity alone on a side
("m g r − τ_f = (I + m r²) a / r"): read whole, solved for the quantity
measured, fitted for the parameters asked, with their units."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.custom import _Unsound, parameter_units
from labwright.analysis.catalogue.expr import parse_equation, parse_expression
from labwright.analysis.catalogue.implicit import solved_for
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.quantities import dimensionality, registry
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.equations import find_equations
from labwright.analysis.request_rules.text import clauses_of
from labwright.analysis.request_rules.values import measured_at
from labwright.ingest.types import ReadResult

from .tables import folder as notes_folder
from .tables import table


def _same(solved: str | None, expected: str, **values: float) -> bool:
    """`solved` ("y = ...") equals `expected` (an expression) at these values."""
    assert solved is not None
    got = parse_expression(solved.split("=", 1)[1]).evaluate(values)
    want = parse_expression(expected).evaluate(values)
    return bool(np.isclose(got, want, rtol=1e-12))


def test_a_balance_linear_in_the_measured_quantity_is_solved_for_it() -> None:
    at = {"m": 0.05, "g": 9.81, "r": 0.015, "tau_f": 0.002, "I": 0.0023}
    solved = solved_for("m*g*r - tau_f", "(I + m*r**2)*a/r", "a")
    assert solved is not None and solved.startswith("a = ")
    assert _same(solved, "(m*g*r - tau_f)*r/(I + m*r**2)", **at)
    # The quantity on both sides ("m (g − a) r"), its sign carried over.
    solved = solved_for("m*(g - a)*r - tau_f", "I*a/r", "a")
    assert _same(solved, "(m*g*r - tau_f)/(m*r + I/r)", **at)
    assert "-" not in solved.split("/")[-1]  # written with a positive denominator
    assert _same(solved_for("2*x + 3", "y", "x"), "(y - 3)/2", y=7.0)


@pytest.mark.parametrize(
    ("lhs", "rhs", "y"),
    [
        ("a*a", "b", "a"),  # squared
        ("1/u + 1/v", "1/f", "v"),  # in a denominator
        ("exp(k*t)", "c", "t"),  # inside a function
        ("x - x", "y", "x"),  # cancels out
        ("p + q", "r", "z"),  # not in the relation
    ],
)
def test_a_quantity_that_is_not_linear_in_the_relation_is_not_solved(
    lhs: str, rhs: str, y: str
) -> None:
    assert solved_for(lhs, rhs, y) is None


def _equations(text: str) -> list[str]:
    return [w.text for c in clauses_of("n", text) for w in find_equations(c)]


def test_the_left_side_of_a_balance_is_the_whole_sum() -> None:
    assert _equations("torque balance: m(g - a) r - tau_f = I a / r") == [
        "m(g - a) r - tau_f = I a / r"
    ]
    # Prose before the sum is not part of it; an equation before it neither.
    assert _equations("a = 2h/t^2 ; the torque equation m g r - tau_f = (I + m r^2) a / r") == [
        "a = 2h/t^2",
        "m g r - tau_f = (I + m r^2) a / r",
    ]
    assert _equations("v = Vmax S/(Km + S)") == ["v = Vmax S/(Km + S)"]


def test_a_formula_over_the_time_is_no_value_in_tonnes() -> None:
    text = "a = 2h/t^2"
    found = measured_at(text, text.index("=") + 1)
    assert found is None or found.unit is None
    assert _equations(text) == ["a = 2h/t^2"]


def test_parameter_units_set_aside_a_balance_the_actual_units_meet() -> None:
    """a = (m g r − τ)/(m r + I/r): the sums fix τ (m g r) and I (m r²); what
    is left, a against g, is met when both are accelerations."""
    eq = parse_equation("a = (m*g*r - tau_f)/(m*r + I/r)")
    basis, params = ["a", "m", "r", "g"], ["I", "tau_f"]
    with pytest.raises(_Unsound):
        parameter_units(eq, basis, params)
    units = {"a": "m/s²", "m": "g", "r": "cm", "g": "m s^-2"}
    found = parameter_units(eq, basis, params, units)
    assert {k: float(v) for k, v in found["I"].items()} == {"m": 1.0, "r": 2.0}
    assert {k: float(v) for k, v in found["tau_f"].items()} == {"g": 1.0, "m": 1.0, "r": 1.0}
    with pytest.raises(_Unsound):  # a in m/s is no acceleration: nothing is set aside
        parameter_units(eq, basis, params, {**units, "a": "m/s"})


def _falling_mass_folder(notes: str, seed: int = 3) -> tuple[ReadResult, float, float]:
    """Fall times of a hanging mass that turns a wheel, three per mass, by
    the torque balance (either way the notes write it: the same law)."""
    rng = np.random.default_rng(seed)
    inertia, friction, r, h, g = 3.1e-3, 2.5e-3, 0.02, 0.80, 9.80
    m = np.array([20, 35, 50, 65, 80, 95, 110, 125], dtype=float) / 1000
    a = (m * g * r - friction) * r / (inertia + m * r**2)
    t = np.sqrt(2 * h / a)
    times = {f"t{k} (s)": t * (1 + rng.normal(0, 0.004, t.size)) for k in (1, 2, 3)}
    folder = notes_folder(
        notes,
        table("falls.csv", {"m (g)": m * 1000, **times}),
        source="notes.txt",
    )
    return folder, inertia, friction


@pytest.mark.parametrize(
    "law",
    [
        "a = 2h/t^2 ; torque equation:  m g r - tau_f = (I + m r^2) a / r",
        "a = 2h/t^2\ntorque balance: m(g - a) r - tau_f = I a / r",
    ],
)
def test_a_balance_over_fall_times_gives_the_inertia_and_friction_asked(law: str) -> None:
    notes = (
        "Moment of inertia of a wheel (falling-mass method)\n"
        "A thread wound on the axle (radius r = 2.00 cm) holds a hanging mass m that falls "
        "from rest through h = 80.0 cm, timed three times.\n"
        f"{law}\nwith tau_f the friction torque.  g = 9.80 m s^-2\n"
        "Find the moment of inertia I of the wheel and the friction torque tau_f."
    )
    folder, inertia, friction = _falling_mass_folder(notes)
    req = read_request(folder, catalogue())
    (derived,) = req.derived
    assert derived.name == "a" and len(derived.columns) == 3  # the mean of t1, t2, t3
    assert {m.how for m in req.models} == {"formula"}  # no law named by "moment of inertia"
    assert {"r", "g"} <= {c.symbol for c in req.constants}  # g of the formula, not fitted
    answers = {a["quantity"]: a for a in analyse_folder(folder, req).record()["answers"]}
    for name, truth, unit in (("I", inertia, "kg*m^2"), ("tau_f", friction, "N*m")):
        got = answers[name]
        assert dimensionality(got["unit"]) == dimensionality(unit), got
        value = registry().Quantity(got["value"], got["unit"]).to(unit).magnitude
        se = registry().Quantity(got["se"], got["unit"]).to(unit).magnitude
        assert abs(value - truth) <= 3 * se, (name, value, se, truth)
