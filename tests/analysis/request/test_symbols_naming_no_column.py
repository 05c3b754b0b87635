"""A law written in symbols that name no column: bound by the notes' words
for each symbol, else by a one-to-one match of letters with the only
columns left; an asked symbol is a parameter, never a column."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.custom import KEY as CUSTOM
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request

from .tables import folder, table

CONC = np.array([95, 175, 250, 350, 500, 675, 1000], dtype=float)


def _uptake(c: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(7)
    return 38.0 * (1 - np.exp(-0.0125 * (c - 51.0))) + rng.normal(0, 0.4, c.size)


def _bound(notes: str, columns: dict[str, np.ndarray]) -> dict[str, str]:
    read = folder(notes, table("leaf.csv", columns))
    req = read_request(read, catalogue())
    return {b.variable: b.column for b in req.bindings if b.model == CUSTOM}


ASYMPTOTE = "Model: U = A [1 - exp(-k (C - C0))]. Report A, C0 and k with their standard errors."


def test_letters_pair_the_only_two_columns_when_the_notes_name_neither_symbol() -> None:
    bound = _bound(ASYMPTOTE, {"conc (ppm)": CONC, "uptake (umol/m^2/s)": _uptake(CONC)})
    assert bound == {"U": "uptake", "C": "conc"}


def test_the_fit_recovers_the_asked_parameters() -> None:
    read = folder(ASYMPTOTE, table("leaf.csv", {"conc (ppm)": CONC,
                                                "uptake (umol/m^2/s)": _uptake(CONC)}))  # fmt: skip
    fa = analyse_folder(read, read_request(read, catalogue()))
    got = {a["quantity"]: a for a in fa.record()["answers"]}
    assert {"A", "C0", "k"} <= set(got)
    assert abs(got["A"]["value"] - 38.0) < 3 * got["A"]["se"]
    assert abs(got["k"]["value"] - 0.0125) < 3 * got["k"]["se"]


def test_the_notes_words_outrank_the_letters() -> None:
    # By letters R would take "rate" and S "speed"; the notes say otherwise.
    notes = "The reaction rate S was measured at each rotor speed R. Model: S = a R^2 + b. Report a and b."
    x = np.linspace(1, 10, 8)
    bound = _bound(notes, {"speed": x, "rate": 0.3 * x**2 + 2})
    assert bound == {"S": "rate", "R": "speed"}


def test_letters_that_fit_two_columns_decide_nothing() -> None:
    bound = _bound(
        ASYMPTOTE,
        {"conc (ppm)": CONC, "count": np.arange(7.0) + 3, "uptake (umol/m^2/s)": _uptake(CONC)},
    )
    assert bound == {}


def test_an_asked_symbol_is_never_a_column() -> None:
    notes = "Model: U = A [1 - exp(-k (C - C0))]. Report A, C, C0 and k."
    bound = _bound(notes, {"conc (ppm)": CONC, "uptake (umol/m^2/s)": _uptake(CONC)})
    assert "C" not in bound
