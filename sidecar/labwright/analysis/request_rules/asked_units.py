"""A column's unit from the unit the notes ask an answer in.

Real data often come without units ("Time", "weight"), and the notes say
them only through the answer: "report the growth rate r (per day) and the
inflection time t_mid (days)". The law's parameter has a unit made of its
variables' (r is 1/{t}, t_mid is {t}), so the unit asked for it gives the
unit of the one variable whose column has none: here the time is in days,
not the catalogue's typical hours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.quantities import parse_unit
from labwright.analysis.request import AskedQuantity, Binding, Evidence
from labwright.analysis.request_rules.text import Notes

# "r (per day)", "t_mid (days)", "k (in 1/min)", "S in µV/K".
_UNIT_AFTER = re.compile(r"^\s*(?:[A-Za-z_½]{1,8}\s*)?[(（]\s*(?:in\s+)?([^()（）]{1,16}?)\s*[)）]")
_PER = re.compile(r"^per\s+", re.I)
# The units a variable of no unit is tried in, by what it measures.
_CANDIDATES = ("s", "min", "h", "day", "week", "month", "year", "m", "cm", "mm", "g", "kg", "mg")


def _unit_text(raw: str) -> str | None:
    text = raw.strip()
    if _PER.match(text):
        text = "1/" + _PER.sub("", text)
    text = re.sub(r"\bdays\b", "day", text)
    text = re.sub(r"\bhours\b", "h", text)
    text = re.sub(r"\bweeks\b", "week", text)
    text = re.sub(r"\byears\b", "year", text)
    text = re.sub(r"\bminutes\b", "min", text)
    return text if parse_unit(text) is not None else None


def asked_units(notes: Notes, asked: Sequence[AskedQuantity]) -> dict[tuple[str | None, str], str]:
    """The unit written right after each asked quantity's phrase, by
    (model, quantity)."""
    out: dict[tuple[str | None, str], str] = {}
    for q in asked:
        phrase = q.evidence.phrase.strip()
        if not phrase:
            continue
        for clause in notes.clauses:
            at = clause.text.find(phrase)
            if at < 0:
                continue
            m = _UNIT_AFTER.match(clause.text[at + len(phrase) :])
            unit = _unit_text(m.group(1)) if m else None
            if unit is not None:
                out[(q.model, q.quantity)] = unit
                break
    return out


def _solve(template: str, variable: str, asked: str) -> str | None:
    """The unit of `variable` that makes `template` ("1/{t}") the asked unit."""
    want = parse_unit(asked)
    if want is None or "{" + variable + "}" not in template:
        return None
    for candidate in _CANDIDATES:
        text = template.replace("{" + variable + "}", f"({candidate})")
        if "{" in text:
            return None
        got = parse_unit(text)
        if got is None:
            continue
        try:
            from labwright.analysis.quantities import registry

            factor = registry().Quantity(1.0, got).to(want).magnitude
        except Exception:  # noqa: BLE001 - another dimension: not this candidate
            continue
        if abs(factor - 1.0) < 1e-9:
            return candidate
    return None


def with_asked_units(
    bindings: Sequence[Binding],
    entries: dict[str, ModelEntry],
    notes: Notes,
    asked: Sequence[AskedQuantity],
) -> list[Binding]:
    """The bindings, a column of no unit given the one the asked answer's unit implies."""
    units = asked_units(notes, asked)
    if not units:
        return list(bindings)
    out = []
    for b in bindings:
        entry = entries.get(b.model)
        if b.unit is not None or b.source != "column" or entry is None:
            out.append(b)
            continue
        found: tuple[str, str] | None = None
        for p in entry.parameters:
            asked_unit = units.get((b.model, p.name)) or units.get((None, p.name))
            if asked_unit and p.unit and (unit := _solve(p.unit, b.variable, asked_unit)):
                found = (unit, f"{p.name} is asked in {asked_unit}")
                break
        if found is None:
            out.append(b)
            continue
        unit, why = found
        out.append(
            b.model_copy(
                update={
                    "unit": unit,
                    "evidence": Evidence(
                        source=b.evidence.source,
                        phrase=b.evidence.phrase,
                        reason=f"{b.evidence.reason}; its unit is {unit}: the column gives none, "
                        f"and {why}",
                    ),
                }
            )
        )
    return out
