"""The compendium's blocks run here, before the script is written (issue 23).

Each block runs in this process against the tables as the report read them,
with the script's own names stubbed: `table()`/`matrix()` hand over the
reader's tables (and note which ones, so `table()` can be written for
them), `report()` notes each computation with the line of the script it is
on (the appendix names that line), `figure()`/`picture()` compare what
they are given with the report's plotted data (so an export knows which
figures its script redraws, and which it would draw differently). Nothing
is drawn here: matplotlib is not even imported.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from labwright.agent.offline.compendium_data import frame_of
from labwright.agent.offline.figure_record import DATA_FIELDS
from labwright.agent.offline.writers.script import KindScript
from labwright.ingest.types import Dataset, ReadResult

#: A figure's arrays agree with the report's within this share of the
#: largest value the figure plots under that name (the script's FIGURE_RTOL).
#: 1e-6 failed a noisy sinusoid fit whose curve lmfit and the engine put
#: 1.7e-6 apart while every printed number agreed; 1e-5 of an axis is a
#: hundredth of a pixel on a 600-pixel panel.
FIGURE_RTOL = 1e-5


def dataset_named(read: ReadResult, file: str, part: str | None) -> Dataset:
    """The dataset of `file` (and of its sheet or variable `part`) in a read folder."""
    for ds in read.datasets:
        prov = ds.provenance
        own = (prov.sheet or prov.variable) if prov is not None else None
        if ds.source == file and (part is None or own == part):
            return ds
    raise KeyError((file, part))


def locator(
    read: ReadResult,
) -> dict[tuple[str, str | None, str | None, str | None], tuple[str, str | None, str | None]]:
    """Where each provenance the reader gave points in the compendium's tables."""
    out: dict[
        tuple[str, str | None, str | None, str | None], tuple[str, str | None, str | None]
    ] = {}
    for ds in read.datasets:
        prov = ds.provenance
        part = (prov.sheet or prov.variable) if prov is not None else None
        if prov is not None:
            out.setdefault(
                (prov.file, prov.sheet, prov.variable, prov.column), (ds.source, part, None)
            )
        out.setdefault(
            (ds.source, None, ds.name if ds.matrix is not None else None, None),
            (ds.source, part, None),
        )
        for c in ds.columns:
            p = c.provenance
            out.setdefault((p.file, p.sheet, p.variable, p.column), (ds.source, part, c.name))
            out.setdefault((p.file, p.sheet, p.variable, None), (ds.source, part, None))
    return out


@dataclass
class Run:
    """What the blocks did when run here."""

    #: (computation, value, source, line) of every report() call
    said: list[tuple[str, float, str | None, int]] = field(default_factory=list)
    tables: dict[tuple[str, str | None], Dataset] = field(default_factory=dict)
    matrices: set[tuple[str, str | None]] = field(default_factory=set)
    #: figure key -> what differs from the report's plotted data ([] = nothing)
    figures: dict[str, list[str]] = field(default_factory=dict)


def _largest(value: Any) -> float:
    """The largest finite magnitude in a recorded array (nested lists, None for NaN)."""
    if isinstance(value, list):
        return max((_largest(v) for v in value), default=0.0)
    return abs(float(value)) if value is not None and np.isfinite(value) else 0.0


def scales(spec: Mapping[str, Any]) -> dict[str, float]:
    """Each array name's largest magnitude over a recorded figure: the
    tolerance's scale. Residuals are data minus model; at a millionth of
    their own size they failed on every fit whose parameters lmfit and the
    engine find a hair apart (labset: single-slit, damped oscillation)."""
    out: dict[str, float] = {}
    for panel in spec["panels"]:
        for layer in panel["layers"]:
            for name in DATA_FIELDS.get(layer["type"], ()):
                out[name] = max(out.get(name, 0.0), _largest(layer[name]))
    return out


def differences(
    layers: list[tuple[Any, ...]], recorded: Mapping[str, Any], scale: Mapping[str, float]
) -> list[str]:
    """What of one panel's layers differs from the recorded panel."""
    out: list[str] = []
    if len(layers) != len(recorded["layers"]):
        out.append(f"{len(layers)} layers, the report has {len(recorded['layers'])}")
    for (kind, *data), rec in zip(layers, recorded["layers"], strict=False):
        if kind != rec["type"]:
            out.append(f"a {kind} layer where the report has a {rec['type']}")
            continue
        for name, ours in zip(DATA_FIELDS[kind], data, strict=False):
            theirs = rec[name]
            pairs = list(zip(ours, theirs, strict=False)) if kind == "box" else [(ours, theirs)]
            if kind == "box" and len(ours) != len(theirs):
                out.append(f"{kind} {name}: {len(ours)} samples, the report has {len(theirs)}")
            atol = FIGURE_RTOL * max(scale.get(name, 0.0), 1e-300)
            for a, b in pairs:
                x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
                if x.shape != y.shape or not np.allclose(x, y, rtol=0.0, atol=atol, equal_nan=True):
                    out.append(f"{kind} {name}")
    return out


def run_block(
    read: ReadResult,
    block: KindScript,
    first_line: int,
    run: Run,
    figures: Mapping[str, Any] | None = None,
    data: Path | None = None,
) -> None:
    """Run one block as the script will, its code numbered from `first_line`;
    `data`: the folder its DATA stands for (the data folder itself here)."""

    def table(file: str, part: str | None = None) -> Any:
        ds = dataset_named(read, file, part)
        run.tables[(file, part)] = ds
        return frame_of(ds)

    def matrix(file: str, part: str | None = None) -> Any:
        ds = dataset_named(read, file, part)
        run.tables[(file, part)] = ds
        run.matrices.add((file, part))
        return np.asarray(ds.matrix)

    def report(computation: str, value: float, source: str | None = None) -> None:
        run.said.append((computation, float(value), source, sys._getframe(1).f_lineno))

    def figure(key: str, *panels: list[tuple[Any, ...]]) -> None:
        spec = (figures or {}).get(key)
        if spec is None:
            run.figures[key] = ["the report has no such figure"]
            return
        problems = []
        if len(panels) != len(spec["panels"]):
            problems.append(f"{len(panels)} panels, the report has {len(spec['panels'])}")
        for layers, recorded in zip(panels, spec["panels"], strict=False):
            problems += differences(list(layers), recorded, scales(spec))
        run.figures[key] = problems

    def picture(key: str, file: str) -> tuple[int, int]:
        spec = (figures or {}).get(key) or {}
        run.figures[key] = [] if spec.get("image") == file else [f"not the image {file}"]
        return int(spec.get("width") or 0), int(spec.get("height") or 0)

    env: dict[str, Any] = {
        "table": table, "matrix": matrix, "report": report, "figure": figure, "picture": picture,
        "DATA": data, "HERE": data,
    }  # fmt: skip
    head = "\n\n".join([*block.imports, *block.helpers.values()])
    exec(compile(head, "<compendium>", "exec"), env)  # noqa: S102 - our own code
    tree = ast.parse(block.code)
    ast.increment_lineno(tree, first_line - 1)
    exec(compile(tree, "<compendium>", "exec"), env)  # noqa: S102
