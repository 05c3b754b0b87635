"""Titration: the equivalence point, the pKa and the analyte's concentration
from a pH curve, as an analytical chemist finds them.

1. The first derivative dpH/dV (finite differences at the midpoints of the
   additions, which handles the closer spacing near the end point); its
   maximum, refined by the vertex of a parabola through the three largest
   midpoints, is the classical end point.
2. The curve itself is then fitted (lmfit): with the titrant's
   concentration and the sample's volume from the notes, the charge balance
   of a monoprotic acid titrated with a strong base (a base with a strong
   acid: the same in pOH), with V_eq and pKa free; a strong and a weak
   analyte are compared by AICc. Without those constants the jump is fitted
   by a logistic sigmoid, and the distance between its centre and the
   derivative's end point joins its SE (the shape is only approximate).
3. pKa: from the charge-balance fit; without it, the Henderson–Hasselbalch
   fit of the buffer region (10-90 % of V_eq). The pH at half-equivalence is
   reported beside it as the textbook check.
4. The analyte's concentration c = c_titrant V_eq / V_sample (1:1), with
   the SE propagated by `uncertainties` (the notes' uncertainties of the
   constants included).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from uncertainties import ufloat

from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.procedures.common import (
    BoundTable,
    Given,
    asked,
    bound_tables,
    entries_of,
    expected,
    given,
)
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.results import Answer
from labwright.ingest.types import Column

KW = 1.0e-14  # ionic product of water at 25 °C
MIN_POINTS = 8
HH_SLOPE_TOLERANCE = 0.3  # |slope of pH on log10(V/(V_eq - V)) - 1| of a buffer region
_TITRANT = ("c_titrant", "c_t", "c_b", "c_NaOH", "c_base", "c_HCl", "c_acid_titrant")
_SAMPLE = ("V_sample", "V_0", "V0", "V_a", "V_analyte")


@dataclass(frozen=True)
class TitrationBinding:
    table: BoundTable
    volume: Column
    ph: Column
    request: AnalysisRequest


@dataclass(frozen=True)
class CurveFit:
    """The fitted titration curve: which model, its end point and pKa."""

    model: str  # "weak", "strong" (charge balance) or "sigmoid"
    v_eq: float
    v_eq_se: float
    pka: float | None
    pka_se: float | None
    aicc: float
    grid: np.ndarray
    curve: np.ndarray


@dataclass
class TitrationResult:
    volume: Column
    ph: Column
    v: np.ndarray
    ph_values: np.ndarray
    rising: bool  # an acid titrated with a base
    v_eq_derivative: float
    fit: CurveFit
    v_eq: float
    v_eq_se: float
    pka: float | None
    pka_se: float | None
    pka_method: str  # "charge balance" | "Henderson-Hasselbalch"
    ph_half: float | None  # pH at half-equivalence (interpolated)
    c_titrant: Given | None
    v_sample: Given | None
    c_analyte: float | None = None
    c_analyte_se: float | None = None
    entry: ModelEntry | None = None
    request: AnalysisRequest | None = None
    considered: list[str] = field(default_factory=list)

    @property
    def unit(self) -> str:
        return self.volume.unit or "mL"

    def answers(self) -> list[Answer]:
        req = self.request or AnalysisRequest()
        key = self.entry.key if self.entry else None
        src = (self.volume.provenance, self.ph.provenance)
        rows = f"all {self.v.size}"
        how = Text(_METHOD_EN[self.fit.model], _METHOD_ZH[self.fit.model])
        out = [
            Answer("V_eq", Text("equivalence volume", "等当点体积"), r"V_\mathrm{eq}",
                   self.v_eq, self.v_eq_se, self.unit, how, key, True,
                   expected(req, "V_eq", self.unit), src, rows),
        ]  # fmt: skip
        if self.pka is not None:
            if self.pka_method == "charge balance":
                how = Text("charge-balance fit of the whole curve (lmfit, SE from the covariance)",
                           "整条滴定曲线的电荷平衡拟合（lmfit，标准误差来自协方差）")  # fmt: skip
            else:
                how = Text("Henderson–Hasselbalch fit of the buffer region (a tenth to nine tenths of V_eq)",
                           "缓冲区（V_eq 的一成至九成）的 Henderson–Hasselbalch 拟合")  # fmt: skip
            out.append(Answer("pKa", Text("acid dissociation constant pKa", "酸解离常数 pKa"),
                              r"\mathrm{p}K_\mathrm{a}", self.pka, self.pka_se, "", how, key,
                              asked(req, "pKa"), expected(req, "pKa", None), src, rows))  # fmt: skip
        if self.c_analyte is not None and self.c_titrant is not None and self.v_sample is not None:
            what = ("acid", "酸") if self.rising else ("base", "碱")
            how = Text(
                "c = c_titrant V_eq / V_sample (1:1), the constants from the notes; SE propagated",
                "c = c(滴定剂) V_eq / V(样品)（1:1），常数取自笔记；误差传递",
            )
            out.append(Answer("c_analyte", Text(f"concentration of the {what[0]}", f"{what[1]}的浓度"),
                              r"c_\mathrm{analyte}", self.c_analyte, self.c_analyte_se, "mol/L",
                              how, key, asked(req, "c_analyte"),
                              expected(req, "c_analyte", "mol/L"), src, rows))  # fmt: skip
        return out


_METHOD_EN = {
    "weak": "charge-balance fit of a weak monoprotic analyte (lmfit, SE from the covariance)",
    "strong": "charge-balance fit of a strong analyte (lmfit, SE from the covariance)",
    "sigmoid": "centre of a logistic fit of the jump; SE from the fit and the derivative method",
}
_METHOD_ZH = {
    "weak": "弱一元酸（碱）电荷平衡拟合（lmfit，标准误差来自协方差）",
    "strong": "强酸（碱）电荷平衡拟合（lmfit，标准误差来自协方差）",
    "sigmoid": "突跃的 logistic 拟合中心；标准误差来自拟合与导数法之差",
}


# --- the curve -------------------------------------------------------------------------


def _clean(v: np.ndarray, ph: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Finite points sorted by volume, repeated volumes averaged."""
    ok = np.isfinite(v) & np.isfinite(ph)
    v, ph = v[ok], ph[ok]
    uniq, inv = np.unique(v, return_inverse=True)
    mean = np.bincount(inv, weights=ph) / np.bincount(inv)
    return uniq.astype(float), mean.astype(float)


def derivative_end_point(v: np.ndarray, p: np.ndarray) -> float:
    """The volume where |dpH/dV| peaks (parabola through the three largest
    midpoint differences), `p` rising."""
    mid = (v[1:] + v[:-1]) / 2
    d = np.diff(p) / np.diff(v)
    k = int(np.argmax(d))
    if 0 < k < d.size - 1:
        x, y = mid[k - 1 : k + 2], d[k - 1 : k + 2]
        a, b, _ = np.polyfit(x - x[1], y, 2)
        if a < 0:
            vertex = x[1] - b / (2 * a)
            if x[0] <= vertex <= x[2]:
                return float(vertex)
    return float(mid[k])


def charge_balance_ph(
    v: np.ndarray, v_eq: float, pka: float | None, c_t: float, v0: float
) -> np.ndarray:
    """pH (rising: acid + strong base) from the charge balance
    h + [Na+] = Kw/h + [A-], solved by bisection in pH (the balance rises
    with h). `pka` None: a strong acid (fully dissociated)."""
    v = np.asarray(v, dtype=float)
    na = c_t * v / (v0 + v)
    acid = c_t * v_eq / (v0 + v)
    lo, hi = np.full(v.shape, -2.0), np.full(v.shape, 16.0)
    ka = None if pka is None else 10.0**-pka
    for _ in range(60):
        mid = (lo + hi) / 2
        h = 10.0**-mid
        dissociated = acid if ka is None else acid * ka / (ka + h)
        f = h + na - KW / h - dissociated  # > 0: too much h, the pH is higher
        lo = np.where(f > 0, mid, lo)
        hi = np.where(f > 0, hi, mid)
    return np.asarray((lo + hi) / 2, dtype=float)


def _aicc(rss: float, n: int, k: int) -> float:
    rss = max(rss, 1e-300)
    aic = n * math.log(rss / n) + 2 * k
    return aic + (2 * k * (k + 1) / (n - k - 1) if n - k - 1 > 0 else math.inf)


def _fit_charge_balance(
    v: np.ndarray, p: np.ndarray, v_start: float, c_t: float, v0: float, weak: bool
) -> CurveFit | None:
    from labwright.analysis.lmfit_import import import_lmfit

    lmfit = import_lmfit()

    params = lmfit.Parameters()
    span = float(v.max() - v.min())
    params.add("v_eq", value=v_start, min=max(1e-9, v_start - span / 2), max=v_start + span / 2)
    if weak:
        # Start from the pH at half of the derivative's end point.
        start = float(np.interp(v_start / 2, v, p))
        params.add("pka", value=min(max(start, 1.0), 13.0), min=-1.0, max=15.0)

    def residual(ps: Any) -> np.ndarray:
        pka = float(ps["pka"]) if weak else None
        return np.asarray(charge_balance_ph(v, float(ps["v_eq"]), pka, c_t, v0) - p)

    out = lmfit.minimize(residual, params)
    if not out.success or out.params["v_eq"].stderr is None:
        return None
    rss = float(np.sum(np.asarray(out.residual) ** 2))
    grid = np.linspace(float(v.min()), float(v.max()), 300)
    pka = float(out.params["pka"]) if weak else None
    pka_se = out.params["pka"].stderr if weak else None
    return CurveFit(
        "weak" if weak else "strong",
        float(out.params["v_eq"]),
        float(out.params["v_eq"].stderr),
        pka,
        None if pka_se is None else float(pka_se),
        _aicc(rss, v.size, 2 if weak else 1),
        grid,
        charge_balance_ph(grid, float(out.params["v_eq"]), pka, c_t, v0),
    )


def _jump(v: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The points of the jump: where the slope exceeds a tenth of its
    maximum, and two more on each side (the plateaus of a weak analyte's
    curve are not a logistic's and would pull its centre)."""
    d = np.diff(p) / np.diff(v)
    steep = np.flatnonzero(d > 0.1 * d.max())
    lo, hi = max(0, int(steep.min()) - 2), min(v.size, int(steep.max()) + 3)
    sel = np.zeros(v.size, dtype=bool)
    sel[lo : hi + 1] = True
    return sel if sel.sum() >= 5 else np.ones(v.size, dtype=bool)


def _fit_sigmoid(v: np.ndarray, p: np.ndarray, v_start: float) -> CurveFit | None:
    """A logistic through the jump: lo + (hi - lo)/(1 + exp(-(V - V_eq)/w))."""
    from labwright.analysis.lmfit_import import import_lmfit

    lmfit = import_lmfit()

    span = float(v.max() - v.min())
    params = lmfit.Parameters()
    params.add("lo", value=float(p.min()))
    params.add("hi", value=float(p.max()))
    params.add("v_eq", value=v_start, min=float(v.min()), max=float(v.max()))
    params.add("w", value=span / 50, min=span / 1e4, max=span)

    def model(ps: Any, x: np.ndarray) -> np.ndarray:
        z = np.clip(-(x - float(ps["v_eq"])) / float(ps["w"]), -500, 500)
        return float(ps["lo"]) + (float(ps["hi"]) - float(ps["lo"])) / (1 + np.exp(z))

    out = lmfit.minimize(lambda ps: model(ps, v) - p, params)
    se = out.params["v_eq"].stderr
    if not out.success or se is None:
        return None
    rss = float(np.sum(np.asarray(out.residual) ** 2))
    grid = np.linspace(float(v.min()), float(v.max()), 300)
    return CurveFit("sigmoid", float(out.params["v_eq"]), float(se), None, None,
                    _aicc(rss, v.size, 4), grid, model(out.params, grid))  # fmt: skip


def _henderson_hasselbalch(
    v: np.ndarray, p: np.ndarray, v_eq: float, v_eq_se: float
) -> tuple[float, float] | None:
    """pKa = pH - log10(V/(V_eq - V)) over the buffer region, averaged; its
    SE from the scatter and from V_eq (the derivative of the mean)."""
    sel = (v > 0.1 * v_eq) & (v < 0.9 * v_eq)
    if sel.sum() < 3:
        return None
    vs = v[sel]
    ratio = np.log10(vs / (v_eq - vs))
    # A buffer's pH rises one unit per decade of the ratio; a strong
    # analyte's barely moves, and has no pKa to give.
    if abs(float(np.polyfit(ratio, p[sel], 1)[0]) - 1.0) > HH_SLOPE_TOLERANCE:
        return None
    est = p[sel] - ratio
    se_scatter = float(np.std(est, ddof=1) / math.sqrt(est.size))
    dv = float(np.mean(1 / ((v_eq - vs) * math.log(10))))  # d(mean)/dV_eq
    return float(np.mean(est)), math.hypot(se_scatter, dv * v_eq_se)


def titrate(
    volume: np.ndarray,
    ph: np.ndarray,
    c_titrant: float | None = None,
    v_sample: float | None = None,
) -> tuple[np.ndarray, np.ndarray, bool, float, CurveFit, list[str]] | None:
    """End point of one pH curve: (V, pH, rising, derivative end point, the
    chosen curve fit, the models compared). `c_titrant` in mol/L and
    `v_sample` in the volume column's unit enable the charge balance."""
    v, p = _clean(np.asarray(volume, dtype=float), np.asarray(ph, dtype=float))
    if v.size < MIN_POINTS:
        return None
    rising = bool(p[-1] > p[0])
    q = p if rising else 14.0 - p  # a base titrated with an acid: the same in pOH
    v_d = derivative_end_point(v, q)
    fits: list[CurveFit] = []
    if c_titrant and v_sample:
        for weak in (False, True):
            f = _fit_charge_balance(v, q, v_d, c_titrant, v_sample, weak)
            if f is not None:
                fits.append(f)
    considered = [f.model for f in fits]
    if fits:
        best = min(fits, key=lambda f: f.aicc)
    else:
        near = _jump(v, q)
        sig = _fit_sigmoid(v[near], q[near], v_d)
        if sig is None:
            return None
        considered = ["sigmoid"]
        # The logistic is only the jump's approximate shape: how far its
        # centre lies from the derivative's end point is part of the SE.
        best = CurveFit(sig.model, sig.v_eq, math.hypot(sig.v_eq_se, (sig.v_eq - v_d) / 2),
                        None, None, sig.aicc, sig.grid, sig.curve)  # fmt: skip
    if not rising:
        best = CurveFit(best.model, best.v_eq, best.v_eq_se, best.pka, best.pka_se, best.aicc,
                        best.grid, 14.0 - best.curve)  # fmt: skip
    return v, p, rising, v_d, best, considered


def analyse_titration(
    volume: Column,
    ph: Column,
    c_titrant: Given | None,
    v_sample: Given | None,
    entry: ModelEntry | None = None,
    request: AnalysisRequest | None = None,
) -> TitrationResult | None:
    done = titrate(
        np.asarray(volume.values, dtype=float),
        np.asarray(ph.values, dtype=float),
        c_titrant.value if c_titrant else None,
        v_sample.value if v_sample else None,
    )
    if done is None:
        return None
    v, p, rising, v_d, fit, considered = done
    pka, pka_se, how = fit.pka, fit.pka_se, "charge balance"
    q = p if rising else 14.0 - p
    if fit.model == "sigmoid":
        hh = _henderson_hasselbalch(v, q, fit.v_eq, fit.v_eq_se)
        pka, pka_se, how = (hh[0], hh[1], "Henderson-Hasselbalch") if hh else (None, None, how)
    half = float(np.interp(fit.v_eq / 2, v, q)) if v.min() <= fit.v_eq / 2 else None
    if pka is not None and not rising:  # the pKa of the conjugate acid of the base
        pka = 14.0 - pka
        half = None if half is None else 14.0 - half
    res = TitrationResult(volume, ph, v, p, rising, v_d, fit, fit.v_eq, fit.v_eq_se, pka, pka_se,
                          how, half, c_titrant, v_sample, entry=entry, request=request,
                          considered=considered)  # fmt: skip
    if c_titrant is not None and v_sample is not None:
        c = _u(c_titrant.value, c_titrant.se) * _u(fit.v_eq, fit.v_eq_se)
        c = c / _u(v_sample.value, v_sample.se)
        res.c_analyte, res.c_analyte_se = float(c.nominal_value), float(c.std_dev)
    return res


def _u(value: float, se: float) -> Any:
    """A number with its SE (exact when the notes give none)."""
    return ufloat(value, se) if se > 0 else value


# --- the kind --------------------------------------------------------------------------


class TitrationKind:
    name = "titration"

    def bind(self, ctx: BindContext) -> Sequence[Job[TitrationBinding]]:
        req = ctx.request
        if req.procedure != "titration":
            return []
        free = {id(ds) for ds in ctx.free()}
        jobs: list[Job[TitrationBinding]] = []
        for entry in entries_of(req, "titration"):
            for table in bound_tables(req, ctx.read, entry):
                cols = table.xy()  # the volume and the pH
                if cols is None or id(table.dataset) not in free:
                    continue
                why = f"the notes ask for a titration's end point; {table.reason}"
                b = TitrationBinding(table, cols[0], cols[1], req)
                jobs.append(Job(self.name, table.dataset.source, why, b, (table.dataset,)))
        return jobs

    def compute(self, job: Job[TitrationBinding]) -> TitrationResult | None:
        b = job.binding
        unit = b.volume.unit or "mL"
        return analyse_titration(
            b.volume,
            b.ph,
            given(b.request, _TITRANT, "mol/L"),
            given(b.request, _SAMPLE, unit),
            b.table.entry,
            b.request,
        )

    def goals(self, job: Job[TitrationBinding], result: TitrationResult) -> list[str]:
        return ["titration"]

    def uses(self, job: Job[TitrationBinding], result: TitrationResult) -> Uses:
        return Uses(x=(job.binding.volume,), y=(job.binding.ph,))


TITRATION = TitrationKind()
