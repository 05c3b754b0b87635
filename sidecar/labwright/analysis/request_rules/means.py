"""A quantity asked as the mean of repeated readings, named by a symbol.

"Give the mean density D with its standard error", "求 d 的平均值": the
readings are a file of one measured column (Cavendish's 29 determinations,
ten timings of one swing), and the asked symbol names their mean, which no
catalogue law has. Read here as an asked quantity of no law; the repeated-
readings analysis answers it, and a quantity the notes then define from it
("G = 3 g / (4 π R ρ_w D)") is computed from the mean with its standard
error (analysis/defined.py).
"""

from __future__ import annotations

import re

from labwright.analysis.request import AskedQuantity, Evidence
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.text import Notes

# One letter, with a subscript or digits (D, d, ρ_w, L1, t_1): "rate" or
# "mass" after "the average growth" is a word, not a symbol.
_SYMBOL = r"(?P<sym>[A-Za-zΑ-Ωα-ω](?:_[A-Za-z0-9]{1,3}|\d{1,2})?)"
# "the mean density D", "the average period T_1": a name of at most three
# words; "Average the scans and fit ... on a linear baseline" is a verb.
_EN = re.compile(
    r"\b(?:the\s+)?(?:mean|average)(?!\s+the\b)\s+(?:value\s+of\s+(?:the\s+)?)?"
    r"(?P<words>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)\s*,?\s+" + _SYMBOL + r"(?![\w(=])(?!\s*=)",
    re.I,
)
_ZH = re.compile(_SYMBOL + r"\s*的\s*(?:平均值|均值)")
#: Words before a symbol that are no name of a quantity.
_NOT_NAMES = re.compile(
    r"\b(?:of|and|or|with|from|over|for|in|on|is|are|value|values)$|\b(?:and|or)\b", re.I
)


def asked_means(notes: Notes) -> list[AskedQuantity]:
    """Each symbol the notes ask the mean of, once, with their words for it."""
    out: dict[str, AskedQuantity] = {}
    for clause in notes.clauses:
        verb = asks(clause)
        if verb is None:
            continue
        for pattern in (_EN, _ZH):
            for m in pattern.finditer(clause.text):
                sym = m.group("sym")
                words = (m.groupdict().get("words") or "").strip()
                if sym in out or (words and _NOT_NAMES.search(words)):
                    continue
                out[sym] = AskedQuantity(
                    quantity=sym,
                    name=words or None,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=m.group(0).strip(),
                        reason=f"the mean of the readings of {sym} is asked ({verb!r})",
                    ),
                )
    return list(out.values())
