"""An expected value from component values in the notes: the time constant RC.

"Measure the time constant ... and compare it with the product RC": the notes
give the components ("C = 100 uF (tolerance 20 %), resistors 10 kOhm and
22 kOhm (tolerance 1 %)"), each data set names its resistor (a sheet called
R10k, or the sentence of the notes that names the file: "through 1 kOhm ...
(scope_capture.mat)"). The expected τ = RC gets a standard uncertainty from
the tolerances, read as the bounds of a uniform distribution (GUM type B:
u = tolerance/√3), and the fitted τ is compared with it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_PREFIX = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "m": 1e-3, "": 1.0,
           "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}  # fmt: skip
_NUM = r"(\d+(?:\.\d+)?)"
_CAP = re.compile(_NUM + r"\s*([pnuµμm]?)F\b")
_RES = re.compile(_NUM + r"\s*([kKM]?)\s*(?:Ohm|ohm|Ω|欧姆?)")
_RES_NAME = re.compile(r"(?:^|[^A-Za-z])R_?" + _NUM + r"([kKM]?)(?:Ohm|ohm|Ω)?(?![A-Za-z0-9])")
_TOL = re.compile(r"(?:tolerance|tol\.?|±|\+/-|误差|精度)\s*:?\s*" + _NUM + r"\s*%")
_ASKS = re.compile(
    r"compar\w*[^.\n]{0,60}\bRC\b|\bRC\b[^.\n]{0,40}compar|τ\s*=\s*RC|\btau\s*=\s*RC|与\s*RC\s*(?:比较|对比)|RC\s*乘积",
    re.I,
)
# A sentence ends at a full stop followed by space (not the dot of a file
# name) or at a blank line.
_BOUNDARY = re.compile(r"[.。](?=\s)|。|\n\s*\n")
UNIFORM = math.sqrt(3.0)


@dataclass(frozen=True)
class Component:
    value: float  # SI (F or Ohm)
    tolerance: float | None  # relative, e.g. 0.2; None when the notes give none
    text: str  # as written, e.g. "100 uF"


@dataclass(frozen=True)
class Expected:
    """τ = R C with its standard uncertainty."""

    r: Component
    c: Component
    value: float  # s
    u: float  # standard uncertainty, s

    def compare(self, tau: float, se: float) -> tuple[float, float, bool]:
        """Ratio τ/RC, z = (τ - RC)/√(u² + se²), consistent when |z| ≤ 2."""
        z = (tau - self.value) / math.sqrt(self.u**2 + se**2)
        return tau / self.value, z, abs(z) <= 2.0


def asks_for_rc(text: str) -> bool:
    return bool(_ASKS.search(text))


def _tolerance_after(text: str, end: int) -> float | None:
    """The first tolerance stated within the same clause after a value."""
    m = _TOL.search(text, end, min(len(text), end + 80))
    if m is None:
        return None
    between = text[end : m.start()]
    if re.search(r"[.;。；]\s", between) or _RES.search(between) and "and" not in between:
        return None
    return float(m.group(1)) / 100.0


def components(text: str) -> tuple[list[Component], list[Component]]:
    """(capacitors, resistors) stated in the notes."""
    caps = [
        Component(float(m.group(1)) * _PREFIX[m.group(2)], _tolerance_after(text, m.end()), m.group(0))
        for m in _CAP.finditer(text)
    ]  # fmt: skip
    res = []
    matches = list(_RES.finditer(text))
    for i, m in enumerate(matches):
        # "10 kOhm and 22 kOhm (tolerance 1 %)": the tolerance after the last
        # of a list applies to all of it.
        tol = _tolerance_after(text, m.end())
        j = i
        while (
            tol is None
            and j + 1 < len(matches)
            and re.fullmatch(
                r"\s*(?:,|and|or|、|和|与)\s*", text[matches[j].end() : matches[j + 1].start()]
            )
        ):
            j += 1
            tol = _tolerance_after(text, matches[j].end())
        res.append(Component(float(m.group(1)) * _PREFIX[m.group(2)], tol, m.group(0)))
    return caps, res


def _from_name(name: str, resistors: list[Component]) -> Component | None:
    m = _RES_NAME.search(name)
    if m is None:
        return None
    value = float(m.group(1)) * _PREFIX[m.group(2)]
    for r in resistors:  # the notes' entry carries the tolerance
        if math.isclose(r.value, value, rel_tol=1e-9):
            return r
    return Component(value, None, m.group(0).strip())


def resistor_for(source: str, name: str, text: str, resistors: list[Component]) -> Component | None:
    """The resistor of a data set: from its name (sheet R10k), else the one
    resistor named in the sentence of the notes that names its file."""
    for label in (name, source):
        r = _from_name(label.rsplit("/", 1)[-1], resistors)
        if r is not None:
            return r
    base = source.rsplit("/", 1)[-1]
    pos = text.find(base) if base else -1
    if pos >= 0:
        starts = [m.end() for m in _BOUNDARY.finditer(text, 0, pos)]
        after = _BOUNDARY.search(text, pos + len(base))
        sentence = text[(starts[-1] if starts else 0) : (after.start() if after else len(text))]
        found = list(_RES.finditer(sentence))
        if len(found) == 1:  # more than one: which is meant is not clear
            v = float(found[0].group(1)) * _PREFIX[found[0].group(2)]
            for r in resistors:
                if math.isclose(r.value, v, rel_tol=1e-9):
                    return r
            return Component(v, None, found[0].group(0))
    return None


def expected_tau(r: Component, c: Component) -> Expected:
    rel = math.sqrt(sum((t / UNIFORM) ** 2 for t in (r.tolerance, c.tolerance) if t is not None))
    value = r.value * c.value
    return Expected(r, c, value, value * rel)


@dataclass
class RCQuestion:
    """The notes ask to compare τ with RC; their components, read once."""

    text: str
    capacitors: list[Component]
    resistors: list[Component]

    def expected_for(self, source: str, name: str) -> Expected | None:
        if len(self.capacitors) != 1:
            return None  # which capacitor is meant is not clear
        r = resistor_for(source, name, self.text, self.resistors)
        return expected_tau(r, self.capacitors[0]) if r is not None else None


def read_rc(text: str) -> RCQuestion | None:
    if not asks_for_rc(text):
        return None
    caps, res = components(text)
    if not caps or not res:
        return None
    return RCQuestion(text, caps, res)
