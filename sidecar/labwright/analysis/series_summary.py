"""Per-file results of a file series, and how they vary with the run parameter.

When every file is an x-y measurement (a sorted measurement column and
others), the model is chosen once, by AICc, on the first file with a fit, and
the same model is then fitted to every file, so the parameters are comparable
across runs. Otherwise each file contributes the mean and standard error of
each measurement. Either way the result is one row per file, and each
per-file quantity is then fitted against the run parameter (model by AICc).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labwright.analysis.notes import NoteFacts
from labwright.analysis.roles import infer_roles
from labwright.analysis.series_files import FileSeries
from labwright.ingest.types import Column, Dataset


@dataclass
class SeriesSummary:
    series: FileSeries
    mode: str  # "fit" or "mean"
    x: str | None  # x column (fit mode)
    y: str  # the quantity summarised
    unit: str | None
    model_key: str | None
    quantities: list[str]  # names of the per-file values (parameter symbols or "mean")
    values: np.ndarray  # files x quantities
    errors: np.ndarray  # files x quantities (standard errors)
    n_points: list[int] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # files without a result
    x_unit: str | None = None  # unit of the files' x column (fit mode)
    # How each per-file quantity varies with the run parameter: a model chosen
    # by AICc over the files (None where none explains it), and the mean over
    # the files with its standard error for the quantities that do not vary.
    across: list[Any] = field(default_factory=list)  # FitResult | None per quantity
    across_mean: list[tuple[float, float]] = field(default_factory=list)


def _across(s: SeriesSummary) -> SeriesSummary:
    """Fit each per-file quantity against the run parameter (names such as
    decay_T300K give one): the question "how does the decay time depend on
    temperature" is answered by this fit, not by the table alone."""
    from labwright.analysis.fits import fit_xy

    x = np.asarray(s.series.parameters, dtype=float)
    for j in range(len(s.quantities)):
        y = s.values[:, j]
        fit = None
        if s.series.parameter_name != "run number":
            fit = fit_xy(x, y)
        s.across.append(fit)
        ok = np.isfinite(y)
        mean = float(np.mean(y[ok])) if ok.any() else math.nan
        se = float(np.std(y[ok], ddof=1) / math.sqrt(ok.sum())) if ok.sum() >= 2 else math.nan
        s.across_mean.append((mean, se))
    return s


def _xy(ds: Dataset, facts: NoteFacts) -> tuple[Column | None, list[Column]]:
    roles = infer_roles(ds, facts)
    meas = roles.measurements
    for col in meas:
        v = np.asarray(col.values, dtype=float)
        v = v[np.isfinite(v)]
        d = np.diff(v)
        if v.size >= 5 and np.unique(v).size >= 3 and (np.all(d >= 0) or np.all(d <= 0)):
            return col, [c for c in meas if c is not col]
    return None, meas


def summarise_series(fs: FileSeries, facts: NoteFacts) -> SeriesSummary:
    from labwright.analysis.fits import fit_with, fit_xy

    first = fs.datasets[0]
    x, ys = _xy(first, facts)
    model_key = None
    if x is not None and ys:
        for ds in fs.datasets[:5]:
            try:
                fit = fit_xy(ds.column(x.name).values, ds.column(ys[0].name).values)
            except KeyError:
                continue
            if fit is not None:
                model_key = fit.model.key
                break
    if x is not None and ys and model_key is not None:
        from labwright.analysis.fits import MODELS

        names = list(MODELS[model_key].params)
        vals = np.full((len(fs.datasets), len(names)), np.nan)
        errs = np.full_like(vals, np.nan)
        n_points, failed = [], []
        for i, ds in enumerate(fs.datasets):
            fit = fit_with(model_key, ds.column(x.name).values, ds.column(ys[0].name).values)
            if fit is None:
                failed.append(ds.source)
                n_points.append(0)
                continue
            vals[i], errs[i] = fit.params, fit.sigmas
            n_points.append(fit.n)
        return _across(SeriesSummary(
            fs, "fit", x.name, ys[0].name, ys[0].unit, model_key, names, vals, errs,
            n_points, failed, x.unit,
        ))  # fmt: skip
    target = ys[0] if ys else None
    if target is None:
        roles = infer_roles(first, facts)
        target = roles.measurements[0] if roles.measurements else first.numeric_columns[0]
    vals = np.full((len(fs.datasets), 1), np.nan)
    errs = np.full_like(vals, np.nan)
    n_points, failed = [], []
    for i, ds in enumerate(fs.datasets):
        try:
            v = np.asarray(ds.column(target.name).values, dtype=float)
        except KeyError:
            failed.append(ds.source)
            n_points.append(0)
            continue
        v = v[np.isfinite(v)]
        n_points.append(int(v.size))
        if v.size >= 2:
            vals[i, 0] = v.mean()
            errs[i, 0] = v.std(ddof=1) / math.sqrt(v.size)
        else:
            failed.append(ds.source)
    return _across(
        SeriesSummary(
            fs, "mean", None, target.name, target.unit, None, ["mean"], vals, errs, n_points, failed
        )
    )
