"""SI dimensions of the unit strings found in headers and notes.

A column's unit is text ("W", "K", "mm", "kOhm", "W/K", "N m^-1", "°C").
Deciding whether a fitted slope (unit of y over unit of x) is the quantity the
notes ask for needs the unit's dimension in SI base units and its scale to the
coherent SI unit; this module parses exactly that, for the units lab tables
use. Anything it does not know gives None: no answer rather than a guess.

Temperatures in °C are taken as kelvin: every use here is of differences
(a temperature rise, a slope), for which one degree Celsius is one kelvin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Exponents of (kg, m, s, A, K, mol, cd).
Dims = tuple[int, int, int, int, int, int, int]

_ZERO: Dims = (0, 0, 0, 0, 0, 0, 0)


def _d(kg: int = 0, m: int = 0, s: int = 0, a: int = 0, k: int = 0) -> Dims:
    return (kg, m, s, a, k, 0, 0)


#: Coherent SI units and the few non-SI ones lab notes use, by symbol.
_UNITS: dict[str, tuple[float, Dims]] = {
    "g": (1e-3, _d(kg=1)), "m": (1.0, _d(m=1)), "s": (1.0, _d(s=1)), "A": (1.0, _d(a=1)),
    "K": (1.0, _d(k=1)), "°C": (1.0, _d(k=1)), "℃": (1.0, _d(k=1)), "degC": (1.0, _d(k=1)),
    "N": (1.0, _d(kg=1, m=1, s=-2)), "J": (1.0, _d(kg=1, m=2, s=-2)),
    "W": (1.0, _d(kg=1, m=2, s=-3)), "Pa": (1.0, _d(kg=1, m=-1, s=-2)),
    "V": (1.0, _d(kg=1, m=2, s=-3, a=-1)), "Ω": (1.0, _d(kg=1, m=2, s=-3, a=-2)),
    "Ohm": (1.0, _d(kg=1, m=2, s=-3, a=-2)), "ohm": (1.0, _d(kg=1, m=2, s=-3, a=-2)),
    "S": (1.0, _d(kg=-1, m=-2, s=3, a=2)), "C": (1.0, _d(s=1, a=1)),
    "F": (1.0, _d(kg=-1, m=-2, s=4, a=2)), "Hz": (1.0, _d(s=-1)),
    "min": (60.0, _d(s=1)), "h": (3600.0, _d(s=1)), "L": (1e-3, _d(m=3)),
    "bar": (1e5, _d(kg=1, m=-1, s=-2)),
}  # fmt: skip
_PREFIXES = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "m": 1e-3, "c": 1e-2,
             "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}  # fmt: skip
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_FACTOR = re.compile(r"([^\s*·/^\d-]+)\s*(?:\^?\s*\{?\s*(-?\d+)\s*\}?)?")


@dataclass(frozen=True)
class Unit:
    scale: float  # value in coherent SI units of one of this unit
    dims: Dims

    def over(self, other: Unit) -> Unit:
        return Unit(
            self.scale / other.scale,
            tuple(a - b for a, b in zip(self.dims, other.dims, strict=True)),  # type: ignore[arg-type]
        )

    def inverse(self) -> Unit:
        return Unit(1.0 / self.scale, tuple(-a for a in self.dims))  # type: ignore[arg-type]


def _symbol(text: str) -> tuple[float, Dims] | None:
    if text in _UNITS:
        return _UNITS[text]
    if len(text) > 1 and text[0] in _PREFIXES and text[1:] in _UNITS and text[1:] != "°C":
        scale, dims = _UNITS[text[1:]]
        return _PREFIXES[text[0]] * scale, dims
    return None


def parse_unit(text: str | None) -> Unit | None:
    """The unit written in `text` ("W/K", "mN·mm^-1", "kΩ", "m s⁻²"), or
    None when it is empty or not one this module knows."""
    if not text:
        return None
    # "W/(m^2 K)": everything after the one slash is the denominator anyway.
    s = text.strip().translate(_SUPERSCRIPTS).replace("**", "^").replace("(", "").replace(")", "")
    if not s or s.count("/") > 1:
        return None
    scale, dims = 1.0, list(_ZERO)
    for sign, part in zip((1, -1), s.split("/"), strict=False):  # at most one slash
        pos = 0
        part = part.strip()
        if not part:
            return None
        if part == "1":  # "1/s"
            continue
        while pos < len(part):
            if part[pos] in " *·.":
                pos += 1
                continue
            m = _FACTOR.match(part, pos)
            if m is None:
                return None
            found = _symbol(m.group(1))
            if found is None:
                return None
            power = sign * int(m.group(2) or 1)
            scale *= found[0] ** power
            dims = [d + power * e for d, e in zip(dims, found[1], strict=True)]
            pos = m.end()
    return Unit(scale, tuple(dims))  # type: ignore[arg-type]
