"""The wide kind: a table of many measurement columns and no x, shown whole
(small multiples, or one colour map beyond what panels can show).

Binds a plain table of `WIDE_MIN + 2` measurements or more with none sorted
(fewer, and the regression kind takes the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.reading import sorted_measurement
from labwright.analysis.roles import TableRoles
from labwright.analysis.wide import WIDE_MIN, WideLayout, layout
from labwright.ingest.types import Dataset


@dataclass(frozen=True)
class WideBinding:
    dataset: Dataset
    roles: TableRoles


class WideKind:
    name = "wide"

    def bind(self, ctx: BindContext) -> Sequence[Job[WideBinding]]:
        r = ctx.notes
        jobs: list[Job[WideBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds) or r.shape_of(ds) != "plain":
                continue
            n = len(roles.measurements)
            if n >= WIDE_MIN + 2 and sorted_measurement(roles) is None:
                why = f"{n} measurement columns"
                jobs.append(Job(self.name, ds.source, why, WideBinding(ds, roles), (ds,)))
        return jobs

    def compute(self, job: Job[WideBinding]) -> WideLayout | None:
        return layout([c.name for c in job.binding.roles.measurements])

    def goals(self, job: Job[WideBinding], result: WideLayout) -> list[str]:
        return ["wide"]

    def uses(self, job: Job[WideBinding], result: WideLayout) -> Uses:
        return Uses()  # each column drawn against its row number: nothing fitted or summarised


WIDE = WideKind()
