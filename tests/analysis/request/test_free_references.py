"""Values to compare with that name no quantity ("compare it with the accepted
value 299792.458 km/s"), and the answer each is put beside."""

from __future__ import annotations

import pytest

from labwright.analysis.references import with_free_references
from labwright.analysis.request import Evidence, ExpectedValue
from labwright.analysis.request_rules.references import FREE
from labwright.analysis.results import Answer, Comparison, Text

from .conftest import Read


@pytest.mark.parametrize(
    ("notes", "value", "unit"),
    [
        (
            "Report the speed of light and compare it with the accepted value 299792.458 km/s.",
            299792.458,
            "km/s",
        ),
        ("The literature value of the refractive index of water is 1.333.", 1.333, None),
        ("Compare your result with 9.81 m/s².", 9.81, "m/s²"),
        ("求出光速，并与公认值 299792.458 km/s 比较。", 299792.458, "km/s"),
        ("测出折射率，理论值为 1.5163。", 1.5163, None),
        ("把结果与 9.80 m/s^2 比较。", 9.80, "m/s^2"),
    ],
)
def test_a_reference_value_without_a_named_quantity(
    read: Read, notes: str, value: float, unit: str | None
) -> None:
    req = read(notes)
    free = [e for e in req.expected if e.quantity == FREE]
    assert [(e.value, e.unit) for e in free] == [(pytest.approx(value), unit)]
    assert free[0].evidence.phrase in notes


@pytest.mark.parametrize(
    "notes",
    [
        "Compare the two runs with 20 swings each.",  # a count, not a value
        "与 12 组数据比较。",
        "与 12 个样品一起测量 5 mm 厚的板。",  # 与 without 比较
        "We used a 10 kΩ resistor.",
    ],
)
def test_counts_and_amounts_are_no_reference(read: Read, notes: str) -> None:
    assert [e for e in read(notes).expected if e.quantity == FREE] == []


def test_a_value_read_for_a_named_quantity_is_not_read_again(read: Read) -> None:
    req = read("用米氏方程拟合。酶浓度 E0 = 10 nM。米氏常数的文献值为 2.5 mM。")
    assert [(e.quantity, e.value) for e in req.expected] == [("Km", 2.5)]


def _answer(quantity: str, value: float, unit: str | None, *, asked: bool = True,
            comparison: Comparison | None = None) -> Answer:  # fmt: skip
    return Answer(quantity, Text(quantity, quantity), quantity, value, 1.0, unit,
                  Text("", ""), None, asked, comparison)  # fmt: skip


def _free(value: float, unit: str | None) -> ExpectedValue:
    return ExpectedValue(
        quantity=FREE, value=value, unit=unit, evidence=Evidence(source="n", phrase="", reason="")
    )


def test_the_reference_goes_to_the_one_asked_answer_of_its_dimension() -> None:
    answers = [_answer("mean", 299852.4, "km/s"), _answer("n", 100.0, None)]
    out = with_free_references(answers, [_free(299792458.0, "m/s")])
    c = out[0].comparison
    assert c is not None and c.value == pytest.approx(299792.458) and c.unit == "km/s"
    assert out[1].comparison is None


def test_the_notes_value_replaces_the_catalogue_reference_not_another_notes_value() -> None:
    catalogue = Comparison(9.806, None, "m/s^2", "CODATA")
    notes = Comparison(9.79, None, "m/s^2", "the notes")
    (a,) = with_free_references([_answer("g", 9.8, "m/s^2", comparison=catalogue)],
                                [_free(9.81, "m/s^2")])  # fmt: skip
    assert a.comparison is not None and a.comparison.value == pytest.approx(9.81)
    (b,) = with_free_references([_answer("g", 9.8, "m/s^2", comparison=notes)],
                                [_free(9.81, "m/s^2")])  # fmt: skip
    assert b.comparison == notes


def test_an_ambiguous_or_unmatched_reference_goes_nowhere() -> None:
    two = [_answer("k", 1.0, "1/s"), _answer("lambda", 2.0, "1/s")]
    assert [a.comparison for a in with_free_references(two, [_free(1.1, "1/s")])] == [None, None]
    unasked = [_answer("k", 1.0, "1/s", asked=False)]
    assert with_free_references(unasked, [_free(1.1, "1/s")])[0].comparison is None
    wrong_kind = [_answer("L", 1.0, "m")]
    assert with_free_references(wrong_kind, [_free(1.1, "s")])[0].comparison is None
    # The same quantity answered per file: each answer is compared.
    per_file = [_answer("g", 9.8, "m/s^2"), _answer("g", 9.7, "m/s^2")]
    out = with_free_references(per_file, [_free(9.81, "m/s^2")])
    assert all(a.comparison is not None for a in out)
