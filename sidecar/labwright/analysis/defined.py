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
        fitted = outcome.entry.name
        ds = outcome.binding.dataset
        group = ds.provenance.subset if ds.provenance is not None else None
        table = ds.source + (f" ({group})" if group else "")
        origin = _Origin(
            [*outcome.result.units.values(), *outcome.binding.units.values()],
            Text(
                f"from the {fitted.en} fitted to {table}; "
                "SE propagated with the parameters' correlations",
                f"由拟合到 {table} 的{fitted.zh}计算；标准误差按参数的相关性传递",
            ),
            tuple(c.provenance for c in (*outcome.binding.independents, outcome.binding.response)),
            outcome.quality,
        )
        # A law fitted group by group defines the quantity for every group.
        out += _each_defined(request, env, origin, done if group is None else set(done))
    return out


def defined_from_answers(answers: Sequence[Answer], request: AnalysisRequest) -> list[Answer]:
    """Quantities the notes define from answers no law's fit gave (the mean
    of repeated readings, "G = 3 g / (4 π R ρ_w D)"), each answer an
    independent uncertain number; those the fits defined are left alone."""
    done = {a.quantity for a in answers}
    if not request.defined or all(d.name in done for d in request.defined):
        return []
    from uncertainties import ufloat

    reg = registry()
    env: dict[str, tuple[Any, Any]] = {}
    used: list[Answer] = []
    for a in answers:
        if a.model is not None or a.se is None or not math.isfinite(a.se):
            continue
        unit = parse_unit(a.unit, difference=True) if a.unit else reg.dimensionless
        if unit is None:
            continue
        q = reg.Quantity(1.0, unit).to_base_units()
        env[a.quantity] = (ufloat(a.value, a.se) * float(q.magnitude), q.units)
        used.append(a)
    if not used:
        return []
    origin = _Origin(
        [a.unit for a in used],
        Text(
            f"from {', '.join(a.quantity for a in used)}; SE propagated",
            f"由 {'、'.join(a.quantity for a in used)} 计算；标准误差按传递公式计算",
        ),
        tuple(p for a in used for p in a.sources),
        None,
    )
    return _each_defined(request, env, origin, done)


def _each_defined(
    request: AnalysisRequest, env: dict[str, tuple[Any, Any]], origin: _Origin, done: set[str]
) -> list[Answer]:
    """Every definition not yet answered that these inputs give, in the
    notes' order; each answered one becomes an input of the later ones."""
    out: list[Answer] = []
    for d in request.defined:
        if d.name in done:
            continue
        computed = _evaluate(d, env, origin)
        if computed is not None:
            env[d.name] = (computed.value_si, computed.unit_si)
            out.append(computed.answer)
            done.add(d.name)
    return out


class _Origin:
    """What a defined quantity was computed from: the units its inputs speak
    in (the result is shown in one of them when it can be), one line saying
    where they came from, their columns and the fit's quality, when a fit."""

    def __init__(
        self, units: Sequence[str | None], said: Text, sources: tuple[Any, ...], quality: Any
    ) -> None:
        self.units, self.said, self.sources, self.quality = units, said, sources, quality


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


def _unit_like(base: Any, candidates: Sequence[str | None]) -> Any:
    """The unit to show a defined quantity in: one its inputs speak in (a
    half-life from k in 1/h is in h, not s), else a readable one."""
    reg = registry()
    for text in candidates:
        unit = parse_unit(text, difference=True) if text else None
        if unit is None or unit == reg.dimensionless:
            continue
        for option in (unit, 1 / unit):
            if option.dimensionality == base.dimensionality:
                return option
    return readable(reg.Quantity(1.0, base)).units


def _evaluate(
    d: DefinedQuantity, env: dict[str, tuple[Any, Any]], origin: _Origin
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
    target = _unit_like(base, origin.units)
    factor = float(reg.Quantity(1.0, base).to(target).magnitude)
    unit = display(target) or None
    label = d.label or d.name
    method = Text(
        f"{d.written} (the notes' definition) {origin.said.en}",
        f"按笔记给出的定义 {d.written} {origin.said.zh}",
    )
    sources = origin.sources
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
        origin.quality,
        None,
        d.name,
    )
    return _Computed(answer, result, base)
