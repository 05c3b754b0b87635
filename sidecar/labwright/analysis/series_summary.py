"""Per-file results of a file series, and how they vary with the run parameter.

When every file is an x-y measurement (a sorted measurement column and
others), the model is chosen once, by AICc, on the first file with a fit, and
the same model is then fitted to every file, so the parameters are comparable
across runs. Otherwise each file contributes the mean and standard error of
each measurement. Either way the result is one row per file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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
        return SeriesSummary(
            fs, "fit", x.name, ys[0].name, ys[0].unit, model_key, names, vals, errs,
            n_points, failed,
        )  # fmt: skip
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
    return SeriesSummary(
        fs, "mean", None, target.name, target.unit, None, ["mean"], vals, errs, n_points, failed
    )
