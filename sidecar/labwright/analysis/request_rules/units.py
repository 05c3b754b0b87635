"""Units as the notes and headers write them, read by pint.

Only what the request needs: whether a written unit is a unit at all, and its
dimension, so a column in mM can be a concentration and "T (°C)" cannot be a
period. Headers write units the way people type them ("kOhm", "mol·L⁻¹",
"s-1", "a.u.", "℃"); they are rewritten into pint's spelling first. A unit
pint does not know gives None: no dimension rather than a guess.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"℃|°\s*C\b|\bdeg\s*C\b|\bdegC\b|\bcelsius\b", re.I), "degC"),
    (re.compile(r"°\s*F\b|\bdegF\b"), "degF"),
    (re.compile(r"\b([kKMmµμu]?)[Oo]hms?\b"), r"\1Ω"),
    (re.compile(r"\bK(Ω)"), r"k\1"),
    (
        re.compile(r"\ba\.?\s?u\.?(?=$|[^\w])|\barb\.?\s*units?\b|\barbitrary units?\b", re.I),
        "dimensionless",
    ),
    (re.compile(r"\b(?:counts?|cts|events|cnt)\b", re.I), "count"),
    (re.compile(r"\bcps\b|\bcounts?\s*/\s*s\b", re.I), "count/s"),
    (re.compile(r"\bcpm\b", re.I), "count/min"),
    (re.compile(r"\bsec\b|\bsecs\b", re.I), "s"),
    (re.compile(r"\bmins?\b", re.I), "min"),
    (re.compile(r"\bhrs?\b", re.I), "h"),
    (re.compile(r"%"), "percent"),
    (re.compile(r"‰"), "permille"),
    (re.compile(r"\bpH\b"), "dimensionless"),
    (re.compile(r"\bAbs\b|\bOD\b", re.I), "dimensionless"),
    (re.compile(r"·|×|\*"), "*"),
)
# "s-1", "cm-1", "m s-2": a negative power written without the caret.
_BARE_POWER = re.compile(r"(?<=[A-Za-zμµΩ])(-?\d)(?![\d.])")


def _wraps(s: str) -> bool:
    """The first bracket closes at the end: "(mM)" yes, "(V)/(A)" no."""
    depth = 0
    for i, ch in enumerate(s):
        depth += ch in "([（【"
        depth -= ch in ")]）】"
        if depth == 0 and i < len(s) - 1:
            return False
    return True


def pint_spelling(text: str) -> str:
    s = text.strip().translate(_SUPERSCRIPT)
    while len(s) > 2 and s[0] + s[-1] in {"()", "[]", "（）", "【】"} and _wraps(s):
        s = s[1:-1].strip()  # "(mM)", "[s]": the brackets of a header
    for pattern, repl in _REWRITES:
        s = pattern.sub(repl, s)
    s = _BARE_POWER.sub(r"^\1", s)
    s = re.sub(r"\s+", " ", s).strip()
    # "mol L^-1": pint reads a space as multiplication already; "J/mol K" is
    # J/(mol K) the way chemists write it.
    m = re.fullmatch(r"([^/]+)/\s*([A-Za-zμµΩ°]+(?:\^-?\d)?)\s+([A-Za-zμµΩ°]+(?:\^-?\d)?)", s)
    if m:
        s = f"{m.group(1)}/({m.group(2)}*{m.group(3)})"
    return s


@lru_cache(maxsize=1)
def registry() -> Any:
    """The unit registry the request reads units with (built once)."""
    import pint

    ureg: Any = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    ureg.define("count = [] = ct")
    return ureg


@lru_cache(maxsize=512)
def dimension(text: str | None) -> str | None:
    """The unit's dimension as pint writes it ("[substance] / [length] ** 3",
    "dimensionless"), or None when `text` is not a unit pint knows."""
    if not text or not text.strip() or len(text) > 40:
        return None
    spelled = pint_spelling(text)
    if not spelled or re.search(r"[\u3400-\u9fff]", spelled):
        return None
    try:
        ureg = registry()
        units = ureg.parse_units(spelled)
        dims = ureg.get_dimensionality(units)
    except Exception:  # noqa: BLE001 - pint raises many kinds for text that is no unit
        return None
    return str(dims) if dims else "dimensionless"


@lru_cache(maxsize=256)
def dimension_of_spec(spec: str | None) -> str | None:
    """A catalogue dimension ("[temperature]", "[length]/[time]",
    "dimensionless"), normalised as `dimension` writes it; None for "any"."""
    if not spec or spec.strip() in {"any", ""}:
        return None
    if spec.strip() == "dimensionless":
        return "dimensionless"
    try:
        dims = registry().get_dimensionality(spec)
    except Exception:  # noqa: BLE001 - a catalogue name pint has no base for
        return None
    return str(dims) if dims else "dimensionless"


def is_unit(text: str) -> bool:
    return dimension(text) is not None
