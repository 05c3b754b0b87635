"""The paired kind: two measurements of the same subjects compared pair by
pair (analysis/paired.py), when the notes ask for a paired comparison.

Binds a free table with two measured columns in one unit (beside an
identifier): the notes' words "paired", "配对", "each subject ... both"
decide it, never the shape alone. The differences are taken as the notes
order the conditions ("drug 2 against drug 1": drug 2 − drug 1), else the
later column minus the earlier.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.paired import PairedResult, compare_pairs
from labwright.ingest.types import Column, Dataset

_PAIRED = re.compile(
    r"\bpaired\b|\bmatched pairs?\b|\bwithin[- ]subjects?\b|\brepeated on the same\b|"
    r"配对|成对|自身对照|同一(?:患者|受试者|个体|样品|对象)的两次",
    re.I,
)


@dataclass(frozen=True)
class PairedBinding:
    dataset: Dataset
    first: Column
    second: Column
    unit: str | None


# "加热 − 室温", "drug 2 minus drug 1", "B 与 A 的差值" (a "与" that lists two
# things, "服用药物 1 和药物 2", orders nothing).
_DIFFERENCE = re.compile(
    r"([\w\u4e00-\u9fff]+(?:\s\d+)?)\s*(?:−|–|-|minus)\s*([\w\u4e00-\u9fff]+(?:\s\d+)?)"
    r"|([\w\u4e00-\u9fff]+(?:\s\d+)?)\s*(?:与|和)\s*([\w\u4e00-\u9fff]+?(?:\s\d+)?)"
    r"\s*(?:之间)?的[^，。,.]{0,6}差",
    re.I,
)


def _names(column: Column, words: str) -> bool:
    """The notes' words name the column: a part of its name ("加热" of
    "加热组伸长", "药物 2" of "药物2 增加睡眠")."""
    name = re.sub(r"\s+", "", column.name).casefold()
    w = re.sub(r"\s+", "", words).casefold()
    # The words may carry a verb before them ("求药物 2"): any tail of two
    # characters or more that the name holds.
    return any(w[i:] in name for i in range(len(w) - 1))


def _order(a: Column, b: Column, text: str) -> tuple[Column, Column]:
    """(first, second) so that the differences are second − first, as the
    notes order them ("加热 − 室温": 加热 second); else the table's order."""
    for m in _DIFFERENCE.finditer(text):
        left, right = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        for x, y in ((a, b), (b, a)):
            if _names(y, left) and _names(x, right) and not _names(x, left):
                return x, y
    return a, b


def _numbers_subjects(col: Column) -> bool:
    v = np.asarray(col.values, dtype=float)
    return col.unit is None and v.size > 2 and bool(np.array_equal(v, np.arange(1, v.size + 1)))


class PairedKind:
    name = "paired"

    def bind(self, ctx: BindContext) -> Sequence[Job[PairedBinding]]:
        r = ctx.notes
        if not _PAIRED.search(r.text):
            return []
        jobs: list[Job[PairedBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds):
                continue
            # A subject number (1, 2, ..., n) is no measurement, whatever its name.
            measured = [c for c in roles.measurements if not _numbers_subjects(c)]
            if len(measured) != 2 or measured[0].unit != measured[1].unit:
                continue
            first, second = _order(measured[0], measured[1], r.text)
            why = (
                f"the notes ask for a paired comparison; {first.name} and {second.name} are "
                "two measurements of the same subjects, row by row"
            )
            binding = PairedBinding(ds, first, second, first.unit)
            jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[PairedBinding]) -> PairedResult | None:
        b = job.binding
        return compare_pairs(b.first, b.second, b.unit)

    def goals(self, job: Job[PairedBinding], result: PairedResult) -> list[str]:
        return ["groups"]

    def uses(self, job: Job[PairedBinding], result: PairedResult) -> Uses:
        return Uses(summarised=(job.binding.first, job.binding.second))


PAIRED = PairedKind()
