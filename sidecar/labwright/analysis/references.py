"""Values the notes give to compare with, put beside the answers they are of.

The notes often give the value without saying of what ("compare it with the
accepted value 299792.458 km/s"), or in words no catalogue entry knows.
Such a free reference (`request_rules/references.py`) belongs to the asked
answer of its dimension; when no asked quantity, or more than one, has that
dimension, it belongs to none (a guess would compare the wrong numbers).
The notes' value is what the reader asked to be compared with, so it
replaces a catalogue reference (9.81 m/s² as written, not 9.806), never
another value the notes give.

"Compare the time constant with the product RC" gives no number at all: the
notes give the components, and each data set names its resistor
(`expected.RCQuestion`), so each fitted τ gets its own R C.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from labwright.analysis.expected import RCQuestion
from labwright.analysis.quantities import factor
from labwright.analysis.request import ExpectedValue
from labwright.analysis.request_rules.references import FREE
from labwright.analysis.results import Answer, Comparison

NOTES = "the notes"
#: The source of a τ expected from the components the notes give.
NOTES_RC = "R C from the notes"
_FROM_NOTES = frozenset({NOTES, NOTES_RC})


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
            and (a.comparison is None or a.comparison.source not in _FROM_NOTES)
            and (f := _conversion(ref.unit, a.unit)) is not None
        ]
        # One asked quantity of that kind, answered once or once per file.
        if len({out[i].quantity for i, _ in fits}) != 1:
            continue
        for i, f in fits:
            unc = None if ref.uncertainty is None else ref.uncertainty * f
            comparison = Comparison(ref.value * f, unc, out[i].unit, NOTES, ref.evidence.source)
            out[i] = replace(out[i], comparison=comparison)
    return out


def with_rc_expected(answers: Sequence[Answer], rc: RCQuestion | None) -> list[Answer]:
    """Each time constant τ beside R C of its data set's resistor and the
    notes' capacitor, with the tolerances' standard uncertainty."""
    out = list(answers)
    if rc is None:
        return out
    for i, a in enumerate(out):
        if a.quantity != "tau" or not a.sources or a.comparison is not None:
            continue
        where = a.sources[0]
        exp = rc.expected_for(where.file, where.sheet or "")
        f = factor("s", a.unit) if a.unit else None
        if exp is None or f is None:
            continue
        comparison = Comparison(exp.value * f, exp.u * f if exp.u else None, a.unit, NOTES_RC)
        out[i] = replace(a, comparison=comparison)
    return out
