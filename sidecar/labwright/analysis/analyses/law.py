"""The law kind: a law stated in the notes ("T^2 = (4 pi^2/g) L", "T ∝ √L")
tested on the table whose measurements are its quantities, and the constant
it names solved for.

Binds a table without a time axis when the notes state a law and the table
has two measurements or more; the law's symbols must both be columns, which
is found when the law is fitted (`find_law`), so a table whose columns are
not the law's stays free for the kinds after this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.law import LawFit, LawStatement, find_law
from labwright.analysis.question import Question
from labwright.analysis.roles import TableRoles
from labwright.ingest.types import Dataset


@dataclass(frozen=True)
class LawBinding:
    dataset: Dataset
    roles: TableRoles
    laws: list[LawStatement]
    question: Question
    # The catalogue laws the request names: their names and references are
    # the ones the answer uses when several laws write the same symbol.
    models: tuple[str, ...] = ()


class LawKind:
    name = "law"

    def bind(self, ctx: BindContext) -> Sequence[Job[LawBinding]]:
        r = ctx.notes
        q = r.question
        if not q.laws:
            return []
        jobs: list[Job[LawBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds) or r.shape_of(ds) == "monthly":
                continue
            if len(roles.measurements) >= 2 and roles.time is None:
                why = "the notes state a law; its quantities may be columns of this table"
                models = tuple(m.key for m in ctx.request.models if m.key)
                binding = LawBinding(ds, roles, q.laws, q, models)
                jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[LawBinding]) -> LawFit | None:
        found = find_law(job.binding.laws, job.binding.roles.measurements)
        return None if found is None else replace(found, models=job.binding.models)

    def goals(self, job: Job[LawBinding], result: LawFit) -> list[str]:
        return ["law"] + (["dependence"] if job.binding.question.asks("dependence") else [])

    def reason(self, job: Job[LawBinding], result: LawFit) -> str:
        return f"the notes state the law {result.statement.text}; its quantities are columns"

    def uses(self, job: Job[LawBinding], result: LawFit) -> Uses:
        return Uses(x=(result.x,), y=(result.y,))


LAW = LawKind()
