"""A law written in the notes: the catalogue's entry when it is one (whatever
letters the notes use), else a custom formula bound to the columns it names."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.equations import find_equations
from labwright.analysis.request_rules.text import clauses_of
from labwright.ingest.types import DocumentText, ReadResult

from .conftest import Read
from .tables import mm_values, table


@pytest.mark.parametrize(
    ("text", "lhs", "rhs"),
    [
        ("Fit v = Vmax·[S]/(Km + [S]) and find Km.", "v", "Vmax·[S]/(Km + [S])"),
        (
            "The model is N(t) = N0 e^{-λt} + B, where B is the background.",
            "N(t)",
            "N0 e^{-λt} + B",
        ),
        ("T = 2π√(L/g) for small angles.", "T", "2π√(L/g)"),
        (r"Use $v = \frac{V_{max}[S]}{K_m+[S]}$ please.", "v", r"\frac{V_{max}[S]}{K_m+[S]}"),
        ("速率方程为 v = Vmax[S]/(Km+[S])，求 Km。", "v", "Vmax[S]/(Km+[S])"),
        ("Verify that T^2 = (4 pi^2 / g) L holds.", "T^2", "(4 pi^2 / g) L"),
        ("A = epsilon*l*c gives the absorbance.", "A", "epsilon*l*c"),
    ],
)
def test_equations_are_found_with_their_two_sides(text: str, lhs: str, rhs: str) -> None:
    (w,) = find_equations(clauses_of("n.md", text)[0])
    assert (w.lhs, w.rhs) == (lhs, rhs)


@pytest.mark.parametrize("text", ["m = 0.250 kg", "g = 9.81 m/s^2", "x = 5", "See run=3."])
def test_values_are_not_equations(text: str) -> None:
    assert find_equations(clauses_of("n.md", text)[0]) == []


def test_a_written_law_is_its_catalogue_entry(read: Read) -> None:
    s, v = mm_values()
    req = read(
        "The rate follows v = Vmax·[S]/(Km + [S]).",
        table("k.csv", {"[S] (mM)": s, "v (uM/min)": v}),
    )
    (m,) = req.models
    assert (m.key, m.how) == ("michaelis_menten", "formula") and m.formula
    assert {b.variable: b.column for b in req.bindings} == {"S": "[S]", "v": "v"}


def test_written_symbols_bind_columns_headed_so() -> None:
    # The real catalogue: the notes write the decay with their own letters.
    t = np.linspace(0, 600, 12)
    data = table("decay.csv", {"t (s)": t, "counts": 500 * np.exp(-t / 200) + 20})
    notes = "The counts follow N(t) = N0 e^{-λt} + B. Find the half-life."
    req = read_request(
        ReadResult(datasets=[data], documents=[DocumentText("README.md", notes)]), catalogue()
    )
    assert [m.key for m in req.models] == ["radioactive_decay"]
    assert ("radioactive_decay", "t_half") in {(a.model, a.quantity) for a in req.asked}


def test_a_formula_no_law_is_becomes_a_custom_model_with_its_parameters_asked(read: Read) -> None:
    x = np.linspace(0, 5, 10)
    req = read(
        "Fit y = a*exp(-x/tau) + c to the data and report tau.",
        table("d.csv", {"x (s)": x, "y (V)": np.exp(-x)}),
    )
    (m,) = [m for m in req.models if m.how == "formula"]
    assert m.key is None and m.formula == "y = a * exp(-x / tau) + c"
    assert {(b.model, b.variable, b.column) for b in req.bindings} >= {
        ("formula", "y", "y"),
        ("formula", "x", "x"),
    }
    assert [(a.model, a.quantity) for a in req.asked] == [("formula", "tau")]


def test_a_relation_between_quantities_is_not_a_model(read: Read) -> None:
    t = np.linspace(0, 5, 10)
    req = read("t½ = ln 2/λ. Find the half-life.", table("d.csv", {"t (s)": t, "N": np.exp(-t)}))
    assert all(m.how != "formula" for m in req.models)


def test_a_proportionality_is_a_formula(read: Read) -> None:
    length = np.linspace(0.2, 1.0, 6)
    req = read(
        "Verify that T² ∝ L.", table("p.csv", {"L (m)": length, "T (s)": 2 * np.sqrt(length)})
    )
    (m,) = req.models
    assert m.formula == "T ** 2 = k * L"
    assert {b.variable: b.column for b in req.bindings} == {"T": "T", "L": "L"}


def test_garbage_with_an_equals_sign_is_ignored(read: Read) -> None:
    req = read("x = __import__('os').system('echo hi') and y = )(")
    assert req.models == () and req.bindings == ()


@pytest.mark.parametrize(
    ("written", "solved"),
    [
        ("T**2 = 4*pi**2/k*(m + m_eff)", "T = (4 * pi ** 2 / k * (m + m_eff)) ** (1 / 2)"),
        ("1/c = 1/c0 + k*t", "c = 1 / (1 / c0 + k * t)"),
        ("log(p) = C - H/(R*T)", "p = exp(C - H / (R * T))"),
        ("sqrt(y) = a + b*x", "y = (a + b * x) ** 2"),
        ("2*y + 1 = x", "y = (x - 1) / 2"),
        ("y = a*x", "y = a*x"),
        ("y*y = x", None),  # the response twice: not undone step by step
    ],
)
def test_a_formula_is_solved_for_its_response(written: str, solved: str | None) -> None:
    from labwright.analysis.catalogue.custom import explicit_form

    assert explicit_form(written) == solved


def test_a_formula_written_as_it_is_plotted_is_fitted_for_the_measured_response() -> None:
    """ "T² = (4π²/k)(M + M0)": the left side is T squared, the column is T;
    the formula generalises the spring law named beside it (M0 = 0), so it
    is the one fitted and the law's k is asked of it."""
    from labwright.analysis.plan import analyse_folder

    rng = np.random.default_rng(11)
    mass = np.linspace(0.05, 0.40, 8)
    period = 2 * np.pi * np.sqrt((mass + 0.035) / 40.0) * (1 + rng.normal(0, 0.002, mass.size))
    data = table("osc.csv", {"M (kg)": mass, "T (s)": period})
    notes = (
        "Mass on a spring. Including the spring's own mass, T^2 = (4 pi^2/k)(M + M0). "
        "Find the spring constant k and M0."
    )
    folder = ReadResult(datasets=[data], documents=[DocumentText("README.md", notes)])
    req = read_request(folder, catalogue())
    assert {(a.model, a.quantity) for a in req.asked} == {("formula", "k"), ("formula", "M0")}
    answers = {a["quantity"]: a for a in analyse_folder(folder, req).record()["answers"]}
    assert answers["k"]["unit"] == "N/m"  # the spring constant's unit, not kg/s²
    assert abs(answers["k"]["value"] - 40.0) < 3 * answers["k"]["se"]
    assert abs(answers["M0"]["value"] - 0.035) < 3 * answers["M0"]["se"]


def test_a_given_value_in_a_written_formula_is_an_input_with_its_unit() -> None:
    """ "U = U0 exp(-t/(R C))" with R given is the discharge law with τ = R C
    (never Arrhenius with the column t as Ea): C comes out as a capacitance
    in F, the time constant asked by name is R C, and R, given, is not asked."""
    from labwright.analysis.plan import analyse_folder

    rng = np.random.default_rng(3)
    t = np.linspace(0, 0.5, 40)
    u = 9.0 * np.exp(-t / (47e3 * 2.2e-6)) + rng.normal(0, 0.02, t.size)
    data = table("discharge.csv", {"t (s)": t, "U (V)": u})
    notes = (
        "Discharging a capacitor through R = 47 kΩ: U = U0 exp(-t/(R C)). "
        "Find the time constant, then use R to work out C."
    )
    folder = ReadResult(datasets=[data], documents=[DocumentText("README.md", notes)])
    req = read_request(folder, catalogue())
    asked = {a.quantity for a in req.asked}
    assert "R" not in asked and {"C", "tau"} <= asked
    assert all(m.key != "arrhenius" for m in req.models)
    answers = {a["quantity"]: a for a in analyse_folder(folder, req).record()["answers"]}
    assert answers["C"]["unit"] == "F"
    assert abs(answers["C"]["value"] - 2.2e-6) < 3 * answers["C"]["se"]
    assert answers["tau"]["unit"] == "s" and answers["C"]["asked"] is True
    assert abs(answers["tau"]["value"] - 47e3 * 2.2e-6) < 3 * answers["tau"]["se"]
