"""Quantal dose-response: how many of a group respond, at each dose.

A bioassay counts, at each dose, the subjects tested and those that
respond (die, are affected, germinate). The response is a proportion with
binomial scatter, so the log-logistic curve

    P(x) = 1 / (1 + exp(-(b0 + b1 ln x)))

is fitted by maximum likelihood (a binomial GLM with the logit link on ln
dose, statsmodels), each dose weighted by its number tested, not by least
squares on proportions. The dose that makes a share p respond is
x_p = exp((logit p − b0) / b1), with its standard error by the delta method
(the two coefficients' covariance kept, `uncertainties`). As in Finney's
probit analysis, when the deviance shows heterogeneity (χ² test, p < 0.05)
the standard errors are scaled by sqrt(deviance/df). A control (dose 0) in
which nothing responded adds nothing to the likelihood and is left out; a
control in which some responded would need Abbott's correction, which is
said, not silently applied.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.results import Answer
from labwright.ingest.types import Column

#: What the response is called ("LC", "LD", "ED", "EC", "IC") decides the names.
_NAMES: dict[str, tuple[str, str]] = {
    "LC": ("lethal concentration", "致死浓度"),
    "LD": ("lethal dose", "致死剂量"),
    "ED": ("effective dose", "有效剂量"),
    "EC": ("effective concentration", "有效浓度"),
    "IC": ("inhibitory concentration", "抑制浓度"),
}
HETEROGENEITY_P = 0.05
#: The catalogue entry that names this law, and its keys of the doses it
#: names (an ask of "LC50" is an ask of its x50).
MODEL_KEY = "quantal_dose_response"
_CATALOGUE_KEYS = {50: "x50", 90: "x90"}


@dataclass(frozen=True)
class QuantalResult:
    dose: Column
    responders: Column
    tested: Column
    prefix: str  # LC, LD, ED, EC or IC, as the notes name it
    percents: tuple[int, ...]  # the response levels asked (50, 90)
    b0: float
    b1: float
    cov: tuple[tuple[float, float], tuple[float, float]]  # scaled when heterogeneous
    n_doses: int  # doses fitted (a control without responders left out)
    deviance: float
    df: int
    heterogeneity_p: float
    scaled: bool  # SEs multiplied by sqrt(deviance/df)
    control_responders: int | None  # responders at dose 0, when a control was given
    unit: str | None

    def dose_for(self, percent: int) -> tuple[float, float]:
        """x_p and its standard error (delta method, correlations kept)."""
        from uncertainties import correlated_values, umath

        b0, b1 = correlated_values([self.b0, self.b1], np.asarray(self.cov))
        p = percent / 100.0
        x = umath.exp((math.log(p / (1.0 - p)) - b0) / b1)
        return float(x.nominal_value), float(x.std_dev)

    def name(self, percent: int) -> str:
        return f"{self.prefix}{percent}"

    def answers(self) -> list[Answer]:
        en, zh = _NAMES[self.prefix]
        how = Text(
            f"log-logistic curve fitted by maximum likelihood (binomial GLM, logit of the "
            f"proportion {self.responders.name}/{self.tested.name} on ln {self.dose.name}); "
            "SE by the delta method" + ("; scaled for heterogeneity" if self.scaled else ""),
            f"对数-logistic 曲线的最大似然拟合（二项 GLM，{self.responders.name}/{self.tested.name} "
            f"比例的 logit 对 ln {self.dose.name}）；标准误差用 delta 法"
            + ("，按异质性放大" if self.scaled else ""),
        )
        sources = (self.dose.provenance, self.responders.provenance, self.tested.provenance)
        out = []
        for percent in self.percents:
            value, se = self.dose_for(percent)
            label = Text(
                f"{'median ' if percent == 50 else ''}{en}",
                f"{'半数' if percent == 50 else ''}{zh}",
            )
            out.append(
                Answer(self.name(percent), label, f"\\mathrm{{{self.prefix}}}_{{{percent}}}",
                       value, se, self.unit, how, MODEL_KEY, True, None, sources,
                       f"{self.n_doses} doses", answers_for=_CATALOGUE_KEYS.get(percent),
                       symbol=self.name(percent))
            )  # fmt: skip
        return out


def fit_quantal(
    dose: Column,
    responders: Column,
    tested: Column,
    *,
    prefix: str,
    percents: tuple[int, ...],
    unit: str | None,
) -> QuantalResult | None:
    """The log-logistic fit of the counts, or None when fewer than three
    positive doses are complete or the proportions do not vary."""
    from scipy import stats
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM
    from statsmodels.tools.tools import add_constant

    x = np.asarray(dose.values, dtype=float)
    r = np.asarray(responders.values, dtype=float)
    n = np.asarray(tested.values, dtype=float)
    ok = np.isfinite(x) & np.isfinite(r) & np.isfinite(n) & (n > 0) & (r >= 0) & (r <= n)
    control = ok & (x == 0)
    control_responders = int(r[control].sum()) if control.any() else None
    use = ok & (x > 0)
    if int(use.sum()) < 3:
        return None
    x, r, n = x[use], r[use], n[use]
    share = r / n
    if float(np.ptp(share)) == 0.0:
        return None
    design = add_constant(np.log(x))
    model = GLM(np.column_stack([r, n - r]), design, family=Binomial())
    try:
        res = model.fit()
    except (ValueError, np.linalg.LinAlgError):
        return None
    b0, b1 = (float(v) for v in res.params)
    cov = np.asarray(res.cov_params(), dtype=float)
    if not (math.isfinite(b0) and math.isfinite(b1) and b1 != 0 and np.all(np.isfinite(cov))):
        return None
    df = int(x.size - 2)
    deviance = float(res.deviance)
    het_p = float(stats.chi2.sf(deviance, df)) if df > 0 else 1.0
    scaled = df > 0 and het_p < HETEROGENEITY_P
    if scaled:
        cov = cov * (deviance / df)
    return QuantalResult(
        dose, responders, tested, prefix, percents, b0, b1,
        ((float(cov[0, 0]), float(cov[0, 1])), (float(cov[1, 0]), float(cov[1, 1]))),
        int(x.size), deviance, df, het_p, scaled, control_responders, unit,
    )  # fmt: skip
