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
