"""Presentation rules shared by figures and tables.

- Powers in figure labels are set as superscripts: `m^3/s` is printed m³/s,
  never with a caret (Unicode superscripts; mathtext for a fractional power).
- One precision per column: raw values are printed at the resolution the
  data were recorded with (7.000 and 72.000, never 7.000 beside 72.00);
  derived values at the precision their uncertainty supports.
"""

from __future__ import annotations

import math
import re

import numpy as np

_POWER = re.compile(r"\^\{?(-?\d+(?:\.\d+)?)\}?")
# Outside $...$ matplotlib prints every character as it is, except that a
# "$" starts math: only the dollar needs escaping (an escaped underscore
# would print as "\_").
_MATH_SPECIAL = re.compile(r"([$])")
MAX_DECIMALS = 6


#: Integer powers are written with Unicode superscripts (every font the
#: figures use has them): the first mathtext string in a process builds
#: matplotlib's math parser, ~0.15 s of the plotting worker's time, and a
#: build's figures then wait for it.
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def unit_mathtext(unit: str) -> str:
    """`m^3/s` -> `m³/s`; `s^-1` -> `s⁻¹`; `L^0.5` -> `L$^{0.5}$` (mathtext);
    `µm` unchanged; other characters that mathtext treats specially are
    escaped."""
    out: list[str] = []
    pos = 0
    for m in _POWER.finditer(unit):
        out.append(_escape(unit[pos : m.start()]))
        power = m.group(1)
        out.append(power.translate(_SUPERSCRIPT) if "." not in power else f"$^{{{power}}}$")
        pos = m.end()
    out.append(_escape(unit[pos:]))
    return "".join(out)


def _escape(text: str) -> str:
    return _MATH_SPECIAL.sub(r"\\\1", text)


def axis_label(name: str, unit: str | None) -> str:
    """`flow (m³/s)` for a matplotlib axis; a power in the name (`T^2`) is
    set the same way."""
    base = unit_mathtext(name)
    return f"{base} ({unit_mathtext(unit)})" if unit else base


def decimals_of(values: np.ndarray) -> int:
    """Decimal places the values were recorded with (the most any value needs,
    up to `MAX_DECIMALS`): 72.5 and 7.25 -> 2."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return 0
    sample = v[:: max(1, v.size // 2000)]
    for d in range(MAX_DECIMALS + 1):
        if np.all(
            np.abs(sample * 10**d - np.round(sample * 10**d))
            < 1e-6 * np.maximum(1, np.abs(sample * 10**d))
        ):
            return d
    return MAX_DECIMALS


def fixed(value: float, decimals: int) -> str:
    if not math.isfinite(value):
        return "\\text{n/a}"
    text = f"{value:.{decimals}f}"
    return "0" if float(text) == 0 and decimals == 0 else text


def decimals_for_uncertainty(sigma: float) -> int:
    """Decimals that show `sigma` to two significant figures."""
    if not (math.isfinite(sigma) and sigma > 0):
        return 2
    return max(1 - math.floor(math.log10(sigma)), 0)


_LOG_AXES = re.compile(
    r"\blog(?:arithmic)?[- ](?:scales?|axes|axis|coordinates|paper)\b|\blog[- ]log\b"
    r"|\bdouble[- ]log|对数坐标|双对数|对数刻度",
    re.I,
)


def asks_log_axes(notes: str) -> bool:
    """Whether the notes ask for the data on log scales ("fit V = a G^b H^c
    on log scales", "log-log plot", "双对数坐标")."""
    return _LOG_AXES.search(notes) is not None
