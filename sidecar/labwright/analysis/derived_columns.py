"""Columns the notes define from other columns and given values.

A lab handout writes the variable its law needs in terms of what was
recorded: "F = m g" (the loads were masses), "L = l + d/2" (thread plus the
bob's radius), "a = 2h/t²", "D = |x_L − x_R|". The law binds the variable,
not the columns it is made of, so the answer was lost however well the law
was read. Such an equation is a definition when its left side is one symbol
no column is named by and every symbol on its right is a column of one
table or a value the notes give (with its unit), at least one a column.
The column is then computed row by row, in a unit pint gives it, and put
in that table; the request records the definition (`DerivedColumn`), so the
analysis, the report and the exported script compute it the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from labwright.analysis.catalogue.expr import ARRAY, FormulaError, parse_expression
from labwright.analysis.quantities import parse_unit, readable, registry
from labwright.analysis.request import DerivedColumn
from labwright.ingest.types import Column, Dataset, Provenance, ReadResult

_MATH_NAMES = frozenset({"pi", "e"})


def evaluate(
    definition: DerivedColumn, ds: Dataset
) -> tuple[np.ndarray[Any, Any], str | None] | None:
    """The defined column's values (and unit) over `ds`, or None when a
    column it needs is missing or a unit does not combine."""
    reg = registry()
    expr = parse_expression(definition.expression)
    env: dict[str, Any] = {}
    units: dict[str, Any] = {}
    for symbol, column in definition.columns:
        col = next((c for c in ds.columns if c.name == column and c.is_numeric), None)
        if col is None:
            return None
        unit = parse_unit(col.unit, difference=False) if col.unit else reg.dimensionless
        if unit is None:
            return None
        q = reg.Quantity(np.asarray(col.values, dtype=float), unit).to_base_units()
        env[symbol], units[symbol] = q.magnitude, q.units
    for symbol, value, unit_text in definition.constants:
        unit = parse_unit(unit_text) if unit_text else reg.dimensionless
        if unit is None:
            return None
        given = reg.Quantity(value, unit).to_base_units()
        env[symbol], units[symbol] = given.magnitude, given.units
    try:
        with np.errstate(all="ignore"):
            values = np.asarray(expr.evaluate(env, ARRAY), dtype=float)
        probe = expr.evaluate({k: reg.Quantity(1.0, u) for k, u in units.items()}, _units_backend())
    except (FormulaError, ArithmeticError, ValueError, TypeError, KeyError):
        return None
    except Exception:  # noqa: BLE001 - pint's DimensionalityError: units that do not add
        return None
    base = getattr(probe, "units", reg.dimensionless)
    shown = readable(reg.Quantity(1.0, base))
    factor = float(reg.Quantity(1.0, base).to(shown.units).magnitude)
    unit = f"{shown.units:~P}" or None
    if values.shape == ():
        values = np.full(ds.n_rows, float(values))
    return values * factor, unit


def _units_backend() -> Any:
    from labwright.analysis.catalogue.expr import UNITS

    return UNITS


def apply(read: ReadResult, derived: Sequence[DerivedColumn]) -> ReadResult:
    """The folder with each defined column added to its table (a table that
    has a column of that name already is left as it is)."""
    if not derived:
        return read
    datasets = list(read.datasets)
    for definition in derived:
        for i, ds in enumerate(datasets):
            part = ds.provenance.sheet if ds.provenance else None
            if ds.source != definition.file or part != definition.sheet:
                continue
            if any(c.name == definition.name for c in ds.columns):
                continue
            found = evaluate(definition, ds)
            if found is None:
                continue
            values, unit = found
            used = ", ".join(column for _, column in definition.columns)
            prov = Provenance(
                ds.source,
                part,
                None,
                f"{definition.written} (from {used})",
                _rows(ds),
            )
            datasets[i] = replace(
                ds, columns=[*ds.columns, Column(definition.name, values, prov, unit)]
            )
    return replace(read, datasets=datasets)


def _rows(ds: Dataset) -> str | None:
    first = next((c for c in ds.columns if c.provenance.rows), None)
    return first.provenance.rows if first is not None else None


def is_definition(
    names: frozenset[str],
    response: str,
    columns: Mapping[str, str],
    constants: Mapping[str, tuple[float, str | None]],
) -> bool:
    """Every right-side symbol is a column or a given value, one at least a
    column, and the left side is no column."""
    right = names - {response} - _MATH_NAMES
    return (
        response not in columns
        and bool(right)
        and right <= set(columns) | set(constants)
        and bool(right & set(columns))
    )


def finite(values: np.ndarray[Any, Any]) -> bool:
    return bool(np.isfinite(values).sum() >= max(2, math.ceil(0.5 * values.size)))
