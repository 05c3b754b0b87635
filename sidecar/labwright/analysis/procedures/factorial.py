"""A designed experiment with two factors: two-way ANOVA with interaction,
the cell means, the main effects and the best condition.

The factors are the table's columns that take a few levels, each repeated
(a set temperature, a catalyst code, a text label): controlled variables,
never a response and never summarised. The response is the remaining
numeric column (the one the request binds, when it binds one). The model is
statsmodels' `ols("y ~ C(A) * C(B)")` with a type-II ANOVA table (type II
keeps main effects meaningful in an unbalanced design). Cell means carry
the pooled standard error sqrt(MSE/n_cell); a two-level factor's main
effect is the difference of its marginal means with
sqrt(MSE (1/n_1 + 1/n_2)). The best condition is the cell with the highest
mean (the lowest when the notes ask for a minimum).

When the interaction is significant (p < `INTERACTION_P`) a main effect
averages differences that are not the same at each level of the other
factor, so a two-level factor's difference is also given at each level of
the other (its simple effects, "OJ − VC at 0.5 mg/day"), the difference of
the two cell means with sqrt(MSE (1/n_1 + 1/n_2)) from the same pooled MSE.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.results import Answer
from labwright.ingest.types import Column, Dataset

MAX_LEVELS = 6
INTERACTION_P = 0.05  # below it, the simple effects are given beside the main effects
MIN_REPEATS = 2  # rows per level (a factor's level is set more than once)
# "Fewest breaks", "minimise the wear": a count or a cost
# the notes want small (warpbreaks asked for the fewest breaks and got the
# most).
_LOWEST = re.compile(
    r"\b(?:lowest|minimum|smallest|least|fewest|minimi[sz](?:e|es|ed|ing))\b|"
    r"最低|最小|最少|越少|越低",
    re.I,
)


@dataclass(frozen=True)
class AnovaRow:
    source: str  # the factor's column name, or "A × B", or "residual"
    df: float
    ss: float
    f: float | None
    p: float | None


@dataclass(frozen=True)
class Cell:
    levels: tuple[str, str]
    n: int
    mean: float
    se: float


@dataclass(frozen=True)
class SimpleEffect:
    """A two-level factor's difference (hi − lo) at one level of the other factor."""

    factor: Column
    lo: str
    hi: str
    other: Column
    level: str
    value: float
    se: float
    n: int

    @property
    def at(self) -> str:
        """The other factor's level as a reader writes it: "0.5 mg/day", "wool = A"."""
        unit = f" {self.other.unit}" if self.other.unit else ""
        return f"{self.level}{unit}" if unit else f"{self.other.name} = {self.level}"


@dataclass
class FactorialResult:
    a: Column
    b: Column
    y: Column
    anova: list[AnovaRow]
    cells: list[Cell]
    mse: float
    n: int
    best: Cell
    lowest: bool
    effects: list[tuple[Column, str, str, float, float]] = field(default_factory=list)
    simple: list[SimpleEffect] = field(default_factory=list)
    request: AnalysisRequest | None = None

    def answers(self) -> list[Answer]:
        src = (self.a.provenance, self.b.provenance, self.y.provenance)
        which = ("lowest", "最低") if self.lowest else ("highest", "最高")
        cond = f"{self.a.name} = {self.best.levels[0]}, {self.b.name} = {self.best.levels[1]}"
        how = Text(
            f"two-way ANOVA with interaction (statsmodels); the cell with the {which[0]} mean "
            f"({cond}); SE sqrt(MSE/n_cell)",
            f"含交互作用的双因素方差分析（statsmodels）；平均值{which[1]}的组合（{cond}）；"
            "标准误差 sqrt(MSE/n)",
        )
        out = [
            Answer("best", Text("best condition", "最优条件"), r"\bar y_\mathrm{best}",
                   self.best.mean, self.best.se, self.y.unit, how, None, True, None, src,
                   f"{self.best.n} of {self.n}"),
        ]  # fmt: skip
        for col, lo, hi, effect, se in self.effects:
            how = Text(
                f"difference of the marginal means of {col.name} ({hi} - {lo}); "
                "SE sqrt(MSE (1/n1 + 1/n2))",
                f"{col.name} 的边际均值之差（{hi} - {lo}）；标准误差 sqrt(MSE (1/n1 + 1/n2))",
            )
            out.append(Answer(f"effect_{col.name}", Text(f"main effect of {col.name}",
                              f"{col.name} 的主效应"), r"\Delta", effect, se, self.y.unit, how,
                              None, False, None, src, f"all {self.n}"))  # fmt: skip
        for e in self.simple:
            how = Text(
                f"difference of the cell means ({e.hi} - {e.lo}) at {e.at}, the interaction "
                "being significant; SE sqrt(MSE (1/n1 + 1/n2))",
                f"{e.at} 时两组均值之差（{e.hi} - {e.lo}），交互作用显著；"
                "标准误差 sqrt(MSE (1/n1 + 1/n2))",
            )
            name = f"{e.hi} - {e.lo}"
            out.append(Answer(f"simple_{e.factor.name}_{e.level}",
                              Text(f"{name} at {e.at}", f"{e.at} 时 {name}"), r"\Delta", e.value,
                              e.se, self.y.unit, how, None, False, None, src, f"{e.n} of {self.n}",
                              symbol=name, part=e.at))  # fmt: skip
        return out


def _label(v: object) -> str:
    if isinstance(v, float | np.floating) and float(v).is_integer():
        return str(int(v))
    return str(v).strip()


def levels_of(col: Column) -> list[str] | None:
    """The column's levels when it is a factor: a few values, each set at
    least twice."""
    labels = [_label(v) for v in col.values]
    if any(lab in ("", "nan") for lab in labels):
        return None
    uniq = list(dict.fromkeys(labels))
    counts = [labels.count(u) for u in uniq]
    if 2 <= len(uniq) <= MAX_LEVELS and min(counts) >= MIN_REPEATS and len(uniq) < len(labels) / 2:
        return uniq
    return None


def design(ds: Dataset, response: Column | None = None) -> tuple[Column, Column, Column] | None:
    """(factor A, factor B, response) of a two-factor table, or None."""
    factors = [c for c in ds.columns if c is not response and levels_of(c) is not None]
    if len(factors) < 2:
        return None
    a, b = factors[0], factors[1]
    if response is None:
        rest = [c for c in ds.columns if c.is_numeric and c not in (a, b) and levels_of(c) is None]
        if len(rest) != 1:
            return None
        response = rest[0]
    la, lb = [_label(v) for v in a.values], [_label(v) for v in b.values]
    crossed = {(x, y) for x, y in zip(la, lb, strict=True)}
    if len(crossed) < len(set(la)) * len(set(lb)):  # every combination is needed for A × B
        return None
    return a, b, response


def two_way(a: Column, b: Column, y: Column, lowest: bool = False) -> FactorialResult | None:
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    df = pd.DataFrame({"A": [_label(v) for v in a.values], "B": [_label(v) for v in b.values],
                       "y": np.asarray(y.values, dtype=float)}).dropna()  # fmt: skip
    df = df[np.isfinite(df["y"])]
    cells_n = df.groupby(["A", "B"]).size()
    if cells_n.min() < 2:  # no replicate in a cell: no interaction to test
        return None
    fit = smf.ols("y ~ C(A) * C(B)", data=df).fit()
    table = anova_lm(fit, typ=2)
    names = {"C(A)": a.name, "C(B)": b.name, "C(A):C(B)": f"{a.name} × {b.name}",
             "Residual": "residual"}  # fmt: skip
    rows = []
    for idx, r in table.iterrows():
        f = float(r["F"]) if math.isfinite(float(r["F"])) else None
        p = float(r["PR(>F)"]) if math.isfinite(float(r["PR(>F)"])) else None
        rows.append(AnovaRow(names[str(idx)], float(r["df"]), float(r["sum_sq"]), f, p))
    mse = float(fit.mse_resid)
    order_a = list(dict.fromkeys(df["A"]))
    order_b = list(dict.fromkeys(df["B"]))
    cells = []
    for la in order_a:
        for lb in order_b:
            sel = df[(df["A"] == la) & (df["B"] == lb)]["y"]
            cells.append(
                Cell((la, lb), int(sel.size), float(sel.mean()), math.sqrt(mse / sel.size))
            )
    best = (min if lowest else max)(cells, key=lambda c: c.mean)
    res = FactorialResult(a, b, y, rows, cells, mse, int(df.shape[0]), best, lowest)
    for col, key, order in ((a, "A", order_a), (b, "B", order_b)):
        if len(order) == 2:
            g1, g2 = (df[df[key] == lev]["y"] for lev in order)
            se = math.sqrt(mse * (1 / g1.size + 1 / g2.size))
            res.effects.append((col, order[0], order[1], float(g2.mean() - g1.mean()), se))
    interaction = next((r.p for r in rows if r.source == names["C(A):C(B)"]), None)
    if interaction is not None and interaction < INTERACTION_P:
        res.simple = _simple_effects(res, order_a, order_b)
    return res


def _simple_effects(
    res: FactorialResult, order_a: list[str], order_b: list[str]
) -> list[SimpleEffect]:
    """Each two-level factor's difference at each level of the other."""
    cell = {c.levels: c for c in res.cells}
    out: list[SimpleEffect] = []
    for factor, other, order, levels, first in (
        (res.a, res.b, order_a, order_b, True),
        (res.b, res.a, order_b, order_a, False),
    ):
        if len(order) != 2:
            continue
        lo, hi = order
        for level in levels:
            c_lo, c_hi = (cell[(f, level) if first else (level, f)] for f in (lo, hi))
            se = math.sqrt(res.mse * (1 / c_lo.n + 1 / c_hi.n))
            out.append(SimpleEffect(factor, lo, hi, other, level, c_hi.mean - c_lo.mean, se,
                                    c_lo.n + c_hi.n))  # fmt: skip
    return out


# --- the kind --------------------------------------------------------------------------


@dataclass(frozen=True)
class FactorialBinding:
    dataset: Dataset
    a: Column
    b: Column
    y: Column
    lowest: bool
    request: AnalysisRequest


class FactorialKind:
    name = "factorial"

    def bind(self, ctx: BindContext) -> Sequence[Job[FactorialBinding]]:
        req = ctx.request
        if req.procedure != "factorial":
            return []
        lowest = bool(_LOWEST.search(ctx.notes.text)) if ctx.reading is not None else False
        jobs: list[Job[FactorialBinding]] = []
        for ds in ctx.free():
            if ds.kind != "table":
                continue
            bound = next((c for bnd in req.bindings if bnd.file == ds.source
                          for c in ds.columns if c.name == bnd.column
                          and bnd.variable in ("y", "response")), None)  # fmt: skip
            found = design(ds, bound)
            if found is None:
                continue
            a, b, y = found
            why = (f"the notes ask for a designed experiment; {a.name} and {b.name} take a few "
                   f"levels, each set repeatedly (factors), {y.name} is the response")  # fmt: skip
            jobs.append(
                Job(self.name, ds.source, why, FactorialBinding(ds, a, b, y, lowest, req), (ds,))
            )
        return jobs

    def compute(self, job: Job[FactorialBinding]) -> FactorialResult | None:
        b = job.binding
        res = two_way(b.a, b.b, b.y, b.lowest)
        if res is not None:
            res.request = b.request
        return res

    def goals(self, job: Job[FactorialBinding], result: FactorialResult) -> list[str]:
        return ["groups", "factorial"]

    def uses(self, job: Job[FactorialBinding], result: FactorialResult) -> Uses:
        # The factors are set, not measured: explanatory only.
        return Uses(x=(job.binding.a, job.binding.b), y=(job.binding.y,))


FACTORIAL = FactorialKind()
