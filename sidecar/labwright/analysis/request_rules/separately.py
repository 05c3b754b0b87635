"""Laws the notes ask fitted group by group.

"Fit the line separately before and after insulation", "分别拟合草甘膦组和
灭草松组", "fit each treatment separately": a clause that says *separately*
(分别, for each group) and names two or more groups of a category column of
a table (its values: "before", "after") or the column itself asks one fit
per group. Fitted over all the rows, two groups with different slopes give
one slope that belongs to neither: a correct number for the wrong question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.analysis.request import Evidence, SeparateFits
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.subsets import MAX_LEVELS, level_values
from labwright.ingest.types import Dataset

_CUE = re.compile(
    r"\bseparate(?:ly)?\b|\bfor each (?:group|level|condition|treatment|sample|series|batch)\b"
    r"|\beach (?:group|condition|treatment|batch)\b|\bby group\b|\bper group\b"
    r"|分别|各组|每组|逐组",
    re.I,
)


def _named(word: str, text: str) -> bool:
    """`word` written in `text` as a word of its own (any case)."""
    word = word.strip()
    if not word:
        return False
    if not word.isascii():
        return word in text
    return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w.])", text, re.I) is not None


def separate_fits(
    notes: Notes, tables: Sequence[tuple[Dataset, list[FolderColumn]]]
) -> list[SeparateFits]:
    out: list[SeparateFits] = []
    seen: set[tuple[str, str | None, str]] = set()
    for clause in notes.clauses:
        cue = _CUE.search(clause.text)
        if cue is None:
            continue
        for ds, cols in tables:
            for col in cols:
                key = (col.file, col.sheet, col.name)
                if col.role != "category" or key in seen:
                    continue
                groups = [name for name, _ in _levels(ds, col.name)]
                if not 2 <= len(groups) <= MAX_LEVELS:
                    continue
                named = [g for g in groups if _named(g, clause.text)]
                if len(named) < 2 and not _named(col.name, clause.text):
                    continue
                seen.add(key)
                which = ", ".join(named) if len(named) >= 2 else col.name
                out.append(SeparateFits(
                    file=col.file, sheet=col.sheet, column=col.name,
                    evidence=Evidence(
                        source=clause.source, phrase=clause.text[:200],
                        reason=f"the notes ask for it '{cue.group(0)}' by {col.name} ({which}): "
                        "one fit per group",
                    ),
                ))  # fmt: skip
    return out


def _levels(ds: Dataset, column: str) -> list[tuple[str, str | float]]:
    try:
        return level_values(ds, column)
    except KeyError:
        return []
