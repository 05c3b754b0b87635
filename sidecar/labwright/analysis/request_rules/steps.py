"""A column the notes say was stepped: "every 0.5 V", "in steps of 5 °C",
"每隔 0.5 V 记录一次电流", "步长 10 mm".

A step the experimenter states is a value they dialled, and the column of
that unit whose values climb by exactly that step is the one they set (the
current read at each step is the measurement). Both must hold: a "0.5 V"
step beside a voltage column that does not step by 0.5 V says nothing of
that column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from labwright.analysis.quantities import dimensionality, factor
from labwright.ingest.types import Column

_NUMBER = r"(?P<num>\d+(?:\.\d+)?)"
_UNIT = r"(?P<unit>[A-Za-zµμΩ°℃%][A-Za-zµμΩ°/]{0,8})"
_STEPS = (
    re.compile(
        r"(?:\bevery|\bin\s+steps\s+of|\bsteps?\s+of|\bincrements?\s+of|\bintervals?\s+of"
        r"|每隔|每间隔|间隔|步长(?:为|是)?|每增加|每)\s*" + _NUMBER + r"\s*" + _UNIT,
        re.I,
    ),
    re.compile(_NUMBER + r"\s*" + _UNIT + r"\s*(?:-\s*)?(?:steps|increments|intervals)\b", re.I),
)
#: The relative difference within which a column's steps equal the stated one
#: (a reading written as 0.50, 1.00, 1.49 is still stepped by 0.5).
_TOLERANCE = 0.02


def stated_steps(text: str) -> list[tuple[float, str]]:
    """Every step the text states, as (value, unit), units that are units only."""
    out: list[tuple[float, str]] = []
    for pattern in _STEPS:
        for m in pattern.finditer(text):
            unit = m.group("unit").rstrip("/")
            if dimensionality(unit) is not None:
                out.append((float(m.group("num")), unit))
    return out


def stepped_by(col: Column, unit: str | None, steps: Sequence[tuple[float, str]]) -> str | None:
    """The stated step the column climbs by, as written ("0.5 V"), or None."""
    if not col.is_numeric or unit is None or not steps:
        return None
    values = np.asarray(col.values, dtype=float)
    levels = np.unique(values[np.isfinite(values)])
    if levels.size < 3:
        return None
    climbs = np.diff(levels)
    for value, said in steps:
        scale = factor(said, unit)
        if scale is None or value <= 0:
            continue
        step = value * scale
        if np.all(np.abs(climbs - step) <= _TOLERANCE * step):
            return f"{value:g} {said}"
    return None
