"""Units of the analysis: one pint registry, the unit strings lab headers
write, the conversions the laws need, and the readable form of a result's unit.

A column's unit is text ("°C", "℃", "µS/cm", "mol·L⁻¹", "counts", "a.u.",
"s^-1", "1/s", "kΩ", "时间(秒)"). `normalise_unit` turns the spellings lab
software and people use into what pint reads; `parse_unit` gives the pint
unit (or None: no answer rather than a guess). A law that needs an absolute
scale converts °C to K (`to_absolute`); a slope or a difference of
temperatures takes one degree Celsius as one kelvin (pint's delta units,
`parse_unit(..., difference=True)`). `display` prints a unit the way a lab
report does ("kJ/mol", "M⁻¹·s⁻¹", "J/(mol·K)", "m/s²").

The registry is built once per process, at first use: pint parses its
definitions file in about 0.5 s, so the parsed registry is cached (pint's
own flexcache) under the user's data directory, which makes later starts
cost about 0.1 s. A cache that cannot be written or read is skipped.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pint

log = logging.getLogger(__name__)

# pint's own annotations are generic over the magnitude type and do not
# narrow through arithmetic; the analysis handles units as values, so these
# two aliases are Any on purpose.
Unit = Any
Quantity = Any

#: Units pint lacks, or defines for another field than a lab bench's.
_DEFINITIONS = (
    "ppb = 1e-9 = ppb",
    "counts_per_minute = count / minute = cpm",
    # pint's "gauss" is the Gaussian-cgs unit (another dimension); on a lab
    # bench 1 G is 1e-4 T.
    "lab_gauss = 1e-4 * tesla = Gs",
)

_lock = threading.Lock()
_registry: pint.UnitRegistry[Any] | None = None


def _cache_folder() -> Path | None:
    try:
        from labwright import config

        folder = config.data_dir(create=False).root / "cache" / "pint"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except Exception:  # an unwritable data dir: no cache, same registry
        return None


def _build_registry() -> pint.UnitRegistry[Any]:
    import pint

    folder = _cache_folder()
    registry: pint.UnitRegistry[Any] | None = None
    if folder is not None:
        try:
            registry = pint.UnitRegistry(cache_folder=folder, autoconvert_offset_to_baseunit=True)
        except Exception as exc:  # a cache another process was writing, a full disk
            log.info("pint cache in %s not used (%s)", folder, exc)
    if registry is None:
        registry = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    for line in _DEFINITIONS:
        registry.define(line)
    return registry


def registry() -> pint.UnitRegistry[Any]:
    """The one unit registry of the process (built on first use)."""
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                _registry = _build_registry()
    return _registry


# ---------------------------------------------------------------------------
# Header spellings -> pint


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_FULL_WIDTH = str.maketrans("（）［］／＊·•⋅×％－−", "()[]/*****%--")
#: Whole-unit spellings, any letter case (words and punctuated forms only:
#: a symbol's case is its meaning, M is molar and m is metre).
_WHOLE_WORDS: dict[str, str] = {
    "a.u.": "dimensionless", "a. u.": "dimensionless", "a.u": "dimensionless",
    "arb": "dimensionless", "arb.": "dimensionless", "arb. u.": "dimensionless",
    "arb. units": "dimensionless", "arb.units": "dimensionless", "arb units": "dimensionless",
    "arbitrary units": "dimensionless", "arbitrary": "dimensionless", "abs": "dimensionless",
    "abs.": "dimensionless", "absorbance": "dimensionless", "ratio": "dimensionless",
    "none": "dimensionless", "unitless": "dimensionless", "无量纲": "dimensionless",
    "counts": "count", "count": "count", "cnt": "count", "cnts": "count", "events": "count",
    "counts/s": "count/second", "counts/sec": "count/second", "counts per second": "count/second",
    "cps": "count/second", "counts/min": "count/minute", "counts per minute": "count/minute",
    "cpm": "count/minute", "个": "count", "次": "count", "计数": "count",
    "deg": "degree", "degs": "degree", "degree": "degree", "degrees": "degree",
    "度": "degree", "rad": "radian", "弧度": "radian",
    "°c": "degC", "ºc": "degC", "° c": "degC", "deg c": "degC", "degc": "degC",
    "celsius": "degC", "摄氏度": "degC", "°f": "degF", "kelvin": "kelvin", "开尔文": "kelvin",
    "ohm": "ohm", "ohms": "ohm", "kohm": "kiloohm", "sec": "second", "secs": "second",
    "seconds": "second", "second": "second", "mins": "minute", "minutes": "minute",
    "minute": "minute", "hr": "hour", "hrs": "hour", "hours": "hour", "hour": "hour",
    "day": "day", "days": "day", "gauss": "lab_gauss", "torr": "torr", "mm hg": "mmHg",
    "mmhg": "mmHg", "percent": "percent", "pct": "percent", "ppm": "ppm", "ppb": "ppb",
}  # fmt: skip
#: Whole-unit symbols, exact case.
_WHOLE_SYMBOLS: dict[str, str] = {
    "AU": "dimensionless", "au": "dimensionless", "OD": "dimensionless", "1": "dimensionless",
    "-": "dimensionless", "—": "dimensionless", "c/s": "count/second", "c/min": "count/minute",
    "°": "degree", "℃": "degC", "℉": "degF", "oC": "degC", "K": "kelvin", "开": "kelvin",
    "Ω": "ohm", "kΩ": "kiloohm", "MΩ": "megaohm", "mΩ": "milliohm", "d": "day",
    "m": "meter", "l": "liter", "ml": "milliliter", "ul": "microliter", "g": "gram",
    "G": "lab_gauss", "%": "percent", "‰": "permille", "%T": "percent", "T%": "percent",
}  # fmt: skip


#: Unit words inside a compound unit (and Chinese unit names).
_WORDS: dict[str, str] = {
    "秒": "s", "毫秒": "ms", "分": "min", "分钟": "min", "小时": "h", "天": "day",
    "米": "m", "厘米": "cm", "毫米": "mm", "微米": "um", "纳米": "nm", "千米": "km", "公里": "km",
    "千克": "kg", "公斤": "kg", "克": "g", "毫克": "mg", "微克": "ug",
    "升": "L", "毫升": "mL", "微升": "uL",
    "伏": "V", "伏特": "V", "毫伏": "mV", "安": "A", "安培": "A", "毫安": "mA", "微安": "uA",
    "欧": "ohm", "欧姆": "ohm", "千欧": "kohm", "兆欧": "Mohm", "瓦": "W", "瓦特": "W",
    "毫瓦": "mW", "焦": "J", "焦耳": "J", "千焦": "kJ", "牛": "N", "牛顿": "N",
    "帕": "Pa", "千帕": "kPa", "赫": "Hz", "赫兹": "Hz", "千赫": "kHz", "摩尔": "mol",
    "毫摩尔": "mmol", "法": "F", "法拉": "F", "微法": "uF", "特": "T", "特斯拉": "T",
    "毫特": "mT", "亨": "H", "亨利": "H", "毫亨": "mH",
    "Ohm": "ohm", "Ohms": "ohm", "ohms": "ohm", "Ω": "ohm", "Å": "angstrom",
    "amps": "A", "Amps": "A", "milliamps": "mA", "microamps": "uA",  # pint: a·m/s
    "sec": "s", "secs": "s", "mins": "min", "hr": "h", "hrs": "h", "℃": "degC", "°C": "degC",
    "ºC": "degC", "°F": "degF", "deg": "degree", "°": "degree", "cps": "count/s",
    "counts": "count", "cnt": "count", "G": "Gs", "mG": "mGs", "lpm": "L/min",
    "rpm": "rpm", "M": "molar", "mM": "millimolar", "uM": "micromolar", "nM": "nanomolar",
    "pM": "picomolar", "N": "newton",
}  # fmt: skip
_PREFIX_OHM = re.compile(r"(?<![A-Za-z])([kMGm]?)(?:Ω|[Oo]hms?)")
#: A number in scientific notation ("1e3 N", "1e-3"): a scale, not a unit, and
#: its e is not the elementary charge.
_SCALE = re.compile(r"(?<![A-Za-z_^])\d+(?:\.\d+)?[eE][+-]?\d")
_TOKEN = re.compile(r"[^\s*/^()\d.+-][^\s*/^()\d+-]*|\d+(?:\.\d+)?|[*/^()+-]|\s+|\.")


def _bare(text: str) -> str:
    """The unit without the brackets a header wraps it in: "(s)", "[mV]",
    "（℃）"; compatibility characters folded (the ohm sign, ℃, full-width
    forms), superscripts written as powers first."""
    s = re.sub("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+", lambda m: "^" + m.group(0).translate(_SUPERSCRIPTS), text.strip())
    s = unicodedata.normalize("NFKC", s.replace("℃", "degC").replace("℉", "degF"))
    s = s.translate(_FULL_WIDTH)
    while len(s) >= 2 and (s[0], s[-1]) in (("(", ")"), ("[", "]"), ("{", "}")):
        s = s[1:-1].strip()
    return s.replace("µ", "u").replace("μ", "u")


@lru_cache(maxsize=2048)
def normalise_unit(text: str | None) -> str | None:
    """A pint-readable unit string for the way a header or the notes write a
    unit, or None when there is none or it is not a unit pint knows."""
    if text is None:
        return None
    s = _bare(text)
    if not s or _SCALE.search(s):
        return None
    whole = _WHOLE_SYMBOLS.get(s) or _WHOLE_WORDS.get(s.lower())
    if whole is not None:
        return whole
    s = _PREFIX_OHM.sub(
        lambda m: {"": "ohm", "k": "kohm", "M": "Mohm", "G": "Gohm", "m": "mohm"}[m.group(1)], s
    )
    s = s.replace("**", "^").replace("^^", "^")
    s = s.replace("per ", "/ ")
    out: list[str] = []
    previous = ""
    for token in _TOKEN.findall(s):
        if token.isspace() or token == ".":
            if out and out[-1] not in ("*", "/", "^", "("):
                out.append("*")  # "N m", "mol·L" (· became *), "kg.m"
            continue
        word = _WORDS.get(token, token)
        # "m s-1", "mol L-1": an exponent written straight after a symbol.
        if re.fullmatch(r"[+-]?\d+(?:\.\d+)?", token) and previous not in ("", "^", "*", "/", "("):
            if previous and (previous[-1].isalpha() or previous == ")"):
                if out and out[-1] == "*":
                    out.pop()
                out.append("^")
        if token == "-" and out and out[-1] not in ("^",) and previous.isalpha():
            out.append("^")  # "s-1" tokenised as "s", "-", "1"
        out.append(word)
        previous = token
    candidate = "".join(out).replace("*^", "^")
    candidate = re.sub(r"\*+", "*", candidate).strip("*")
    # "1/s": pint reads it; "/s" (a header "rate /s") means per second too.
    if candidate.startswith("/"):
        candidate = "1" + candidate
    return candidate if _pint_reads(candidate) else None


@lru_cache(maxsize=2048)
def _pint_reads(text: str) -> bool:
    try:
        registry().parse_units(text)
    except Exception:
        return False
    return True


def parse_unit(text: str | None, *, difference: bool = False) -> Unit | None:
    """The pint unit a header or note writes, or None.

    `difference`: the values are differences (a slope, a rise): °C and °F
    become their delta units, so "°C" and "K" have one dimension and scale.
    """
    name = normalise_unit(text)
    if name is None:
        return None
    reg = registry()
    unit = reg.parse_units(name)
    if difference and _is_offset(unit):
        unit = reg.parse_units(name.replace("degC", "delta_degC").replace("degF", "delta_degF"))
    return unit


def _is_offset(unit: Unit) -> bool:
    return not registry().Quantity(1.0, unit)._is_multiplicative


def is_offset_scale(text: str | None) -> bool:
    """A unit whose zero is not the quantity's (°C, °F): ratios of its
    values mean nothing."""
    unit = parse_unit(text)
    return unit is not None and _is_offset(unit)


def is_temperature(text: str | None) -> bool:
    unit = parse_unit(text)
    return unit is not None and unit.dimensionality == registry().kelvin.dimensionality


def to_absolute(
    values: np.ndarray[Any, Any], text: str | None
) -> tuple[np.ndarray[Any, Any], str] | None:
    """Temperatures on an absolute scale (K), from °C, °F or K; None for a
    column that is not a temperature."""
    unit = parse_unit(text)
    reg = registry()
    if unit is None or unit.dimensionality != reg.kelvin.dimensionality:
        return None
    kelvin = reg.Quantity(np.asarray(values, dtype=float), unit).to("kelvin").magnitude
    return np.asarray(kelvin, dtype=float), "K"


def factor(from_unit: str | Unit, to_unit: str | Unit) -> float | None:
    """The number to multiply values in `from_unit` by to get `to_unit`, or
    None when the two differ in dimension (or either is an offset scale)."""
    reg = registry()
    try:
        src = (
            from_unit if not isinstance(from_unit, str) else parse_unit(from_unit, difference=True)
        )
        dst = to_unit if not isinstance(to_unit, str) else parse_unit(to_unit, difference=True)
        if src is None or dst is None:
            return None
        return float(reg.Quantity(1.0, src).to(dst).magnitude)
    except Exception:
        return None


def is_proxy(text: str | None) -> bool:
    """A unit that stands in for a physical quantity in real data: a count, a
    ratio (ppm, %), or either per unit of time (counts/min, counts/min^2).
    An enzyme's rate measured as counts/min^2 or a concentration as ppm is
    such a proxy; a length in kg or a period in °C is not one."""
    unit = parse_unit(text, difference=True)
    return unit is not None and set(dict(unit.dimensionality)) <= {"[time]"}


def dimensionality(text: str | None) -> str | None:
    """pint's dimensionality of a unit ("[substance] / [length] ** 3"), or None."""
    unit = parse_unit(text, difference=True)
    return None if unit is None else str(unit.dimensionality)


def same_dimension(a: str | None, b: str | None) -> bool:
    da, db = dimensionality(a), dimensionality(b)
    return da is not None and da == db


# ---------------------------------------------------------------------------
# Display


_SUPER = str.maketrans("0123456789-.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻·")
#: Short symbols where pint's abbreviation differs from what a lab writes.
_SYMBOLS = {"Gs": "G", "dimensionless": "", "count": "counts", "molar": "M", "torr": "Torr"}


def _symbol(name: str) -> str:
    if name == "year":
        return "yr"  # pint's symbol is "a" (annum), which few lab readers know
    reg = registry()
    try:
        symbol = reg.get_symbol(name)
    except Exception:
        symbol = name
    symbol = _SYMBOLS.get(symbol, symbol)
    if name.endswith("liter") and symbol.endswith("l"):
        symbol = symbol[:-1] + "L"  # mL, µL: the capital L labs print
    # pint prints micro as "µ" already; degree Celsius as "°C", ohm as "Ω".
    return {"delta_degC": "°C", "Δ°C": "°C", "delta_degF": "°F", "Δ°F": "°F", "deg": "°"}.get(
        symbol, symbol
    )


def _power(symbol: str, exponent: float) -> str:
    if exponent == 1:
        return symbol
    text = f"{exponent:g}" if exponent != int(exponent) else str(int(exponent))
    return symbol + text.translate(_SUPER)


def display(unit: Unit | str | None) -> str:
    """A unit as a lab report prints it: "kJ/mol", "J/(mol·K)", "M⁻¹·s⁻¹",
    "m/s²", "µS/cm"; "" for a dimensionless result."""
    if unit is None:
        return ""
    parsed: Unit = parse_unit(unit) if isinstance(unit, str) else unit
    if parsed is None:
        return str(unit)
    items = list(parsed._units.items())
    numerator = [(n, e) for n, e in items if e > 0]
    denominator = [(n, -e) for n, e in items if e < 0]
    if not numerator and not denominator:
        return ""
    if not numerator:
        return "·".join(_power(_symbol(n), -e) for n, e in denominator)
    top = "·".join(_power(_symbol(n), e) for n, e in numerator)
    if not denominator:
        return top
    bottom = "·".join(_power(_symbol(n), e) for n, e in denominator)
    return f"{top}/({bottom})" if len(denominator) > 1 else f"{top}/{bottom}"


def latex(unit: Unit | str | None) -> str:
    """The unit as upright LaTeX math (`\\mathrm{kJ\\,mol^{-1}}`), "" when dimensionless."""
    if unit is None:
        return ""
    parsed: Unit = parse_unit(unit) if isinstance(unit, str) else unit
    if parsed is None:
        return r"\mathrm{" + re.sub(r"([%#&_$])", r"\\\1", str(unit)) + "}"
    parts = []
    for name, exponent in parsed._units.items():
        symbol = (
            _symbol(name).replace("µ", r"\mu ").replace("Ω", r"\Omega").replace("°", r"^{\circ}")
        )
        symbol = symbol.replace("%", r"\%")
        power = "" if exponent == 1 else "^{" + (f"{exponent:g}") + "}"
        parts.append(symbol + power)
    return r"\mathrm{" + r"\,".join(parts) + "}" if parts else ""


#: Units a derived result is put in when pint's product of units is long:
#: the coherent SI unit of the same dimension.
_NAMED_SI = (
    "newton", "joule", "watt", "pascal", "volt", "ohm", "siemens", "farad", "henry", "tesla",
    "weber", "coulomb", "hertz", "joule/mole", "joule/kelvin", "joule/(mole*kelvin)",
    "meter/second**2", "meter/second", "kilogram/meter**3", "pascal*second",
)  # fmt: skip


def _mixed(unit: Unit) -> bool:
    """Units of one dimension left on both sides of the fraction: ft/mph
    (a time), mph²/ft (an acceleration). A written formula fitted to data
    in feet and miles per hour gave a reaction time "1.24 ft/mph"; the
    dimensions that cancel are what makes it a time in seconds."""
    reg = registry()
    gross: dict[str, float] = {}
    for name, power in unit._units.items():
        for dim, exp in reg.get_dimensionality(name).items():
            gross[dim] = gross.get(dim, 0.0) + abs(power * exp)
    net = unit.dimensionality
    return any(g > abs(net.get(dim, 0.0)) + 1e-9 for dim, g in gross.items())


# A quotient or product of two units that is one of these is written as it
# (s/kΩ of a capacitance fitted as exp(-t/(R C)) is F, V/A is Ω, J/s is W).
# Not N·m (a torque is written so) nor 1/s (a rate is not a frequency).
_NAMED_PAIRS = ("farad", "henry", "coulomb", "ohm", "siemens", "volt", "watt", "tesla",
                "weber", "pascal", "newton")  # fmt: skip


def readable(quantity: Quantity) -> Quantity:
    """The same quantity in a unit a reader recognises: units of one dimension
    cancelled (mM/M; ft/mph put in seconds: `_mixed`), a pair of units that is
    a named electrical or mechanical unit put in it (s/kΩ -> F), and a long
    product of units put in the named SI unit of its dimension (kg·m²/s² -> J)."""
    reg = registry()
    q = quantity.to_reduced_units()
    if len(q._units) == 2 and not _mixed(q.units):
        for name in _NAMED_PAIRS:
            target = reg.parse_units(name)
            if target.dimensionality == q.dimensionality:
                return q.to(target)
    if len(q._units) <= 2 and not _mixed(q.units):
        return q
    for name in _NAMED_SI:
        target = reg.parse_units(name)
        if target.dimensionality == q.dimensionality:
            return q.to(target)
    base = q.to_base_units()
    return base if len(base._units) < len(q._units) else q


def best_unit(value: float, unit: Unit, candidates: Sequence[str]) -> str:
    """The candidate display unit (same dimension) in which |value| is
    nearest to 1..1000, for a derived quantity with a list of display units."""
    reg = registry()
    best, best_score = None, math.inf
    for name in candidates:
        try:
            magnitude = abs(reg.Quantity(value, unit).to(name).magnitude)
        except Exception:
            continue
        score = 0.0 if 1 <= magnitude < 1000 else abs(math.log10(max(magnitude, 1e-300)) - 1.5)
        if score < best_score:
            best, best_score = name, score
    return best if best is not None else str(unit)
