"""A column whose header subtracts a constant: "speed - 299000 (km/s)",
"t − 1900", "mass + 0.5".

Michelson's table gives the speed of light minus 299000 km/s, as tables of
the time did to save digits; the quantity the notes ask for is the column's
value with the constant put back. `offset_of` reads the header's name into
the quantity's own name and the number to add to every value.
"""

from __future__ import annotations

import re

_OFFSET = re.compile(r"^\s*(?P<base>[^\d\s][^+\-−]*?)\s*(?P<sign>[-+−])\s*(?P<n>\d+(?:\.\d+)?)\s*$")


def offset_of(name: str) -> tuple[str, float] | None:
    """(the quantity's name, the number to add to each value) for a header
    "base - N" or "base + N"; None for any other name."""
    m = _OFFSET.match(name)
    if m is None:
        return None
    base = m.group("base").strip()
    if not re.search(r"[A-Za-z\u4e00-\u9fff]", base):
        return None
    n = float(m.group("n"))
    return base, (n if m.group("sign") in "-−" else -n)
