"""Quantities the notes define from the law's fitted quantities.

"Each phase's half-life is t½ = ln 2/k", "the balance temperature T = −a/b",
"LC90 = LC50·9^(1/h)": the notes write how the wanted number follows from
what the fit gives. The law answers its parameters; the definition is read
here as a `DefinedQuantity` (its right side only fitted quantities of the
request's laws, values the notes give, and quantities defined before it)
and computed from the fit with the parameters' correlations
(`analysis/defined.py`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from labwright.analysis.catalogue.expr import FormulaError
from labwright.analysis.catalogue.written import GREEK, read_formula
from labwright.analysis.request import DefinedQuantity, Evidence
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.equations import Written
from labwright.analysis.request_rules.symbol_name import notes_name
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.words import SYMBOL_IN_TEXT, same_symbol

_MATH = frozenset({"pi", "e"})


def defined_quantities(
    notes: Notes,
    equations: Mapping[int, list[Written]],
    quantities: Collection[str],
    given: Mapping[str, tuple[float, str | None]],
    columns: Collection[str],
) -> list[DefinedQuantity]:
    """`quantities`: the symbols of the fitted quantities (the laws'
    parameters and derived keys, and the notes' own symbols for them);
    `given`: values the notes assign to symbols; `columns`: column names."""
    known = set(quantities)
    # The formula reader spells Greek letters out ("ρ_w" is rho_w in it).
    given = {**{_spelled(k): v for k, v in given.items()}, **given}
    out: list[DefinedQuantity] = []
    spans = {i: [(w.start, w.end) for w in ws] for i, ws in equations.items()}
    for clause in notes.clauses:
        for w in equations.get(clause.index, []):
            try:
                wf = read_formula(w.text, known | set(given) | set(columns))
            except FormulaError:
                continue
            eq = wf.equation
            name = eq.response
            right = eq.rhs.names - _MATH
            if not eq.explicit or name in known or any(same_symbol(c, name) for c in columns):
                continue
            if right and not right <= known | set(given):
                # "t1/2 = ln 2/k" over a law with k1 and k2: one per phase.
                out += _per_numbered(w, clause.source, name, eq.rhs.text, right, known, given)
                continue
            if not right or not right & known:
                continue
            used = {s: given[s] for s in right if s in given and s not in known}
            asked, label = _asked(notes, name, spans)
            asked = asked or asks(clause) is not None  # defined where the notes ask
            out.append(
                DefinedQuantity(
                    name=name,
                    expression=eq.rhs.text,
                    written=w.quote,
                    constants=tuple(sorted((s, v, u) for s, (v, u) in used.items())),
                    asked=asked,
                    label=label,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=w.quote,
                        reason=f"the notes define {name} from the fitted "
                        f"{', '.join(sorted(right & known))}"
                        + (f" and the given {', '.join(sorted(used))}" if used else ""),
                    ),
                )
            )
            known.add(name)
    return out


def _spelled(symbol: str) -> str:
    return "".join(GREEK.get(ch, ch) for ch in symbol)


def _per_numbered(
    w: Written,
    source: str,
    name: str,
    expression: str,
    right: Collection[str],
    known: Collection[str],
    given: Mapping[str, tuple[float, str | None]],
) -> list[DefinedQuantity]:
    """A definition over a symbol the law numbers ("k" of k1, k2: a fast and
    a slow phase), made once for each numbered one, named after it; none
    when more than one symbol is missing or the law numbers none."""
    missing = [r for r in right if r not in known and r not in given]
    if len(missing) != 1:
        return []
    (symbol,) = missing
    numbered = sorted(q for q in known if re.fullmatch(rf"{re.escape(symbol)}_?\d+", q))
    if len(numbered) < 2:
        return []
    out = []
    for q in numbered:
        used = {s: given[s] for s in right if s in given and s not in known}
        out.append(
            DefinedQuantity(
                name=f"{name}_{q}",
                expression=re.sub(rf"\b{re.escape(symbol)}\b", q, expression),
                written=w.quote,
                constants=tuple(sorted((s, v, u) for s, (v, u) in used.items())),
                asked=asks(w.clause) is not None,  # defined where the notes ask
                label=f"{w.lhs.strip()} ({q})",
                evidence=Evidence(
                    source=source,
                    phrase=w.quote,
                    reason=f"the notes define {name} from {symbol}; the law has "
                    f"{', '.join(numbered)}: one for each, from the fitted {q}",
                ),
            )
        )
    return out


def _asked(
    notes: Notes, name: str, spans: Mapping[int, list[tuple[int, int]]]
) -> tuple[bool, str | None]:
    """Whether a clause that asks names the symbol outside an equation, and
    the notes' words for it there."""
    for clause in notes.clauses:
        if asks(clause) is None:
            continue
        for m in SYMBOL_IN_TEXT.finditer(clause.text):
            if not same_symbol(m.group(1), name):
                continue
            if any(a <= m.start(1) < b for a, b in spans.get(clause.index, [])):
                continue
            return True, notes_name(clause, m.start(1))
    return False, None
