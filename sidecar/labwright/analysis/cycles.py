"""A column that holds the time of several periods: "10T (s)", "20 swings".

A stopwatch is started and stopped over ten or twenty swings, and notebooks
record that time ("10T", "t(20 periods)", "30 次全振动时间"). A law's period
is that time divided by the count; fitted as the period it is off by the
count (a spring constant a hundred times too small).
"""

from __future__ import annotations

import re

_CYCLE_WORDS = (
    r"(?:T|periods?|oscillations?|swings?|cycles?|vibrations?|个周期|次全振动|次振动|次摆动|周期)"
)
# "10T", "10 T", "20 periods", "10×T", "30次全振动" at the start of a name.
_LEADING = re.compile(r"^\s*(\d{1,3})\s*[*×x·]?\s*" + _CYCLE_WORDS + r"(?![A-Za-z])")
# "time of 10 swings", "time for 20 oscillations", "10 个周期的时间" in the words for it.
_SAID = re.compile(
    r"\b(?:time|duration|t)\s+(?:of|for|taken for)\s+(\d{1,3})\s+(?:full\s+|complete\s+)?"
    r"(?:periods?|oscillations?|swings?|cycles?|vibrations?)\b"
    r"|(\d{1,3})\s*(?:个周期|次全振动|次振动|次摆动)\s*(?:的)?(?:时间|用时|所用时间)",
    re.I,
)


def cycles_in(name: str, said: str = "") -> int | None:
    """How many periods the column's time spans (10 for "10T"), or None.

    Read from the name, or from what the notes say of the column ("t_10: the
    time of 10 swings"); a count of 1 is the period itself."""
    for text, pattern in ((name, _LEADING), (name, _SAID), (said, _SAID)):
        m = pattern.search(text)
        if m is not None:
            n = int(next(g for g in m.groups() if g))
            return n if n > 1 else None
    return None
