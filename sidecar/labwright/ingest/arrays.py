"""Named arrays (from MATLAB, .npz, JSON) turned into datasets.

At each level of a nested structure (the file's workspace, a struct, a JSON
object), 1-D numeric vectors of equal length become the columns of one table:
MATLAB users save `t` and `V` side by side, and the writer should see them as
an x-y pair. 2-D arrays become their own dataset (a narrow one becomes a table
of columns, a wide one a matrix); numeric scalars become named `scalars` on
the level's table, and short strings become its `metadata`. Names follow MATLAB: `data.voltage`, `trials{2}`, `runs(2).t`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from labwright.messages import say

from .types import Column, Dataset, Provenance, Skipped
from .units import split_suffix_units

# Bound the size of a matrix kept for plotting; larger ones are subsampled.
MAX_MATRIX_SIDE = 2000
_MAX_DEPTH = 8
_MAX_NODES = 5000
# Sparse matrices (MATLAB `sparse`) are made dense up to this many cells.
_MAX_SPARSE_CELLS = 4_000_000


@dataclass
class Collected:
    datasets: list[Dataset] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def _numeric(value: object) -> np.ndarray | None:
    """A float array for numbers, numeric arrays and (nested) lists of numbers."""
    if isinstance(value, (bool, np.bool_, int, float, np.integer, np.floating)):
        return np.asarray(value, dtype=float)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return value.astype(float, copy=False)
    # A sparse matrix exists only if a MATLAB reader imported scipy.sparse,
    # so the check costs no import for the folders that have none.
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(value) and value.dtype.kind in "biuf":  # type: ignore[attr-defined]
        rows, cols = value.shape  # type: ignore[attr-defined]
        if rows * cols <= _MAX_SPARSE_CELLS:
            return np.asarray(value.toarray(), dtype=float)  # type: ignore[attr-defined]
    if isinstance(value, list) and value and len(value) <= 10_000_000:
        if all(isinstance(v, (int, float)) for v in value) or all(
            isinstance(row, list) and row and all(isinstance(v, (int, float)) for v in row)
            for row in value
        ):
            try:
                arr = np.asarray(value, dtype=float)
            except ValueError:  # ragged nested lists
                return None
            return arr
    return None


def _squeeze(arr: np.ndarray) -> np.ndarray:
    return np.squeeze(arr) if arr.ndim > 1 and 1 in arr.shape else arr


class _Walker:
    def __init__(self, rel: str, base: str, max_rows: int) -> None:
        self.rel = rel
        self.base = base
        self.max_rows = max_rows
        self.out = Collected()
        self.nodes = 0

    def _name(self, path: str) -> str:
        return f"{self.base}:{path}" if path else self.base

    def _skip(self, path: str, reason: str) -> None:
        self.out.skipped.append(Skipped(self.rel, reason, variable=path or None))

    def walk(
        self, container_path: str, items: Iterable[tuple[str, object]], depth: int = 0
    ) -> None:
        vectors: list[tuple[str, str, np.ndarray]] = []  # (short name, full path, values)
        scalars: dict[str, float] = {}
        texts: dict[str, str] = {}
        children: list[tuple[str, object]] = []
        for key, value in items:
            self.nodes += 1
            if self.nodes > _MAX_NODES:
                if self.nodes == _MAX_NODES + 1:  # say it once, not once per struct
                    self._skip(
                        container_path,
                        say("read.too_many_variables", file=self.rel, max=_MAX_NODES),
                    )
                break
            if key.startswith(("{", "(")):
                path = f"{container_path}{key}"
                key = f"{container_path.rsplit('.', 1)[-1]}{key}"
            else:
                path = f"{container_path}.{key}" if container_path else key
            if isinstance(value, str):
                # Short text beside the data (operator, sample, label) is metadata.
                if value.strip() and len(value) <= 200:
                    texts[key] = " ".join(value.split())
                continue
            arr = _numeric(value)
            if arr is None:
                children.append((path, value))
                continue
            arr = _squeeze(arr)
            if arr.ndim == 0:
                if np.isfinite(arr):
                    scalars[key] = float(arr)
            elif arr.ndim == 1:
                if arr.size >= 2:
                    vectors.append((key, path, arr))
            elif arr.ndim == 2:
                self._matrix(path, arr)
            else:
                self._skip(
                    path,
                    say("read.variable_ndim", name=path, file=self.rel, ndim=arr.ndim),
                )
        self._tables(container_path, vectors, scalars, texts)
        for path, value in children:
            self._child(path, value, depth)

    def _child(self, path: str, value: object, depth: int) -> None:
        if depth >= _MAX_DEPTH:
            self._skip(path, say("read.variable_deep", name=path, file=self.rel))
            return
        if isinstance(value, dict):
            self.walk(path, list(value.items()), depth + 1)
        elif isinstance(value, (list, tuple)) or (
            isinstance(value, np.ndarray) and value.dtype.kind == "O"
        ):
            elements = (
                list(np.asarray(value, dtype=object).ravel())
                if isinstance(value, np.ndarray)
                else list(value)
            )
            # Elements are named like MATLAB: runs(2) in a struct array, trials{2} in a cell.
            is_structs = bool(elements) and all(isinstance(e, dict) for e in elements)
            template = "({})" if is_structs else "{{{}}}"
            self.walk(
                path, [(template.format(i), e) for i, e in enumerate(elements, start=1)], depth + 1
            )
        elif isinstance(value, np.ndarray) and value.dtype.kind == "c":
            self._skip(
                path,
                say("read.variable_complex", name=path, file=self.rel),
            )
        elif isinstance(value, (str, bytes, np.ndarray)) or value is None:
            return  # text, char arrays and empty values carry no data to plot
        else:
            self._skip(
                path,
                say("read.variable_type", name=path, file=self.rel, type=type(value).__name__),
            )

    def _tables(
        self,
        container: str,
        vectors: list[tuple[str, str, np.ndarray]],
        scalars: dict[str, float],
        texts: dict[str, str],
    ) -> None:
        groups: dict[int, list[tuple[str, str, np.ndarray]]] = {}
        for entry in vectors:
            groups.setdefault(entry[2].size, []).append(entry)
        first = True
        for _length, members in groups.items():
            # One group keeps the container's name; further groups are named by
            # their first variable so names do not depend on dict order elsewhere.
            if len(groups) == 1:
                name = self._name(container)
            else:
                name = self._name(members[0][1])
            columns = []
            notes = []
            # Variable names such as time_s, voltage_V carry their unit.
            named = split_suffix_units([short for short, _path, _values in members])
            for (short, path, values), (col_name, unit) in zip(members, named, strict=True):
                if values.size > self.max_rows:
                    values = values[: self.max_rows]
                    notes = [f"Only the first {self.max_rows:,} values of each variable were read."]
                prov = Provenance(self.rel, variable=path, column=short)
                columns.append(Column(name=col_name, values=values, provenance=prov, unit=unit))
            prov = Provenance(self.rel, variable=container or None)
            dataset = Dataset(
                name=name,
                source=self.rel,
                kind="table",
                columns=columns,
                provenance=prov,
                notes=notes,
            )
            if first:
                dataset.scalars.update(scalars)
                dataset.metadata.update(texts)
                first = False
            self.out.datasets.append(dataset)
        if first and (scalars or texts):
            # Only scalars at this level: keep them on an empty table, so the
            # writer can still quote the parameters with their provenance.
            prov = Provenance(self.rel, variable=container or None)
            self.out.datasets.append(
                Dataset(
                    name=self._name(container),
                    source=self.rel,
                    kind="table",
                    provenance=prov,
                    scalars=scalars,
                    metadata=texts,
                )
            )

    def _matrix(self, path: str, arr: np.ndarray) -> None:
        rows, cols = arr.shape
        prov = Provenance(self.rel, variable=path)
        if cols <= 8 and rows > 2 * cols:
            # A tall narrow array is columns of measurements (N x 2: x and y).
            notes = []
            if rows > self.max_rows:
                arr = arr[: self.max_rows]
                notes.append(f"Only the first {self.max_rows:,} rows were read.")
            columns = [
                Column(
                    name=f"{path.rsplit('.', 1)[-1]}[:,{j + 1}]",
                    values=np.ascontiguousarray(arr[:, j]),
                    provenance=Provenance(self.rel, variable=path, column=f"column {j + 1}"),
                )
                for j in range(cols)
            ]
            self.out.datasets.append(
                Dataset(
                    name=self._name(path),
                    source=self.rel,
                    kind="table",
                    columns=columns,
                    provenance=prov,
                    notes=notes,
                )
            )
            return
        notes = []
        step_r = max(1, -(-rows // MAX_MATRIX_SIDE))
        step_c = max(1, -(-cols // MAX_MATRIX_SIDE))
        if step_r > 1 or step_c > 1:
            arr = arr[::step_r, ::step_c]
            notes.append(
                f"The {rows}x{cols} array was subsampled to {arr.shape[0]}x{arr.shape[1]} for display."
            )
        self.out.datasets.append(
            Dataset(
                name=self._name(path),
                source=self.rel,
                kind="matrix",
                matrix=np.array(arr),
                provenance=prov,
                notes=notes,
            )
        )


def collect(rel: str, base: str, items: Iterable[tuple[str, object]], max_rows: int) -> Collected:
    """Datasets and skipped parts from a workspace of named values."""
    walker = _Walker(rel, base, max_rows)
    walker.walk("", items)
    out = walker.out
    # Scalars-only levels (parameters such as R and C) join the table of the
    # nearest enclosing level (data.info.gain -> the table of `data`), else the
    # file's first table, so the writer sees them next to the data.
    holders = [d for d in out.datasets if d.columns or d.matrix is not None]
    if holders:
        for dataset in [d for d in out.datasets if not d.columns and d.matrix is None]:
            path = (dataset.provenance.variable if dataset.provenance else None) or ""
            target, prefix = _nearest_holder(holders, path)
            rel = path[len(prefix) :].lstrip(".") if prefix else path
            for key, value in dataset.scalars.items():
                target.scalars.setdefault(f"{rel}.{key}" if rel else key, value)
            for key, text in dataset.metadata.items():
                target.metadata.setdefault(f"{rel}.{key}" if rel else key, text)
            out.datasets.remove(dataset)
    # Text alone is not data: a level with only strings yields no dataset.
    out.datasets = [d for d in out.datasets if d.columns or d.matrix is not None or d.scalars]
    return out


def _nearest_holder(holders: list[Dataset], path: str) -> tuple[Dataset, str]:
    best: tuple[int, Dataset, str] | None = None
    for dataset in holders:
        if dataset.kind != "table":
            continue
        var = (dataset.provenance.variable if dataset.provenance else None) or ""
        if var == "" or path == var or path.startswith((var + ".", var + "{", var + "(")):
            if best is None or len(var) > best[0]:
                best = (len(var), dataset, var)
    if best is None:
        tables = [d for d in holders if d.kind == "table"] or holders
        return tables[0], ""
    return best[1], best[2]
