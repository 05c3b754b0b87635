"""Dependence on several variables: multiple linear regression (statsmodels).

The response is regressed on every other measurement of the table (ordinary
least squares with an intercept). Reported: each coefficient with its
standard error, t and p; R² and adjusted R²; the residual standard error.
Outliers are the rows with an internally studentized residual beyond
`RESID_LIMIT` or a Cook's distance above 4/n, the usual screening rule; they
are flagged, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

RESID_LIMIT = 2.5
MAX_PREDICTORS = 8


@dataclass(frozen=True)
class Coefficient:
    name: str  # "const" for the intercept
    value: float
    se: float
    t: float
    p: float


@dataclass(frozen=True)
class Outlier:
    row: int  # 0-based row of the table
    studentized: float
    cooks: float


@dataclass
class RegressionResult:
    response: str
    predictors: list[str]
    coefficients: list[Coefficient]
    r2: float
    r2_adj: float
    resid_se: float
    n: int
    fitted: np.ndarray
    studentized: np.ndarray
    cooks: np.ndarray
    rows: np.ndarray  # table rows used (finite in every variable)
    outliers: list[Outlier]
    f_p: float
    # The same model without the flagged rows: how much they move the answer
    # (the discussion of outliers a scientist writes needs exactly this).
    without_flagged: RegressionResult | None = None


def _norm(s: str) -> str:
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]", "", s.lower())


def pick_response(names: list[str], hint: str | None) -> str:
    """The column the notes name (by normalised containment), else the last one.
    Last, because tables are usually written inputs first, result last."""
    if hint:
        h = _norm(hint)
        for n in names:
            nn = _norm(n)
            if nn and h and (nn == h or nn.startswith(h) or h.startswith(nn)):
                return n
        for n in names:
            nn = _norm(n)
            if nn and h and (h in nn or nn in h):
                return n
    return names[-1]


def regress(
    table: dict[str, np.ndarray], response: str, refit: bool = True
) -> RegressionResult | None:
    """OLS of `response` on the other columns of `table` (name -> values);
    with `refit`, once more without the flagged rows."""
    # Modules, not statsmodels.api (which imports every model: seconds cold).
    from statsmodels.regression.linear_model import OLS
    from statsmodels.stats.outliers_influence import OLSInfluence

    predictors = [n for n in table if n != response][:MAX_PREDICTORS]
    if not predictors:
        return None
    y = np.asarray(table[response], dtype=float)
    x = np.column_stack([np.asarray(table[n], dtype=float) for n in predictors])
    keep = np.isfinite(y) & np.all(np.isfinite(x), axis=1)
    n = int(keep.sum())
    if n < len(predictors) + 3:
        return None
    design = np.column_stack([np.ones(n), x[keep]])
    res = OLS(y[keep], design).fit()
    infl = OLSInfluence(res)
    stud = np.asarray(infl.resid_studentized_internal)
    cooks = np.asarray(infl.cooks_distance[0])
    rows = np.flatnonzero(keep)
    names = ["const", *predictors]
    coefs = [
        Coefficient(nm, float(v), float(s), float(t), float(p))
        for nm, v, s, t, p in zip(names, res.params, res.bse, res.tvalues, res.pvalues, strict=True)
    ]
    flagged = [
        Outlier(int(rows[i]), float(stud[i]), float(cooks[i]))
        for i in range(n)
        if abs(stud[i]) > RESID_LIMIT or cooks[i] > 4.0 / n
    ]
    without = None
    if refit and flagged and n - len(flagged) >= len(predictors) + 3:
        drop = np.zeros(y.size, dtype=bool)
        drop[[o.row for o in flagged]] = True
        without = regress(
            {k: np.where(drop, np.nan, np.asarray(v, dtype=float)) for k, v in table.items()},
            response,
            refit=False,
        )
    return RegressionResult(
        without_flagged=without,
        response=response,
        predictors=predictors,
        coefficients=coefs,
        r2=float(res.rsquared),
        r2_adj=float(res.rsquared_adj),
        resid_se=float(np.sqrt(res.scale)),
        n=n,
        fitted=np.asarray(res.fittedvalues),
        studentized=stud,
        cooks=cooks,
        rows=rows,
        outliers=flagged,
        f_p=float(res.f_pvalue),
    )
