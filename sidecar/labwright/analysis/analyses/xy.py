"""The x-y kind: a table no other kind answered, shown as x-y measurements
of its measurement columns (the figure path chooses x, fits each y by AICc
among a few generic models, in the plotting process).

Binds every table still free after all other kinds; its result records what
the writer compares each fit with: R C from the notes' components, and the
coefficients the notes name that a slope between two of the table's columns
can give (their units decide).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from labwright.analysis.coefficient import CoefficientAsk
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.question import Question
from labwright.analysis.reading import sorted_x
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class XYBinding:
    dataset: Dataset
    question: Question
    rc: bool  # the notes ask to compare a time constant with R C
    measurements: tuple[Column, ...] = ()
    coefficients: tuple[CoefficientAsk, ...] = ()  # asked, and given by two of its units


@dataclass(frozen=True)
class XYTable:
    dataset: Dataset
    coefficients: tuple[CoefficientAsk, ...] = field(default=())


def _gives(ask: CoefficientAsk, ds: Dataset) -> bool:
    """Whether a slope between two columns of `ds` has the unit of `ask`."""
    from labwright.analysis.coefficient import answers

    units = [c.unit for c in ds.columns if c.unit]
    return any(answers(ask, x, y) for x in units for y in units if x != y)


class XYKind:
    name = "xy"

    def bind(self, ctx: BindContext) -> Sequence[Job[XYBinding]]:
        r = ctx.notes
        jobs: list[Job[XYBinding]] = []
        for ds in ctx.free():
            if ds.kind != "table":
                continue
            # A coefficient is asked of these fits only when two of the
            # table's columns' units can give it ("the resistance" of
            # repeated readings is their mean, not a slope).
            given = tuple(a for a in r.coefficient_asks if _gives(a, ds))
            roles = r.roles_of(ds)
            meas = tuple(roles.measurements) if roles is not None else ()
            binding = XYBinding(ds, r.question, r.rc is not None, meas, given)
            jobs.append(Job(self.name, ds.source, "x-y measurements", binding, (ds,)))
        return jobs

    def compute(self, job: Job[XYBinding]) -> XYTable | None:
        return XYTable(job.binding.dataset, job.binding.coefficients)

    def goals(self, job: Job[XYBinding], result: XYTable) -> list[str]:
        b = job.binding
        return (
            ["xy"]
            + (["law"] if b.question.asks("law") else [])
            + (["expected"] if b.rc else [])  # fitted tau against R C, in the writer
            + (["coefficient"] if b.coefficients else [])  # from a fitted slope, in the writer
        )

    def uses(self, job: Job[XYBinding], result: XYTable) -> Uses:
        """What the figure path will fit: every other measurement against the
        first sorted one (`offline/figures.choose_x`, same rule)."""
        x = next((c for c in job.binding.measurements if sorted_x(c)), None)
        if x is None:
            return Uses()
        return Uses(x=(x,), y=tuple(c for c in job.binding.measurements if c is not x))


XY = XYKind()
