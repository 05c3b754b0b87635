"""A law written over symbols the notes introduce as the quantities it
relates ("metabolic rate scales with body mass as B = a M^b"): the columns
the words name carry the symbols, the law binds them and is fitted; a
phrase that names no column, or two alike, binds nothing."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.related import Relation, relation_before
from labwright.analysis.request_rules.text import read_notes
from labwright.ingest.types import DocumentText

from .tables import folder, table

RNG = np.random.default_rng(11)
MASS = np.geomspace(0.01, 5.0, 60)
RATE = 2.3 * MASS**0.75 * np.exp(RNG.normal(0, 0.05, MASS.size))
CO2 = RNG.uniform(300, 900, MASS.size)

KLEIBER = """
Columns: Computer (which logger), BodySize in grams, the CO2 reading in ppm,
and Mrate, the metabolic rate.

Kleiber's law says that metabolic rate scales with body mass as B = a M^b.
Fit the power law and report the exponent b with its standard error.
"""


def _columns() -> dict[str, np.ndarray]:
    return {
        "Computer": np.tile([1.0, 2.0, 3.0], MASS.size // 3),
        "BodySize (g)": MASS,
        "CO2 (ppm)": CO2,
        "Mrate": RATE,
    }


def _relation(text: str, quote: str) -> Relation | None:
    notes = read_notes([DocumentText("notes.md", text)])
    clause = next(c for c in notes.clauses if quote in c.text)
    return relation_before(clause, quote)


@pytest.mark.parametrize(
    ("text", "quote", "response", "variable"),
    [
        ("Kleiber's law says that metabolic rate scales with body mass as B = a M^b.",
         "B = a M^b", "metabolic rate", "body mass"),
        ("The resistance varies with temperature according to R = R0 (1 + alpha T).",
         "R = R0 (1 + alpha T)", "resistance", "temperature"),
        ("金属电阻随温度的变化满足 R = R0(1 + αt)。", "R = R0(1 + αt)", "金属电阻", "温度"),
    ],
)  # fmt: skip
def test_the_words_before_a_written_law_say_which_quantity_each_variable_is(
    text: str, quote: str, response: str, variable: str
) -> None:
    assert _relation(text, quote) == Relation(response, variable)


def test_a_formula_with_no_relation_before_it_has_none() -> None:
    assert _relation("Fit the data with B = a M^b and report b.", "B = a M^b") is None


def test_the_law_binds_the_columns_the_words_name() -> None:
    req = read_request(folder(KLEIBER, table("caterpillars.csv", _columns())), catalogue())
    bound = {b.variable: b.column for b in req.bindings if b.model == "power_law"}
    assert bound == {"y": "Mrate", "x": "BodySize"}
    reasons = " ".join(b.evidence.reason for b in req.bindings if b.model == "power_law")
    assert "metabolic rate" in reasons and "body mass" in reasons


def test_the_asked_exponent_is_fitted_and_recovered() -> None:
    read = folder(KLEIBER, table("caterpillars.csv", _columns()))
    fa = analyse_folder(read, read_request(read, catalogue()))
    got = {a["quantity"]: a for a in fa.record()["answers"]}
    assert "b" in got
    assert abs(got["b"]["value"] - 0.75) < 3 * got["b"]["se"]


def test_words_that_name_two_columns_alike_bind_nothing() -> None:
    notes = KLEIBER.replace("and Mrate, the metabolic rate.", "Mrate, the metabolic rate,\n"
                            "and Orate, the other metabolic rate.")  # fmt: skip
    columns = {**_columns(), "Orate": RATE * 1.1}
    req = read_request(folder(notes, table("caterpillars.csv", columns)), catalogue())
    assert not any(b.model == "power_law" for b in req.bindings)


def test_a_column_named_in_apposition_is_described_by_it() -> None:
    from labwright.analysis.request_rules.columns import folder_tables

    read = folder(KLEIBER, table("caterpillars.csv", _columns()))
    ((_, cols),) = folder_tables(read, read_notes(read.documents))
    described = {c.name: c.described for c in cols}
    assert described["Mrate"] == "the metabolic rate"
