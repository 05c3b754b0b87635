"""Whether the notes ask for a law's linearised method ("ln p against 1/T",
"由 ln p 对 1/T 作图", the law written as "ln p = -ΔH/(RT) + C").

A scientist asked to find ΔH from the ln p–1/T line takes it from the
line's slope (ordinary least squares of the transformed data), not from a
nonlinear fit of p, whose weights differ: on mercury's vapour pressure the
two give 60.75 ± 0.15 and 59.57 ± 0.03 kJ/mol. The catalogue's
`linear_plot` says what the line is; the notes ask for it when they write
its ordinate (the logarithm or the reciprocal of the response, as the plot
has it) with one of the response's symbols, as a plot ("ln p 对 1/T 作图",
"1/v against 1/u") or as the left side of the line's equation ("ln p =
-ΔH/(RT) + C"). The law itself written with the same term ("1/f = 1/u +
1/v") asks for no plot: its 1/v is one term of the law, and a free straight
line through 1/v against 1/u would answer f from another method.
"""

from __future__ import annotations

import re

from labwright.analysis.catalogue.schema import ModelEntry

_LOG = re.compile(r"^\s*log(?:10)?\s*\(")
_RECIPROCAL = re.compile(r"^\s*1\s*/\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*$")
# After the ordinate: it is the left side of an equation, or plotted against something.
_AS_ORDINATE = re.compile(
    r"\s*\)?\s*(?:=|against\b|vs\b\.?|versus\b|对|与|[–—~]|-(?=\s*(?:1\s*/|ln|lg|log)))",
    re.I,
)
# Before it, in the same sentence: the notes ask for a plot or a straight line.
_PLOT_WORDS = re.compile(
    r"\b(?:plot|plotting|plotted|graph|graphing|lineari[sz]\w*|straight[- ]line)\b"
    r"|作图|作出|画出|图像|直线|线性化",
    re.I,
)
_SENTENCE_END = re.compile(r"[.。;；\n]")


def _forms(entry: ModelEntry) -> list[str]:
    response = entry.response
    names = [response.name, *response.symbols]
    return [n for n in dict.fromkeys(names) if re.fullmatch(r"[A-Za-z][\w\[\]]*", n)]


def asks_linearised(entry: ModelEntry, notes: str) -> bool:
    """The notes write the ordinate of the entry's linearised plot."""
    plot = entry.linear_plot
    if plot is None or not plot.from_line or not notes:
        return False
    response = entry.response.name
    symbols = "|".join(re.escape(s) for s in _forms(entry))
    if not symbols:
        return False
    if _LOG.match(plot.y) and response in plot.y:
        pattern = rf"(?<![A-Za-z])(?:ln|lg|log|log10)\s*\(?\s*(?:{symbols})(?![\w\[])"
    elif (m := _RECIPROCAL.match(plot.y)) and m.group(1) == response:
        pattern = rf"(?<![\w.])1\s*/\s*\(?\s*(?:{symbols})(?![\w\[])"
    else:
        return False
    return any(_asked_as_plot(notes, m) for m in re.finditer(pattern, notes))


def _asked_as_plot(notes: str, m: re.Match[str]) -> bool:
    if _AS_ORDINATE.match(notes, m.end()):
        return True
    before = notes[: m.start()]
    ends = list(_SENTENCE_END.finditer(before))
    sentence = before[ends[-1].end() :] if ends else before
    return _PLOT_WORDS.search(sentence) is not None
