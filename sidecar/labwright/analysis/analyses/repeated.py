"""The repeated-measurements kind: the mean of one measured quantity, its
spread and standard error.

Binds a table of one measurement (beside counters and identifiers) that no
earlier kind answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.question import Question
from labwright.analysis.repeated import Repeated, summarise
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class RepeatedBinding:
    dataset: Dataset
    column: Column
    question: Question


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
        return jobs

    def compute(self, job: Job[RepeatedBinding]) -> Repeated | None:
        col = job.binding.column
        return summarise(col.name, col.values)

    def goals(self, job: Job[RepeatedBinding], result: Repeated) -> list[str]:
        return ["repeated"] + (["error"] if job.binding.question.asks("error") else [])

    def uses(self, job: Job[RepeatedBinding], result: Repeated) -> Uses:
        return Uses(summarised=(job.binding.column,))


REPEATED = RepeatedKind()
