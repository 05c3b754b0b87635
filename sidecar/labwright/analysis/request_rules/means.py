"""A quantity asked as the mean of repeated readings, named by a symbol or
by the name of the quantity its column holds.

"Give the mean density D with its standard error", "求 d 的平均值": the
readings are a file of one measured column (Cavendish's 29 determinations,
ten timings of one swing), and the asked symbol names their mean, which no
catalogue law has. Read here as an asked quantity of no law; the repeated-
readings analysis answers it, and a quantity the notes then define from it
("G = 3 g / (4 π R ρ_w D)") is computed from the mean with its standard
error (analysis/defined.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from labwright.analysis import quantities
from labwright.analysis.catalogue.schema import Input, ModelEntry, Parameter, Variable
from labwright.analysis.request import (
    AskedQuantity,
    Evidence,
    ExpectedValue,
    GivenConstant,
    Unanswered,
)
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.text import Notes

# One letter, with a subscript or digits (D, d, ρ_w, L1, t_1): "rate" or
# "mass" after "the average growth" is a word, not a symbol.
_SYMBOL = r"(?P<sym>[A-Za-zΑ-Ωα-ω](?:_[A-Za-z0-9]{1,3}|\d{1,2})?)"
# "the mean density D", "the average period T_1": a name of at most three
# words; "Average the scans and fit ... on a linear baseline" is a verb.
_EN = re.compile(
    r"\b(?:the\s+)?(?:mean|average)(?!\s+the\b)\s+(?:value\s+of\s+(?:the\s+)?)?"
    r"(?P<words>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)\s*,?\s+" + _SYMBOL + r"(?![\w(=])(?!\s*=)",
    re.I,
)
_ZH = re.compile(_SYMBOL + r"\s*的\s*(?:平均值|均值)")
#: Words before a symbol that are no name of a quantity.
_NOT_NAMES = re.compile(
    r"\b(?:of|and|or|with|from|over|for|in|on|is|are|value|values)$|\b(?:and|or)\b", re.I
)


def asked_means(notes: Notes) -> list[AskedQuantity]:
    """Each symbol the notes ask the mean of, once, with their words for it."""
    out: dict[str, AskedQuantity] = {}
    for clause in notes.clauses:
        verb = asks(clause)
        if verb is None:
            continue
        for pattern in (_EN, _ZH):
            for m in pattern.finditer(clause.text):
                sym = m.group("sym")
                words = (m.groupdict().get("words") or "").strip()
                if sym in out or (words and _NOT_NAMES.search(words)):
                    continue
                out[sym] = AskedQuantity(
                    quantity=sym,
                    name=words or None,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=m.group(0).strip(),
                        reason=f"the mean of the readings of {sym} is asked ({verb!r})",
                    ),
                )
    return list(out.values())


def named_means(
    unanswered: Sequence[Unanswered],
    readings: Sequence[FolderColumn],
    entries: Iterable[ModelEntry],
    notes: Notes,
) -> tuple[list[AskedQuantity], list[Unanswered]]:
    """Quantities asked by name that a column of repeated readings holds:
    "estimate the resistance from repeated measurements" over a file whose
    one measured column is R (ohm). No law of the experiment gives the
    resistance, but the catalogue's laws call a resistance R, in a unit of
    R's dimension: the mean of the readings answers it. Returns the asked
    quantities and the unanswered items that are left."""
    if len(readings) != 1:
        return [], list(unanswered)
    col = readings[0]
    names = _names_of(col, entries)
    asked: list[AskedQuantity] = []
    left: list[Unanswered] = []
    for u in unanswered:
        words = u.what.strip()
        if u.model is not None or words.casefold() not in names:
            left.append(u)
            continue
        clause = next((c for c in notes.clauses if words in c.text), None)
        asked.append(AskedQuantity(
            quantity=col.name, name=words,
            evidence=Evidence(
                source=clause.source if clause else "columns", phrase=words,
                reason=f"the {words} is asked, and the column {col.name} holds repeated "
                f"readings of it: their mean answers it",
            ),
        ))  # fmt: skip
    return asked, left


def _names_of(col: FolderColumn, entries: Iterable[ModelEntry]) -> set[str]:
    """What the column is called: its own name, and the names the catalogue's
    laws give a quantity of that symbol in a unit of the column's dimension
    (R in ohm is a resistance; R in m, a projectile's range, is not)."""
    names = {col.name.casefold()}
    unit = quantities.parse_unit(col.unit) if col.unit else None
    for e in entries:
        symbols: list[Variable | Parameter | Input] = [*e.variables, *e.parameters, *e.inputs]
        for v in symbols:
            if v.name != col.name:
                continue
            # A parameter's unit may be a template of its variables' ("{v}/{S}"):
            # a column with a unit is held to a symbol of a known unit.
            typical = quantities.parse_unit(v.unit) if v.unit and "{" not in v.unit else None
            if unit is not None and (
                typical is None or unit.dimensionality != typical.dimensionality
            ):
                continue
            names |= {v.label.en.casefold(), v.label.zh}
    return names


def nominal_values(
    asked: Sequence[AskedQuantity],
    constants: Sequence[GivenConstant],
    expected: Sequence[ExpectedValue],
) -> list[ExpectedValue]:
    """The value the notes give a symbol whose readings' mean is asked ("a
    nominal 1 kOhm resistor" beside readings of R): what the mean is
    compared with, unless the notes already give one for it."""
    have = {e.quantity for e in expected}
    out = []
    for a in asked:
        c = next((c for c in constants if c.symbol == a.quantity), None)
        if c is None or a.quantity in have:
            continue
        out.append(ExpectedValue(
            quantity=a.quantity, value=c.value, uncertainty=c.uncertainty, unit=c.unit,
            evidence=Evidence(
                source=c.evidence.source, phrase=c.evidence.phrase,
                reason=f"the value the notes give for {a.quantity}, which its readings measure",
            ),
        ))  # fmt: skip
    return out
