"""A law named in passing beside the formula the notes write for it.

"Fit a logistic curve of the density against ln(concentration), OD = A /
(1 + exp((x0 - ln c)/s))" (DNase) names the logistic growth law and writes
the curve to fit in the same sentence: the name describes the written
formula, it asks no second law. Yet the named law bound no column (its time
is nobody's), and the report printed "Not answered: logistic growth: time;
carrying capacity (K)" beside the answered fit of the written formula.

The rule: a law named by its name in the same clause as a written formula
that was bound to the data, when the named law itself binds no table, is
the formula's description and is dropped with what it asked. A named law
that binds a table stays (two laws compared on one table is a request).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from labwright.analysis.request import Evidence, NamedModel
from labwright.analysis.request_rules.text import Notes


def _clauses_of(notes: Notes, ev: Evidence) -> set[int]:
    return {
        c.index
        for c in notes.clauses
        if c.source == ev.source and ev.phrase and (ev.phrase in c.text or ev.phrase in c.original)
    }


def described_by_formula(
    notes: Notes,
    models: Sequence[NamedModel],
    unbound: Iterable[str],
    bound_formulas: Iterable[int],
) -> set[str]:
    """Keys of the named laws that only describe a bound written formula.
    `unbound`: keys of the laws no table binds; `bound_formulas`: indexes
    into `models` of the written formulas bound to the data."""
    formula_clauses: set[int] = set()
    for i in bound_formulas:
        formula_clauses |= _clauses_of(notes, models[i].evidence)
    lost = set(unbound)
    return {
        m.key
        for m in models
        if m.key is not None
        and m.how == "name"
        and m.key in lost
        and _clauses_of(notes, m.evidence) & formula_clauses
    }
