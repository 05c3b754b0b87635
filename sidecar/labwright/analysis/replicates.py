"""Replicate columns: one quantity measured several times in one table.

Students write repeats side by side as numbered columns: "v1, v2, v3",
"10T trial 1 .. 10T trial 3", "A_run1", "x #2", "OD600 第1瓶". The numbered siblings of
one stem are readings of the quantity the stem names, so "v1 (µmol/min)"
beside "v2", "v3" is Michaelis–Menten's rate v, read three times.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.ingest.tabular import is_generated_name

# Chinese counts end with a measure word: 第2次 (time), 第1瓶 (flask), 第3组
# (group), 2号 (number), 3管 (tube), 1孔 (well), 2皿 (dish), 1份 (portion).
STEM = re.compile(
    r"^(.*?)[\s_\-]*(?:#|no\.?|rep|run|trial|repeat|第)?[\s_\-]*(\d+)\s*"
    r"[次瓶组号管孔皿份遍回]?\s*$",
    re.I,
)


def stem_of(name: str) -> str | None:
    """The stem of a numbered column name ("v" of "v2", "10T" of "10T trial 3")."""
    if is_generated_name(name):
        return None  # "col1", "col2" of a headerless table are positions, not repeats
    m = STEM.match(name)
    if m is None or not m.group(1).strip():
        return None
    return m.group(1).strip()


def replicate_stems(names: Sequence[str]) -> dict[str, str]:
    """Column name -> stem, for the columns of a table that share their stem
    with at least one other column (a lone "v0" or "x1" is a name, not a
    repeat)."""
    stems = {n: stem_of(n) for n in names}
    counts: dict[str, int] = {}
    for s in stems.values():
        if s is not None:
            counts[s.casefold()] = counts.get(s.casefold(), 0) + 1
    return {n: s for n, s in stems.items() if s is not None and counts[s.casefold()] >= 2}
