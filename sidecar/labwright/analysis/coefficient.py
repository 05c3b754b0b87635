"""A coefficient the notes ask for, read off the slope of a straight-line fit.

"Find the heat-loss coefficient of the plate from the steady-state
temperature rise at several heater powers": the data give ΔT against P, the
fit gives the slope dΔT/dP in K/W, and the coefficient the notes name is a
quantity in W/K, so it is the slope's reciprocal. Which of the two (the slope
or its reciprocal, in SI units) is the answer is decided by dimensions alone:
each coefficient name below carries its SI unit, and the answer is given only
when the columns' units make one of the two exactly that dimension. A name
not in the table, or units that do not fit, give no sentence (the fit is
reported as before); nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from labwright.analysis.quantities import parse_unit, registry

#: Coefficient names (English and Chinese) and the SI unit each is measured in.
_NAMED: tuple[tuple[str, str], ...] = (
    (r"heat[- ]loss coefficient|thermal conductance|散热系数|热损失系数|热损系数|热导", "W/K"),
    # Per unit area: answered only from per-area columns (no area is assumed).
    (r"heat[- ]transfer coefficient|传热系数", "W/(m² K)"),
    (r"thermal resistance|热阻", "K/W"),
    (r"spring constant|force constant|stiffness|劲度系数|弹性系数|倔强系数", "N/m"),
    (r"(?<!thermal )(?<!internal )resistance|电阻(?!率)", "Ω"),
    (r"(?<!thermal )conductance|电导(?!率)", "S"),
    (r"capacitance|电容(?!器)", "F"),
)  # fmt: skip
_ASK = re.compile(
    r"\b(?:find|determine|measure|obtain|calculate|compute|estimate|deduce|extract|get)\b"
    r"|求|测定|测量|计算|得到|确定",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]|$)")


@dataclass(frozen=True)
class CoefficientAsk:
    name: str  # as the notes write it
    unit: str  # its SI unit, as printed
    si: Any  # the pint unit of `unit`


@dataclass(frozen=True)
class Coefficient:
    ask: CoefficientAsk
    value: float  # in ask.unit
    se: float
    reciprocal: bool  # the slope's reciprocal (else the slope itself)


def read_coefficients(text: str) -> list[CoefficientAsk]:
    """The named coefficients a sentence of the notes asks to find."""
    found: list[CoefficientAsk] = []
    flat = " ".join(text.split()) if text.isascii() else text
    for sentence in _SENTENCE.findall(flat):
        if not _ASK.search(sentence):
            continue
        for pattern, unit in _NAMED:
            m = re.search(pattern, sentence, re.I)
            if m is None or any(a.unit == unit for a in found):
                continue
            si = parse_unit(unit, difference=True)
            if si is not None:
                found.append(CoefficientAsk(m.group(0), unit, si))
    return found


def _relation(
    ask: CoefficientAsk, x_unit: str | None, y_unit: str | None
) -> tuple[float, bool] | None:
    """(factor to the coefficient's unit, reciprocal?) when the slope of y
    against x, or its reciprocal, has exactly the coefficient's dimension.
    The slope is a ratio of differences, so °C counts as kelvin."""
    ux, uy = parse_unit(x_unit, difference=True), parse_unit(y_unit, difference=True)
    if ux is None or uy is None:
        return None
    one = registry().Quantity(1.0, uy / ux)  # one unit of the slope
    for value, reciprocal in ((one, False), (1 / one, True)):
        if value.dimensionality == ask.si.dimensionality:
            return float(value.to(ask.si).magnitude), reciprocal
    return None


def slope_relation(
    ask: CoefficientAsk, x_unit: str | None, y_unit: str | None
) -> tuple[float, bool] | None:
    """(factor, reciprocal?) of `_relation`, for the compendium's script,
    which states the same conversion as a literal."""
    return _relation(ask, x_unit, y_unit)


def answers(ask: CoefficientAsk, x_unit: str | None, y_unit: str | None) -> bool:
    """Whether a straight line of y against x can give the coefficient."""
    return _relation(ask, x_unit, y_unit) is not None


def from_slope(
    ask: CoefficientAsk, slope: float, se: float, x_unit: str | None, y_unit: str | None
) -> Coefficient | None:
    """The coefficient from a fitted slope of y against x, when the columns'
    units make the slope or its reciprocal exactly the coefficient's unit."""
    relation = _relation(ask, x_unit, y_unit)
    if relation is None or slope == 0 or not (se >= 0):
        return None
    factor, reciprocal = relation
    if reciprocal:
        return Coefficient(ask, factor / slope, abs(factor) * se / slope**2, reciprocal=True)
    return Coefficient(ask, slope * factor, se * abs(factor), reciprocal=False)
