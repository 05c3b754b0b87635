"""A law's parameter read off a calibration line's slope.

"Fit the calibration line A = ε l c, give the molar absorptivity ε": the
standards give the line's slope b (absorbance per concentration), and the
law the notes ask about says what that slope is, here ε l. When the law is
linear in the calibration's x, its slope against x is proportional to the
asked parameter, and every other symbol of the slope is a value the notes
give (l = 1.00 cm) or a constant of the catalogue, the parameter is

    q = b / (d law / d x at q = 1),

computed in SI base units (so µM against L/(mol cm) needs no special
case), with the slope's SE and the given values' uncertainties carried by
`uncertainties`. Nothing here knows a law: the entry's formula is data.
The law's offsets (A0) drop out of a slope; a law whose slope holds another
fitted parameter, or a symbol the notes do not give, is not read this way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from labwright.analysis.catalogue.expr import UNCERTAIN, FormulaError, parse_equation
from labwright.analysis.catalogue.schema import ModelEntry, Parameter, Text
from labwright.analysis.procedures.common import expected, given
from labwright.analysis.quantities import parse_unit, registry
from labwright.analysis.request import AnalysisRequest, GivenConstant
from labwright.analysis.request_rules.words import same_symbol
from labwright.analysis.results import Answer
from labwright.ingest.types import Column

# Two values of x and of the parameter at which the law is evaluated: its
# slope must not depend on where it is taken, and must double with q.
_PROBES = (1.0, 2.0)
_REL = 1e-9


@dataclass(frozen=True)
class SlopeAnswer:
    """One parameter of a law, from the calibration slope."""

    entry: ModelEntry
    parameter: Parameter
    value: float
    se: float
    unit: str | None
    per_slope: float  # q = b * per_slope (the SI conversion and the given values)
    given: tuple[GivenConstant, ...]  # the notes' values the slope holds (l)
    # The given values' share of the SE, relative to q (0 when exact): the
    # SE is hypot(se_b * per_slope, q * given_rel).
    given_rel: float = 0.0

    def answer(self, request: AnalysisRequest, x: Column, y: Column, rows: str) -> Answer:
        p, e = self.parameter, self.entry
        # The given values are named, not quoted: the request's list of
        # constants prints them through the ledger.
        names = ", ".join(g.symbol for g in self.given)
        how = Text(
            f"from the calibration slope: in the {e.name.en} the slope of {y.name} against "
            f"{x.name} is proportional to the {p.label.en}"
            + (f" ({names} from the notes)" if names else ""),
            f"由校准直线的斜率：{e.name.zh}中 {y.name} 对 {x.name} 的斜率与{p.label.zh}成正比"
            + (f"（{names} 取自实验说明）" if names else ""),
        )
        return Answer(
            p.name, p.label, p.latex, self.value, self.se, self.unit, how, e.key, True,
            expected(request, p.name, self.unit), (x.provenance, y.provenance), rows,
        )  # fmt: skip


def _si(unit: str | None) -> float | None:
    """The factor from `unit` to SI base units (1 for no unit)."""
    if not unit:
        return 1.0
    parsed = parse_unit(unit)
    if parsed is None:
        return None
    try:
        return float(registry().Quantity(1.0, parsed).to_base_units().magnitude)
    except Exception:  # noqa: BLE001 - an offset scale (°C) has no factor
        return None


def _uncertain(value: float, se: float | None) -> Any:
    """An uncertain number, or the plain value when it is exact (a ufloat
    with no spread only warns)."""
    from uncertainties import ufloat

    return ufloat(value, se) if se else value


def _symbol_of(entry: ModelEntry, column: Column) -> str | None:
    """The law's variable or input the column is (by the symbols the
    catalogue lists for it)."""
    named: list[tuple[str, tuple[str, ...]]] = [(v.name, v.symbols) for v in entry.variables]
    named += [(i.name, i.symbols) for i in entry.inputs]
    for name, symbols in named:
        if any(same_symbol(column.name, s) for s in (name, *symbols)):
            return name
    return None


def _unit_of(entry: ModelEntry, name: str) -> str | None:
    for v in entry.variables:
        if v.name == name:
            return v.unit
    for i in entry.inputs:
        if i.name == name:
            return i.unit
    return None


def slope_answer(
    entry: ModelEntry,
    quantity: str,
    request: AnalysisRequest,
    x: Column,
    y: Column,
    b: float,
    se_b: float,
) -> SlopeAnswer | None:
    """`quantity` of `entry` from the slope b ± se_b of y against x, or None
    when the law does not say what the slope is in terms of it alone."""
    param = next((p for p in entry.parameters if p.name == quantity), None)
    if param is None or not param.unit or "{" in param.unit:
        return None
    if not any(same_symbol(y.name, s) for s in (entry.response.name, *entry.response.symbols)):
        return None
    xs = _symbol_of(entry, x)
    try:
        eq = parse_equation(entry.formula)
    except FormulaError:
        return None
    if xs is None or not eq.explicit or xs not in eq.rhs.names or quantity not in eq.rhs.names:
        return None
    f_x, f_y, f_q = _si(x.unit), _si(y.unit), _si(param.display_unit or param.unit)
    if f_x is None or f_y is None or f_q is None:
        return None
    env: dict[str, Any] = {}
    others = [p.name for p in entry.parameters if p.name != quantity]
    used: list[GivenConstant] = []
    for name in eq.rhs.names - {xs, quantity, *others}:
        const = next((c for c in entry.constants if c.name == name), None)
        if const is not None and "{" not in const.unit:
            f = _si(const.unit)
            if f is None:
                return None
            env[name] = _uncertain(const.value, const.uncertainty) * f
            continue
        unit = _unit_of(entry, name)
        if unit is None:
            return None
        symbols = next((v.symbols for v in entry.variables if v.name == name), ())
        symbols += next((i.symbols for i in entry.inputs if i.name == name), ())
        g = given(request, (name, *symbols), unit)
        f = _si(unit)
        if g is None or f is None:
            return None
        env[name] = _uncertain(g.value, g.se) * f
        used.append(g.constant)

    def slope(q: float, rest: float, at: float) -> Any:
        e = {**env, quantity: q, **dict.fromkeys(others, rest)}
        hi = eq.rhs.evaluate({**e, xs: at + 1.0}, UNCERTAIN)
        lo = eq.rhs.evaluate({**e, xs: at}, UNCERTAIN)
        return hi - lo

    try:
        unit_slope = slope(1.0, 0.0, 0.0)
        checks = [slope(q, rest, at) for q in _PROBES for rest in _PROBES for at in _PROBES]
    except (ArithmeticError, ValueError, TypeError, FormulaError):
        return None
    s1 = float(getattr(unit_slope, "nominal_value", unit_slope))
    if not math.isfinite(s1) or s1 == 0:
        return None
    # Linear in x, independent of the other parameters, proportional to q.
    for (q, _rest, _at), value in zip(
        ((q, r, a) for q in _PROBES for r in _PROBES for a in _PROBES), checks, strict=True
    ):
        v = float(getattr(value, "nominal_value", value))
        if not math.isclose(v, q * s1, rel_tol=_REL, abs_tol=0.0):
            return None
    b_si = _uncertain(b, se_b) * f_y / f_x
    q_si = b_si / unit_slope
    q = q_si / f_q
    per = f_y / f_x / s1 / f_q
    unit = param.display_unit or param.unit
    value = float(getattr(q, "nominal_value", q))
    se = float(getattr(q, "std_dev", 0.0))
    rest = math.sqrt(max(se**2 - (se_b * per) ** 2, 0.0))
    given_rel = rest / abs(value) if value else 0.0
    return SlopeAnswer(entry, param, value, se, unit, per, tuple(used), given_rel)


def slope_answers(
    request: AnalysisRequest,
    x: Column,
    y: Column,
    b: float,
    se_b: float,
    entries: dict[str, ModelEntry],
) -> list[SlopeAnswer]:
    """Every asked parameter of a law of the request (other than the
    calibration's own) that the calibration slope gives."""
    out: list[SlopeAnswer] = []
    seen: set[tuple[str, str]] = set()
    for a in request.asked:
        entry = entries.get(a.model or "")
        if entry is None or entry.procedure == "calibration" or (entry.key, a.quantity) in seen:
            continue
        seen.add((entry.key, a.quantity))
        found = slope_answer(entry, a.quantity, request, x, y, b, se_b)
        if found is not None:
            out.append(found)
    return out
