"""Figures of the analyses, as "panels" specs the plot worker draws.

Each analysis (labwright.analysis.plan) gets the figures a scientist would
draw for it: a time series on a real date axis with its trend (and levels
before/after a change, anomalies circled), the seasonal climatology by month;
box plots per group; observed-vs-fitted, residual and Cook's distance panels
for a regression; readings and their histogram for repeated measurements;
all columns of a wide table; the per-file results of a file series against
the run parameter. Specs are plain JSON plus named arrays (the worker's job
protocol); captions are LaTeX with names escaped and no numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.tables import src_file, src_text
from labwright.analysis.presentation import axis_label

MAX_POINTS = 5000
_MONTH_TICKS = ["J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"]


class _Builder:
    """Collects arrays under unique names for one figure."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.arrays: dict[str, np.ndarray] = {}

    def arr(self, values: Any) -> str:
        name = f"{self.key}_a{len(self.arrays)}"
        self.arrays[name] = np.asarray(values, dtype=float)
        return name


def _small_multiples(panels: list[dict[str, Any]], row_height: float) -> dict[str, Any]:
    """A grid of small panels, four to a row, 8 inches wide."""
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    return {"panels": panels, "ncols": ncols, "size": [8.0, row_height * nrows + 0.4]}


def _days(years: np.ndarray) -> np.ndarray:
    """Decimal years -> matplotlib date numbers (days since 1970-01-01)."""
    return (np.asarray(years, dtype=float) - 1970.0) * 365.2425


def _thin(n: int) -> int:
    return max(1, -(-n // MAX_POINTS))


def _plan(key: str, b: _Builder, spec: dict[str, Any], caption: str, analysis: Any) -> FigurePlan:
    ds = analysis.dataset
    plan = FigurePlan(
        key, "panels", analysis.source, ds.name if ds else analysis.source, dataset=ds
    )
    plan.panels = spec
    plan.arrays = b.arrays
    plan.caption = caption
    plan.analysis = analysis
    return plan


def _cycle_slots(
    counts: tuple[int, ...], quarterly: bool, lang: str
) -> tuple[list[int], list[str], str, str]:
    """Which of the climatology's twelve month slots to draw, their tick
    labels, the axis phrase and the caption phrase. Quarterly data fill one
    month in three: drawing twelve slots would leave eight empty, so the
    four filled ones are drawn as quarters."""
    if quarterly:
        filled = [i for i, n in enumerate(counts) if n > 0]
        quarters = [i // 3 + 1 for i in filled]
        if len(filled) == len(set(quarters)):
            ticks = [f"Q{q}" if lang == "en" else f"第{q}季度" for q in quarters]
            return filled, ticks, "axis_quarter", "cap_clim_q"
    return list(range(12)), _MONTH_TICKS, "axis_month", "cap_clim"


def _timeseries(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    plans: list[FigurePlan] = []
    file = src_file(a.source)
    for part in a.result:
        r = part.result
        col = part.column
        key = next_key()
        b = _Builder(key)
        step = _thin(r.years.size)
        x = _days(r.years)
        layers: list[dict[str, Any]] = [
            {"type": "line" if r.years.size > 60 else "scatter", "x": b.arr(x[::step]),
             "y": b.arr(r.values[::step]), "color": "#7f9fbf", "label": phrase(lang, "lg_data")},
        ]  # fmt: skip
        if r.trend is not None:
            tr = r.trend
            line = tr.intercept_at + tr.slope * (r.years - tr.t_ref)
            if tr.harmonics:
                line = line + 0.0  # the trend alone; the cycle is in the next figure
            layers.append({"type": "line", "x": b.arr(x), "y": b.arr(line), "color": "#c0392b",
                           "lw": 1.8, "label": phrase(lang, "lg_trend")})  # fmt: skip
        if r.acceleration is not None:
            ac = r.acceleration
            dt = r.years - ac.t_ref
            quad = ac.coef[0] + ac.coef[1] * dt + ac.coef[2] * dt * dt
            layers.append({"type": "line", "x": b.arr(x), "y": b.arr(quad), "color": "#8e44ad",
                           "lw": 1.8, "label": phrase(lang, "lg_quadratic")})  # fmt: skip
        if r.segments is not None:
            for i, seg in enumerate(r.segments.segments):
                lo = int(np.searchsorted(r.years, seg.start))
                hi = int(np.searchsorted(r.years, seg.end, side="right"))
                layers.append({"type": "line", "x": b.arr([x[lo], x[hi - 1]]),
                               "y": b.arr([seg.mean, seg.mean]), "color": "#c0392b", "lw": 2.0})  # fmt: skip
                if i:
                    layers.append({"type": "vline", "x": float(x[lo]), "color": "#555555"})
        if r.change is not None:
            c = r.change
            k = int(np.searchsorted(r.years, c.at))
            for lo, hi, mean in ((0, k, c.mean_before), (k, r.years.size, c.mean_after)):
                layers.append({"type": "line", "x": b.arr([x[lo], x[hi - 1]]),
                               "y": b.arr([mean, mean]), "color": "#c0392b", "lw": 2.0})  # fmt: skip
            layers.append({"type": "vline", "x": float(_days(np.array([c.at]))[0]),
                           "color": "#555555"})  # fmt: skip
        if r.anomalies:
            idx = np.array(r.anomalies)
            layers.append({"type": "ring", "x": b.arr(x[idx]), "y": b.arr(r.values[idx]),
                           "color": "#d35400", "label": phrase(lang, "lg_anomaly")})  # fmt: skip
        name = col.name if not a.extra.get("wide") else a.dataset.name
        spec = {"panels": [{"xlabel": "", "xdate": True, "ylabel": axis_label(name, col.unit),
                            "layers": layers, "legend": True}]}  # fmt: skip
        cap = phrase(lang, "cap_ts", y=src_text(name), file=file)
        plans.append(_plan(key, b, spec, cap, a))
        if r.seasonal is not None:
            key = next_key()
            b = _Builder(key)
            s = r.seasonal
            slots, ticks, axis, cap_key = _cycle_slots(s.counts, r.quarterly, lang)
            clim = np.asarray(s.climatology, dtype=float)[slots]
            clim_se = np.nan_to_num(np.asarray(s.climatology_se, dtype=float)[slots])
            x = np.arange(1, len(slots) + 1, dtype=float)
            layer = {"type": "errorbar", "x": b.arr(x), "y": b.arr(clim),
                     "yerr": b.arr(clim_se), "color": "#1f4e79"}  # fmt: skip
            spec = {"panels": [{"xlabel": phrase(lang, axis),
                                "ylabel": axis_label(phrase(lang, "axis_detrended"), col.unit),
                                "layers": [layer, {"type": "hline", "y": 0.0, "color": "#888888"}],
                                "xticks": list(range(1, len(slots) + 1)), "xticklabels": ticks}]}  # fmt: skip
            cap = phrase(lang, cap_key, y=src_text(name), file=file)
            plans.append(_plan(key, b, spec, cap, a))
    wide = a.extra.get("wide")
    if wide is not None:
        key = next_key()
        b = _Builder(key)
        grid = np.asarray(wide.values, dtype=float).reshape(-1, len(wide.month_columns))
        years = np.asarray(a.dataset.column(wide.year_column).values, dtype=float)
        spec = {"panels": [{"xlabel": "", "ylabel": src_plain(wide.year_column),
                            "layers": [{"type": "heatmap", "m": b.arr(grid),
                                        "xticklabels": wide.month_columns,
                                        "y0": float(np.nanmin(years)) if years.size else 0.0}]}]}  # fmt: skip
        cap = phrase(lang, "cap_wide_heat", file=file)
        plans.append(_plan(key, b, spec, cap, a))
    return plans


def src_plain(text: str) -> str:
    return axis_label(text, None)


def _groups(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    key = next_key()
    b = _Builder(key)
    codes = np.asarray(a.extra["codes"])
    levels = list(a.extra["levels"])
    panels = []
    for g in a.result[:6]:
        col = a.dataset.column(g.measurement)
        y = np.asarray(col.values, dtype=float)
        data = [b.arr(y[(codes == i) & np.isfinite(y)]) for i in range(len(levels))]
        panels.append({"xlabel": src_plain(a.extra["category"]), "ylabel": axis_label(col.name, col.unit),
                       "layers": [{"type": "box", "data": data, "labels": levels}]})  # fmt: skip
    spec: dict[str, Any] = {"panels": panels, "ncols": min(3, len(panels))}
    if len(levels) > 6:  # many groups: one wide panel per row, names readable
        spec = {"panels": panels, "ncols": 1, "size": [6.4, 3.0 * len(panels)]}
    figs = [_plan(key, b, spec, phrase(lang, "cap_groups", cat=src_text(a.extra["category"]),
                                       file=src_file(a.source)), a)]  # fmt: skip
    if len(a.result) >= 2:
        key = next_key()
        b = _Builder(key)
        c1 = a.dataset.column(a.result[0].measurement)
        c2 = a.dataset.column(a.result[1].measurement)
        layers = []
        for i, lev in enumerate(levels):
            sel = codes == i
            layers.append({"type": "scatter", "x": b.arr(np.asarray(c1.values, dtype=float)[sel]),
                           "y": b.arr(np.asarray(c2.values, dtype=float)[sel]),
                           "color": f"C{i % 10}", "label": str(lev),
                           # Past ten groups the colours repeat: the marker tells them apart.
                           "marker": "os^Dv"[(i // 10) % 5]})  # fmt: skip
        spec = {"panels": [{"xlabel": axis_label(c1.name, c1.unit), "ylabel": axis_label(c2.name, c2.unit),
                            "layers": layers, "legend": True}]}  # fmt: skip
        figs.append(_plan(key, b, spec, phrase(lang, "cap_groups_scatter", x=src_text(c1.name),
                                               y=src_text(c2.name), cat=src_text(a.extra["category"]),
                                               file=src_file(a.source)), a))  # fmt: skip
    return figs


def _regression(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = _Builder(key)
    y = np.asarray(a.dataset.column(r.response).values, dtype=float)[r.rows]
    unit = a.dataset.column(r.response).unit
    lo, hi = (
        float(np.nanmin([y.min(), r.fitted.min()])),
        float(np.nanmax([y.max(), r.fitted.max()])),
    )
    flagged = [i for i, row in enumerate(r.rows) if any(o.row == row for o in r.outliers)]
    fi = np.array(flagged, dtype=int)
    p1: dict[str, Any] = {"xlabel": axis_label(phrase(lang, "axis_fitted"), unit), "ylabel": axis_label(r.response, unit),
          "layers": [{"type": "line", "x": b.arr([lo, hi]), "y": b.arr([lo, hi]), "color": "#888888"},
                     {"type": "scatter", "x": b.arr(r.fitted), "y": b.arr(y), "color": "#1f77b4"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(phrase(lang, "axis_fitted"), unit), "ylabel": phrase(lang, "axis_stud"),
          "layers": [{"type": "scatter", "x": b.arr(r.fitted), "y": b.arr(r.studentized), "color": "#1f77b4"},
                     {"type": "hline", "y": 2.5, "color": "#c0392b"}, {"type": "hline", "y": -2.5, "color": "#c0392b"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    p3: dict[str, Any] = {"xlabel": phrase(lang, "axis_row"), "ylabel": phrase(lang, "axis_cooks"), "integer_x": True,
          "layers": [{"type": "stem", "x": b.arr(r.rows + 1), "y": b.arr(r.cooks), "color": "#1f77b4"},
                     {"type": "hline", "y": 4.0 / r.n, "color": "#c0392b"}]}  # fmt: skip
    x1 = None
    if len(r.predictors) == 1:
        # One predictor: the data against it with the fitted line is what a
        # reader checks first (observed against fitted says the same less directly).
        xcol = a.dataset.column(r.predictors[0])
        x1 = np.asarray(xcol.values, dtype=float)[r.rows]
        order = np.argsort(x1)
        p1 = {"xlabel": axis_label(xcol.name, xcol.unit), "ylabel": axis_label(r.response, unit),
              "layers": [{"type": "scatter", "x": b.arr(x1), "y": b.arr(y), "color": "#1f77b4"},
                         {"type": "line", "x": b.arr(x1[order]), "y": b.arr(r.fitted[order]),
                          "color": "#222222"}]}  # fmt: skip
    if fi.size:
        ring = {"type": "ring", "color": "#d35400", "labels": [str(int(r.rows[i]) + 1) for i in fi]}
        p1["layers"].append(
            {**ring, "x": b.arr((r.fitted if x1 is None else x1)[fi]), "y": b.arr(y[fi])}
        )
        p2["layers"].append({**ring, "x": b.arr(r.fitted[fi]), "y": b.arr(r.studentized[fi])})
    spec = {"panels": [p1, p2, p3], "ncols": 3, "size": [9.0, 3.2]}
    cap = phrase(lang, "cap_regression", y=src_text(r.response), file=src_file(a.source))
    if x1 is not None:
        cap = phrase(lang, "cap_regression_simple", y=src_text(r.response),
                     x=src_text(r.predictors[0]), file=src_file(a.source))  # fmt: skip
    return [_plan(key, b, spec, cap, a)]


def _repeated(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    s = a.result
    col = a.dataset.column(s.name)
    v = np.asarray(col.values, dtype=float)
    v = v[np.isfinite(v)]
    key = next_key()
    b = _Builder(key)
    idx = np.arange(1, v.size + 1, dtype=float)
    p1: dict[str, Any] = {"xlabel": phrase(lang, "axis_reading"), "ylabel": axis_label(col.name, col.unit), "integer_x": True,
          "layers": [{"type": "scatter", "x": b.arr(idx), "y": b.arr(v), "color": "#1f77b4"},
                     {"type": "hline", "y": s.mean, "color": "#c0392b"},
                     {"type": "band", "y0": s.mean - s.sd, "y1": s.mean + s.sd, "color": "#c0392b"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(col.name, col.unit), "ylabel": phrase(lang, "axis_count"),
          "layers": [{"type": "hist", "y": b.arr(v)}, {"type": "vline", "x": s.mean, "color": "#c0392b"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    cap = phrase(lang, "cap_repeated", y=src_text(col.name), file=src_file(a.source))
    return [_plan(key, b, spec, cap, a)]


def _wide(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    lay = a.result
    ds = a.dataset
    plans = []
    names = [c.name for c in ds.columns if c.is_numeric]
    if lay.heatmap:
        key = next_key()
        b = _Builder(key)
        cols = [c for c in ds.columns if c.name in names]
        m = np.column_stack([np.asarray(c.values, dtype=float) for c in cols])
        spec: dict[str, Any] = {"panels": [{"xlabel": phrase(lang, "axis_column"), "ylabel": phrase(lang, "axis_row"),
                            "layers": [{"type": "heatmap", "m": b.arr(m)}]}]}  # fmt: skip
        plans.append(_plan(key, b, spec, phrase(lang, "cap_wide_all", file=src_file(a.source)), a))
        return plans
    for group in lay.figures:
        key = next_key()
        b = _Builder(key)
        panels: list[dict[str, Any]] = []
        for name in group:
            col = ds.column(name)
            y = np.asarray(col.values, dtype=float)
            step = _thin(y.size)
            panels.append({"title": src_plain(name), "small": True, "integer_x": True,
                           "layers": [{"type": "line", "x": b.arr(np.arange(1, y.size + 1)[::step]),
                                       "y": b.arr(y[::step]), "color": "#1f4e79"}]})  # fmt: skip
        spec = {**_small_multiples(panels, row_height=1.7), "sharex": True}
        plans.append(_plan(key, b, spec, phrase(lang, "cap_wide", file=src_file(a.source)), a))
    return plans


def _series(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    s = a.result
    fs = s.series
    key = next_key()
    b = _Builder(key)
    x = np.asarray(fs.parameters, dtype=float)
    panels = []
    for j, q in enumerate(s.quantities[:3]):
        label = (
            f"${q}$" if s.mode == "fit" else axis_label(phrase(lang, "axis_mean_of", y=s.y), s.unit)
        )
        layers: list[dict[str, Any]] = [
            {"type": "errorbar", "x": b.arr(x), "y": b.arr(s.values[:, j]),
             "yerr": b.arr(np.nan_to_num(s.errors[:, j])), "color": "#1f4e79"}]  # fmt: skip
        fit = s.across[j] if j < len(s.across) else None
        if fit is not None:  # the model across the runs, drawn above the points
            grid = np.linspace(float(np.nanmin(x)), float(np.nanmax(x)), 200)
            layers.append({"type": "line", "x": b.arr(grid), "y": b.arr(fit.predict(grid)),
                           "color": "#c0392b", "lw": 1.8})  # fmt: skip
        panels.append({"xlabel": axis_label(fs.parameter_name, fs.parameter_unit), "ylabel": label,
                       "layers": layers})  # fmt: skip
    spec = {
        "panels": panels,
        "ncols": len(panels),
        "size": [min(9.0, 3.2 * len(panels) + 0.5), 3.2],
    }
    cap = phrase(lang, "cap_series", pattern=src_text(fs.pattern))
    plans = [_plan(key, b, spec, cap, a)]
    if a.extra.get("appendix"):
        plans += _series_appendix(a, next_key, lang)
    return plans


APPENDIX_PER_FIGURE = 12
APPENDIX_MAX_FIGURES = 20  # 240 files; the plan's figure cap applies as well


def _series_appendix(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    """Every file of the series as a small panel (data and, in fit mode, the
    series' model with that file's parameters), twelve to a figure. Marked
    "appendix" in the spec so the writer puts them after the discussion."""
    from labwright.analysis.fits import MODELS

    s = a.result
    fs = s.series
    plans = []
    files = list(enumerate(fs.datasets))
    for start in range(
        0, min(len(files), APPENDIX_PER_FIGURE * APPENDIX_MAX_FIGURES), APPENDIX_PER_FIGURE
    ):
        key = next_key()
        b = _Builder(key)
        panels: list[dict[str, Any]] = []
        for i, ds in files[start : start + APPENDIX_PER_FIGURE]:
            try:
                y = np.asarray(ds.column(s.y).values, dtype=float)
                x = (np.asarray(ds.column(s.x).values, dtype=float) if s.x
                     else np.arange(1, y.size + 1, dtype=float))  # fmt: skip
            except KeyError:
                continue
            layers: list[dict[str, Any]] = [
                {"type": "scatter", "x": b.arr(x), "y": b.arr(y), "color": "#1f77b4"}
            ]
            if s.mode == "fit" and s.model_key and np.all(np.isfinite(s.values[i])):
                grid = np.linspace(float(np.nanmin(x)), float(np.nanmax(x)), 100)
                fy = MODELS[s.model_key].func(grid, *s.values[i])
                layers.append({"type": "line", "x": b.arr(grid), "y": b.arr(fy),
                               "color": "#c0392b", "lw": 1.5})  # fmt: skip
            panels.append({"title": src_plain(ds.source.rsplit("/", 1)[-1]), "small": True,
                           "integer_x": s.x is None, "layers": layers})  # fmt: skip
        if not panels:
            continue
        spec = {**_small_multiples(panels, row_height=1.8), "appendix": True}
        first = fs.datasets[start].source.rsplit("/", 1)[-1]
        last = fs.datasets[min(start + len(panels), len(fs.datasets)) - 1].source.rsplit("/", 1)[-1]
        cap = phrase(lang, "cap_series_appendix", pattern=src_text(fs.pattern),
                     first=src_file(first), last=src_file(last),
                     x=src_text(s.x or phrase(lang, "axis_row")), y=src_text(s.y))  # fmt: skip
        plans.append(_plan(key, b, spec, cap, a))
    return plans


def _law(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    f = a.result
    key = next_key()
    b = _Builder(key)
    ty = f.y.name if f.y_power == 1.0 else f"{f.y.name}^{f.y_power:g}"
    tx = f.x.name if f.x_power == 1.0 else f"{f.x.name}^{f.x_power:g}"
    uy = f.y.unit if f.y_power == 1.0 else (f"{f.y.unit}^{f.y_power:g}" if f.y.unit else None)
    ux = f.x.unit if f.x_power == 1.0 else (f"{f.x.unit}^{f.x_power:g}" if f.x.unit else None)
    # Drawn from the origin: whether the line passes through it is the question.
    grid = np.linspace(0.0, float(np.max(f.xt)) * 1.05, 100)
    p1: dict[str, Any] = {"xlabel": axis_label(tx, ux), "ylabel": axis_label(ty, uy), "legend": True,
          "layers": [{"type": "scatter", "x": b.arr(f.xt), "y": b.arr(f.yt), "color": "#1f77b4", "label": phrase(lang, "lg_data")},
                     {"type": "line", "x": b.arr(grid), "y": b.arr(f.slope1 * grid + f.intercept),
                      "color": "#999999", "lw": 1.0, "label": phrase(lang, "lg_intercept")},
                     {"type": "line", "x": b.arr(grid), "y": b.arr(f.slope0 * grid), "color": "#c0392b",
                      "lw": 1.8, "label": phrase(lang, "lg_law")}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(tx, ux), "ylabel": axis_label(phrase(lang, "axis_resid"), uy),
          "layers": [{"type": "scatter", "x": b.arr(f.xt), "y": b.arr(f.yt - f.slope0 * f.xt), "color": "#1f77b4"},
                     {"type": "hline", "y": 0.0, "color": "#888888"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    cap = phrase(lang, "cap_law", ty=src_text(ty), tx=src_text(tx), file=src_file(a.source))
    return [_plan(key, b, spec, cap, a)]


def _peaks(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    r = a.result
    x, y = a.extra["x"], a.extra["y"]
    key = next_key()
    b = _Builder(key)
    xv = np.asarray(x.values, dtype=float)
    yv = np.asarray(y.values, dtype=float)
    step = _thin(xv.size)
    cx = np.array([p.centre for p in r.peaks])
    # Marker height: the data at the fitted centre.
    order = np.argsort(xv)
    cy = np.interp(cx, xv[order], yv[order])
    layers: list[dict[str, Any]] = [
        {"type": "line", "x": b.arr(xv[::step]), "y": b.arr(yv[::step]), "color": "#1f4e79", "lw": 1.0},
        {"type": "ring", "x": b.arr(cx), "y": b.arr(cy), "color": "#c0392b",
         "labels": [str(i) for i in range(1, cx.size + 1)]},
    ]  # fmt: skip
    spec = {"panels": [{"xlabel": axis_label(x.name, x.unit), "ylabel": axis_label(y.name, y.unit),
                        "layers": layers}], "size": [7.0, 3.6]}  # fmt: skip
    cap = phrase(lang, "cap_peaks", y=src_text(y.name), x=src_text(x.name), file=src_file(a.source))
    return [_plan(key, b, spec, cap, a)]


def _symmetry(a: Any, next_key: Callable[[], str], lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = _Builder(key)
    m = np.asarray(a.dataset.matrix, dtype=float)
    col, row = phrase(lang, "axis_column"), phrase(lang, "axis_row")
    p1: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": src_plain(r.name),
          "layers": [{"type": "heatmap", "m": b.arr(m)},
                     {"type": "scatter", "x": b.arr([r.cx]), "y": b.arr([r.cy]), "color": "#ffffff"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": phrase(lang, "lg_lr"),
                          "layers": [{"type": "heatmap", "m": b.arr(r.diff_lr)}]}  # fmt: skip
    p3: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": phrase(lang, "lg_ud"),
                          "layers": [{"type": "heatmap", "m": b.arr(r.diff_ud)}]}  # fmt: skip
    spec = {"panels": [p1, p2, p3], "ncols": 3, "size": [10.0, 3.0]}
    cap = phrase(lang, "cap_symmetry", name=src_text(r.name), file=src_file(a.source))
    return [_plan(key, b, spec, cap, a)]


_BY_KIND = {
    "timeseries": _timeseries,
    "groups": _groups,
    "regression": _regression,
    "repeated": _repeated,
    "wide": _wide,
    "series": _series,
    "law": _law,
    "peaks": _peaks,
    "symmetry": _symmetry,
}


def analysis_plans(fa: Any, next_key: Callable[[], str], lang: str = "en") -> list[FigurePlan]:
    """Figures of every analysis (the x-y path draws its own)."""
    plans: list[FigurePlan] = []
    for a in fa.analyses:
        make = _BY_KIND.get(a.kind)
        if make is not None:
            plans.extend(make(a, next_key, lang))
    return plans
