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
that binds a table stays (two laws compared on one table is a request),
unless it is the written formula under another parametrisation
(`same_as_formula`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from labwright.analysis.catalogue.expr import FormulaError
from labwright.analysis.catalogue.match import match_formula
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.request import Binding, Evidence, NamedModel
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


def same_as_formula(
    notes: Notes,
    models: Sequence[NamedModel],
    bindings: Sequence[Binding],
    formula_key: str,
    formula_parameters: int,
    parameters_of: Callable[[str], int | None],
    formula_asks: Iterable[str] = (),
    quantities_of: Callable[[str], set[str]] = lambda key: set(),
) -> set[str]:
    """Keys of the named laws that are the bound written formula under other
    letters: Orange's "Fit the logistic growth curve C = Cmax / (1 + exp(-(t -
    t0)/s))" fitted the catalogue's logistic (K, N0, r) and the written curve
    (Cmax, t0, s) to the same columns, two fits of one request. A law named
    by its name in the clause of the written formula, bound to exactly the
    formula's columns, with as many fitted parameters, is the same family of
    curves: the notes' parametrisation is the one asked, and the law is
    dropped. A law that has a quantity the formula is asked for by the same
    symbol is kept: "1/c = 1/c0 + k t" beside the second-order law asks the
    law's own k, and the law, not the written (linearised) form, answers it.
    `formula_key`: the written formula's binding model."""
    written = [m for m in models if m.how == "formula" and m.key is None]
    if len(written) != 1:
        return set()
    clauses = _clauses_of(notes, written[0].evidence)
    columns = {(b.file, b.column) for b in bindings if b.model == formula_key}
    out: set[str] = set()
    for m in models:
        if m.key is None or m.how != "name" or not (_clauses_of(notes, m.evidence) & clauses):
            continue
        own = {(b.file, b.column) for b in bindings if b.model == m.key}
        if set(formula_asks) & quantities_of(m.key):
            continue
        if own and own == columns and parameters_of(m.key) == formula_parameters:
            out.add(m.key)
    return out


def nested_in_formula(
    formula: str, parameters: Sequence[str], entry: ModelEntry
) -> dict[str, str] | None:
    """The written formula's symbols for the law's, when the law is the
    written formula with one or two of its parameters set to zero ("T^2 =
    (4π²/k)(m + m_eff)" is the spring's T = 2π√(m/k) with m_eff = 0), else
    None. The notes wrote the more general law: it is the one fitted (the
    catalogue's form would bias k by ignoring the spring's own mass), and
    the law's quantities are asked of it under the written symbols."""
    n_law = len(entry.parameters)
    extra = len(parameters) - n_law
    if not 1 <= extra <= 2:
        return None
    for dropped in combinations(sorted(parameters), extra):
        text = formula
        for p in dropped:
            text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(p)}(?![A-Za-z0-9_])", "0", text)
        try:
            found = match_formula(text, [entry])
        except (FormulaError, ArithmeticError, ValueError):
            continue
        if found and found[0].exact:
            return {e: w for w, e in found[0].mapping}
    return None
