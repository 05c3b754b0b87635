"""The notes' own name for a symbol they ask for.

"Find the asymptotic height hmax and the rate constant k" names hmax "the
asymptotic height": the report then labels the answer so, not with the
catalogue's label of the parameter the symbol maps to ("final value" of
A_inf), because the reader asked for a height. The name is the run of words
between an article (or a possessive) and the symbol, in the same clause; a
run that holds an asking verb or a function word is no name ("determine k"
has none). Chinese notes put the name right before the symbol ("渐近高度
hmax"); the run of characters after the last cue or particle is taken.
"""

from __future__ import annotations

import re

from labwright.analysis.request_rules.text import Clause

_ARTICLE_EN = re.compile(r"\b(?:the|a|an|its|their|our)\s+", re.I)
_WORDS_EN = re.compile(r"((?:[A-Za-z][A-Za-z-]*\s+){0,3}[A-Za-z][A-Za-z-]*)\s*,?\s*")
# Words that end a name: a name is nouns and adjectives, not a verb or a
# linking word ("the rate constant and k" names nothing before k).
_NOT_A_NAME = re.compile(
    r"\b(?:and|or|of|for|with|to|from|by|in|on|at|as|is|are|be|was|were|find|determine|"
    r"report|give|fit|estimate|compute|calculate|obtain|parameter|symbol)\b",
    re.I,
)
_RUN_ZH = re.compile(r"([\u4e00-\u9fff]{2,10})\s*$")
# A Chinese name starts after the last cue or particle of the run.
_CUT_ZH = re.compile(
    r".*(?:求出|求得|测定|计算|算出|得到|得出|确定|估计|拟合|给出|报告|以及|和|与|及|的|并|求|即|为|、)"
)


def notes_name(clause: Clause, start: int) -> str | None:
    """The words naming the symbol that starts at `start` of the clause's
    text, or None when the notes give it no name."""
    before = clause.text[:start]
    # The last article before the symbol: "the asymptote A and the midpoint
    # x0" names x0 "midpoint" (the first match, the symbol A read as "a",
    # would take "and the midpoint").
    articles = list(_ARTICLE_EN.finditer(before))
    if articles:
        m = _WORDS_EN.fullmatch(before, articles[-1].end())
        if m is None:
            return None
        words = m.group(1).strip()
        # "of" inside a name is part of it ("moment of inertia", "speed of
        # sound"); at its end, or any other linking word, makes it no name.
        inner = re.sub(r"(?<=\w) of (?=\w)", " ", words, flags=re.I)
        return None if _NOT_A_NAME.search(inner) else words.lower()
    z = _RUN_ZH.search(before)
    if z:
        run = _CUT_ZH.sub("", z.group(1))
        return run if len(run) >= 2 else None
    return None
