"""Asked quantities and named laws, by name or symbol, in English and Chinese."""

from __future__ import annotations

import pytest

from .conftest import Read


def _asked(req: object) -> set[tuple[str | None, str]]:
    return {(a.model, a.quantity) for a in req.asked}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("notes", "expected"),
    [
        ("Fit the Michaelis–Menten equation and determine Km and Vmax.",
         {("michaelis_menten", "Km"), ("michaelis_menten", "Vmax")}),
        ("MM kinetics, want Km, Vmax", {("michaelis_menten", "Km"), ("michaelis_menten", "Vmax")}),
        ("求米氏常数Km和最大反应速率Vmax。", {("michaelis_menten", "Km"), ("michaelis_menten", "Vmax")}),
        ("Find the activation energy from the rate constants at five temperatures.",
         {("arrhenius", "Ea")}),
        ("由不同温度下的速率常数求活化能。", {("arrhenius", "Ea")}),
        ("Tasks:\n1. Plot ln k against 1/T.\n2. Determine Ea and A.",
         {("arrhenius", "Ea"), ("arrhenius", "A")}),
        ("Find the natural frequency and damping ratio.",
         {("damped_oscillator", "omega0"), ("damped_oscillator", "zeta")}),
        ("Report the peak centres, widths and areas.",
         {("gaussian_peaks", "center"), ("gaussian_peaks", "sigma"), ("gaussian_peaks", "amplitude")}),
        ("Give the centre, width and area of each peak.",
         {("gaussian_peaks", "center"), ("gaussian_peaks", "sigma"), ("gaussian_peaks", "amplitude")}),
        ("Predict the unknowns' concentrations from the calibration line.",
         {("linear_calibration", "x_unknown")}),
        ("Find the equivalence volume and the pKa.", {("titration", "V_eq"), ("titration", "pKa")}),
        ("Find g.", {("pendulum", "g")}),
        ("the energy of activation is wanted", {("arrhenius", "Ea")}),
    ],
)  # fmt: skip
def test_asked_quantities(read: Read, notes: str, expected: set[tuple[str, str]]) -> None:
    assert _asked(read(notes)) == expected


def test_a_quantity_of_several_laws_lists_them_without_choosing(read: Read) -> None:
    (asked,) = read("Determine the half-life.").asked
    assert asked.model is None and set(asked.candidates) == {"first_order", "radioactive_decay"}
    assert read("Determine the half-life.").models == ()


def test_the_notes_words_decide_between_laws(read: Read) -> None:
    req = read("Determine the half-life of the Ba-137m isotope from the Geiger counts.")
    assert _asked(req) == {("radioactive_decay", "t_half")}


@pytest.mark.parametrize(
    "notes",
    [
        "Data taken on Tuesday in room 4.",
        "Theory: the Michaelis constant Km is the substrate concentration at which the rate is half of Vmax.",
        "The absorbance was measured every 30 s.",
        "No need to compute the half-life.",
        "A plot of the data is attached.",
        "实验在室温下进行。",
    ],
)
def test_notes_that_ask_nothing_give_an_empty_request(read: Read, notes: str) -> None:
    req = read(notes)
    assert req.asked == ()
    if "Michaelis" not in notes:
        assert req.models == () and req.is_empty


def test_a_named_law_is_kept_with_its_phrase(read: Read) -> None:
    req = read("Analysis: fit an Arrhenius plot of the rate constants.")
    assert [m.key for m in req.models] == ["arrhenius"]
    assert "Arrhenius" in req.models[0].evidence.phrase


def test_the_notes_words_for_an_owned_quantity_name_the_answer() -> None:
    from labwright.analysis.request_rules.asked import _described

    assert _described("醋酸的浓度") == "醋酸的浓度"  # the acid the notes titrated
    assert _described("浓度") is None  # a bare quantity keeps the catalogue's name
    assert _described("the concentration of acetic acid") == "concentration of acetic acid"
    assert _described("Km") is None
