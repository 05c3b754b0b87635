"""A value the notes give to compare with, put beside the answer it is of.

The notes often give the value without saying of what ("compare it with the
accepted value 299792.458 km/s"), or in words no catalogue entry knows.
Such a free reference (`request_rules/references.py`) belongs to the asked
answer of its dimension; when no asked quantity, or more than one, has that
dimension, it belongs to none (a guess would compare the wrong numbers).
The notes' value is what the reader asked to be compared with, so it
replaces a catalogue reference (9.81 m/s² as written, not 9.806), never
another value the notes give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from labwright.analysis.quantities import factor
from labwright.analysis.request import ExpectedValue
from labwright.analysis.request_rules.references import FREE
from labwright.analysis.results import Answer, Comparison

NOTES = "the notes"


def _conversion(reference_unit: str | None, answer_unit: str | None) -> float | None:
    """The factor from the reference's unit to the answer's, or None when the
    two are not the same kind of quantity (both unitless is the same kind)."""
    if not reference_unit and not answer_unit:
        return 1.0
    if not reference_unit or not answer_unit:
        return None
    return factor(reference_unit, answer_unit)


def with_free_references(
    answers: Sequence[Answer], expected: Sequence[ExpectedValue]
) -> list[Answer]:
    out = list(answers)
    for ref in (e for e in expected if e.quantity == FREE):
        fits = [
            (i, f)
            for i, a in enumerate(out)
            if a.asked
            and (a.comparison is None or a.comparison.source != NOTES)
            and (f := _conversion(ref.unit, a.unit)) is not None
        ]
        # One asked quantity of that kind, answered once or once per file.
        if len({out[i].quantity for i, _ in fits}) != 1:
            continue
        for i, f in fits:
            unc = None if ref.uncertainty is None else ref.uncertainty * f
            comparison = Comparison(ref.value * f, unc, out[i].unit, NOTES)
            out[i] = replace(out[i], comparison=comparison)
    return out
