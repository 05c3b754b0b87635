"""Composite entries: N peaks of one shape over a baseline (`entry.composite`).

A spectrum, a chromatogram or a diffraction scan is a sum of peaks, each
Gaussian, Lorentzian, Voigt or pseudo-Voigt, over a polynomial baseline.
lmfit's built-in peak models are used (their FWHM and height are lmfit
expressions of sigma and amplitude, so they come with propagated standard
errors and their correlations, `MinimizerResult.uvars`).

The number of peaks is the notes' (`FitData.peaks`) or the one with the
lowest AICc among 1..`MAX_PEAKS` (starts from scipy's `find_peaks` by
prominence), a more complex fit chosen only when it gains more than
`AICC_MARGIN` and each of its peaks' areas exceeds `SIGNIFICANT` standard
errors (noise is not a peak). The baseline is the lowest AICc among `composite.baselines`, from the
one the entry's formula names (its parameters other than the peak's: one is
a constant, two a line) upward. The search over counts stops at the first
count that gains nothing.

Result keys, per peak i = 1..N in order of centre: `center_i`, `fwhm_i`,
`area_i`, `height_i`; baseline coefficients `c0`, `c1`, ... (`c1` per unit
x). The entry's own parameters are reported under their names for the
first peak and the baseline, by role: `center`/`centre`/`x0`, `fwhm`/`w`,
`area`/`A`, `height`/`h`, and the rest as the baseline's coefficients in
order of degree. Parameters of the entry's formula with another role are
not answered by a composite fit.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from labwright.analysis import quantities
from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.engine import FitData, FitResult, FloatArray, UFloat, corrected_aic

MAX_PEAKS = 4
#: A peak's area must exceed this many standard errors.
SIGNIFICANT = 3.0
#: AICc a fit with more peaks (or a higher baseline) must gain to be chosen.
AICC_MARGIN = 2.0
ROLES = {
    "center": "center", "centre": "center", "x0": "center", "mu": "center",
    "fwhm": "fwhm", "w": "fwhm", "area": "area", "A": "area", "height": "height", "h": "height",
    "sigma": "sigma", "gamma": "gamma", "fraction": "fraction", "eta": "eta",
}  # fmt: skip
#: Peak heights of a unit-area Gaussian and Lorentzian of FWHM 1: lmfit's
#: pseudo-Voigt mixes by area (`fraction`), a formula often by height (η).
_G0 = 2 * math.sqrt(math.log(2) / math.pi)
_L0 = 2 / math.pi
_DEGREE = {"none": -1, "constant": 0, "linear": 1, "quadratic": 2, "cubic": 3}
_SHAPES = {
    "gaussian": "GaussianModel",
    "lorentzian": "LorentzianModel",
    "voigt": "VoigtModel",
    "pseudo_voigt": "PseudoVoigtModel",
}


def _roles(entry: ModelEntry) -> tuple[dict[str, str], list[str]]:
    """The entry's peak parameters by role, and its baseline parameters."""
    peak = {p.name: ROLES[p.name] for p in entry.parameters if p.name in ROLES}
    return peak, [p.name for p in entry.parameters if p.name not in peak]


def baseline_names(entry: ModelEntry) -> list[str]:
    """The entry's baseline parameters (`b0`), in order of degree."""
    return _roles(entry)[1]


def degree(baseline: str) -> int:
    """The polynomial degree of a baseline ("none" is -1)."""
    return _DEGREE[baseline]


def _baselines(entry: ModelEntry) -> tuple[str, ...]:
    """The baselines tried, simplest first. The one-peak formula's baseline
    (its parameters other than the peak's: one is a constant, two a line) is
    the simplest considered, not the only one: a spectrum on a sloping
    background fitted with a flat one puts the slope into the peaks' areas,
    so the higher baselines of `composite.baselines` are tried too and AICc
    decides."""
    assert entry.composite is not None
    _, rest = _roles(entry)
    listed = entry.composite.baselines or ("linear",)
    if not rest:
        return tuple(listed)
    floor = len(rest) - 1
    return tuple(b for b in listed if _DEGREE[b] >= floor) or tuple(listed)


def _guesses(x: FloatArray, y: FloatArray, count: int) -> list[tuple[float, float, float]]:
    """(centre, sigma, height) of the `count` most prominent peaks."""
    from scipy.signal import find_peaks, peak_widths

    span = float(np.ptp(x)) or 1.0
    step = span / max(x.size - 1, 1)
    level = y - np.percentile(y, 10)
    found, props = find_peaks(level, prominence=0.0)
    order = np.argsort(props["prominences"])[::-1] if found.size else np.zeros(0, dtype=int)
    picked = [int(found[i]) for i in order[:count]]
    widths = peak_widths(level, picked, rel_height=0.5)[0] if picked else np.zeros(0)
    out = [
        (float(x[i]), max(float(w) * step / 2.3548, step), float(level[i]))
        for i, w in zip(picked, widths, strict=True)
    ]
    while len(out) < count:  # fewer maxima than peaks asked: spread the rest evenly
        k = len(out) + 1
        out.append(
            (float(x.min() + span * k / (count + 1)), span / (4 * count), float(level.max()))
        )
    return out


def _model(shape: str, count: int, baseline: str) -> Any:
    from labwright.analysis.lmfit_import import import_lmfit

    import_lmfit()  # first, without matplotlib (analysis/lmfit_import.py)
    from lmfit import models

    peak_class = getattr(models, _SHAPES[shape])
    model = None
    for i in range(1, count + 1):
        part = peak_class(prefix=f"p{i}_")
        model = part if model is None else model + part
    degree = _DEGREE[baseline]
    if degree >= 0:
        model = model + models.PolynomialModel(degree=degree, prefix="b_")
    return model


def _one(
    shape: str, count: int, baseline: str, x: FloatArray, y: FloatArray, sigma: FloatArray | None
) -> Any | None:
    model = _model(shape, count, baseline)
    params = model.make_params()
    span = float(np.ptp(x)) or 1.0
    for i, (centre, width, height) in enumerate(_guesses(x, y, count), start=1):
        amplitude = height * width * math.sqrt(2 * math.pi)
        params[f"p{i}_center"].set(value=centre, min=float(x.min()), max=float(x.max()))
        params[f"p{i}_sigma"].set(value=width, min=span / (50 * x.size), max=span)
        params[f"p{i}_amplitude"].set(value=amplitude if amplitude > 0 else abs(amplitude) + 1e-12)
    degree = _DEGREE[baseline]
    for k in range(degree + 1):
        params[f"b_c{k}"].set(value=float(np.percentile(y, 10)) if k == 0 else 0.0)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = model.fit(
                y, params, x=x, weights=None if sigma is None else 1 / sigma,
                scale_covar=sigma is None, nan_policy="omit",
            )  # fmt: skip
    except (ValueError, ArithmeticError, TypeError, np.linalg.LinAlgError):
        return None
    if not out.success or out.covar is None or not np.all(np.isfinite(out.covar)):
        return None
    for i in range(1, count + 1):
        area = out.params[f"p{i}_amplitude"]
        # A peak whose area is not clear of its own error is noise fitted as a peak.
        if area.stderr is None or not area.value > SIGNIFICANT * area.stderr:
            return None
    return out


def _failed(entry: ModelEntry, en: str, zh: str, **extra: Any) -> FitResult:
    return FitResult(key=entry.key, ok=False, message=Text(en, zh), **extra)


def fit_peaks(entry: ModelEntry, data: FitData) -> FitResult:
    """Fit a composite entry: peaks by the notes or by AICc, baseline by the
    entry or by AICc."""
    assert entry.composite is not None
    if len(entry.independents) != 1:
        return _failed(
            entry,
            f"{entry.name.en} needs one independent variable for its peaks.",
            f"{entry.name.zh}的峰拟合需要一个自变量。",
        )
    xv, yv = entry.independents[0].name, entry.response.name
    if xv not in data.variables or yv not in data.variables:
        return _failed(
            entry,
            f"The data have no column for {xv} or {yv}; bind a column to each variable.",
            f"数据中没有与 {xv} 或 {yv} 对应的列；请为每个变量指定一列。",
        )
    x_all = np.asarray(data.variables[xv], dtype=float).ravel()
    y_all = np.asarray(data.variables[yv], dtype=float).ravel()
    used = np.isfinite(x_all) & np.isfinite(y_all)
    sigma = None
    if data.sigma is not None:
        s_all = np.broadcast_to(np.asarray(data.sigma, dtype=float), x_all.shape)
        used &= np.isfinite(s_all) & (s_all > 0)
        sigma = np.array(s_all[used])
    order = np.argsort(x_all[used], kind="stable")
    x, y = x_all[used][order], y_all[used][order]
    sigma = None if sigma is None else sigma[order]
    counts = [data.peaks] if data.peaks else list(range(1, MAX_PEAKS + 1))
    best: tuple[float, int, str, Any] | None = None
    for count in counts:
        gained = False
        # The notes' baseline ("on a linear baseline"), else the entry's by AICc.
        given = (data.baseline,) if data.baseline in _DEGREE else ()
        for baseline in given or _baselines(entry):
            k = 3 * count + _DEGREE[baseline] + 1
            if x.size <= k + 1:
                continue
            out = _one(entry.composite.peak, count, baseline, x, y, sigma)
            if out is None:
                continue
            score = corrected_aic(float(out.chisqr), int(x.size), k)
            # Counts and baselines go from simple to complex: a more complex
            # one must be clearly better, not better by a tick of noise.
            if best is None or score < best[0] - AICC_MARGIN:
                best = (score, count, baseline, out)
                gained = True
        # A peak that gains nothing by AICc: more peaks will not either (each
        # further one only splits noise), and every further count costs more
        # than all the smaller ones together (one line: 31 s -> 6 s).
        if best is not None and not gained:
            break
    if best is None:
        return _failed(
            entry,
            f"No sum of {entry.composite.peak} peaks fits these data; check the columns "
            "or say how many peaks to expect.",
            f"这些数据无法用{entry.composite.peak}峰之和拟合；请检查数据列，或说明预期的峰数。",
            n=int(used.sum()),
            used=used,
        )
    score, count, baseline, out = best
    return _result(entry, data, x_all, y_all, used, count, baseline, out, score)


def _unit(data: FitData, name: str, entry: ModelEntry) -> Any:
    v = entry.variable(name)
    text = data.units.get(name) or (v.unit if v is not None else None)
    unit = quantities.parse_unit(text, difference=True)
    return unit if unit is not None else quantities.registry().dimensionless


def _result(
    entry: ModelEntry,
    data: FitData,
    x_all: FloatArray,
    y_all: FloatArray,
    used: np.ndarray[Any, np.dtype[np.bool_]],
    count: int,
    baseline: str,
    out: Any,
    score: float,
) -> FitResult:
    xv, yv = entry.independents[0].name, entry.response.name
    ux, uy = _unit(data, xv, entry), _unit(data, yv, entry)
    show = {
        "center": quantities.display(ux) or None,
        "fwhm": quantities.display(ux) or None,
        "height": quantities.display(uy) or None,
        "area": quantities.display(ux * uy) or None,
    }
    uvars: Mapping[str, UFloat] = out.uvars
    peaks = sorted(range(1, count + 1), key=lambda i: float(out.params[f"p{i}_center"].value))
    values: dict[str, UFloat] = {}
    units: dict[str, str | None] = {}
    show.update(sigma=show["fwhm"], gamma=show["fwhm"], fraction=None, eta=None)
    for rank, i in enumerate(peaks, start=1):
        for role, lm in (("center", "center"), ("fwhm", "fwhm"), ("area", "amplitude"),
                         ("height", "height"), ("sigma", "sigma"), ("gamma", "gamma"),
                         ("fraction", "fraction")):  # fmt: skip
            if f"p{i}_{lm}" in uvars:
                values[f"{role}_{rank}"] = uvars[f"p{i}_{lm}"]
                units[f"{role}_{rank}"] = show[role]
        if f"p{i}_fraction" in uvars:
            f = uvars[f"p{i}_fraction"]
            values[f"eta_{rank}"] = f * _L0 / (f * _L0 + (1 - f) * _G0)
            units[f"eta_{rank}"] = None
    degree = _DEGREE[baseline]
    for k in range(degree + 1):
        values[f"c{k}"] = uvars[f"b_c{k}"]
        units[f"c{k}"] = quantities.display(uy / ux**k) or None
    peak_roles, rest = _roles(entry)
    for name, role in peak_roles.items():
        if f"{role}_1" in values:
            values[name], units[name] = values[f"{role}_1"], units[f"{role}_1"]
    for d in entry.derived:  # a derived fwhm or area of the one-peak formula
        derived_role = ROLES.get(d.key)
        if derived_role is not None and d.key not in values and f"{derived_role}_1" in values:
            values[d.key] = values[f"{derived_role}_1"]
            units[d.key] = units[f"{derived_role}_1"]
    for k, name in enumerate(rest):
        if f"c{k}" in values:
            values[name], units[name] = values[f"c{k}"], units[f"c{k}"]
    fitted = np.full(x_all.shape, np.nan)
    fitted[used] = out.eval(x=x_all[used])
    residuals = np.where(used, y_all - fitted, np.nan)
    n = int(used.sum())
    k = len(out.var_names)
    ss_res = float(np.nansum(residuals**2))
    y_used = y_all[used]
    ss_tot = float(np.sum((y_used - y_used.mean()) ** 2))

    def curve(grid: Mapping[str, Any]) -> FloatArray:
        return np.asarray(out.eval(x=np.asarray(grid[xv], dtype=float)), dtype=float)

    return FitResult(
        key=entry.key,
        ok=True,
        values=values,
        units=units,
        n=n,
        dof=n - k,
        chisqr=float(out.chisqr),
        redchi=float(out.chisqr) / (n - k) if n > k else math.nan,
        aicc=score,
        r2=1 - ss_res / ss_tot if ss_tot > 0 else math.nan,
        residuals=residuals,
        fitted=fitted,
        used=used,
        weighted=data.sigma is not None,
        message=None,
        skipped={},
        starts_tried=1,
        peaks=count,
        baseline=baseline,
        _curve=curve,
        _params=tuple(values),
    )
