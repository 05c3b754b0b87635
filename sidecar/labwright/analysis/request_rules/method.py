"""How the notes ask the data to be used: replicates averaged or fitted
together, and the procedure when it is not one curve fit.

"Average the three replicates", "use the mean of the repeats", "取三次平均"
-> average; "fit all runs together", "a global fit", "一起拟合" -> together.
The procedure comes from the laws (an entry that names one: titration end
points, inverse calibration; a composite of peaks), from a run series
bound across its file names, and from the notes for the two that no law
names: a designed experiment with factors ("two-factor", "ANOVA",
"interaction", "双因素", "方差分析") and the period of a cycle
("periodogram", "the cycle period").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import get_args

from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.request import Binding, Procedure
from labwright.analysis.request_rules.text import Notes

_AVERAGE = re.compile(
    r"\b(?:average|averaged|mean of the (?:replicates|repeats|runs|scans|trials|measurements)|"
    r"use the mean|take the mean|averaging)\b|取平均|求平均|平均值作为|取均值|平均后",
    re.I,
)
_TOGETHER = re.compile(
    r"\b(?:fit(?:ted)? (?:all|the) (?:\w+ )?(?:replicates|repeats|runs|scans|data sets|curves) "
    r"(?:together|simultaneously|at once)|global fit|globally|fit(?:ted)? together|"
    r"pool(?:ed)? (?:the )?(?:replicates|repeats|data))\b|一起拟合|同时拟合|合并拟合|全局拟合",
    re.I,
)
_FACTORIAL = re.compile(
    r"\b(?:two|three|2|3)[- ](?:factor|way)\b|\bfactorial\b|\banova\b|\binteraction\b|"
    r"\bdesigned experiment\b|双因素|两因素|多因素|方差分析|交互作用|正交试验|析因",
    re.I,
)
_PERIODOGRAM = re.compile(
    r"\bperiodogram\b|\bautocorrelation\b|\bspectral analysis\b|\bcycle (?:period|length)\b|"
    r"\bperiod of the (?:cycle|oscillation|signal|series)\b|周期图|自相关|周期长度",
    re.I,
)
_REPLICATE_WORDS = re.compile(r"replicat|repeat|\bruns\b|\bscans\b|\btrials\b|重复|三次|平行", re.I)
_PROCEDURES: frozenset[str] = frozenset(get_args(Procedure))


def replicates(notes: Notes) -> tuple[str, str] | None:
    """("average" | "together", the phrase)."""
    for clause in notes.clauses:
        m = _TOGETHER.search(clause.text)
        if m:
            return "together", m.group(0)
        m = _AVERAGE.search(clause.text)
        if m and _REPLICATE_WORDS.search(notes.text):
            return "average", m.group(0)
    return None


def procedure(
    notes: Notes, entries: Sequence[ModelEntry], bindings: Sequence[Binding]
) -> Procedure | None:
    # A quantity found in each run comes first: the per-run law (a period by
    # periodogram) is then a step of the series, not the folder's procedure.
    if any(b.source == "per_run" for b in bindings):
        return "run_series"
    for entry in entries:
        if entry.procedure in _PROCEDURES:
            return entry.procedure  # type: ignore[return-value]
        if entry.composite is not None:
            return "peaks"
    if any(_FACTORIAL.search(c.text) for c in notes.clauses):
        return "factorial"
    if any(_PERIODOGRAM.search(c.text) for c in notes.clauses):
        return "periodogram"
    if entries:
        return "fit"
    return None
