"""Judge one build's provenance record against a folder's truth.

An answer matches a truth when its quantity key, the notes' own symbol for
it (hmax for A_inf) or its label, normalised
(case, spaces, underscores, hyphens and punctuation dropped), is one of the
truth's names. It is *within* when, converted to the truth's unit, it lies
within 3 of its own standard errors of the true value; an answer without a
standard error is never within (a number without an uncertainty cannot be
checked). A truth marked unanswerable is handled when no answer claims it
and the record's `unanswered` names it. A *harmful* analysis is one whose
fitted response or summarised column is a controlled variable or an index.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tests.labset.folder import LabFolder, Truth

_DROP = re.compile(r"[\s_\-.,:;'’()\[\]{}/\\]+")


def norm(name: str) -> str:
    return _DROP.sub("", name.casefold())


@dataclass
class TruthScore:
    truth: Truth
    answered: bool = False
    within: bool = False
    value: float | None = None  # the answer, in the truth's unit
    se: float | None = None
    note: str = ""


@dataclass
class FolderScore:
    folder: LabFolder
    truths: list[TruthScore] = field(default_factory=list)
    harmful: list[str] = field(default_factory=list)
    unknown_columns: int = 0  # analyses that did not say which columns they used
    seconds: float = 0.0
    error: str = ""


@cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry()


_UNIT_FIXES = (
    ("²", "**2"), ("³", "**3"), ("⁻¹", "**-1"), ("⁻²", "**-2"), ("µ", "u"), ("μ", "u"),
    ("Ω", "ohm"), ("°C", "degC"), ("℃", "degC"), ("·", "*"), ("−", "-"), ("%", "percent"),
)  # fmt: skip


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")


def _unit(text: str | None) -> Any:
    ureg = _registry()
    text = (text or "").strip()
    if text in ("", "1", "-", "dimensionless"):
        return ureg.dimensionless
    # Superscript powers as reports print them ("m⁻³", "s⁻¹"): pint reads "**-3".
    text = re.sub("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+", lambda m: "**" + m.group(0).translate(_SUPERSCRIPTS), text)
    for a, b in _UNIT_FIXES:
        text = text.replace(a, b)
    return ureg.parse_units(text)


def convert(value: float, unit: str | None, target: str) -> float | None:
    """`value` in `unit` expressed in `target`, or None if they differ in kind."""
    ureg = _registry()
    try:
        return float(ureg.Quantity(value, _unit(unit)).to(_unit(target)).magnitude)
    except Exception:  # noqa: BLE001 - any unit the registry cannot read is a mismatch
        return None


def _scale(unit: str | None, target: str) -> float | None:
    """The factor of a standard error (a difference: no offset)."""
    ureg = _registry()
    try:
        src, dst = _unit(unit), _unit(target)
        if src == ureg.degC or dst == ureg.degC:  # a temperature difference
            src = ureg.delta_degC if src == ureg.degC else src
            dst = ureg.delta_degC if dst == ureg.degC else dst
        return float(ureg.Quantity(1.0, src).to(dst).magnitude)
    except Exception:  # noqa: BLE001
        return None


def _names(answer: dict[str, Any]) -> set[str]:
    """The answer's names; one of several tables' answers of a quantity is
    also named with its table ("EC50 (草甘膦)", "b (Before)"), as the report
    names it."""
    names = [str(answer.get(k) or "") for k in ("quantity", "symbol", "label")]
    part = answer.get("part")
    if part:
        names += [f"{n} ({part})" for n in names[:2] if n]
    return {norm(n) for n in names} - {""}


def _score_truth(
    truth: Truth, answers: list[dict[str, Any]], unanswered: list[dict[str, Any]]
) -> TruthScore:
    wanted = {norm(n) for n in truth.names}
    mine = [a for a in answers if _names(a) & wanted and a.get("value") is not None]
    ts = TruthScore(truth)
    if not truth.answerable:
        said = any(wanted & {norm(w) for w in re.split(r"[,;]", str(u.get("what", "")))} or
                   any(n in norm(str(u.get("what", ""))) for n in wanted if len(n) > 2)
                   for u in unanswered)  # fmt: skip
        ts.answered = said and not mine
        ts.note = (
            "" if ts.answered else ("invented a value" if mine else "not said to be unanswerable")
        )
        return ts
    if not mine:
        ts.note = "not in the answers"
        return ts
    ts.answered = True
    best: TruthScore | None = None
    for a in mine:
        value = convert(float(a["value"]), a.get("unit"), truth.unit)
        scale = _scale(a.get("unit"), truth.unit)
        se = a.get("se")
        cand = TruthScore(truth, answered=True)
        if value is None or scale is None:
            cand.note = f"unit {a.get('unit')!r} is not {truth.unit!r}"
        else:
            cand.value = value
            if se is None or not math.isfinite(float(se)) or float(se) <= 0:
                cand.note = "no standard error"
            else:
                cand.se = abs(float(se) * scale)
                cand.within = bool(abs(value - truth.value) <= 3 * cand.se)
                cand.note = f"{(value - truth.value) / cand.se:+.1f} SE"
        if best is None or (cand.within and not best.within):
            best = cand
    assert best is not None
    return best


def _column_name(ref: str) -> tuple[str, str]:
    file, _, column = ref.rpartition(": ")
    return file.strip(), column.strip()


def _harmful(folder: LabFolder, analyses: list[dict[str, Any]]) -> tuple[list[str], int]:
    bad, unknown = [], 0
    controlled = [_column_name(c) for c in folder.controlled]
    for a in analyses:
        cols = a.get("columns")
        if not isinstance(cols, dict):
            unknown += 1
            continue
        for use in ("y", "summarised"):
            for ref in cols.get(use) or []:
                file, column = _column_name(str(ref))
                for cf, cc in controlled:
                    if column == cc and cf in file:
                        bad.append(f"{a.get('kind')}: {use} = {ref}")
    return bad, unknown


def score(folder: LabFolder, record: dict[str, Any]) -> FolderScore:
    """`record`: the `analysis` section of the build's provenance.json."""
    answers = list(record.get("answers") or [])
    unanswered = list(record.get("unanswered") or [])
    fs = FolderScore(folder, [_score_truth(t, answers, unanswered) for t in folder.truths])
    fs.harmful, fs.unknown_columns = _harmful(folder, list(record.get("analyses") or []))
    return fs
