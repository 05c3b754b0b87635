"""Values to compare with, in the ways notes write them."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import DocumentText, ReadResult

from .tables import mm_values, table


@pytest.mark.parametrize(
    "notes",
    [
        "Michaelis-Menten kinetics: find Km. The kit insert says Km ~ 0.5 mM.",
        "Michaelis-Menten kinetics: find Km (lit. 0.5 mM).",
        "Michaelis-Menten kinetics: find Km; it should be about 0.5 mM.",
        "Michaelis-Menten kinetics: find Km and compare with the nominal 0.5 mM.",
        "Michaelis-Menten kinetics: find Km; the manufacturer quotes Km = 0.5 mM.",
        "米氏方程，求米氏常数 Km，文献值约 0.5 mM。",
        "米氏方程，求 Km（文献值约为 0.5 mmol/L）。",
    ],
)
def test_a_value_to_compare_with_is_read(notes: str) -> None:
    s, v = mm_values()
    folder = ReadResult(
        datasets=[table("mm.csv", {"S (mM)": s, "v (uM/min)": v})],
        documents=[DocumentText("notes.md", notes)],
    )
    req = read_request(folder, catalogue())
    assert [e.value for e in req.expected] == [0.5]
    assert not req.constants


def test_an_abbreviation_ends_no_sentence() -> None:
    from labwright.analysis.request_rules.text import clauses_of

    assert len(clauses_of("n", "Find Km (lit. 0.5 mM). Then plot it.")) == 2
    assert len(clauses_of("n", "The run took 2.5 min. Then we stopped.")) == 2


def test_a_nominal_value_of_an_asked_quantity_is_compared_not_used() -> None:
    t = np.linspace(0, 0.5, 30)
    folder = ReadResult(
        datasets=[table("d.csv", {"t (s)": t, "U (V)": 9 * np.exp(-t / 0.1)})],
        documents=[
            DocumentText(
                "notes.md",
                "RC discharge through R = 2.2 kΩ. Find the capacitance C; the can says "
                "C = 47 µF nominal.",
            )
        ],
    )
    req = read_request(folder, catalogue())
    assert [(e.quantity, e.value) for e in req.expected] == [("C", 47.0)]


def test_a_chemists_species_symbols_are_read_as_values_and_asks() -> None:
    """ "c(NaOH) = 0.1000 mol·L⁻¹" gives the titrant's concentration and
    "c(HAc)" asks for the analyte's, whose answer carries the notes' symbol."""
    from labwright.analysis.plan import analyse_folder

    v = np.linspace(1.0, 30.0, 40)
    ph = 4.76 + np.log10(np.clip(v, 1e-6, 23.6) / np.clip(23.63 - v, 1e-3, None))
    ph = np.where(v > 23.63, 11.5, ph)
    folder = ReadResult(
        datasets=[table("titration.csv", {"V(NaOH) (mL)": v, "pH": ph})],
        documents=[
            DocumentText(
                "notes.txt",
                "25.00 mL of vinegar pipetted, titrated with standard NaOH.\n"
                "c(NaOH)=0.1000 mol·L⁻¹\nReport:\n - the equivalence volume\n"
                " - c(HAc) in the diluted vinegar, mol/L",
            )
        ],
    )
    req = read_request(folder, catalogue())
    given = {c.symbol: (c.value, c.unit) for c in req.constants}
    assert given["c_titrant"][0] == 0.1
    asked = {a.quantity: a.evidence.phrase for a in req.asked}
    assert asked["c_analyte"] == "c(HAc)"
    fa = analyse_folder(folder, req)
    c = next(a for a in fa.record()["answers"] if a["quantity"] == "c_analyte")
    assert c["symbol"] == "c(HAc)"
    assert 0.08 < c["value"] < 0.11
