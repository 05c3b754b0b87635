"""A paired comparison: two measurements of the same subjects.

Each subject measured under two conditions (two drugs, before and after,
left and right) is its own control: the question is the mean of the
differences, not the difference of two independent means. The paired
t-test (scipy's `ttest_rel`) gives it with its standard error, t and p; the
Wilcoxon signed-rank test stands beside it as the check that does not assume
normal differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.results import Answer
from labwright.ingest.types import Column


@dataclass(frozen=True)
class PairedResult:
    first: Column  # the condition subtracted
    second: Column  # the condition it is subtracted from: differences are second − first
    n: int
    mean_diff: float
    sd: float
    se: float
    t: float
    df: int
    p: float
    wilcoxon_p: float | None
    unit: str | None

    @property
    def what(self) -> str:
        return f"{self.second.name} − {self.first.name}"

    def answers(self) -> list[Answer]:
        how = Text(
            f"mean of the {self.n} paired differences ({self.what}); SE = SD/sqrt(n); paired t-test",
            f"{self.n} 对差值（{self.what}）的平均值；标准误差 = 标准差/sqrt(n)；配对 t 检验",
        )
        label = Text(f"mean difference ({self.what})", f"平均差值（{self.what}）")
        return [
            Answer("mean_diff", label, r"\bar{d}", self.mean_diff, self.se, self.unit, how,
                   None, True, None, (self.first.provenance, self.second.provenance),
                   f"all {self.n}", symbol="d̄"),
        ]  # fmt: skip


def compare_pairs(first: Column, second: Column, unit: str | None) -> PairedResult | None:
    """The paired comparison of two columns row by row, or None when fewer
    than three pairs are complete or the differences do not vary."""
    from scipy import stats

    a = np.asarray(first.values, dtype=float)
    b = np.asarray(second.values, dtype=float)
    ok = np.isfinite(a) & np.isfinite(b)
    d = b[ok] - a[ok]
    n = int(d.size)
    if n < 3 or float(np.ptp(d)) == 0.0:
        return None
    sd = float(np.std(d, ddof=1))
    se = sd / math.sqrt(n)
    res = stats.ttest_rel(b[ok], a[ok])
    wilcoxon_p: float | None
    try:
        wilcoxon_p = float(stats.wilcoxon(d).pvalue)
    except ValueError:
        wilcoxon_p = None
    return PairedResult(first, second, n, float(np.mean(d)), sd, se, float(res.statistic),
                        n - 1, float(res.pvalue), wilcoxon_p, unit)  # fmt: skip
