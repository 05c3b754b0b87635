"""Number provenance: is every number in the report's text backed by a value
in the material (data files, notes) or a computed result?

A printed number matches a source value when the value, rounded the way the
number was printed, gives the same digits, allowing the usual unit prefixes
(x1e±3, x1e±6) and percent (x100). The sign is ignored ("fell by 0.5" from
-0.5). Small integers without a decimal point (0-10) are not checked: they are
counts, indices and enumerations far more often than measurements.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from labwright.verify import tags
from labwright.verify.texts import strip_comments

_SCALES = (1.0, 1e3, 1e-3, 1e6, 1e-6, 100.0, 0.01)
# Arguments that hold names, not quantities.
_NON_QUANTITY_ARGS = re.compile(
    r"\\(?:label|ref|eqref|autoref|cref|Cref|pageref|cite[a-zA-Z]*|nocite|includegraphics|"
    r"input|include|usepackage|documentclass|bibliography|bibliographystyle|url|href|"
    r"begin|end|setmainfont|setCJKmainfont|hspace|vspace|setlength|addtolength|"
    r"newcommand|renewcommand|definecolor|color|textcolor)\*?"
    r"(?:\s*\[[^\]]*\])*\s*\{[^}]*\}"
)
_LENGTH = re.compile(
    r"[-+]?\d*\.?\d+\s*(?:\\(?:textwidth|linewidth|columnwidth|textheight|paperwidth|baselineskip|hsize)"
    r"|(?:pt|cm|mm|em|ex|in|bp)\b)"
)
_SCI_TEX = re.compile(
    r"(?<![\w.])(?P<m>[-+−]?\d+(?:\.\d+)?)\s*\\times\s*10\^\{?\s*(?P<e>[-+−]?\d+)\s*\}?"
)
_PLAIN = re.compile(r"(?<![\w.\\])(?P<n>[-+−]?\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?)(?![\w.])")


@dataclass(frozen=True)
class PrintedNumber:
    text: str
    value: float
    tolerance: float


@dataclass
class NumberReport:
    checked: list[str] = field(default_factory=list)
    sourced: list[str] = field(default_factory=list)
    unsourced: list[str] = field(default_factory=list)


def _to_float(text: str) -> float:
    return float(text.replace("−", "-"))


def _decimals(mantissa: str) -> int:
    mantissa = mantissa.lstrip("+-−")
    return len(mantissa.split(".", 1)[1]) if "." in mantissa else 0


def _plain_number(text: str) -> PrintedNumber:
    mantissa, _, exponent = text.replace("E", "e").partition("e")
    exp = int(_to_float(exponent)) if exponent else 0
    tol = 0.5 * 10.0 ** (exp - _decimals(mantissa))
    return PrintedNumber(text=text, value=_to_float(text), tolerance=tol)


def extract_numbers(tex: str) -> list[PrintedNumber]:
    """Numbers a reader sees in the document body, in order."""
    start = tex.find("\\begin{document}")
    body = tex[start:] if start >= 0 else tex
    body = tags.untag(strip_comments(body))  # a tag's id is not a number of the text
    body = _NON_QUANTITY_ARGS.sub(" ", body)
    body = _LENGTH.sub(" ", body)
    found: list[PrintedNumber] = []

    def take_sci(match: re.Match[str]) -> str:
        mantissa, exp = match.group("m"), int(_to_float(match.group("e")))
        value = _to_float(mantissa) * 10.0**exp
        tol = 0.5 * 10.0 ** (exp - _decimals(mantissa))
        found.append(PrintedNumber(text=match.group(0), value=value, tolerance=tol))
        return " "

    body = _SCI_TEX.sub(take_sci, body)
    for match in _PLAIN.finditer(body):
        number = _plain_number(match.group("n"))
        if "." not in number.text and "e" not in number.text.lower() and abs(number.value) <= 10:
            continue
        found.append(number)
    return found


def numbers_in_text(text: str) -> list[float]:
    """Every number written in a piece of material (notes, a CSV row)."""
    values = [_to_float(m.group("n")) for m in _PLAIN.finditer(text)]
    values += [
        _to_float(m.group("m")) * 10.0 ** int(_to_float(m.group("e")))
        for m in _SCI_TEX.finditer(text)
    ]
    return values


class SourceValues:
    """A sorted index of absolute source values for tolerance look-ups."""

    def __init__(self, values: Iterable[float]) -> None:
        cleaned = {abs(float(v)) for v in values if v is not None and math.isfinite(float(v))}
        self._sorted = sorted(cleaned)

    def __len__(self) -> int:
        return len(self._sorted)

    def matches(self, number: PrintedNumber) -> bool:
        target = abs(number.value)
        for scale in _SCALES:
            # printed ≈ value * scale  <=>  value ∈ [(printed - tol)/scale, (printed + tol)/scale]
            lo = (target - number.tolerance * (1 + 1e-9)) / scale
            hi = (target + number.tolerance * (1 + 1e-9)) / scale
            i = bisect.bisect_left(self._sorted, lo)
            if i < len(self._sorted) and self._sorted[i] <= hi:
                return True
        return False


def check_numbers(tex: str, values: Iterable[float] = (), material_text: str = "") -> NumberReport:
    """Match every number in `tex` against `values` and the numbers in `material_text`."""
    index = SourceValues([*values, *numbers_in_text(material_text)])
    report = NumberReport()
    for number in extract_numbers(tex):
        report.checked.append(number.text)
        (report.sourced if index.matches(number) else report.unsourced).append(number.text)
    return report
