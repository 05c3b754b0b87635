"""Deterministic choice of one figure per dataset (and per image).

The rules, in order, for a table:
- the x column is the first numeric column that is sorted (either direction),
  has at least 3 distinct values and is not a bare row counter (1, 2, 3, ...
  without a unit);
- with an x column, the other numeric columns are grouped by unit (one figure
  per unit, at most `MAX_SERIES` curves each); each y gets a least-squares fit
  (see fits.py). A group in which some curve is fitted is an x-y scatter with
  the fitted curve; otherwise it is a line plot when x looks like time or is
  densely sampled (>= `DENSE`), a scatter when it does not;
- without an x column, the first numeric non-counter column is a histogram;
- a "matrix" dataset is a heatmap; a MATLAB "figure" is redrawn line by line;
- an image is shown as it is (converted to PNG when TeX cannot include it).

The choice is data only (no rendering) so the LLM pipeline can reuse it, and
`to_job` turns it into the plain JSON + arrays the plot worker draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from labwright.agent.offline.plot_worker import drawn_size
from labwright.analysis.fits import FitResult, fit_xy
from labwright.ingest.types import Column, Dataset, ImageInfo, Provenance

if TYPE_CHECKING:
    from labwright.analysis.jobs import Analysis
    from labwright.analysis.plan import FolderAnalysis

FigureKind = Literal["xy", "line", "histogram", "heatmap", "image", "redraw", "panels"]

MAX_SERIES = 4
MAX_FIGURES = 60
MAX_DRAWN_POINTS = 5000  # per curve; longer series are drawn every k-th point
DENSE = 60
_TIME_NAMES = ("t", "time", "zeit", "时间", "time_s", "t_s", "timestamp")
_TIME_UNITS = ("s", "ms", "us", "µs", "μs", "ns", "min", "h")
# Formats XeLaTeX (xdvipdfmx) includes directly; anything else is converted.
TEX_IMAGE_FORMATS = {"PNG": ".png", "JPEG": ".jpg", "PDF": ".pdf"}


@dataclass
class Series:
    y: Column
    x: Column | None
    fit: FitResult | None = None


@dataclass
class FigurePlan:
    key: str  # generated file stem, e.g. "fig03"
    kind: FigureKind
    source: str  # file relative to the data folder
    title: str  # dataset or image name (raw text, escape before printing)
    dataset: Dataset | None = None
    image: ImageInfo | None = None
    x: Column | None = None
    series: list[Series] = field(default_factory=list)
    # "panels" figures (the analyses'): the drawing spec, its arrays, the
    # caption (LaTeX, names escaped, no numbers) and the analysis it shows.
    panels: dict[str, Any] | None = None
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    caption: str = ""
    analysis: Analysis[Any, Any] | None = None

    @property
    def file_name(self) -> str:
        if self.kind == "image" and self.image is not None:
            ext = TEX_IMAGE_FORMATS.get(self.image.format.upper(), ".png")
            return f"{self.key}{ext}"
        # Vector figures: text and lines stay sharp at any zoom; large point
        # clouds are rasterized inside the PDF by the worker.
        return f"{self.key}.pdf"

    @property
    def fits(self) -> list[Series]:
        return [s for s in self.series if s.fit is not None]


def _finite(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    return np.asarray(v[np.isfinite(v)])


def is_counter(col: Column) -> bool:
    """1, 2, 3, ... (or 0, 1, 2, ...) without a unit: a row number, not a variable."""
    if col.unit or not col.is_numeric:
        return False
    v = np.asarray(col.values, dtype=float)
    if v.size < 2 or not np.all(np.isfinite(v)):
        return False
    return bool(np.all(np.diff(v) == 1) and v[0] in (0.0, 1.0))


def _is_sorted_x(col: Column) -> bool:
    v = np.asarray(col.values, dtype=float)
    if v.size < 3 or not np.all(np.isfinite(v)) or np.unique(v).size < 3:
        return False
    d = np.diff(v)
    return bool(np.all(d >= 0) or np.all(d <= 0))


def _looks_like_time(col: Column) -> bool:
    unit = (col.unit or "").strip().lower()
    return col.name.strip().lower() in _TIME_NAMES or unit in _TIME_UNITS


def choose_x(ds: Dataset, allowed: set[str] | None = None) -> Column | None:
    """The first sorted numeric column; with `allowed` (the measurement
    columns by role) only those may be x: never an index, ID, category or
    date-integer column."""
    for col in ds.numeric_columns:
        if allowed is not None and col.name not in allowed:
            continue
        # With roles, a measurement that steps by one (x beside x^2, x^3) is
        # still x; without them a bare 1, 2, 3 column is taken for a row counter.
        if (allowed is not None or not is_counter(col)) and _is_sorted_x(col):
            return col
    return None


def _group_by_unit(cols: list[Column]) -> list[list[Column]]:
    groups: dict[str, list[Column]] = {}
    for col in cols:
        groups.setdefault(col.unit or "", []).append(col)
    return [g[:MAX_SERIES] for g in groups.values()]


Fitter = Callable[[list[tuple[np.ndarray, np.ndarray]]], list[FitResult | None]]


def fit_pairs_here(pairs: list[tuple[np.ndarray, np.ndarray]]) -> list[FitResult | None]:
    """The default fitter: in this process."""
    return [fit_xy(x, y) for x, y in pairs]


def plan_dataset(
    ds: Dataset, next_key: Callable[[], str], measurements: set[str] | None = None
) -> list[FigurePlan]:
    """Figures for one dataset, before fitting (x-y series carry fit=None and
    a provisional kind; `plan_figures` fits them and settles the kind).
    `next_key()` hands out file stems in order. `measurements` (names of the
    measurement columns, from the column roles) limits x and y to those."""
    if ds.kind == "matrix" and ds.matrix is not None and np.asarray(ds.matrix).ndim == 2:
        return [FigurePlan(next_key(), "heatmap", ds.source, ds.name, dataset=ds)]
    if ds.kind == "figure":
        series = []
        for x_name, y_name in ds.pairs:
            try:
                series.append(Series(y=ds.column(y_name), x=ds.column(x_name)))
            except KeyError:
                continue
        if series:
            return [FigurePlan(next_key(), "redraw", ds.source, ds.name, dataset=ds, series=series)]
        return []
    numeric = [c for c in ds.numeric_columns if _finite(c.values).size > 0]
    if measurements is not None:
        numeric = [c for c in numeric if c.name in measurements]
    x = choose_x(ds, measurements)
    if x is None:
        ys = [c for c in numeric if not is_counter(c)]
        if ys and _finite(ys[0].values).size >= 2:
            plan = FigurePlan(next_key(), "histogram", ds.source, ds.name, dataset=ds)
            plan.series = [Series(ys[0], None)]
            return [plan]
        return []
    ys = [c for c in numeric if c is not x and (measurements is not None or not is_counter(c))]
    return [
        FigurePlan(
            next_key(),
            "xy",
            ds.source,
            ds.name,
            dataset=ds,
            x=x,
            series=[Series(y=c, x=x) for c in group],
        )
        for group in _group_by_unit(ys)
    ]


def _settle_kind(plan: FigurePlan) -> None:
    """Scatter with fitted curves when a law was found; otherwise a line for a
    time axis or dense sampling, and a plain scatter for sparse points."""
    assert plan.x is not None
    if any(s.fit for s in plan.series):
        plan.kind = "xy"
    elif _looks_like_time(plan.x) or len(plan.x.values) >= DENSE:
        plan.kind = "line"
    else:
        plan.kind = "xy"


def plan_figures(
    datasets: list[Dataset],
    images: list[ImageInfo],
    fitter: Fitter | None = None,
    analysis: FolderAnalysis | None = None,
    lang: str = "en",
) -> list[FigurePlan]:
    """All figures of a folder, fitted. `fitter` fits a batch of (x, y) pairs;
    the build passes the plot worker's, which has scipy imported already.
    `analysis` (labwright.analysis.plan.FolderAnalysis) adds the analyses'
    figures, keeps the tables it handled off the x-y path, and restricts the
    x-y path to measurement columns."""
    counter = iter(range(1, 10_000))

    def next_key() -> str:
        return f"fig{next(counter):02d}"

    plans: list[FigurePlan] = []
    if analysis is not None:
        from labwright.agent.offline.kind_writers import analysis_plans

        plans.extend(analysis_plans(analysis.analyses, next_key, lang))
    for ds in datasets:
        if analysis is not None and id(ds) in analysis.handled:
            continue
        roles = analysis.roles_of(ds) if analysis is not None else None
        allowed = {c.name for c in roles.measurements} if roles is not None else None
        plans.extend(plan_dataset(ds, next_key, allowed))
    for img in images:
        plans.append(FigurePlan(next_key(), "image", img.source, img.source, image=img))
    # A folder of hundreds of files would otherwise give a report of hundreds
    # of pages; every dataset still gets its table. The build warns about the rest.
    del plans[MAX_FIGURES:]
    xy_plans = [p for p in plans if p.kind == "xy"]
    to_fit = [s for p in xy_plans for s in p.series if s.x is not None]
    pairs = [(np.asarray(s.x.values), np.asarray(s.y.values)) for s in to_fit if s.x is not None]
    fits = (fitter or fit_pairs_here)(pairs) if pairs else []
    for series, fit in zip(to_fit, fits, strict=True):
        series.fit = fit
    for plan in xy_plans:
        _settle_kind(plan)
    return plans


def _curve_label(plan: FigurePlan, s: Series) -> str:
    """A redrawn MATLAB line keeps its DisplayName (the .fig reader stores it
    under the line's prefix, "line1" for "line1.y")."""
    if plan.kind == "redraw" and plan.dataset is not None:
        shown = plan.dataset.labels.get(s.y.name.split(".", 1)[0], "")
        if shown:
            return shown
    return _label(s.y)


def _display_step(n: int) -> int:
    return max(1, -(-n // MAX_DRAWN_POINTS))


def _label(col: Column | None, fallback: str = "") -> str:
    """Axis label with powers as superscripts (m³, not m^3)."""
    from labwright.analysis.presentation import axis_label

    return axis_label(col.name, col.unit) if col is not None else fallback


def to_job(plans: list[FigurePlan], folder: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The plot worker's input: JSON-able specs plus named arrays (saved as .npz
    without pickles). Fitted curves are evaluated here, so the worker needs
    nothing but numpy and matplotlib."""
    arrays: dict[str, np.ndarray] = {}
    specs: list[dict[str, Any]] = []
    for plan in plans:
        spec: dict[str, Any] = {"key": plan.key, "kind": plan.kind, "file": plan.file_name}
        if plan.kind == "image" and plan.image is not None:
            spec["src"] = str(_within(folder, plan.image.source))
            spec["format"] = plan.image.format
        elif plan.kind == "panels" and plan.panels is not None:
            spec.update(plan.panels)
            arrays.update(plan.arrays)
        elif plan.kind == "heatmap" and plan.dataset is not None:
            arrays[f"{plan.key}_m"] = np.asarray(plan.dataset.matrix, dtype=float)
            spec["title"] = plan.title
        else:
            spec["xlabel"] = _label(
                plan.x, plan.dataset.labels.get("xlabel", "") if plan.dataset else ""
            )
            spec["ylabel"] = (
                _label(plan.series[0].y) if plan.series and plan.kind != "redraw" else ""
            )
            if plan.kind == "redraw" and plan.dataset is not None:
                spec["xlabel"] = plan.dataset.labels.get("xlabel", "")
                spec["ylabel"] = plan.dataset.labels.get("ylabel", "")
                spec["title"] = plan.dataset.labels.get("title", "")
            if plan.kind == "histogram":
                spec["xlabel"] = _label(plan.series[0].y)
                spec["ylabel"] = ""
            curves = []
            for i, s in enumerate(plan.series):
                name = f"{plan.key}_{i}"
                # Drawing a million markers costs seconds and shows nothing more;
                # histograms and statistics always use every value.
                step = 1 if plan.kind == "histogram" else _display_step(len(s.y.values))
                arrays[name + "_y"] = np.asarray(s.y.values, dtype=float)[::step]
                if s.x is not None:
                    arrays[name + "_x"] = np.asarray(s.x.values, dtype=float)[::step]
                curve: dict[str, Any] = {"name": name, "label": _curve_label(plan, s)}
                if s.fit is not None and s.x is not None:
                    xs = _finite(s.x.values)
                    grid = np.linspace(xs.min(), xs.max(), 200)
                    arrays[name + "_fx"] = grid
                    arrays[name + "_fy"] = s.fit.predict(grid)
                    curve["fit"] = True
                    xs_all = np.asarray(s.x.values, dtype=float)[::step]
                    arrays[name + "_rx"] = xs_all
                    arrays[name + "_ry"] = arrays[name + "_y"] - s.fit.predict(xs_all)
                curves.append(curve)
            spec["curves"] = curves
        size = drawn_size(spec)  # fixed here: the early compile relies on it
        if size is not None:
            spec["size"] = list(size)
        specs.append(spec)
    return {"figures": specs}, arrays


def drawn_page(plan: FigurePlan) -> tuple[float, float] | None:
    """The page size (inches) the worker draws `plan` at, known before it is
    drawn (the same rule `to_job` gives the worker); None for an image."""
    curves = [{"fit": s.fit is not None and s.x is not None} for s in plan.series]
    size = (plan.panels or {}).get("size") if plan.kind == "panels" else None
    return drawn_size({"kind": plan.kind, "size": size, "curves": curves})


def _within(folder: str, rel: str) -> str:
    from pathlib import Path

    return str(Path(folder) / rel)


def column_provenance(col: Column) -> Provenance:
    return col.provenance
