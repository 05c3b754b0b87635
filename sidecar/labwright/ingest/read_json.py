"""Reader for JSON data: arrays of records, objects of columns, and nested
objects holding either; plain numeric arrays go through the shared walker."""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from pathlib import Path

import pandas as pd

from .arrays import collect
from .base import MAX_TEXT_BYTES, Item, ReaderContext, ReadError, read_prefix
from .encoding import decode_text
from .tabular import column_names, frame_to_columns
from .types import Dataset, Provenance
from .units import unit_in_words

_MAX_DEPTH = 6


def _is_records(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _is_columns(value: object) -> bool:
    """{"t": [...], "V": [...]} with equal lengths and scalar entries."""
    if not isinstance(value, dict) or len(value) < 1:
        return False
    lengths = set()
    for v in value.values():
        if not isinstance(v, list) or not v or any(isinstance(x, (list, dict)) for x in v):
            return False
        lengths.add(len(v))
    return len(lengths) == 1 and lengths.pop() >= 2


def _table(frame: pd.DataFrame, name: str, prov: Provenance, max_rows: int) -> Dataset | None:
    notes = []
    if len(frame) > max_rows:
        frame = frame.iloc[:max_rows]
        notes.append(f"Only the first {max_rows:,} records were read.")
    names, units = column_names(frame.shape[1], [str(c) for c in frame.columns], None)
    columns = frame_to_columns(frame.reset_index(drop=True), names, units, prov, notes=notes)
    if not any(c.is_numeric for c in columns):
        return None
    return Dataset(
        name=name, source=prov.file, kind="table", columns=columns, provenance=prov, notes=notes
    )


def _extract(value: object, path: str, ctx: ReaderContext, out: list[Item], depth: int) -> object:
    """Turn record lists and column objects into tables; return what is left."""
    name = ctx.sub(path) if path else ctx.name
    prov = Provenance(ctx.rel, variable=path or None)
    if _is_records(value):
        dataset = _table(pd.json_normalize(value, max_level=2), name, prov, ctx.max_rows)  # type: ignore[arg-type]
        if dataset is not None:
            out.append(dataset)
        return None
    if _is_columns(value):
        dataset = _table(pd.DataFrame(value), name, prov, ctx.max_rows)
        if dataset is not None:
            out.append(dataset)
        return None
    if isinstance(value, dict) and depth < _MAX_DEPTH:
        return {
            str(k): _extract(v, f"{path}.{k}" if path else str(k), ctx, out, depth + 1)
            for k, v in value.items()
        }
    return value


def read_json(path: Path, ctx: ReaderContext) -> list[Item]:
    data, cut = read_prefix(path, MAX_TEXT_BYTES)
    if cut:
        raise ReadError("read.json_too_large")
    if not data.strip():
        raise ReadError("read.empty")
    decoded = decode_text(data)
    if decoded is None:
        raise ReadError("read.binary")
    try:
        value = json.loads(decoded.text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ReadError("read.json_invalid") from exc
    items: list[Item] = []
    rest = _extract(value, "", ctx, items, 0)
    if isinstance(rest, dict):
        found = collect(ctx.rel, ctx.name, list(rest.items()), ctx.max_rows)
    elif isinstance(rest, list):
        found = collect(ctx.rel, ctx.name, [(Path(ctx.rel).stem, rest)], ctx.max_rows)
        if len(found.datasets) == 1:
            found.datasets[0].name = ctx.name
    else:
        found = None
    if found is not None:
        items.extend(found.datasets)
        items.extend(found.skipped)
    if not any(isinstance(i, Dataset) for i in items):
        raise ReadError("read.json_no_numbers")
    _apply_units(_units_object(value), [i for i in items if isinstance(i, Dataset)])
    return items


def _units_object(value: object) -> dict[str, str]:
    """A top-level "units" object of column name (or pattern, "v_rep*") to unit."""
    if not isinstance(value, dict):
        return {}
    for key in ("units", "unit", "Units", "单位"):
        found = value.get(key)
        if isinstance(found, dict):
            return {str(k): v for k, v in found.items() if isinstance(v, str)}
    return {}


def _apply_units(units: dict[str, str], datasets: list[Dataset]) -> None:
    """Columns without a unit of their own take the one the file's "units"
    object gives their name, exactly or by a wildcard pattern."""
    if not units:
        return
    for ds in datasets:
        for col in ds.columns:
            if col.unit is not None or not col.is_numeric:
                continue
            text = units.get(col.name)
            if text is None:
                text = next((u for k, u in units.items() if fnmatchcase(col.name, k)), None)
            unit = unit_in_words(text) if text is not None else None
            if unit is not None:
                col.unit = unit
