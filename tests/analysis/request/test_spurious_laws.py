"""Laws the notes only mention, letters that are units, and columns a law
takes by their unit alone: none of them becomes a request."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import DocumentText, ReadResult

from .tables import table


def _folder(notes: str, *data: object) -> ReadResult:
    return ReadResult(datasets=list(data), documents=[DocumentText("notes.md", notes)])  # type: ignore[arg-type]


def _read(notes: str, *data: object) -> AnalysisRequest:
    return read_request(_folder(notes, *data), catalogue())


def test_a_unit_letter_asks_nothing() -> None:
    """ "in S·cm²·mol⁻¹", "per h": the siemens and the hour name no quantity."""
    c = np.array([0.001, 0.002, 0.005, 0.01, 0.02])
    kappa = 150 * c - 40 * c**1.5
    req = _read(
        "Conductivity of KCl solutions. Report the molar conductivity in S·cm²·mol⁻¹ and the "
        "growth per h.",
        table("kcl.csv", {"c (mol/L)": c, "kappa (S/m)": kappa}),
    )
    assert not any(len(a.quantity) == 1 for a in req.asked), [a.quantity for a in req.asked]


def test_a_law_only_mentioned_is_no_request_and_not_unanswered() -> None:
    """ "λ = v/f" over a table of lengths and resonances is no Wien's law, and
    the report must not list Wien's variables as not answered."""
    n = np.arange(1, 5, dtype=float)
    length = (2 * n - 1) * 343 / (4 * 512) - 0.01
    req = _read(
        "Resonance tube with a 512 Hz fork. Remember λ = v/f. Find the speed of sound v.",
        table("tube.csv", {"n": n, "L (m)": length}),
    )
    assert "wien_displacement" not in {m.key for m in req.models}
    assert not any(u.model == "wien_displacement" for u in req.unanswered)


def test_a_law_named_in_a_request_is_kept_even_without_data() -> None:
    req = _read("Analysis: fit an Arrhenius plot of the rate constants.")
    assert [m.key for m in req.models] == ["arrhenius"]


def test_a_column_held_by_name_is_not_borrowed_by_its_unit() -> None:
    """A pendulum's period column (s) is no damped oscillator's time axis: the
    damping asked of length-and-period data is said not answerable, with
    the notes' own words, instead of fitted to nonsense."""
    length = np.array([0.4, 0.55, 0.7, 0.85, 1.0, 1.15])
    data = table(
        "单摆.csv", {"摆长 l (m)": length, "周期 T (s)": 2 * np.pi * np.sqrt(length / 9.79)}
    )
    folder = _folder("单摆：T = 2π√(l/g)。1. 求重力加速度 g。2. 求空气阻力的阻尼系数。", data)
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    answers = {a.quantity for a in fa.sheet.answers}
    assert "g" in answers and not answers & {"gamma", "zeta", "Q", "tau"}
    assert any("阻尼系数" in u.what for u in fa.sheet.unanswered)
