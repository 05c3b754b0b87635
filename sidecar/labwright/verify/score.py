"""A reference-free structure score for a LaTeX report, from 0 to 1.

Eight deterministic checks that need no gold answer. The score gates the
reflection loop (a round that lowers it is reverted), so it is itself tested on
a good and a bad report before it may gate anything (tests/verify/test_score.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labwright.verify.citations import bib_keys, cite_keys
from labwright.verify.texts import SECTION, strip_comments

_ERROR_ANALYSIS = re.compile(
    r"uncertaint|error analysis|errors? propagat|standard error|systematic error|"
    r"random error|\\pm|误差|不确定度",
    re.IGNORECASE,
)
_TABLE = re.compile(r"\\begin\{(?:tabular[x*]?|longtable|table)\}")
_EQUATION = re.compile(
    r"\\begin\{(?:equation|align|gather|multline|eqnarray)\*?\}|\\\[|\$[^$]*=[^$]*\$"
)
# Phrases that mark machine filler rather than content; kept short and specific
# so that ordinary scientific prose never trips them.
FILLER_PHRASES = (
    "as an ai",
    "as a language model",
    "i hope this helps",
    "it is important to note that",
    "it is worth noting that",
    "in today's world",
    "delve into",
    "plays a crucial role",
    "a testament to",
    "作为一个人工智能",
    "作为ai",
    "希望对你有帮助",
    "值得注意的是",
)
_TODO = re.compile(
    r"\bTODO\b|\bTBD\b|\bFIXME\b|\bXXX\b|lorem ipsum|\\lipsum|\[insert[^\]]*\]|待补充|此处填写",
    re.IGNORECASE,
)

CHECKS = (
    "skeleton",
    "sections",
    "error_analysis",
    "citations_closed",
    "tables",
    "equations",
    "no_filler",
    "no_todo",
)


@dataclass
class StructureScore:
    score: float
    checks: dict[str, bool] = field(default_factory=dict)
    excluded: list[str] = field(default_factory=list)

    def failed(self) -> list[str]:
        return [name for name, ok in self.checks.items() if not ok]


def _body(tex: str) -> str:
    start = tex.find("\\begin{document}")
    return tex[start:] if start >= 0 else tex


def score_report(tex: str, bib: str | None = None) -> StructureScore:
    """Score `tex`. With `bib=None` (no bibliography yet, as during reflection)
    the citation check is excluded rather than failed: otherwise adding a
    citation before the .bib exists would read as a drop in quality."""
    clean = strip_comments(tex)
    body = _body(clean)
    lowered = body.lower()
    checks: dict[str, bool] = {
        "skeleton": "\\documentclass" in clean
        and "\\begin{document}" in clean
        and "\\end{document}" in clean,
        "sections": len(SECTION.findall(body)) >= 3,
        "error_analysis": bool(_ERROR_ANALYSIS.search(body)),
        "tables": bool(_TABLE.search(body)),
        "equations": bool(_EQUATION.search(body)),
        "no_filler": not any(phrase in lowered for phrase in FILLER_PHRASES),
        "no_todo": not _TODO.search(body),
    }
    excluded: list[str] = []
    if bib is None:
        excluded.append("citations_closed")
    else:
        available = bib_keys(bib)
        checks["citations_closed"] = all(k in available for k in cite_keys(clean))
    ordered = {name: checks[name] for name in CHECKS if name in checks}
    score = sum(ordered.values()) / len(ordered)
    return StructureScore(score=round(score, 4), checks=ordered, excluded=excluded)
