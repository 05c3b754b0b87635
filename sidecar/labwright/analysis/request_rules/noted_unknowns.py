"""Unknown samples whose readings the notes write out.

Calibration handouts often give the unknown's readings in the text, not in
a file: "the unknown read 0.498, 0.503 and 0.499", "未知样平行测定三次，
吸光度为 0.498、0.503、0.499". They are read back on the calibration line
as a table of unknowns would be.
"""

from __future__ import annotations

import re

from labwright.analysis.request import Evidence, NotedReadings
from labwright.analysis.request_rules.text import Notes

_NUM = r"[-+]?\d+(?:\.\d+)?"
# The sample's name: "未知样", "未知液 A", "样品 2", "the unknown", "unknown B", "sample X".
_SAMPLE = re.compile(
    r"(未知(?:样品?|液|溶液|试样)(?:\s*[A-Z0-9]\b)?|待测(?:样品?|液)(?:\s*[A-Z0-9]\b)?|"
    r"\bunknowns?(?:\s+[A-Z0-9]\b)?|\bsample\s+[A-Z0-9]\b|\btest solution)",
    re.I,
)
# Two or more readings in a list, or one after "read"/"为"/"gave".
_LIST = re.compile(
    rf"(?<![\d.])({_NUM}(?:\s*(?:、|,|，|;|；|\band\b|和|及)\s*{_NUM})+)(?!\d|\.\d|\s*[A-Za-zµ°%])"
)
_ONE = re.compile(
    rf"(?:\bread|\bgave|\bshowed|\bof|为|是|:|：)\s*({_NUM})(?!\d|\.\d|\s*[A-Za-zµ°%/])", re.I
)


def noted_unknowns(notes: Notes) -> list[NotedReadings]:
    out: list[NotedReadings] = []
    seen: set[str] = set()
    for clause in notes.clauses:
        sample = _SAMPLE.search(clause.text)
        if sample is None:
            continue
        rest = clause.text[sample.end() :]
        m = _LIST.search(rest) or _ONE.search(rest)
        if m is None:
            continue
        values = tuple(float(v) for v in re.findall(_NUM, m.group(1)))
        label = sample.group(1).strip()
        if label in seen or not values:
            continue
        seen.add(label)
        out.append(
            NotedReadings(
                label=label,
                values=values,
                evidence=Evidence(
                    source=clause.source,
                    phrase=clause.quote(sample.start(), sample.end() + m.end()),
                    reason=f"the notes give the readings of {label}: read back on the "
                    "calibration line",
                ),
            )
        )
    return out
