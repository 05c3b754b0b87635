"""How many peaks the notes ask to fit, and on which baseline.

"Fit three Gaussian peaks on a linear baseline", "用两个洛伦兹峰拟合，
线性背景": the count and the baseline are the notes' request, and the
composite fit takes them as given instead of choosing both by AICc (which
chose a quadratic baseline for three-peaks, where the notes and the truth
say linear). Only a count next to the word peak/line (峰/谱线) is read, so
"three repeat scans" or "three unknowns" are no peak count; a baseline
only with its own word (baseline, background, 基线, 背景).
"""

from __future__ import annotations

import re

from labwright.analysis.request_rules.text import Notes

_EN_NUMBERS = {
    "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8,
}  # fmt: skip
_ZH_NUMBERS = {
    "一": 1,
    "单": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
}
_SHAPE = (
    r"(?:(?:overlapping|gaussian|lorentzian|voigt|pseudo-voigt|emission|absorption|spectral)\s+)*"
)
_EN_COUNT = re.compile(
    r"\b(?P<n>[1-8]|" + "|".join(_EN_NUMBERS) + r")\s+" + _SHAPE + r"(?:peaks?|lines?)\b", re.I
)
_ZH_COUNT = re.compile(
    r"(?<!第)(?P<n>[1-8一单两二三四五六七八])\s*个?\s*(?:高斯|洛伦兹|Voigt|沃伊特)?\s*(?:峰|谱线)"
)
_BASELINES = (
    ("constant", r"\b(?:flat|constant)\s+(?:baseline|background)\b|(?:常数|平)(?:基线|背景)"),
    (
        "linear",
        r"\b(?:linear|sloping|straight[- ]line)\s+(?:baseline|background)\b|线性(?:基线|背景)",
    ),
    ("quadratic", r"\b(?:quadratic|parabolic)\s+(?:baseline|background)\b|二次(?:基线|背景)"),
)


def peak_count(notes: Notes) -> tuple[int, str] | None:
    """(the number of peaks, the phrase), from the first clause that says one."""
    for clause in notes.clauses:
        m = _EN_COUNT.search(clause.text)
        if m:
            word = m.group("n").lower()
            return (int(word) if word.isdigit() else _EN_NUMBERS[word]), m.group(0)
        m = _ZH_COUNT.search(clause.text)
        if m:
            word = m.group("n")
            return (int(word) if word.isdigit() else _ZH_NUMBERS[word]), m.group(0)
    return None


def baseline(notes: Notes) -> tuple[str, str] | None:
    """(the baseline's name in `engine_peaks`, the phrase)."""
    for clause in notes.clauses:
        for name, pattern in _BASELINES:
            m = re.search(pattern, clause.text, re.I)
            if m:
                return name, m.group(0)
    return None
