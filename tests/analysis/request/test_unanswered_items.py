"""What a list of questions asks that nothing answers is said, item by item."""

from __future__ import annotations

import numpy as np

from labwright.agent.offline.request_text import unanswered_item
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request import Unanswered
from labwright.analysis.request_rules import read_request

from .tables import folder as notes_folder
from .tables import table


def _incline(notes: str) -> list[tuple[str, str]]:
    theta = np.array([20.0, 25, 30, 35, 40, 45])
    rad = np.radians(theta)
    a = 9.81 * (np.sin(rad) - 0.27 * np.cos(rad))
    folder = notes_folder(
        notes, table("runs.csv", {"theta (deg)": theta, "a (m/s^2)": a}), source="q.txt"
    )
    req = read_request(folder, catalogue())
    return [(u.what, u.why) for u in req.unanswered]


def test_an_item_of_a_question_list_that_no_law_of_the_experiment_gives_is_unanswered() -> None:
    notes = (
        "Kinetic friction: a block sliding down an inclined plane.\n"
        "a = g (sin θ − μk cos θ), g = 9.81 m/s²\n"
        "Questions:\n (1) the coefficient of kinetic friction μk\n (2) the mass of the block\n"
    )
    said = _incline(notes)
    assert [w for w, _ in said] == ["mass"], said
    (why,) = [y for w, y in said if w == "mass"]
    assert "this experiment" in why
    assert "实验" in unanswered_item(Unanswered(what="mass", why=why), "zh")[1]


def test_a_measurement_asked_in_prose_is_no_unanswered_result() -> None:
    notes = (
        "Kinetic friction: a block sliding down an inclined plane.\n"
        "a = g (sin θ − μk cos θ), g = 9.81 m/s²\n"
        "Measure the mass of the block first. Find the coefficient of kinetic friction μk.\n"
    )
    assert _incline(notes) == []


def test_every_item_after_one_verb_is_a_request() -> None:
    ce = np.array([2.0, 5, 10, 20, 40, 80])
    q = 48.5 * 0.12 * ce / (1 + 0.12 * ce)
    folder = notes_folder(
        "Langmuir isotherm: qe = qmax·KL·Ce / (1 + KL·Ce)\n"
        "Find qmax, KL, and the enthalpy of adsorption ΔH_ads.",
        table("isotherm.csv", {"Ce (mg/L)": ce, "qe (mg/g)": q}),
        source="notes.txt",
    )
    req = read_request(folder, catalogue())
    assert [u.what for u in req.unanswered] == ["enthalpy of adsorption"]
    assert {a.quantity for a in req.asked} >= {"qmax"}


def test_a_result_asked_that_only_other_laws_have_is_unanswered() -> None:
    """ "Find the mass of the spring" in a Hooke's-law folder: a mass is a
    variable of other laws, none of which this experiment uses."""
    load = np.arange(1, 9) * 0.49
    folder = notes_folder(
        "Hooke's law\nLoads F added one at a time, extension x read from the rule. F = k x.\n"
        "(a) Find the spring constant k.\n(b) Find the mass of the spring itself.\n",
        table("hooke.csv", {"F (N)": load, "x (cm)": load / 32 * 100}),
        source="notes.txt",
    )
    req = read_request(folder, catalogue())
    assert [u.what for u in req.unanswered] == ["mass"]
    assert {a.quantity for a in req.asked} == {"k"}


def test_the_notes_name_with_of_inside_it_labels_the_symbol() -> None:
    from labwright.analysis.request_rules.symbol_name import notes_name
    from labwright.analysis.request_rules.text import clauses_of

    def name(text: str, symbol: str) -> str | None:
        (clause,) = clauses_of("n", text)
        return notes_name(clause, clause.text.index(f" {symbol} ") + 1)

    assert name("Find the moment of inertia I of the turntable.", "I") == "moment of inertia"
    assert name("Find the value of k and plot it.", "k") is None  # "value of": no name
