"""Phrases found with a qualifier the catalogue does not list, counts named
in words, and an input given in words no law knows, read by its dimension."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.words import find_words, phrase_stems, tokens
from labwright.ingest.types import DocumentText, ReadResult

from .tables import table


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("the concentration of acetic acid in the sample", True),
        ("concentration of the acid", True),
        ("the concentration of hydrochloric acid", True),
        ("the concentration of the base", False),  # another head noun
        ("concentration of glucose", False),
        ("the acid and its concentration", False),
    ],
)
def test_one_qualifier_may_stand_before_the_noun_after_of(text: str, found: bool) -> None:
    assert bool(find_words(phrase_stems("concentration of the acid"), text, tokens(text))) is found


def _request(notes: str, *data: object) -> object:
    folder = ReadResult(datasets=list(data), documents=[DocumentText("notes.md", notes)])  # type: ignore[arg-type]
    return read_request(folder, catalogue())


def test_an_order_column_named_in_words_binds_the_order() -> None:
    """ "Order m" steps 1, 2, 3 like a row counter; its word names the count."""
    order = np.arange(1, 6, dtype=float)
    theta = np.degrees(np.arcsin(order * 589e-9 / 3.3e-6))
    req = _request(
        "A grating lit by sodium light (λ = 589 nm). Find the grating spacing d.",
        table("angles.csv", {"Order m": order, "angle (deg)": theta}),
    )
    bound = {(b.model, b.variable): b.column for b in req.bindings}  # type: ignore[attr-defined]
    assert bound[("grating_spacing", "m")] == "Order m"


def test_the_one_volume_in_the_notes_is_the_sample_volume() -> None:
    """ "20.00 mL of household bleach was titrated": no word of the titration
    law names the sample, but it is the one volume given and the one volume
    the law lacks."""
    vol = np.linspace(0, 30, 31)
    ph = 3 + 8 / (1 + np.exp(-(vol - 18) / 0.5))
    req = _request(
        "20.00 mL of the cleaning solution was titrated with 0.1000 mol/L HCl. "
        "Find the equivalence volume and the concentration of the base.",
        table("titration.csv", {"V (mL)": vol, "pH": ph}),
    )
    given = {c.symbol: (c.value, c.unit) for c in req.constants}  # type: ignore[attr-defined]
    assert given.get("V_sample") == (20.0, "mL")


def test_two_volumes_in_the_notes_are_not_guessed() -> None:
    vol = np.linspace(0, 30, 31)
    ph = 3 + 8 / (1 + np.exp(-(vol - 18) / 0.5))
    req = _request(
        "20.00 mL of the cleaning solution was diluted with 50 mL of water and titrated with "
        "0.1000 mol/L HCl. Find the equivalence volume.",
        table("titration.csv", {"V (mL)": vol, "pH": ph}),
    )
    assert "V_sample" not in {c.symbol for c in req.constants}  # type: ignore[attr-defined]
