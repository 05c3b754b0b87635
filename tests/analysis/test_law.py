"""A law named in the notes: read in its usual written forms (en + zh) and
tested on the data, with a verdict that follows the data."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labwright.analysis.law import constant_relation, fit_law, parse_laws
from labwright.analysis.plan import analyse_folder
from labwright.analysis.question import read_question
from labwright.ingest.types import Column, Dataset, DocumentText, Provenance, ReadResult

FORMS = [
    ("Verify T² ∝ L.", ("T", 2.0, "L", 1.0, None)),
    ("verify that T^2 \\propto L", ("T", 2.0, "L", 1.0, None)),
    ("The period squared, T^2 is proportional to L.", ("T", 2.0, "L", 1.0, None)),
    ("using T^2 = (4 pi^2 / g) L.", ("T", 2.0, "L", 1.0, "4 pi^2 / g")),
    ("Ohm: U = k I for the resistor.", ("U", 1.0, "I", 1.0, "k")),
    ("检验 T² 与 L 成正比。", ("T", 2.0, "L", 1.0, None)),
    ("验证 T^2 正比于 L。", ("T", 2.0, "L", 1.0, None)),
    ("check that f ∝ √T for the string", ("f", 1.0, "T", 0.5, None)),
]


@pytest.mark.parametrize(("text", "want"), FORMS)
def test_law_forms(text: str, want: tuple[object, ...]) -> None:
    (law,) = parse_laws(text)
    assert (law.left, law.left_power, law.right, law.right_power, law.constant) == want
    assert "law" in read_question(text).goals


@pytest.mark.parametrize(
    "text", ["At L = 0.50 m the time was repeated.", "C = 100 uF (tolerance 20 %)", "y = a x + 3"]
)
def test_values_and_affine_lines_are_not_laws(text: str) -> None:
    assert parse_laws(text) == []


def test_constant_relation() -> None:
    rel = constant_relation("4 pi^2 / g")
    assert rel is not None and rel.name == "g" and rel.power == -1.0
    assert math.isclose(rel.factor, 4 * math.pi**2)
    g, se = rel.solve(4.0, 0.04)
    assert math.isclose(g, math.pi**2) and math.isclose(se, g * 0.01)
    assert constant_relation("k") == constant_relation("k")
    assert constant_relation("2 pi") is None  # no named constant


def _col(name: str, values: np.ndarray, unit: str | None = None) -> Column:
    return Column(
        name, np.asarray(values, dtype=float), Provenance(file="t.csv", column=name), unit
    )


def _pendulum(g: float, offset: float = 0.0, seed: int = 1) -> list[Column]:
    rng = np.random.default_rng(seed)
    length = np.linspace(0.2, 1.0, 12)
    period = 2 * np.pi * np.sqrt(length / g) + offset + rng.normal(0, 0.004, length.size)
    return [_col("L", length, "m"), _col("T", period, "s")]


def test_recovers_g_with_propagated_uncertainty() -> None:
    (law,) = parse_laws("T^2 = (4 pi^2 / g) L")
    fit = fit_law(law, _pendulum(9.81))
    assert fit is not None and fit.y_power == 2.0 and fit.supported
    assert fit.constant is not None and fit.constant_se is not None
    assert abs(fit.constant - 9.81) < 3 * fit.constant_se
    slope, se = fit.slope
    assert math.isclose(fit.constant_se, fit.constant * se / slope, rel_tol=1e-9)


def test_a_law_the_data_break_is_not_supported() -> None:
    """A constant delay in every period (T = 2π√(L/g) + 0.3 s): T² against L
    has an intercept, and the log-log exponent is not the law's."""
    (law,) = parse_laws("T^2 ∝ L")
    fit = fit_law(law, _pendulum(9.81, offset=0.3))
    assert fit is not None and not fit.supported
    assert fit.intercept_p < 0.05 or (fit.exponent_p is not None and fit.exponent_p < 0.05)


def test_symbols_that_are_not_columns_give_no_fit() -> None:
    (law,) = parse_laws("v^2 ∝ h")
    assert fit_law(law, _pendulum(9.81)) is None


def _folder(notes: str, columns: list[Column]) -> ReadResult:
    ds = Dataset(name="t", source="t.csv", kind="table", columns=columns)
    return ReadResult(datasets=[ds], images=[], documents=[DocumentText("notes.md", notes)])


def test_plan_tests_the_law_only_when_the_notes_state_it() -> None:
    fa = analyse_folder(_folder("Verify that T^2 is proportional to L.", _pendulum(9.81)))
    assert fa.kinds() == {"law"} and "law" in fa.goals_answered()
    fa = analyse_folder(_folder("Pendulum periods at several lengths.", _pendulum(9.81)))
    assert "law" not in fa.kinds()


def test_components_and_resistor_of_each_data_set() -> None:
    from labwright.analysis.expected import read_rc

    text = (
        "Aim: measure the time constant and compare it with the product RC.\n"
        "C = 100 uF (tolerance 20 %), resistors 10 kOhm and 22 kOhm (tolerance 1 %). "
        "A faster discharge through 1 kOhm was captured (scope.mat). Unrelated: 4.7 kOhm."
    )
    q = read_rc(text)
    assert q is not None and [c.value for c in q.capacitors] == [pytest.approx(1e-4)]
    assert [(r.value, r.tolerance) for r in q.resistors[:2]] == [(1e4, 0.01), (2.2e4, 0.01)]
    e = q.expected_for("data.xlsx", "data:R22k")
    assert e is not None and e.value == pytest.approx(2.2)
    assert e.u == pytest.approx(2.2 * math.sqrt(0.01**2 + 0.2**2) / math.sqrt(3))
    scope = q.expected_for("scope.mat", "scope")
    assert scope is not None and scope.value == pytest.approx(0.1) and scope.r.tolerance is None
    assert q.expected_for("other.csv", "other") is None
    ratio, z, ok = e.compare(2.0, 0.01)
    assert ok and ratio == pytest.approx(2.0 / 2.2)
    assert not e.compare(4.0, 0.01)[2]
    assert read_rc("C = 100 uF and R = 10 kOhm.") is None  # not asked


def test_a_proportionality_takes_its_constant_from_the_same_law_written_out() -> None:
    from labwright.analysis.law import find_law

    laws = parse_laws("验证 T² 与 L 成正比，并由 T^2 = (4 pi^2 / g) L 求重力加速度 g。")
    assert [s.constant for s in laws] == [None, "4 pi^2 / g"]
    fit = find_law(laws, _pendulum(9.81))
    assert fit is not None and fit.relation is not None and fit.relation.name == "g"
    assert fit.constant is not None and fit.constant_se is not None
    assert abs(fit.constant - 9.81) < 3 * fit.constant_se
