"""The quantal kind: a bioassay's counts at each dose (analysis/quantal.py),
when the notes ask for a dose that makes a share respond (LC50, LD50, ED90,
半数致死浓度).

Binds a free table with a dose column and two count columns, the number
tested and the number that responded (never more than tested, row by row).
The notes' ask decides that it runs, the counts decide the columns: names
("n tested", "dead", "供试虫数", "死亡数") where they say it, else the
larger count is the number tested. The number tested is a set-point of the
design: it weights the fit and is never fitted or summarised itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.quantal import QuantalResult, fit_quantal
from labwright.ingest.types import Column, Dataset

# "LC50", "LD_50", "LC$_{50}$", "ED₉₀", "EC 90"; the level is 1..99.
_ASK = re.compile(r"\b(LC|LD|ED|EC|IC)\s*(?:_|\$_)?\{?\s*([1-9]\d?|[₁-₉][₀-₉]?)\b", re.I)
_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# Chinese names of the median doses.
_ASK_ZH = (
    (re.compile(r"半数致死浓度"), "LC"),
    (re.compile(r"半数致死(?:剂)?量|致死中量"), "LD"),
    (re.compile(r"半数有效(?:剂)?量"), "ED"),
    (re.compile(r"半数有效浓度"), "EC"),
    (re.compile(r"半数抑制浓度"), "IC"),
)
_TESTED = re.compile(
    r"\b(?:n|total|tested|number tested|n tested|no\.? tested|treated|exposed|subjects|"
    r"insects|animals|seeds|individuals)\b|供试|总数|试虫数|受试|处理数|样本数",
    re.I,
)
_RESPONDED = re.compile(
    r"affected|dead|died|deaths?|killed|kill|responded|responders?|response count|"
    r"moribund|germinated|positive|死亡|致死|反应|响应|发芽|阳性",
    re.I,
)
_DOSE = re.compile(r"dose|conc|concentration|剂量|浓度|log", re.I)


@dataclass(frozen=True)
class QuantalBinding:
    dataset: Dataset
    dose: Column
    responders: Column
    tested: Column
    prefix: str
    percents: tuple[int, ...]


def asked_levels(text: str) -> tuple[str, tuple[int, ...]] | None:
    """The prefix (LC, LD, …) and the response levels the notes ask for, in
    order of first mention; None when they ask for none."""
    prefix: str | None = None
    levels: list[int] = []
    for m in _ASK.finditer(text):
        prefix = prefix or m.group(1).upper()
        level = int(m.group(2).translate(_SUBSCRIPT))
        if m.group(1).upper() == prefix and level not in levels:
            levels.append(level)
    for pattern, zh_prefix in _ASK_ZH:
        if pattern.search(text):
            prefix = prefix or zh_prefix
            if 50 not in levels:
                levels.append(50)
    return (prefix, tuple(levels)) if prefix else None


def _counts(col: Column) -> np.ndarray | None:
    if not col.is_numeric:
        return None
    v = np.asarray(col.values, dtype=float)
    ok = np.isfinite(v)
    if ok.sum() < 3 or np.any(v[ok] < 0) or np.any(np.abs(v[ok] - np.round(v[ok])) > 1e-9):
        return None
    return v


def bind_counts(ds: Dataset) -> tuple[Column, Column, Column] | None:
    """(dose, responders, tested) of a table, or None when it holds no such
    three columns."""
    numeric = [c for c in ds.columns if c.is_numeric]
    # A dose given in whole numbers (10, 15, 22 mg/kg) is still a dose.
    counts = [c for c in numeric if _counts(c) is not None and not _DOSE.search(c.name)]
    for tested in counts:
        n = np.asarray(tested.values, dtype=float)
        for responders in counts:
            if responders is tested:
                continue
            r = np.asarray(responders.values, dtype=float)
            ok = np.isfinite(n) & np.isfinite(r)
            if not np.all(r[ok] <= n[ok]) or np.all(r[ok] == n[ok]):
                continue
            named_t, named_r = (
                bool(_TESTED.search(tested.name)),
                bool(_RESPONDED.search(responders.name)),
            )
            if _TESTED.search(responders.name) and not named_r:
                continue  # "n tested" is never the responders
            if not (named_t or named_r):
                continue  # two counts that no name tells apart decide nothing
            doses = [
                c for c in numeric
                if c is not tested and c is not responders and float(np.nanmax(c.values)) > 0
                and float(np.nanmin(c.values)) < float(np.nanmax(c.values))
            ]  # fmt: skip
            named = [c for c in doses if _DOSE.search(c.name)] or doses
            if len(named) == 1:
                return named[0], responders, tested
    return None


class QuantalKind:
    name = "quantal"

    def bind(self, ctx: BindContext) -> Sequence[Job[QuantalBinding]]:
        asked = asked_levels(ctx.notes.text)
        if asked is None:
            return []
        prefix, percents = asked
        jobs: list[Job[QuantalBinding]] = []
        for ds in ctx.free():
            bound = bind_counts(ds)
            if bound is None:
                continue
            dose, responders, tested = bound
            why = (
                f"the notes ask for {', '.join(prefix + str(p) for p in percents)}; "
                f"{responders.name} of {tested.name} responded at each {dose.name}: "
                "counts with binomial scatter"
            )
            binding = QuantalBinding(ds, dose, responders, tested, prefix, percents)
            jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[QuantalBinding]) -> QuantalResult | None:
        b = job.binding
        return fit_quantal(b.dose, b.responders, b.tested, prefix=b.prefix,
                           percents=b.percents, unit=b.dose.unit)  # fmt: skip

    def goals(self, job: Job[QuantalBinding], result: QuantalResult) -> list[str]:
        return ["fit"]

    def uses(self, job: Job[QuantalBinding], result: QuantalResult) -> Uses:
        return Uses(x=(job.binding.dose,), y=(job.binding.responders,))


QUANTAL = QuantalKind()
