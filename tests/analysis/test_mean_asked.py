"""A quantity asked as the mean of repeated readings, by a symbol no law
has ("the mean density D"), and a quantity the notes define from it ("G =
3 g / (4 π R ρ_w D)"): the mean is an answer, and the definition is
computed from it with the uncertainty propagated. Before, the readings were
summarised as "col1" and neither was answered."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder


def _readings(root: Path, notes: str) -> dict[str, dict[str, object]]:
    values = np.random.default_rng(3).normal(2.50, 0.02, 15)
    (root / "diameter.txt").write_text("\n".join(f"{v:.4f}" for v in values) + "\n", "utf-8")
    (root / "notes.md").write_text(notes, "utf-8")
    read = read_folder(root)
    record = analyse_folder(read, read_request(read, catalogue())).record()
    return {str(a["quantity"]): a for a in record["answers"]}


def test_the_mean_asked_by_a_symbol_and_a_quantity_defined_from_it(tmp_path: Path) -> None:
    answers = _readings(
        tmp_path,
        "The ball's diameter was measured 15 times (diameter.txt, in cm).\n"
        "1. Give the mean diameter d with its standard error.\n"
        "2. Compute the volume V = π d³ / 6 with its uncertainty.\n",
    )
    d, v = answers["d"], answers["V"]
    values = np.loadtxt(tmp_path / "diameter.txt")
    mean, se = values.mean(), values.std(ddof=1) / math.sqrt(values.size)
    assert math.isclose(float(d["value"]), mean, rel_tol=1e-12)
    assert math.isclose(float(d["se"]), se, rel_tol=1e-9)
    assert d["label"] == "diameter"
    # V = π d³/6, its SE the mean's propagated: dV = (π d²/2) s_d.
    volume = math.pi * mean**3 / 6
    assert math.isclose(float(v["value"]), volume, rel_tol=1e-9)
    assert math.isclose(float(v["se"]), math.pi * mean**2 / 2 * se, rel_tol=1e-6)


def test_a_mean_of_no_symbol_asks_nothing_new(tmp_path: Path) -> None:
    answers = _readings(tmp_path, "Give the mean of the readings with its standard error.\n")
    assert answers == {}


def test_a_value_of_no_law_of_the_request_keeps_the_notes_symbol(tmp_path: Path) -> None:
    """ "R = 6.371 × 10⁶ m" (the Earth's radius) is a length like Poiseuille's
    capillary radius r, a law the request does not use: it stays R."""
    (tmp_path / "d.txt").write_text("5.50\n5.61\n4.88\n5.07\n5.26\n", "utf-8")
    (tmp_path / "notes.md").write_text(
        "Give the mean density D. Then G = 3 g / (4 π R ρ_w D) with g = 9.806 m/s², "
        "R = 6.371 × 10⁶ m and ρ_w = 1000 kg/m³.\n",
        "utf-8",
    )
    request = read_request(read_folder(tmp_path), catalogue())
    assert {c.symbol for c in request.constants} >= {"g", "R", "ρ_w"}
    assert "r" not in {c.symbol for c in request.constants}
    assert [d.name for d in request.defined] == ["G"]


def test_words_after_mean_are_no_symbol() -> None:
    from labwright.analysis.request_rules.means import asked_means
    from labwright.analysis.request_rules.text import read_notes
    from labwright.ingest.types import DocumentText

    def means(text: str) -> list[tuple[str, str | None]]:
        notes = read_notes([DocumentText("notes.md", text)])
        return [(a.quantity, a.name) for a in asked_means(notes)]

    # A word ("rate"), a verb ("Average the scans"), an article ("on a").
    assert means("Find the average growth rate of CO2 in ppm per year.") == []
    assert means("Average the scans and fit three Gaussian peaks on a linear baseline.") == []
    assert means("Give the mean period T_1 of the swings.") == [("T_1", "period")]
    assert means("求摆长 L 的平均值。") == [("L", None)]


def _resistor(root: Path, unit: str) -> dict[str, dict[str, object]]:
    values = np.random.default_rng(5).normal(1000.1, 0.7, 25)
    rows = "\n".join(f"{i + 1},{v:.2f}" for i, v in enumerate(values))
    (root / "readings.csv").write_text(f"reading,R ({unit})\n{rows}\n", "utf-8")
    (root / "notes.md").write_text(
        "# A nominal 1 kOhm resistor\n\n"
        "Estimate the resistance and its uncertainty from repeated measurements.\n",
        "utf-8",
    )
    read = read_folder(root)
    record = analyse_folder(read, read_request(read, catalogue())).record()
    return {str(a["quantity"]): a for a in record["answers"]}


def test_a_quantity_asked_by_name_is_the_mean_of_its_readings(tmp_path: Path) -> None:
    """ "Estimate the resistance" over readings of R (ohm): the laws call a
    resistance R, so the mean of R answers it, compared with the nominal
    value the notes give. Before, the report listed it as not answered."""
    r = _resistor(tmp_path, "ohm")["R"]
    values = np.loadtxt(tmp_path / "readings.csv", delimiter=",", skiprows=1)[:, 1]
    assert r["label"] == "resistance"
    assert math.isclose(float(r["value"]), values.mean(), rel_tol=1e-12)
    expected = r["expected"]
    # The nominal 1 kOhm, in the answer's unit.
    assert isinstance(expected, dict) and math.isclose(float(expected["value"]), 1000.0)
    assert expected["unit"] == "ohm"
    assert r["z"] is not None and abs(float(r["z"])) < 3


def test_a_column_of_another_dimension_does_not_answer_it(tmp_path: Path) -> None:
    """R in metres is a range, not a resistance: nothing is made up."""
    assert "R" not in _resistor(tmp_path, "m")
