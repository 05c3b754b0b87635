"""The zero-token regression gate after each reflection round.

Losing content is detectable without a model, so no model judges it: a round
that loses the skeleton, shrinks below 60% of the previous length, lowers the
structure score, loses citation keys, or has fewer sections, figures or tables
is reverted and reflection stops. An unchanged draft stops as converged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from labwright.verify.citations import cite_keys
from labwright.verify.score import score_report
from labwright.verify.texts import SECTION, strip_comments

MIN_LENGTH_RATIO = 0.6
_FIGURE = re.compile(r"\\includegraphics")
_TABLE = re.compile(r"\\begin\{(?:tabular[x*]?|longtable)\}")

Outcome = Literal["kept", "regressed", "converged"]


@dataclass
class GateResult:
    outcome: Outcome
    reasons: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.outcome == "kept"


def _count(pattern: re.Pattern[str], tex: str) -> int:
    return len(pattern.findall(strip_comments(tex)))


def regression_check(previous: str, new: str, bib: str | None = None) -> GateResult:
    """Compare a revised draft with the one it revises. `bib=None` while no
    bibliography exists yet: citation closure is then left out of the score and
    citation loss is judged only by the key set not shrinking."""
    if "".join(previous.split()) == "".join(new.split()):
        return GateResult("converged", ["the revision changed nothing"])
    reasons: list[str] = []
    for marker in ("\\documentclass", "\\end{document}"):
        if marker in previous and marker not in new:
            reasons.append(f"the revision lost {marker}")
    if len(new) < MIN_LENGTH_RATIO * len(previous):
        reasons.append(
            f"the revision is {len(new) / max(1, len(previous)):.0%} of the previous length"
        )
    old_score, new_score = score_report(previous, bib).score, score_report(new, bib).score
    if new_score < old_score:
        reasons.append(f"the structure score fell from {old_score:.2f} to {new_score:.2f}")
    lost = sorted(set(cite_keys(previous)) - set(cite_keys(new)))
    if lost:
        reasons.append("citations were lost: " + ", ".join(lost))
    for name, pattern in (("sections", SECTION), ("figures", _FIGURE), ("tables", _TABLE)):
        before, after = _count(pattern, previous), _count(pattern, new)
        if after < before:
            reasons.append(f"fewer {name}: {after} instead of {before}")
    if reasons:
        return GateResult("regressed", reasons)
    return GateResult("kept", [])
