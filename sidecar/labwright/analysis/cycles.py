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


# "Timed 20 full oscillations", "we recorded the time for 10 swings",
# "20 oscillations were timed", "记录摆动 30 次全振动的时间", "测 50 个周期".
_TIMED = re.compile(
    r"\b(?:tim(?:e|ed|ing)|measured|recorded|stopwatch(?:ed)?)\b[^.;:\n]{0,30}?\b(\d{1,3})\s+"
    r"(?:full\s+|complete\s+|whole\s+)?(?:periods|oscillations|swings|cycles|vibrations)\b"
    r"|\b(\d{1,3})\s+(?:full\s+|complete\s+|whole\s+)?(?:periods|oscillations|swings|cycles|"
    r"vibrations)\s+(?:were|was|are)\s+timed\b"
    r"|(?:记录|测量?|计时|秒表)[^。；，,\n]{0,12}?(\d{1,3})\s*(?:个周期|次全振动|次振动|次摆动|个全振动)",
    re.I,
)
_COUNTED = re.compile(
    r"\b(\d{1,3})\s+(?:full\s+|complete\s+|whole\s+)?(?:periods|oscillations|swings|cycles|"
    r"vibrations)\b|(?<!\d)(\d{1,3})\s*(?:个周期|次全振动|次振动|次摆动|个全振动)",
    re.I,
)
# A period name: such a column holds the period itself ("T (s)", "周期 T", "period").
_PERIOD_NAME = re.compile(r"(?<![A-Za-z])(?-i:T)\d*(?![A-Za-z])|period|周期", re.I)


def cycles_timed_in_notes(text: str) -> int | None:
    """How many periods the notes say each time reading spans ("Timed 20
    full oscillations for each length"), when they say one count only."""
    if not any(p.search(text) for p in (_TIMED, _SAID)):
        return None
    # Every count of swings the notes mention must agree: "10 swings for the
    # short lengths and 20 for the long ones" is no one count.
    counts = {int(next(g for g in m.groups() if g)) for m in _COUNTED.finditer(text)} - {1}
    return counts.pop() if len(counts) == 1 else None


def is_time_reading(name: str, dimension: str | None, time: str | None) -> bool:
    """A column of time readings ("t1 (s)", "time"), not one named the period."""
    return dimension is not None and dimension == time and not _PERIOD_NAME.search(name)


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
