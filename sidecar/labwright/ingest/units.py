"""Split a column header into a quantity name and a unit.

Lab software and people write units in a few fixed ways: ``t (s)``,
``温度（°C）`` (full-width parentheses), ``I [A]``, ``I {A}``, and the
quantity-calculus form ``U/mV``. The slash form is accepted only when the part
after the slash looks like a unit (short, no spaces, starts with a letter, a
degree sign or a micro sign), so ``x/y`` ratios with long names stay whole.
"""

from __future__ import annotations

import re

_BRACKETED = re.compile(
    r"^(?P<name>.*?)\s*(?:\((?P<p>[^()]{1,24})\)|（(?P<fp>[^（）]{1,24})）|\[(?P<b>[^\[\]]{1,24})\]|\{(?P<c>[^{}]{1,24})\})\s*$"
)
_SLASH = re.compile(r"^(?P<name>[^/]+?)\s*/\s*(?P<unit>[A-Za-zµμ°Ω%‰][^\s/]{0,11})$")
# A bracket that holds a plain word or a number is a note, not a unit: "Trial (2)".
_NOT_UNIT = re.compile(r"^\d+$|^(?:run|trial|sample|no|n|mean|avg|std|sd|raw|fit)\.?\s*\d*$", re.I)


def split_unit(header: str) -> tuple[str, str | None]:
    """Return (name, unit) for a header; unit is None when none is written."""
    text = " ".join(str(header).split())
    if not text:
        return "", None
    match = _BRACKETED.match(text)
    if match:
        unit = next(g for g in (match["p"], match["fp"], match["b"], match["c"]) if g is not None)
        unit = unit.strip()
        name = match["name"].strip()
        if name and unit and not _NOT_UNIT.match(unit):
            return name, unit
        return text, None
    match = _SLASH.match(text)
    if match:
        return match["name"].strip(), match["unit"].strip()
    return text, None


def looks_like_unit(cell: str) -> bool:
    """True for a bare unit cell, as in a units row under the header ("s", "mV", "°C", "(A)")."""
    text = str(cell).strip().strip("()[]（）")
    if not text or len(text) > 12 or " " in text:
        return False
    if _NOT_UNIT.match(text):
        return False
    return bool(re.match(r"^[A-Za-zµμ°Ω%‰][A-Za-z0-9µμ°Ω%‰/^*·.\-²³⁻¹]*$", text))
