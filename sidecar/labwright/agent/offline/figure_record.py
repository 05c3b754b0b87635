"""The report's figures as data (issue 23): for every figure the report
shows, what each panel plots (each layer's arrays: the points, the error
bars, the samples of a fitted curve, a heatmap's matrix) with the labels,
layout and style the plot worker drew them with.

The build keeps it in provenance.json under "figures", beside the numbers,
so it travels wherever the number record goes (an edited version's build,
the window's compendium route). The compendium's script redraws every
figure from data it recomputes and compares its arrays with these.

Made from the plot worker's own job (`figures.to_job`): the arrays recorded
are the ones drawn, not a second computation of them. Every figure is put
in one shape, panels of layers (`plot_worker._layer`'s vocabulary), so the
script needs one drawing function; the x-y path's figures (scatter with
fitted curves and a residual panel, lines, histograms, heatmaps, redrawn
MATLAB figures) are converted to it here. An image shown as it is records
its file and pixel size: nothing is computed to draw it.

Values are kept to 12 significant digits (the script compares at a relative
1e-6); a NaN is written as null (JSON has no NaN; the window reads the
record too).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan, to_job
from labwright.agent.offline.plot_worker import has_residual_panel

#: provenance.json's key for the figures.
FIGURES_KEY = "figures"
#: Each layer type's data fields (the rest of a layer is style).
DATA_FIELDS: dict[str, tuple[str, ...]] = {
    "scatter": ("x", "y"),
    "line": ("x", "y"),
    "ring": ("x", "y"),
    "stem": ("x", "y"),
    "errorbar": ("x", "y", "yerr"),
    "hline": ("y",),
    "vline": ("x",),
    "band": ("y0", "y1"),
    "hist": ("y",),
    "box": ("data",),
    "heatmap": ("m",),
}


def values(a: Any) -> Any:
    """An array (any shape) as nested lists of floats, NaN as None."""
    arr = np.asarray(a, dtype=float)
    if arr.ndim == 0:
        return _number(float(arr))
    return [values(row) for row in arr] if arr.ndim > 1 else [_number(v) for v in arr.tolist()]


def _number(v: float) -> float | None:
    return float(f"{v:.12g}") if math.isfinite(v) else None


def _layer(layer: dict[str, Any], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """A spec layer with its array names replaced by the arrays' values."""
    out = dict(layer)
    for name in DATA_FIELDS.get(layer["type"], ()):
        ref = layer.get(name)
        if isinstance(ref, str):
            out[name] = values(arrays[ref])
        elif isinstance(ref, list):  # a box plot's samples
            out[name] = [values(arrays[r]) for r in ref]
        elif isinstance(ref, int | float):
            out[name] = _number(float(ref))
    return out


def _panels(spec: dict[str, Any], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    panels = [
        {**{k: v for k, v in p.items() if k != "layers"},
         "layers": [_layer(layer, arrays) for layer in p["layers"]]}
        for p in spec["panels"]
    ]  # fmt: skip
    out = {k: v for k, v in spec.items() if k not in ("panels", "key", "file", "kind")}
    return {**out, "panels": panels}


def _xy(spec: dict[str, Any], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """The x-y path's figure (plot_worker `_draw`) as panels: the curves (and
    their fitted lines) in one, their residuals below when there is one fit."""
    kind = spec["kind"]
    curves = spec.get("curves") or []
    many = len(curves) > 1
    main: list[dict[str, Any]] = []
    resid: list[dict[str, Any]] = []
    for i, curve in enumerate(curves):
        name = curve["name"]
        y = arrays[name + "_y"]
        x = arrays.get(name + "_x")
        x = np.arange(y.size, dtype=float) if x is None else x
        label = curve["label"] if many else None
        if kind == "histogram":
            main.append({"type": "hist", "y": values(y)})
            continue
        main.append({"type": "scatter" if kind == "xy" else "line", "x": values(x),
                     "y": values(y), "color": f"C{i}", "label": label})  # fmt: skip
        if curve.get("fit"):
            main.append({"type": "line", "x": values(arrays[name + "_fx"]),
                         "y": values(arrays[name + "_fy"]), "lw": 1.5, "fit": True})  # fmt: skip
            if has_residual_panel(spec) and name + "_rx" in arrays:
                resid += [
                    {"type": "scatter", "x": values(arrays[name + "_rx"]),
                     "y": values(arrays[name + "_ry"]), "color": f"C{i}"},
                    {"type": "hline", "y": 0.0, "color": "#555555"},
                ]  # fmt: skip
    first = {"xlabel": "" if resid else spec.get("xlabel", ""),
             "ylabel": spec.get("ylabel", "") if not many else "",
             "title": spec.get("title", ""), "legend": many, "layers": main}  # fmt: skip
    if kind == "histogram":
        first["ylabel"] = "count"
    panels = [first]
    if resid:
        panels.append({"xlabel": spec.get("xlabel", ""), "ylabel": "residual", "layers": resid})
    out: dict[str, Any] = {"panels": panels, "ncols": 1, "size": spec.get("size")}
    if resid:
        out.update(sharex=True, height_ratios=[3, 1])
    return out


def _heatmap(spec: dict[str, Any], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    # The x-y path's heatmap puts row 0 at the bottom (the panels' at the top).
    layer = {"type": "heatmap", "m": values(arrays[spec["key"] + "_m"]), "origin": "lower"}
    panel = {"xlabel": "column index", "ylabel": "row index", "title": spec.get("title", ""),
             "layers": [layer]}  # fmt: skip
    return {"panels": [panel], "ncols": 1, "size": spec.get("size")}


def figure_record(
    plans: Sequence[FigurePlan], shown: Collection[str] | None = None, folder: str = "."
) -> dict[str, dict[str, Any]]:
    """Figure key -> what it plots, for the figures `shown` in the report
    (all planned ones when None), in the report's order."""
    chosen = [p for p in plans if shown is None or p.key in shown]
    job, arrays = to_job(chosen, folder)
    out: dict[str, dict[str, Any]] = {}
    for spec, plan in zip(job["figures"], chosen, strict=True):
        kind = spec["kind"]
        if kind == "image":
            image = plan.image
            out[spec["key"]] = {
                "image": plan.source,
                "width": image.width if image else None,
                "height": image.height if image else None,
            }
        elif kind == "panels":
            out[spec["key"]] = _panels(spec, arrays)
        elif kind == "heatmap":
            out[spec["key"]] = _heatmap(spec, arrays)
        else:
            out[spec["key"]] = _xy(spec, arrays)
    return out
