"""Grouped measurements: per-group statistics and a test of differences.

For each measurement, per group: n, mean, standard deviation and standard
error of the mean. The difference between groups is tested with Welch's
t-test for two groups and one-way ANOVA for more (scipy), with the
Kruskal-Wallis test beside it as the check that does not assume normality.
With three groups or more and a significant ANOVA, which groups differ is
answered by Tukey's HSD (statsmodels): each pairwise difference of means with
its standard error and a family-wise adjusted p-value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GroupStat:
    level: str
    n: int
    mean: float
    sd: float
    se: float


@dataclass(frozen=True)
class GroupTest:
    name: str  # "Welch t-test" / "one-way ANOVA"
    statistic: float
    p: float
    kruskal_h: float
    kruskal_p: float


@dataclass(frozen=True)
class PairDiff:
    first: str  # level
    second: str
    diff: float  # mean(second) - mean(first)
    se: float  # standard error of the difference (pooled variance)
    p_adj: float  # Tukey HSD, family-wise


@dataclass(frozen=True)
class GroupResult:
    measurement: str
    category: str
    stats: tuple[GroupStat, ...]
    test: GroupTest | None
    pairs: tuple[PairDiff, ...] = ()


ALPHA = 0.05


def tukey_pairs(samples: list[np.ndarray], levels: list[str]) -> tuple[PairDiff, ...]:
    """Tukey's HSD over the groups (statsmodels' pairwise_tukeyhsd)."""
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    y = np.concatenate(samples)
    g = np.concatenate([np.full(s.size, i) for i, s in enumerate(samples)])
    res = pairwise_tukeyhsd(y, g, alpha=ALPHA)
    out = []
    k = 0
    # statsmodels orders the pairs (0,1), (0,2), ..., (1,2), ...; its
    # std_pairs is the studentized-range scale, SE(difference) / sqrt(2).
    for i in range(len(samples)):
        for j in range(i + 1, len(samples)):
            out.append(PairDiff(levels[i], levels[j], float(res.meandiffs[k]),
                                float(res.std_pairs[k]) * math.sqrt(2.0), float(res.pvalues[k])))  # fmt: skip
            k += 1
    return tuple(out)


def group_codes(values: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Codes 0..k-1 per row (-1 for missing) and the level names in order."""
    if values.dtype.kind in "biuf":
        v = np.asarray(values, dtype=float)
        levels_f = np.unique(v[np.isfinite(v)])
        names = [str(int(x)) if float(x).is_integer() else str(x) for x in levels_f]
        codes = np.full(v.size, -1)
        for i, lev in enumerate(levels_f):
            codes[v == lev] = i
        return codes, names
    text = [str(x).strip() for x in values]
    names = list(dict.fromkeys(t for t in text if t))
    index = {n: i for i, n in enumerate(names)}
    return np.array([index.get(t, -1) for t in text]), names


def compare_groups(
    y: np.ndarray, codes: np.ndarray, levels: list[str], measurement: str, category: str
) -> GroupResult | None:
    from scipy import stats

    y = np.asarray(y, dtype=float)
    samples, rows, tested = [], [], []
    for i, level in enumerate(levels):
        sel = y[(codes == i) & np.isfinite(y)]
        if sel.size == 0:
            continue
        sd = float(sel.std(ddof=1)) if sel.size > 1 else float("nan")
        rows.append(
            GroupStat(level, int(sel.size), float(sel.mean()), sd, sd / math.sqrt(sel.size))
        )
        if sel.size > 1:
            samples.append(sel)
            tested.append(level)
    if len(rows) < 2:
        return None
    test = None
    if len(samples) >= 2 and all(np.ptp(s) > 0 for s in samples):
        if len(samples) == 2:
            r = stats.ttest_ind(samples[0], samples[1], equal_var=False)
            name, stat, p = "Welch t-test", float(r.statistic), float(r.pvalue)
        else:
            r2 = stats.f_oneway(*samples)
            name, stat, p = "one-way ANOVA", float(r2.statistic), float(r2.pvalue)
        kw = stats.kruskal(*samples)
        test = GroupTest(name, stat, p, float(kw.statistic), float(kw.pvalue))
    pairs: tuple[PairDiff, ...] = ()
    if test is not None and len(samples) >= 3 and test.p < ALPHA:
        pairs = tukey_pairs(samples, tested)
    return GroupResult(measurement, category, tuple(rows), test, pairs)


def letter_display(
    stats: tuple[GroupStat, ...], pairs: tuple[PairDiff, ...], alpha: float
) -> dict[str, str]:
    """Compact letter display of Tukey's pairs (insert-and-absorb, Piepho
    2004): groups that share a letter do not differ at the family-wise level.
    With eleven firms there are 55 pairs; a table of them, and a sentence
    naming every pair that does not differ, cannot be read, the letters can."""
    order = [s.level for s in sorted(stats, key=lambda s: -s.mean)]
    columns: list[set[str]] = [set(order)]
    for pr in pairs:
        if pr.p_adj >= alpha:
            continue
        a, b = pr.first, pr.second
        split: list[set[str]] = []
        for col in columns:
            if a in col and b in col:
                split += [col - {a}, col - {b}]
            else:
                split.append(col)
        # Absorb: a column inside another says nothing more.
        unique = [c for i, c in enumerate(split) if c and c not in split[:i]]
        columns = [c for c in unique if not any(c < o for o in unique)]
    rank = {lev: i for i, lev in enumerate(order)}
    columns.sort(key=lambda c: min(rank[x] for x in c))
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = {lev: "" for lev in order}
    for k, col in enumerate(columns):
        for lev in col:
            out[lev] += letters[k % len(letters)]
    return {lev: "".join(sorted(v)) for lev, v in out.items()}
