"""Load and validate the catalogue of laws (`knowledge/models/*.toml`).

Read once per process, at first use, and again only when a file changed
(the user's overlay can replace a file by name: `<data dir>/overlay/models/
mechanics.toml`, or add one). Every entry is checked before it is used: the
fields are the known ones (a misspelt key is an error, not a silently
missing bound), the formula parses in the safe evaluator and names only the
entry's variables, parameters, constants and inputs, every unit is one pint
reads, the formula is dimensionally sound in the typical units, start rules
and derived expressions parse and name what exists, the linearised plot is a
straight line of the model's own data, and the entry's example generates
finite data.

A broken built-in entry is a bug: `tests/analysis/test_catalogue_load.py`
validates every built-in file in full and fails on any problem; a user's
build reads the built-in files without re-validating them (most of a
second per process for a hundred laws), and validates overlay files. A broken overlay entry is skipped with one warning, and
the built-in entry of the same key (if any) stays in use, so a bad knowledge
pack never removes a law.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast, get_args

import numpy as np

from labwright.analysis import quantities
from labwright.analysis.catalogue.expr import (
    ARRAY,
    UNITS,
    FormulaError,
    parse_equation,
    parse_expression,
)
from labwright.analysis.catalogue.schema import (
    Composite,
    Constant,
    Derived,
    Example,
    ExampleRange,
    Input,
    Inverse,
    LinearPlot,
    ModelEntry,
    Parameter,
    Phrases,
    Reference,
    Text,
    Variable,
)
from labwright.analysis.catalogue.starts import START_FUNCTIONS
from labwright.analysis.request import Procedure

log = logging.getLogger(__name__)

AREAS = (
    "mechanics", "thermal", "electricity", "optics", "modern", "chemistry", "biology",
    "spectroscopy", "signals", "calibration",
)  # fmt: skip
PEAK_SHAPES = ("gaussian", "lorentzian", "voigt", "pseudo_voigt")
BASELINES = ("none", "constant", "linear", "quadratic", "cubic")
#: Fit statistics a derived expression may use besides the parameters.
FIT_STATISTICS = ("s_res", "n_points")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_SYMBOL = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_TEMPLATE = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")

_ENTRY_KEYS = {
    "key", "area", "name", "aliases", "asks", "formula", "latex", "variables", "parameters",
    "constants", "inputs", "derived", "linear_plot", "reference", "procedure", "composite",
    "inverse", "example",
}  # fmt: skip
_VARIABLE_KEYS = {"role", "name", "symbols", "words", "dimension", "unit", "absolute"}
_PARAMETER_KEYS = {"name", "latex", "unit", "min", "max", "start", "asks", "display_unit"}
_CONSTANT_KEYS = {"value", "unit", "name", "uncertainty"}
_INPUT_KEYS = {"name", "unit", "symbols", "words", "default"}
_DERIVED_KEYS = {"key", "expr", "name", "latex", "asks", "unit"}
_LINEAR_KEYS = {"name", "x", "y", "x_latex", "y_latex", "slope", "intercept", "from_line"}
_REFERENCE_KEYS = {"quantity", "value", "unit", "source", "uncertainty", "condition"}
_EXAMPLE_KEYS = {"truth", "n", "noise", "noise_kind", "inputs", "ranges"}
_RANGE_KEYS = {"min", "max", "n", "spacing", "values"}


@dataclass(frozen=True)
class CatalogueProblem:
    """One thing wrong with one entry (or file), in one sentence."""

    source: str  # the file
    key: str | None  # the entry, when one could be named
    message: str

    def __str__(self) -> str:
        where = f"{self.source}: {self.key}" if self.key else self.source
        return f"{where}: {self.message}"


class _Invalid(Exception):
    pass


# ---------------------------------------------------------------------------
# Reading the TOML tables into typed entries


def _table(value: object, what: str, allowed: set[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(f"{what} must be a table")
    if allowed is not None:
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise _Invalid(f"{what} has unknown field(s) {', '.join(unknown)}")
    return cast(dict[str, Any], value)


def _text(value: object, what: str) -> Text:
    t = _table(value, what, {"en", "zh"})
    en, zh = t.get("en"), t.get("zh")
    if not isinstance(en, str) or not en.strip() or not isinstance(zh, str) or not zh.strip():
        raise _Invalid(f"{what} needs both en and zh")
    if not _CJK.search(zh):
        raise _Invalid(f"{what}.zh {zh!r} is not written in Chinese")
    return Text(en.strip(), zh.strip())


def _strings(value: object, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _Invalid(f"{what} must be a list of words")
    return tuple(v.strip() for v in value)


def _phrases(value: object, what: str, required: bool = False) -> Phrases:
    if value is None:
        if required:
            raise _Invalid(f"{what} needs phrases in en and zh")
        return Phrases()
    t = _table(value, what, {"en", "zh"})
    phrases = Phrases(_strings(t.get("en"), f"{what}.en"), _strings(t.get("zh"), f"{what}.zh"))
    if required and not (phrases.en and phrases.zh):
        raise _Invalid(f"{what} needs phrases in en and zh")
    return phrases


def _number(value: object, what: str, optional: bool = True) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _Invalid(f"{what} must be a finite number")
    return float(value)


def _string(value: object, what: str, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(f"{what} must be text")
    return value.strip()


def _variable(name: str, raw: object) -> Variable:
    what = f"variable {name}"
    t = _table(raw, what, _VARIABLE_KEYS)
    role = t.get("role")
    if role not in ("independent", "response"):
        raise _Invalid(f"{what}.role must be independent or response")
    unit = _string(t.get("unit"), f"{what}.unit")
    dimension = _string(t.get("dimension"), f"{what}.dimension")
    if dimension is None:
        dimension = (quantities.dimensionality(unit) if unit else None) or "any"
    absolute = t.get("absolute", False)
    if not isinstance(absolute, bool):
        raise _Invalid(f"{what}.absolute must be true or false")
    return Variable(
        name=name,
        role=role,
        label=_text(t.get("name"), f"{what}.name"),
        symbols=_strings(t.get("symbols"), f"{what}.symbols"),
        words=_phrases(t.get("words"), f"{what}.words"),
        dimension=dimension,
        unit=unit,
        absolute=absolute,
    )


def _parameter(name: str, raw: object) -> Parameter:
    what = f"parameter {name}"
    t = _table(raw, what, _PARAMETER_KEYS)
    return Parameter(
        name=name,
        label=_text(t.get("name"), f"{what}.name"),
        latex=_string(t.get("latex"), f"{what}.latex", optional=False) or name,
        unit=_string(t.get("unit"), f"{what}.unit"),
        min=_number(t.get("min"), f"{what}.min"),
        max=_number(t.get("max"), f"{what}.max"),
        start=_string(t.get("start"), f"{what}.start"),
        asks=_phrases(t.get("asks"), f"{what}.asks", required=True),
        display_unit=_string(t.get("display_unit"), f"{what}.display_unit"),
    )


def _constant(name: str, raw: object) -> Constant:
    what = f"constant {name}"
    t = _table(raw, what, _CONSTANT_KEYS)
    label = t.get("name")
    return Constant(
        name=name,
        value=cast(float, _number(t.get("value"), f"{what}.value", optional=False)),
        unit=_string(t.get("unit"), f"{what}.unit", optional=False) or "",
        label=None if label is None else _text(label, f"{what}.name"),
        uncertainty=_number(t.get("uncertainty"), f"{what}.uncertainty"),
    )


def _input(name: str, raw: object) -> Input:
    what = f"input {name}"
    t = _table(raw, what, _INPUT_KEYS)
    return Input(
        name=name,
        label=_text(t.get("name"), f"{what}.name"),
        unit=_string(t.get("unit"), f"{what}.unit"),
        symbols=_strings(t.get("symbols"), f"{what}.symbols"),
        words=_phrases(t.get("words"), f"{what}.words"),
        default=_number(t.get("default"), f"{what}.default"),
    )


def _derived(raw: object, index: int) -> Derived:
    t = _table(raw, f"derived[{index}]", _DERIVED_KEYS)
    key = _string(t.get("key"), f"derived[{index}].key", optional=False) or ""
    what = f"derived {key}"
    return Derived(
        key=key,
        expr=_string(t.get("expr"), f"{what}.expr", optional=False) or "",
        label=_text(t.get("name"), f"{what}.name"),
        latex=_string(t.get("latex"), f"{what}.latex", optional=False) or key,
        asks=_phrases(t.get("asks"), f"{what}.asks", required=True),
        unit=_string(t.get("unit"), f"{what}.unit"),
    )


def _pairs(value: object, what: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    t = _table(value, what)
    if not all(isinstance(v, str) for v in t.values()):
        raise _Invalid(f"{what} must map names to expressions")
    return tuple((str(k), str(v)) for k, v in t.items())


def _linear_plot(raw: object) -> LinearPlot:
    t = _table(raw, "linear_plot", _LINEAR_KEYS)
    return LinearPlot(
        label=_text(t.get("name"), "linear_plot.name"),
        x=_string(t.get("x"), "linear_plot.x", optional=False) or "",
        y=_string(t.get("y"), "linear_plot.y", optional=False) or "",
        x_latex=_string(t.get("x_latex"), "linear_plot.x_latex") or "",
        y_latex=_string(t.get("y_latex"), "linear_plot.y_latex") or "",
        slope=_string(t.get("slope"), "linear_plot.slope"),
        intercept=_string(t.get("intercept"), "linear_plot.intercept"),
        from_line=_pairs(t.get("from_line"), "linear_plot.from_line"),
    )


def _inverse(raw: object) -> Inverse:
    t = _table(raw, "inverse", {"formula", "latex"})
    return Inverse(
        formula=_string(t.get("formula"), "inverse.formula", optional=False) or "",
        latex=_string(t.get("latex"), "inverse.latex", optional=False) or "",
    )


def _reference_source(value: object, what: str, require_zh: bool) -> Text | str:
    """A reference's source: a string (English only) or `{ en = ..., zh = ... }`.
    A built-in reference must give both: a Chinese report shows the zh text."""
    if isinstance(value, dict):
        return _text(value, what)
    text = _string(value, what, optional=False) or ""
    if require_zh:
        raise _Invalid(f"{what} needs a zh text too: source = {{ en = ..., zh = ... }}")
    return text


def _reference(raw: object, index: int, require_zh: bool = False) -> Reference:
    what = f"reference[{index}]"
    t = _table(raw, what, _REFERENCE_KEYS)
    source = _reference_source(t.get("source"), f"{what}.source", require_zh)
    return Reference(
        quantity=_string(t.get("quantity"), f"{what}.quantity", optional=False) or "",
        value=cast(float, _number(t.get("value"), f"{what}.value", optional=False)),
        unit=_string(t.get("unit"), f"{what}.unit", optional=False) or "",
        source=source.en if isinstance(source, Text) else source,
        uncertainty=_number(t.get("uncertainty"), f"{what}.uncertainty"),
        condition=_string(t.get("condition"), f"{what}.condition"),
        source_zh=source.zh if isinstance(source, Text) else None,
    )


def _numbers(value: object, what: str) -> tuple[tuple[str, float], ...]:
    if value is None:
        return ()
    t = _table(value, what)
    return tuple(
        (str(k), cast(float, _number(v, f"{what}.{k}", optional=False))) for k, v in t.items()
    )


def _example(raw: object) -> Example:
    t = _table(raw, "example", _EXAMPLE_KEYS)
    ranges = []
    for name, spec in _table(t.get("ranges", {}), "example.ranges").items():
        r = _table(spec, f"example.ranges.{name}", _RANGE_KEYS)
        spacing = r.get("spacing", "linear")
        if spacing not in ("linear", "log"):
            raise _Invalid(f"example.ranges.{name}.spacing must be linear or log")
        values = r.get("values", [])
        if not isinstance(values, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values
        ):
            raise _Invalid(f"example.ranges.{name}.values must be numbers")
        n = r.get("n")
        if n is not None and (not isinstance(n, int) or n < 2):
            raise _Invalid(f"example.ranges.{name}.n must be an integer of at least 2")
        ranges.append(
            ExampleRange(
                variable=str(name),
                min=_number(r.get("min"), f"example.ranges.{name}.min"),
                max=_number(r.get("max"), f"example.ranges.{name}.max"),
                n=n,
                spacing=spacing,
                values=tuple(float(v) for v in values),
            )
        )
    kind = t.get("noise_kind", "absolute")
    if kind not in ("absolute", "relative", "poisson"):
        raise _Invalid("example.noise_kind must be absolute, relative or poisson")
    n = t.get("n", 15)
    if not isinstance(n, int) or n < 3:
        raise _Invalid("example.n must be an integer of at least 3")
    return Example(
        truth=_numbers(t.get("truth"), "example.truth"),
        ranges=tuple(ranges),
        n=n,
        noise=cast(float, _number(t.get("noise", 0.01), "example.noise", optional=False)),
        noise_kind=kind,
        inputs=_numbers(t.get("inputs"), "example.inputs"),
    )


def _entry(raw: object, source: str, require_zh: bool = False) -> ModelEntry:
    t = _table(raw, "the entry", _ENTRY_KEYS)
    key = _string(t.get("key"), "key", optional=False) or ""
    if not _KEY.match(key):
        raise _Invalid(f"key {key!r} must be snake_case")
    area = t.get("area")
    if area not in AREAS:
        raise _Invalid(f"area {area!r} is not one of {', '.join(AREAS)}")
    variables = tuple(_variable(n, v) for n, v in _table(t.get("variables"), "variables").items())
    parameters = tuple(
        _parameter(n, v) for n, v in _table(t.get("parameters", {}), "parameters").items()
    )
    constants = tuple(
        _constant(n, v) for n, v in _table(t.get("constants", {}), "constants").items()
    )
    inputs = tuple(_input(n, v) for n, v in _table(t.get("inputs", {}), "inputs").items())
    derived_raw = t.get("derived", [])
    if not isinstance(derived_raw, list):
        raise _Invalid("derived must be a list of tables ([[model.derived]])")
    references_raw = t.get("reference", [])
    if not isinstance(references_raw, list):
        raise _Invalid("reference must be a list of tables ([[model.reference]])")
    procedure = _string(t.get("procedure"), "procedure")
    if procedure is not None and procedure not in get_args(Procedure):
        raise _Invalid(f"procedure {procedure!r} is not one of {', '.join(get_args(Procedure))}")
    composite = None
    if t.get("composite") is not None:
        c = _table(t["composite"], "composite", {"peak", "baselines"})
        composite = Composite(
            peak=_string(c.get("peak"), "composite.peak", optional=False) or "",
            baselines=_strings(c.get("baselines"), "composite.baselines")
            or ("constant", "linear", "quadratic"),
        )
    return ModelEntry(
        key=key,
        area=area,
        name=_text(t.get("name"), "name"),
        formula=_string(t.get("formula"), "formula", optional=False) or "",
        latex=_string(t.get("latex"), "latex", optional=False) or "",
        variables=variables,
        parameters=parameters,
        aliases=_phrases(t.get("aliases"), "aliases"),
        asks=_phrases(t.get("asks"), "asks", required=True),
        constants=constants,
        inputs=inputs,
        derived=tuple(_derived(d, i) for i, d in enumerate(derived_raw)),
        linear_plot=None if t.get("linear_plot") is None else _linear_plot(t["linear_plot"]),
        references=tuple(_reference(r, i, require_zh) for i, r in enumerate(references_raw)),
        procedure=procedure,
        composite=composite,
        inverse=None if t.get("inverse") is None else _inverse(t["inverse"]),
        example=None if t.get("example") is None else _example(t["example"]),
        source_file=source,
    )


# ---------------------------------------------------------------------------
# Checks on a typed entry


def resolve_unit(template: str | None, units: Mapping[str, str | None]) -> str | None:
    """A unit written in terms of the variables' units ("{v}/{S}") with the
    given units put in (a variable without a unit counts as a pure number);
    None for no template."""
    if template is None:
        return None

    def put(match: re.Match[str]) -> str:
        unit = units.get(match.group(1))
        name = None if unit is None else quantities.normalise_unit(unit)
        return "(1)" if name is None else f"({name})"

    return _TEMPLATE.sub(put, template)


def _unit_of(text: str | None, what: str, *, difference: bool = True) -> Any:
    reg = quantities.registry()
    if text is None or text.strip() in ("", "1"):
        return reg.dimensionless
    unit = quantities.parse_unit(text, difference=difference)
    if unit is None:
        # A resolved template "(mM)/(min)" is pint syntax already.
        try:
            return reg.parse_units(text)
        except Exception as exc:
            raise _Invalid(f"{what} {text!r} is not a unit pint knows") from exc
    return unit


def typical_units(entry: ModelEntry) -> dict[str, str | None]:
    return {v.name: v.unit for v in entry.variables}


def symbol_units(
    entry: ModelEntry, variable_units: Mapping[str, str | None] | None = None
) -> dict[str, Any]:
    """pint units of every symbol the entry uses (variables in the given or
    typical units, parameters resolved from their templates, constants,
    inputs). Temperatures are taken as differences (kelvin-sized degrees)
    unless the variable is absolute (then K)."""
    units = dict(typical_units(entry))
    if variable_units:
        units.update(variable_units)
    # A written formula's parameter may be in terms of a given input's unit
    # ("{t}/({R})": C of exp(-t/(R C)) with R in kΩ).
    units.update({i.name: i.unit for i in entry.inputs if i.name not in units})
    out: dict[str, Any] = {}
    reg = quantities.registry()
    for v in entry.variables:
        unit = units.get(v.name)
        if v.absolute and unit is not None and quantities.is_temperature(unit):
            out[v.name] = reg.kelvin
        else:
            out[v.name] = _unit_of(unit, f"variable {v.name} unit")
    for p in entry.parameters:
        out[p.name] = _unit_of(
            resolve_unit(p.unit, {**units, **_absolute_units(entry, units)}),
            f"parameter {p.name} unit",
        )
    for c in entry.constants:
        out[c.name] = _unit_of(resolve_unit(c.unit, units), f"constant {c.name} unit")
    for i in entry.inputs:
        out[i.name] = _unit_of(resolve_unit(i.unit, units), f"input {i.name} unit")
    return out


def _absolute_units(entry: ModelEntry, units: Mapping[str, str | None]) -> dict[str, str | None]:
    return {
        v.name: "K"
        for v in entry.variables
        if v.absolute and quantities.is_temperature(units.get(v.name))
    }


def quantity_env(entry: ModelEntry, units: Mapping[str, Any]) -> dict[str, Any]:
    """Symbols as pint quantities (the UNITS backend's input). Their
    magnitudes differ, so that a difference of two of one unit ("w − θ" of
    the Stormer viscometer's T = β v/(w − θ)) is not zero and a quotient
    by it stays defined; only the dimensions are compared."""
    reg = quantities.registry()
    return {
        name: reg.Quantity(1.0 + 0.37 * i, unit) for i, (name, unit) in enumerate(units.items())
    }


def _check_dimensions(entry: ModelEntry, lhs_names: Iterable[str]) -> None:
    units = symbol_units(entry)
    env = quantity_env(entry, units)
    equation = parse_equation(entry.formula)
    try:
        rhs = equation.rhs.evaluate(env, UNITS)
        lhs = equation.lhs.evaluate(env, UNITS)
    except FormulaError as exc:
        raise _Invalid(f"the formula is not dimensionally sound: {exc}") from exc
    except Exception as exc:  # pint's DimensionalityError on a sum of two dimensions
        raise _Invalid(f"the formula is not dimensionally sound ({exc})") from exc
    if _dims(lhs) != _dims(rhs):
        raise _Invalid(
            f"the formula's right side is in {_show(rhs)} but {entry.response.name} is in {_show(lhs)}"
        )


def holds_in(entry: ModelEntry, variable_units: Mapping[str, str | None]) -> bool:
    """Whether the law is dimensionally sound with its variables in these
    units (the others typical). A law whose parameters take their units
    from the variables (Michaelis–Menten: Km in the unit of S, Vmax in that
    of v) holds in any unit of them, even a count rate or ppm; one with a
    fixed-unit constant (g in m/s² beside a period) does not."""
    try:
        units = symbol_units(entry, variable_units)
        env = quantity_env(entry, units)
        equation = parse_equation(entry.formula)
        rhs = equation.rhs.evaluate(env, UNITS)
        lhs = equation.lhs.evaluate(env, UNITS)
    except Exception:  # noqa: BLE001 - a unit pint cannot read, a sum of two dimensions: no
        return False
    return bool(_dims(lhs) == _dims(rhs))


def _dims(value: Any) -> Any:
    return getattr(value, "dimensionality", quantities.registry().dimensionless.dimensionality)


def _show(value: Any) -> str:
    units = getattr(value, "units", None)
    return quantities.display(units) or "a pure number" if units is not None else "a pure number"


def _check(entry: ModelEntry) -> ModelEntry:
    """Validate one typed entry; returns it (with nothing changed) or raises _Invalid."""
    try:
        equation = parse_equation(entry.formula)
    except FormulaError as exc:
        raise _Invalid(f"formula: {exc}") from exc
    responses = [v for v in entry.variables if v.role == "response"]
    if len(responses) != 1:
        raise _Invalid("an entry needs exactly one response variable")
    if not entry.independents:
        raise _Invalid("an entry needs at least one independent variable")
    if not equation.explicit or equation.response != responses[0].name:
        raise _Invalid(f"the formula must read '{responses[0].name} = expression'")
    symbols = [v.name for v in entry.variables] + [p.name for p in entry.parameters]
    symbols += [c.name for c in entry.constants] + [i.name for i in entry.inputs]
    duplicates = {s for s in symbols if symbols.count(s) > 1}
    if duplicates:
        raise _Invalid(f"the symbol(s) {', '.join(sorted(duplicates))} are defined twice")
    for s in symbols:
        if not _SYMBOL.match(s) or s in ("e", "pi"):
            raise _Invalid(f"{s!r} cannot be a symbol (letters, digits, _; not e or pi)")
    unknown = equation.rhs.names - set(symbols)
    if unknown:
        raise _Invalid(
            f"the formula names {', '.join(sorted(unknown))}, which the entry does not define"
        )
    unused = {v.name for v in entry.independents} | {p.name for p in entry.parameters}
    unused -= equation.rhs.names
    if unused and entry.composite is None:
        raise _Invalid(f"{', '.join(sorted(unused))} do not appear in the formula")
    for p in entry.parameters:
        if p.min is not None and p.max is not None and not p.min < p.max:
            raise _Invalid(f"parameter {p.name}: min must be below max")
        for ref in _TEMPLATE.findall(p.unit or ""):
            if entry.variable(ref) is None:
                raise _Invalid(
                    f"parameter {p.name}: its unit names {{{ref}}}, which is not a variable"
                )
    _check_dimensions(entry, equation.lhs.names)
    _check_starts(entry)
    _check_derived(entry)
    _check_display_units(entry)
    if entry.linear_plot is not None:
        _check_linear_plot(entry, entry.linear_plot)
    _check_references(entry)
    if entry.composite is not None:
        if entry.composite.peak not in PEAK_SHAPES:
            raise _Invalid(f"composite.peak must be one of {', '.join(PEAK_SHAPES)}")
        bad = set(entry.composite.baselines) - set(BASELINES)
        if bad:
            raise _Invalid(f"composite.baselines: {', '.join(sorted(bad))} unknown")
    if entry.example is not None:
        _check_example(entry, entry.example)
    if entry.inverse is not None:
        _check_inverse(entry)
    return entry


def _check_inverse(entry: ModelEntry) -> None:
    """The inverse is the same law solved for the one independent variable:
    checked as an entry of its own, then on the example's points (each
    independent value recovered from its response)."""
    if len(entry.independents) != 1 or entry.composite is not None:
        raise _Invalid("inverse: only a law of one independent variable can be inverted")
    try:
        equation = parse_equation(entry.inverse.formula if entry.inverse else "")
    except FormulaError as exc:
        raise _Invalid(f"inverse.formula: {exc}") from exc
    (x,) = entry.independents
    if not equation.explicit or equation.response != x.name:
        raise _Invalid(f"inverse.formula must read '{x.name} = expression'")
    inverted = entry.inverted()
    try:
        _check(inverted)
    except _Invalid as exc:
        raise _Invalid(f"inverse: {exc}") from exc
    if entry.example is None:
        raise _Invalid("inverse: the entry needs an example to check its inverse on")
    example = entry.example
    grid = example_grid(entry, example)
    env: dict[str, Any] = {**example_inputs(entry, example), **example.truth_dict(), **grid}
    env[entry.response.name] = evaluate_in_typical_units(entry, env)
    back = evaluate_in_typical_units(inverted, env)
    if not np.allclose(back, grid[x.name], rtol=1e-9, atol=0.0):
        raise _Invalid("inverse: the formula does not give back the example's own points")


def _check_starts(entry: ModelEntry) -> None:
    data = {v.name for v in entry.variables} | {c.name for c in entry.constants}
    data |= {i.name for i in entry.inputs}
    earlier: set[str] = set()
    for p in entry.parameters:
        if p.start is not None:
            try:
                expr = parse_expression(p.start, START_FUNCTIONS)
            except FormulaError as exc:
                raise _Invalid(f"parameter {p.name} start: {exc}") from exc
            unknown = expr.names - data - earlier
            if unknown:
                raise _Invalid(
                    f"parameter {p.name} start names {', '.join(sorted(unknown))}: "
                    "a start rule may use the data, constants, inputs and earlier parameters"
                )
        earlier.add(p.name)


def _check_derived(entry: ModelEntry) -> None:
    known = {p.name for p in entry.parameters} | {c.name for c in entry.constants}
    known |= {i.name for i in entry.inputs} | set(FIT_STATISTICS)
    units = symbol_units(entry)
    env = quantity_env(entry, units)
    reg = quantities.registry()
    env.update({"s_res": reg.Quantity(1.0, units[entry.response.name]), "n_points": 1.0})
    keys = set(entry.quantity_keys())
    for d in entry.derived:
        if not _KEY.match(d.key) and not _SYMBOL.match(d.key):
            raise _Invalid(f"derived key {d.key!r} must be a plain name")
        if d.key in {p.name for p in entry.parameters}:
            raise _Invalid(f"derived {d.key} has the name of a parameter")
        try:
            expr = parse_expression(d.expr)
        except FormulaError as exc:
            raise _Invalid(f"derived {d.key}: {exc}") from exc
        unknown = expr.names - known
        if unknown:
            raise _Invalid(
                f"derived {d.key} names {', '.join(sorted(unknown))}, which is not defined before it"
            )
        try:
            value = expr.evaluate(env, UNITS)
        except Exception as exc:
            raise _Invalid(f"derived {d.key} is not dimensionally sound ({exc})") from exc
        if d.unit is not None:
            target = _unit_of(d.unit, f"derived {d.key} unit")
            if _dims(value) != target.dimensionality:
                raise _Invalid(f"derived {d.key} is in {_show(value)}, not in {d.unit}")
        env[d.key] = value
        known.add(d.key)
    if len(keys) != len(entry.quantity_keys()):
        raise _Invalid("two quantities (parameters or derived) share a key")


def _check_display_units(entry: ModelEntry) -> None:
    units = symbol_units(entry)
    for p in entry.parameters:
        if p.display_unit is not None:
            target = _unit_of(p.display_unit, f"parameter {p.name} display_unit")
            if target.dimensionality != units[p.name].dimensionality:
                raise _Invalid(
                    f"parameter {p.name}: display_unit {p.display_unit} is another dimension"
                )


def _check_linear_plot(entry: ModelEntry, plot: LinearPlot) -> None:
    names = {v.name for v in entry.variables} | {p.name for p in entry.parameters}
    names |= {c.name for c in entry.constants} | {i.name for i in entry.inputs}
    params = names - {v.name for v in entry.variables}
    exprs = {}
    for field_name, text, allowed in (
        ("x", plot.x, names),
        ("y", plot.y, names),
        ("slope", plot.slope, params),
        ("intercept", plot.intercept, params),
    ):
        if text is None:
            continue
        try:
            expr = parse_expression(text)
        except FormulaError as exc:
            raise _Invalid(f"linear_plot.{field_name}: {exc}") from exc
        unknown = expr.names - allowed
        if unknown:
            raise _Invalid(f"linear_plot.{field_name} names {', '.join(sorted(unknown))}")
        exprs[field_name] = expr
    line_names = (
        {"slope", "intercept"} | {c.name for c in entry.constants} | {i.name for i in entry.inputs}
    )
    for param, text in plot.from_line:
        if entry.parameter(param) is None:
            raise _Invalid(f"linear_plot.from_line gives {param}, which is not a parameter")
        try:
            expr = parse_expression(text)
        except FormulaError as exc:
            raise _Invalid(f"linear_plot.from_line.{param}: {exc}") from exc
        unknown = expr.names - line_names
        if unknown:
            raise _Invalid(f"linear_plot.from_line.{param} names {', '.join(sorted(unknown))}")
    if plot.from_line and (plot.slope is None or plot.intercept is None):
        raise _Invalid("linear_plot.from_line needs slope and intercept")


def _check_references(entry: ModelEntry) -> None:
    units = symbol_units(entry)
    keys = set(entry.quantity_keys())
    for r in entry.references:
        if r.quantity not in keys:
            raise _Invalid(
                f"reference for {r.quantity!r}, which is neither a parameter nor derived"
            )
        target = _unit_of(r.unit, f"reference {r.quantity} unit")
        expected = units.get(r.quantity)
        if expected is None:
            d = entry.derived_quantity(r.quantity)
            expected = _unit_of(d.unit, "derived unit") if d is not None and d.unit else None
        if expected is not None and target.dimensionality != expected.dimensionality:
            raise _Invalid(f"reference for {r.quantity} is in {r.unit}, another dimension")


def example_grid(entry: ModelEntry, example: Example) -> dict[str, np.ndarray[Any, Any]]:
    """The independent variables of the example, crossed as a grid when there are several."""
    axes = []
    for i, v in enumerate(entry.independents):
        spec = next((r for r in example.ranges if r.variable == v.name), None)
        if spec is None:
            raise _Invalid(f"example.ranges has no range for {v.name}")
        if spec.values:
            axis = np.asarray(spec.values, dtype=float)
        else:
            if spec.min is None or spec.max is None or not spec.min < spec.max:
                raise _Invalid(f"example.ranges.{v.name} needs min < max or values")
            n = spec.n or (example.n if i == 0 else 4)
            if spec.spacing == "log":
                if spec.min <= 0:
                    raise _Invalid(f"example.ranges.{v.name}: log spacing needs min > 0")
                axis = np.geomspace(spec.min, spec.max, n)
            else:
                axis = np.linspace(spec.min, spec.max, n)
        axes.append(axis)
    mesh = np.meshgrid(*axes, indexing="ij")
    return {v.name: m.ravel() for v, m in zip(entry.independents, mesh, strict=True)}


def example_inputs(entry: ModelEntry, example: Example) -> dict[str, float]:
    """Values of the constants and inputs the example uses."""
    values = {c.name: c.value for c in entry.constants}
    for i in entry.inputs:
        if i.default is not None:
            values[i.name] = i.default
    values.update(example.inputs_dict())
    return values


def base_factors(entry: ModelEntry) -> dict[str, float]:
    """Each symbol's typical unit in SI base units (value_base = value * factor)."""
    reg = quantities.registry()
    return {
        name: float(reg.Quantity(1.0, unit).to_base_units().magnitude)
        for name, unit in symbol_units(entry).items()
    }


def evaluate_in_typical_units(entry: ModelEntry, env: Mapping[str, Any]) -> np.ndarray[Any, Any]:
    """The formula's response, in its typical unit, for symbols given in
    their typical units. Evaluated in SI base units (as the engine does), so
    a law whose typical units are not coherent (V in mL beside V_eq in L, a
    wavelength in nm beside a distance in m) still gives the right numbers."""
    factors = base_factors(entry)
    base = {name: value * factors.get(name, 1.0) for name, value in env.items()}
    with np.errstate(all="ignore"):
        y = np.asarray(parse_equation(entry.formula).rhs.evaluate(base, ARRAY), dtype=float)
    return y / factors[entry.response.name]


def _check_example(entry: ModelEntry, example: Example) -> None:
    truth = example.truth_dict()
    missing = {p.name for p in entry.parameters} - set(truth)
    if missing:
        raise _Invalid(f"example.truth has no value for {', '.join(sorted(missing))}")
    extra = set(truth) - {p.name for p in entry.parameters}
    if extra:
        raise _Invalid(f"example.truth names {', '.join(sorted(extra))}, not parameters")
    for p in entry.parameters:
        value = truth[p.name]
        if (p.min is not None and value <= p.min) or (p.max is not None and value >= p.max):
            raise _Invalid(f"example.truth.{p.name} = {value:g} is outside its bounds")
    grid = example_grid(entry, example)
    env: dict[str, Any] = {**example_inputs(entry, example), **truth, **grid}
    needed = parse_equation(entry.formula).rhs.names - set(env)
    if needed:
        raise _Invalid(f"example.inputs needs a value for {', '.join(sorted(needed))}")
    y = evaluate_in_typical_units(entry, env)
    if y.shape != next(iter(grid.values())).shape or not np.all(np.isfinite(y)):
        raise _Invalid("the example's formula gives values that are not finite")
    plot = entry.linear_plot
    if plot is not None and plot.slope is not None and plot.intercept is not None:
        # In SI base units, as the engine fits the line (`engine.linear`).
        factors = base_factors(entry)
        env = {name: value * factors.get(name, 1.0) for name, value in env.items()}
        env[entry.response.name] = y * factors[entry.response.name]
        with np.errstate(all="ignore"):
            x_line = np.asarray(parse_expression(plot.x).evaluate(env, ARRAY), dtype=float)
            y_line = np.asarray(parse_expression(plot.y).evaluate(env, ARRAY), dtype=float)
            slope = float(parse_expression(plot.slope).evaluate(env, ARRAY))
            intercept = float(parse_expression(plot.intercept).evaluate(env, ARRAY))
        ok = np.isfinite(x_line) & np.isfinite(y_line)
        if ok.sum() < 2 or not np.allclose(
            y_line[ok],
            slope * x_line[ok] + intercept,
            rtol=1e-6,
            atol=1e-9 * np.max(np.abs(y_line[ok])),
        ):
            raise _Invalid("linear_plot: the model's own points do not lie on slope*x + intercept")
        line_env = {**env, "slope": slope, "intercept": intercept}
        for param, text in plot.from_line:
            back = float(parse_expression(text).evaluate(line_env, ARRAY)) / factors[param]
            if not math.isclose(back, truth[param], rel_tol=1e-6, abs_tol=1e-12):
                raise _Invalid(
                    f"linear_plot.from_line.{param} gives {back:g}, not {truth[param]:g}"
                )


# ---------------------------------------------------------------------------
# Files, overlay and the cache


def parse_text(
    text: str, source: str, *, check: bool = True, builtin: bool = False
) -> tuple[list[ModelEntry], list[CatalogueProblem]]:
    """The valid entries of one TOML text and the problems of the others.

    `check=False` reads the entries without the validation of `_check`
    (formula, units, dimensions, starts, derived quantities, the example):
    for the built-in files, which the test suite validates in full
    (`tests/analysis/test_catalogue_load.py`), so that a build does not
    spend most of a second re-proving them in every process.

    `builtin=True` holds the entries to the built-in catalogue's rules,
    checked whatever `check` says: every reference's source in both
    languages (a user's overlay may give English only)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [], [CatalogueProblem(source, None, f"is not valid TOML ({exc})")]
    unknown = set(data) - {"model"}
    problems = (
        [CatalogueProblem(source, None, f"unknown top-level table(s) {', '.join(sorted(unknown))}")]
        if unknown
        else []
    )
    raw_entries = data.get("model", [])
    if not isinstance(raw_entries, list):
        return [], [*problems, CatalogueProblem(source, None, "entries must be [[model]] tables")]
    entries = []
    for index, raw in enumerate(raw_entries):
        key = raw.get("key") if isinstance(raw, dict) else None
        name = key if isinstance(key, str) else f"entry {index + 1}"
        try:
            entry = _entry(raw, source, require_zh=builtin)
            entries.append(_check(entry) if check else entry)
        except (_Invalid, FormulaError) as exc:
            problems.append(CatalogueProblem(source, name, str(exc)))
        except Exception as exc:  # a check that met something no rule foresaw
            problems.append(
                CatalogueProblem(source, name, f"cannot be checked ({type(exc).__name__}: {exc})")
            )
    return entries, problems


@dataclass(frozen=True)
class Catalogue:
    """The valid entries, by key, and what was wrong with the others."""

    entries: tuple[ModelEntry, ...]
    problems: tuple[CatalogueProblem, ...] = ()

    def __iter__(self) -> Iterator[ModelEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: object) -> bool:
        return any(e.key == key for e in self.entries)

    def __getitem__(self, key: str) -> ModelEntry:
        entry = self.get(key)
        if entry is None:
            raise KeyError(key)
        return entry

    def get(self, key: str) -> ModelEntry | None:
        return next((e for e in self.entries if e.key == key), None)

    def keys(self) -> tuple[str, ...]:
        return tuple(e.key for e in self.entries)

    def in_area(self, area: str) -> tuple[ModelEntry, ...]:
        return tuple(e for e in self.entries if e.area == area)

    def find(self, name: str) -> ModelEntry | None:
        """The entry a name or alias (EN or ZH) names: "Michaelis-Menten",
        "米氏方程", "arrhenius"; case, spaces, dashes and apostrophes ignored."""
        wanted = fold(name)
        for entry in self.entries:
            if wanted in {fold(entry.key), fold(entry.name.en), fold(entry.name.zh)}:
                return entry
        for entry in self.entries:
            if wanted in {fold(a) for a in entry.aliases.all()}:
                return entry
        return None


def fold(text: str) -> str:
    """A name folded for lookup: lower case, no spaces, dashes, dots or apostrophes."""
    return re.sub(r"[\s\-–—_'’.·]+", "", text).casefold()


def builtin_dir() -> Path:
    from labwright.resources import knowledge_path

    return knowledge_path("models")


def overlay_dir() -> Path | None:
    try:
        from labwright import config

        return config.data_dir(create=False).overlay_dir / "models"
    except Exception:
        return None


def _disk_cache_dir() -> Path | None:
    """Where the parsed built-in catalogue is kept between processes."""
    try:
        from labwright import config

        return config.data_dir(create=False).cache_dir / "catalogue"
    except Exception:  # no data dir: parse in every process, as without a cache
        return None


def _files(folder: Path | None) -> dict[str, Path]:
    if folder is None or not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.glob("*.toml")) if p.is_file()}


def _parse_builtin(
    texts: Mapping[str, bytes], *, check: bool
) -> tuple[dict[str, ModelEntry], list[CatalogueProblem]]:
    """The built-in files' entries by key, and their problems."""
    problems: list[CatalogueProblem] = []
    builtin_entries: dict[str, ModelEntry] = {}
    for name, data in texts.items():
        # As Path.read_text reads it (universal newlines: a checkout with CRLF).
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        found, bad = parse_text(
            text,
            f"knowledge/models/{name}",
            check=check,
            builtin=True,
        )
        problems.extend(bad)
        for entry in found:
            if entry.key in builtin_entries:
                problems.append(
                    CatalogueProblem(entry.source_file, entry.key, "the key is used twice")
                )
                continue
            builtin_entries[entry.key] = entry
    return builtin_entries, problems


def _builtin_entries(
    builtin: Mapping[str, Path], *, check: bool, cache_dir: Path | None
) -> tuple[dict[str, ModelEntry], list[CatalogueProblem]]:
    """`_parse_builtin` of the files, through the disk cache when one is given
    and the files are not to be checked (analysis/catalogue/disk_cache.py)."""
    texts = {name: path.read_bytes() for name, path in builtin.items()}
    if cache_dir is None or check:
        return _parse_builtin(texts, check=check)
    from labwright.analysis.catalogue import disk_cache

    try:
        digest = disk_cache.key(texts)
    except Exception as exc:  # noqa: BLE001 - no key, no cache: parse as without one
        log.info("catalogue cache not used (%s)", exc)
        return _parse_builtin(texts, check=False)
    cached = disk_cache.read(cache_dir, digest)
    if (
        isinstance(cached, tuple)
        and len(cached) == 2
        and isinstance(cached[0], dict)
        and all(isinstance(e, ModelEntry) for e in cached[0].values())
        and isinstance(cached[1], list)
        and all(isinstance(p, CatalogueProblem) for p in cached[1])
    ):
        return cached
    parsed = _parse_builtin(texts, check=False)
    disk_cache.write(cache_dir, digest, parsed)
    return parsed


def load_files(
    builtin: Mapping[str, Path],
    overlay: Mapping[str, Path],
    *,
    check_builtin: bool = True,
    cache_dir: Path | None = None,
) -> Catalogue:
    """Entries of the built-in files, with the overlay's files replacing
    theirs by name (and adding new ones); an invalid overlay entry is skipped
    with a warning and the built-in entry of its key stays. Overlay entries
    are always validated; built-in ones unless `check_builtin` is False.
    With `cache_dir` (and no check), the parsed built-in files are kept there
    for the next process, keyed by their bytes and the parser's code."""
    entries: dict[str, ModelEntry] = {}
    builtin_entries, problems = _builtin_entries(builtin, check=check_builtin, cache_dir=cache_dir)
    problems = list(problems)
    replaced = set(overlay) & set(builtin)
    for entry in builtin_entries.values():
        if Path(entry.source_file).name not in replaced:
            entries[entry.key] = entry
    for name, path in overlay.items():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            log.warning(
                "overlay catalogue file %s is unreadable (%s); using the built-in one", path, exc
            )
            text = None
        if text is None:
            for entry in builtin_entries.values():
                if Path(entry.source_file).name == name:
                    entries.setdefault(entry.key, entry)
            continue
        found, bad = parse_text(text, f"overlay/models/{name}")
        for problem in bad:
            log.warning("overlay catalogue entry skipped: %s", problem)
        found_keys = {e.key for e in found}
        for entry in found:
            entries[entry.key] = entry
        # Built-in entries of a replaced file whose overlay version is broken stay.
        for problem in bad:
            if problem.key in builtin_entries and problem.key not in found_keys:
                entries.setdefault(problem.key, builtin_entries[problem.key])
    return Catalogue(tuple(entries.values()), tuple(problems))


_cache_lock = threading.Lock()
_cache: tuple[tuple[tuple[str, float, int], ...], Catalogue] | None = None


def _signature(*folders: Mapping[str, Path]) -> tuple[tuple[str, float, int], ...]:
    rows = []
    for files in folders:
        for path in files.values():
            try:
                st = path.stat()
            except OSError:
                continue
            rows.append((str(path), st.st_mtime, st.st_size))
    return tuple(rows)


def catalogue() -> Catalogue:
    """The catalogue, loaded at first use and again when a file changed."""
    global _cache
    builtin, overlay = _files(builtin_dir()), _files(overlay_dir())
    signature = _signature(builtin, overlay)
    cached = _cache
    if cached is not None and cached[0] == signature:
        return cached[1]
    with _cache_lock:
        if _cache is not None and _cache[0] == signature:
            return _cache[1]
        # The built-in files are validated by the test suite, not per run;
        # LABWRIGHT_CHECK_CATALOGUE=1 validates them here too.
        loaded = load_files(
            builtin,
            overlay,
            check_builtin=os.environ.get("LABWRIGHT_CHECK_CATALOGUE") == "1",
            cache_dir=_disk_cache_dir(),
        )
        for problem in loaded.problems:
            log.error("catalogue entry skipped (a bug in the built-in catalogue): %s", problem)
        _cache = (signature, loaded)
        return loaded


def entry_with(entry: ModelEntry, **changes: Any) -> ModelEntry:
    """A copy of an entry with fields changed (tests build broken entries so)."""
    return replace(entry, **changes)
