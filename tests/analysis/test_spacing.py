"""The spacing of successive maxima of a swept curve (Franck–Hertz, fringes):
the mean of the successive differences, with the slope against order as the
check; the swept variable is never fitted as a response."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.spacing import find_spacing
from labwright.ingest.types import Column, Provenance
from tests.analysis.request.tables import folder, table

U = np.round(np.arange(0.0, 40.01, 0.1), 1)


def _curve(rng: np.random.Generator, spacing: float = 4.9, first: float = 7.0) -> np.ndarray:
    y = 2.0 + 0.3 * U
    for n in range(7):
        y = y + (10 + 8 * n) * np.exp(-((U - first - n * spacing) ** 2) / (2 * 1.0**2))
    return y + rng.normal(0, 0.3, U.size)


def _kinds_and_answers(notes: str, y: np.ndarray) -> tuple[list[str], dict[str, dict]]:
    read = folder(notes, table("sweep.txt", {"U2 (V)": U, "I (nA)": y}))
    fa = analyse_folder(read, read_request(read, catalogue()))
    record = fa.record()
    return [a["kind"] for a in record["analyses"]], {a["quantity"]: a for a in record["answers"]}


def test_the_mean_spacing_of_the_maxima_is_recovered_in_95_of_100_curves() -> None:
    rng = np.random.default_rng(5)
    x = Column("U", U, Provenance("sweep.txt"), "V")
    hits = 0
    for _ in range(100):
        y = Column("I", _curve(rng), Provenance("sweep.txt"), "nA")
        r = find_spacing(x, y, minima=False, energy=False)
        assert r is not None and r.n == 7
        hits += abs(r.spacing - 4.9) <= 3 * r.se
        assert r.slope == pytest.approx(4.9, abs=0.05)
    assert hits >= 95


def test_a_written_difference_defines_the_spacing_and_no_voltage_is_fitted() -> None:
    notes = (
        "Franck-Hertz curve. The maxima are equally spaced.\n\nΔU = U_{n+1} − U_n\n\n"
        "Find the spacing ΔU of the maxima (average, with uncertainty) and the excitation "
        "energy in eV."
    )
    kinds, answers = _kinds_and_answers(notes, _curve(np.random.default_rng(1)))
    assert kinds == ["spacing"]
    assert abs(answers["spacing"]["value"] - 4.9) < 3 * answers["spacing"]["se"]
    assert answers["spacing"]["unit"] == "V" and answers["E"]["unit"] == "eV"


def test_the_minima_when_the_notes_ask_for_them() -> None:
    notes = "求相邻极小值（谷）之间的间距。"
    y = 100.0 - _curve(np.random.default_rng(2), spacing=5.2)
    kinds, answers = _kinds_and_answers(notes, y)
    assert kinds == ["spacing"]
    assert abs(answers["spacing"]["value"] - 5.2) < 3 * answers["spacing"]["se"]


def test_a_curve_without_the_ask_is_not_searched_for_a_spacing() -> None:
    kinds, _ = _kinds_and_answers(
        "Plot the current against the voltage.", _curve(np.random.default_rng(3))
    )
    assert "spacing" not in kinds
