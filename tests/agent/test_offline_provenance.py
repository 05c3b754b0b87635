"""The one number formatter, its ledger, and the document check built on it."""

from __future__ import annotations

import json

import pytest

from labwright.agent.offline.provenance import (
    Ledger,
    format_sig,
    format_with_uncertainty,
    unsourced_numbers,
)
from labwright.ingest.types import Provenance
from labwright.verify.tags import find_tags, untag


@pytest.mark.parametrize(
    ("value", "sig", "text"),
    [
        (9.80665, 4, "9.807"),
        (0.5, 3, "0.500"),
        (1234.6, 4, "1235"),
        (0.0012345, 3, "0.00123"),
        (123456.0, 3, "1.23\\times10^{5}"),
        (0.00001234, 3, "1.23\\times10^{-5}"),
        (9.9996e5, 3, "1.00\\times10^{6}"),
        (-2.5, 2, "-2.5"),
        (0.0, 4, "0"),
    ],
)
def test_format_sig(value: float, sig: int, text: str) -> None:
    assert format_sig(value, sig) == text


@pytest.mark.parametrize(
    ("value", "sigma", "expected"),
    [
        (9.8123, 0.0456, ("9.812", "0.046")),
        (2.003211, 0.004641, ("2.0032", "0.0046")),
        (1234.0, 56.0, ("1234", "56")),
        (0.5, 0.25, ("0.50", "0.25")),
    ],
)
def test_format_with_uncertainty(value: float, sigma: float, expected: tuple[str, str]) -> None:
    assert format_with_uncertainty(value, sigma) == expected


def test_ledger_records_every_printed_number(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ledger = Ledger()
    prov = Provenance(file="a.csv", column="T")
    text = ledger.measured(2.0032, 0.0046, prov, "fit parameter a")
    assert untag(text) == "2.0032 \\pm 0.0046"
    ids = [t.id for t in find_tags(text)]
    assert len(ids) == 2 and ids[0] != ids[1]
    ledger.count(9, prov, "rows")
    ledger.quote("notes.md", "Aim: 10 swings")
    out = tmp_path / "provenance.json"
    ledger.save(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    printed = [e["printed"] for e in data["numbers"]]
    assert printed == ["2.0032", "0.0046", "9"]
    assert [e["id"] for e in data["numbers"][:2]] == ids
    assert data["numbers"][0]["file"] == "a.csv" and data["numbers"][0]["column"] == "T"
    assert data["quotes"] == [{"file": "notes.md", "text": "Aim: 10 swings"}]


def _doc(body: str) -> str:
    return "\\documentclass{x}\\title{Run 42}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def test_check_accepts_ledger_numbers_and_quoted_material() -> None:
    ledger = Ledger()
    n = ledger.count(12, None, "rows")
    ledger.quote("notes.md", "Measure g at 5 lengths.")
    tex = _doc(
        f"The file \\lwfile{{run_07.csv}} has ${n}$ rows of \\lwtext{{T2 (s)}}.\n"
        "\\begin{quote}\nMeasure g at 5 lengths.\n\\end{quote}\n"
        "\\includegraphics[width=0.8\\linewidth]{figures/fig01.png}"
    )
    assert unsourced_numbers(tex, ledger.to_dict()) == []


def test_check_flags_an_unsourced_number_and_a_forged_quote() -> None:
    ledger = Ledger()
    g = ledger.num(9.81, None, "g", sig=3)
    ledger.quote("notes.md", "Aim: measure g.")
    tex = _doc(
        f"We find $g = {g}$ and also 3.14 from nowhere.\n"
        "\\begin{quote}\nAim: measure g in 7 steps.\n\\end{quote}\n"
    )
    bad = unsourced_numbers(tex, ledger.to_dict())
    assert "3.14" in bad
    assert "9.81" not in bad
    assert any(b.startswith("quote:") for b in bad)


def test_check_ignores_declared_fixed_text_only() -> None:
    tex = _doc("$y = a x^{2} + b$")
    assert unsourced_numbers(tex, {"numbers": []}) == ["2"]
    assert unsourced_numbers(tex, {"numbers": []}, ("y = a x^{2} + b",)) == []
