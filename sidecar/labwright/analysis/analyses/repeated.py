"""The repeated-measurements kind: the mean of one measured quantity, its
spread and standard error.

Binds a table of one measurement (beside counters and identifiers) that no
earlier kind answered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.procedures.common import expected
from labwright.analysis.question import Question
from labwright.analysis.repeated import Repeated, summarise
from labwright.analysis.request import AnalysisRequest, AskedQuantity
from labwright.analysis.request_rules.words import same_symbol
from labwright.analysis.results import Comparison
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class RepeatedBinding:
    dataset: Dataset
    column: Column
    question: Question
    #: The mean the notes ask by a symbol (request_rules/means.py), when it is this column's.
    asked: AskedQuantity | None = None
    #: The value the notes give for that mean (a nominal value), to compare with.
    expected: Comparison | None = None


class RepeatedKind:
    name = "repeated"

    def bind(self, ctx: BindContext) -> Sequence[Job[RepeatedBinding]]:
        r = ctx.notes
        jobs: list[Job[RepeatedBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds) or r.shape_of(ds) != "plain":
                continue
            if len(roles.measurements) == 1:
                binding = RepeatedBinding(ds, roles.measurements[0], r.question)
                jobs.append(Job(self.name, ds.source, "one measured quantity", binding, (ds,)))
        jobs = [_with_asked_mean(job, ctx.request.asked, len(jobs)) for job in jobs]
        return [_with_expected(job, ctx.request) for job in jobs]

    def compute(self, job: Job[RepeatedBinding]) -> Repeated | None:
        b = job.binding
        col = b.column
        found = summarise(col.name, col.values)
        if found is None or b.asked is None:
            return found
        return dataclasses.replace(
            found, asked=b.asked.quantity, label=b.asked.name, unit=col.unit, source=col.provenance,
            comparison=b.expected,
        )  # fmt: skip

    def goals(self, job: Job[RepeatedBinding], result: Repeated) -> list[str]:
        return ["repeated"] + (["error"] if job.binding.question.asks("error") else [])

    def uses(self, job: Job[RepeatedBinding], result: Repeated) -> Uses:
        return Uses(summarised=(job.binding.column,))


def _with_asked_mean(
    job: Job[RepeatedBinding], asked: Sequence[AskedQuantity], count: int
) -> Job[RepeatedBinding]:
    """The job, with the mean the notes ask by a symbol of no law when it is
    this column's: the column is named by that symbol, or it is the one
    column of readings in the folder (a file of values without a header)."""
    means = [a for a in asked if a.model is None and not a.candidates]
    col = job.binding.column
    mine = [a for a in means if same_symbol(a.quantity, col.name)]
    if not mine and count == 1 and len(means) == 1:
        mine = means
    if len(mine) != 1:
        return job
    return dataclasses.replace(job, binding=dataclasses.replace(job.binding, asked=mine[0]))


def _with_expected(job: Job[RepeatedBinding], request: AnalysisRequest) -> Job[RepeatedBinding]:
    """The job, with the value the notes give for the asked mean."""
    b = job.binding
    if b.asked is None:
        return job
    compare = expected(request, b.asked.quantity, b.column.unit)
    return dataclasses.replace(job, binding=dataclasses.replace(b, expected=compare))


REPEATED = RepeatedKind()
