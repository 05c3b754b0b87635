"""The quantities the notes define from a fit, computed.

A `DefinedQuantity` ("t½ = ln 2/k", "T = −a/b") is evaluated over one fitted
law at a time: its symbols are that fit's parameters and derived quantities
(by the catalogue's names or the notes' own symbols for them), the values
the notes give, and the quantities defined before it. The fit's values are
correlated `uncertainties` numbers, so the defined quantity's standard
error keeps the parameters' covariance (a ratio of two correlated slopes is
not the quadrature sum). Everything is put in SI base units first, the
result is shown in a readable unit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from labwright.analysis.catalogue.expr import UNCERTAIN, UNITS, FormulaError, parse_expression
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.quantities import display, parse_unit, readable, registry
from labwright.analysis.request import AnalysisRequest, DefinedQuantity
from labwright.analysis.results import Answer


def defined_answers(outcomes: Sequence[Any], request: AnalysisRequest) -> list[Answer]:
    """`outcomes`: the fit kind's results (`FitOutcome`), in order."""
    if not request.defined:
        return []
    out: list[Answer] = []
    done: set[str] = set()
    for outcome in outcomes:
        if not outcome.ok:
            continue
        env = _fitted(outcome, request)
        for d in request.defined:
            if d.name in done:
                continue
            answer = _evaluate(d, env, outcome)
            if answer is not None:
                env[d.name] = (answer.value_si, answer.unit_si)
                out.append(answer.answer)
                done.add(d.name)
    return out


class _Computed:
    def __init__(self, answer: Answer, value_si: Any, unit_si: Any) -> None:
        self.answer, self.value_si, self.unit_si = answer, value_si, unit_si


def _fitted(outcome: Any, request: AnalysisRequest) -> dict[str, tuple[Any, Any]]:
    """Symbol -> (value in SI base units as an uncertain number, its unit)."""
    reg = registry()
    res = outcome.result
    env: dict[str, tuple[Any, Any]] = {}
    written = {e: w for m in request.models if m.key == outcome.entry.key for e, w in m.symbols}
    for name, value in res.values.items():
        unit = parse_unit(res.units.get(name), difference=True) if res.units.get(name) else None
        unit = unit if unit is not None else reg.dimensionless
        q = reg.Quantity(1.0, unit).to_base_units()
        entry = (value * float(q.magnitude), q.units)
        env[name] = entry
        if name in written:
            env[written[name]] = entry
    return env


def _unit_like(base: Any, outcome: Any) -> Any:
    """The unit to show a defined quantity in: one the fit speaks in (a
    half-life from k in 1/h is in h, not s), else a readable one."""
    reg = registry()
    candidates = [*outcome.result.units.values(), *outcome.binding.units.values()]
    for text in candidates:
        unit = parse_unit(text, difference=True) if text else None
        if unit is None or unit == reg.dimensionless:
            continue
        for option in (unit, 1 / unit):
            if option.dimensionality == base.dimensionality:
                return option
    return readable(reg.Quantity(1.0, base)).units


def _evaluate(
    d: DefinedQuantity, env: dict[str, tuple[Any, Any]], outcome: Any
) -> _Computed | None:
    reg = registry()
    values: dict[str, Any] = {}
    units: dict[str, Any] = {}
    try:
        expr = parse_expression(d.expression)
    except FormulaError:
        return None
    for symbol, value, unit_text in d.constants:
        unit = parse_unit(unit_text) if unit_text else reg.dimensionless
        if unit is None:
            return None
        q = reg.Quantity(value, unit).to_base_units()
        values[symbol], units[symbol] = float(q.magnitude), q.units
    for symbol in expr.names - set(values) - {"pi", "e"}:
        if symbol not in env:
            return None
        values[symbol], units[symbol] = env[symbol]
    try:
        result = expr.evaluate(values, UNCERTAIN)
        probe = expr.evaluate({k: reg.Quantity(1.0, u) for k, u in units.items()}, UNITS)
    except Exception:  # noqa: BLE001 - a domain error, or units that do not combine
        return None
    nominal = float(getattr(result, "nominal_value", result))
    se = float(getattr(result, "std_dev", 0.0))
    if not math.isfinite(nominal):
        return None
    base = getattr(probe, "units", reg.dimensionless)
    target = _unit_like(base, outcome)
    factor = float(reg.Quantity(1.0, base).to(target).magnitude)
    unit = display(target) or None
    label = d.label or d.name
    fitted = outcome.entry.name
    method = Text(
        f"{d.written} (the notes' definition) from the {fitted.en} fitted to "
        f"{outcome.binding.dataset.source}; SE propagated with the parameters' correlations",
        f"按笔记给出的定义 {d.written} 由拟合到 {outcome.binding.dataset.source} 的"
        f"{fitted.zh}计算；标准误差按参数的相关性传递",
    )
    sources = tuple(c.provenance for c in (*outcome.binding.independents, outcome.binding.response))
    answer = Answer(
        d.name,
        Text(label, label),
        d.name,
        nominal * factor,
        se * factor if se > 0 and math.isfinite(se) else None,
        unit,
        method,
        None,
        d.asked,
        None,
        sources,
        None,
        outcome.quality,
        None,
        d.name,
    )
    return _Computed(answer, result, base)
