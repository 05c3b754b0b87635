"""Reader for MATLAB .fig files: the plotted data, so the figure can be redrawn.

A .fig is a MAT file holding one struct named `hgS_070000` (`hgS_050200` in
older releases): a handle-graphics tree of nodes with `type`, `handle`,
`properties`, `children` and `special`. Each axes node yields one "figure"
dataset; every child that carries XData and YData of equal length is one
plotted line, stored as the columns `lineN.x` and `lineN.y` and listed in
`pairs`.

Axis labels are text nodes among the axes' children. They are matched by
handle from the axes' `XLabel`/`YLabel`/`Title` properties when present,
else from `special`, which holds the label handles in the order xlabel,
ylabel, zlabel, title (the order handle2struct writes the label texts).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .base import Item, ReaderContext, ReadError
from .read_matlab import mat_version
from .types import Column, Dataset, Provenance
from .units import split_unit

_LABEL_ORDER = ("xlabel", "ylabel", "zlabel", "title")
_MAX_NODES = 20_000


def _field(node: object, name: str, default: object = None) -> object:
    return getattr(node, name, default)


def _children(node: object) -> list[object]:
    kids = _field(node, "children")
    if kids is None:
        return []
    if isinstance(kids, np.ndarray):
        return [k for k in kids.ravel() if hasattr(k, "_fieldnames")]
    return [kids] if hasattr(kids, "_fieldnames") else []


def _text(value: object) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, np.ndarray):
        return " ".join(_text(v) for v in value.ravel() if _text(v))
    return ""


def _walk(node: object, budget: list[int]) -> Iterator[object]:
    budget[0] -= 1
    if budget[0] < 0:
        return
    yield node
    for child in _children(node):
        yield from _walk(child, budget)


def _line_data(node: object) -> tuple[np.ndarray, np.ndarray] | None:
    props = _field(node, "properties")
    x = _field(props, "XData")
    y = _field(props, "YData")
    if not isinstance(y, np.ndarray) and isinstance(y, (int, float)):
        y = np.asarray([y], dtype=float)
    if not isinstance(y, np.ndarray) or y.dtype.kind not in "biuf":
        return None
    y = np.ravel(y).astype(float)
    if isinstance(x, (int, float)):
        x = np.asarray([x], dtype=float)
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "biuf" or np.size(x) != y.size:
        x = np.arange(1, y.size + 1, dtype=float)  # MATLAB's plot(y) uses 1..N
    return np.ravel(x).astype(float), y


def _labels(axes: object) -> dict[str, str]:
    texts: dict[float, str] = {}
    for child in _children(axes):
        if _text(_field(child, "type")) == "text":
            handle = _field(child, "handle")
            if isinstance(handle, (int, float, np.number)):
                texts[float(handle)] = _text(_field(_field(child, "properties"), "String"))
    labels: dict[str, str] = {}
    props = _field(axes, "properties")
    for key, prop in (("xlabel", "XLabel"), ("ylabel", "YLabel"), ("title", "Title")):
        value = _field(props, prop)
        if isinstance(value, str) and value.strip():
            labels[key] = _text(value)
        elif isinstance(value, (int, float, np.number)) and texts.get(float(value)):
            labels[key] = texts[float(value)]
    special = _field(axes, "special")
    if special is not None:
        handles = np.ravel(np.asarray(special, dtype=object))
        for key, handle in zip(_LABEL_ORDER, handles, strict=False):
            if (
                key not in labels
                and isinstance(handle, (int, float, np.number))
                and texts.get(float(handle))
            ):
                labels[key] = texts[float(handle)]
    return labels


def _matrices(axes: object, index: int, ctx: ReaderContext, name: str) -> list[Dataset]:
    """imagesc/pcolor/surf data in the axes: CData of images, ZData of surfaces."""
    out: list[Dataset] = []
    for node in _walk(axes, [_MAX_NODES]):
        kind = _text(_field(node, "type"))
        prop = {"image": "CData", "surface": "ZData"}.get(kind)
        if prop is None:
            continue
        data = _field(_field(node, "properties"), prop)
        if not isinstance(data, np.ndarray) or data.ndim != 2 or data.dtype.kind not in "biuf":
            continue
        number = sum(1 for d in out if d.labels.get("graphics") == kind) + 1
        out.append(
            Dataset(
                name=f"{name}:{kind}{number}",
                source=ctx.rel,
                kind="matrix",
                matrix=np.asarray(data, dtype=float),
                provenance=Provenance(ctx.rel, variable=f"axes{index}.{kind}{number}", column=prop),
                labels={**_labels(axes), "graphics": kind},
            )
        )
    return out


def _axes_dataset(axes: object, index: int, ctx: ReaderContext, name: str) -> Dataset | None:
    labels = _labels(axes)
    x_name, x_unit = split_unit(labels.get("xlabel", ""))
    y_name, y_unit = split_unit(labels.get("ylabel", ""))
    columns: list[Column] = []
    pairs: list[tuple[str, str]] = []
    budget = [_MAX_NODES]
    number = 0
    stack = list(_children(axes))
    while stack and budget[0] > 0:
        node = stack.pop(0)
        budget[0] -= 1
        data = _line_data(node)
        if data is None:
            stack[:0] = _children(node)  # hggroup / series wrappers: look inside
            continue
        number += 1
        x, y = data
        if x.size > ctx.max_rows:
            x, y = x[: ctx.max_rows], y[: ctx.max_rows]
        line = f"line{number}"
        variable = f"axes{index}.{line}"
        columns.append(
            Column(f"{line}.x", x, Provenance(ctx.rel, variable=variable, column="XData"), x_unit)
        )
        columns.append(
            Column(f"{line}.y", y, Provenance(ctx.rel, variable=variable, column="YData"), y_unit)
        )
        pairs.append((f"{line}.x", f"{line}.y"))
        legend = _text(_field(_field(node, "properties"), "DisplayName"))
        if legend:
            labels[line] = legend
    if not pairs:
        return None
    if x_name:
        labels.setdefault("x_quantity", x_name)
    if y_name:
        labels.setdefault("y_quantity", y_name)
    return Dataset(
        name=name,
        source=ctx.rel,
        kind="figure",
        columns=columns,
        provenance=Provenance(ctx.rel, variable=f"axes{index}"),
        pairs=pairs,
        labels=labels,
    )


def read_fig(path: Path, ctx: ReaderContext) -> list[Item]:
    if mat_version(path) == 2:
        raise ReadError("read.fig_hdf5")
    import scipy.io  # only for .fig files (see read_matlab.mat_version)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            content = scipy.io.loadmat(path, squeeze_me=True, struct_as_record=False)
    except Exception as exc:  # scipy raises many types on corrupt input
        raise ReadError("read.fig_damaged") from exc
    roots = [v for k, v in content.items() if k.startswith(("hgS_", "s_oct"))]
    if not roots:
        raise ReadError("read.fig_no_tree")
    axes = [n for n in _walk(roots[0], [_MAX_NODES]) if _text(_field(n, "type")) == "axes"]
    datasets = []
    for index, node in enumerate(axes, start=1):
        name = ctx.name if len(axes) == 1 else ctx.sub(f"axes{index}")
        dataset = _axes_dataset(node, index, ctx, name)
        if dataset is not None:
            datasets.append(dataset)
        datasets.extend(_matrices(node, index, ctx, name))
    if not datasets:
        raise ReadError("read.fig_empty")
    return list(datasets)
