"""The file-series kind: five or more same-shaped files named by a number
are one experiment; one row of results per file, then how each per-file
quantity varies with the run parameter.

Binds every series of files (`find_series`) before any other kind, and
claims its files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.notes import NoteFacts
from labwright.analysis.question import Question
from labwright.analysis.series_files import FileSeries
from labwright.analysis.series_summary import SeriesSummary
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class SeriesBinding:
    series: FileSeries
    facts: NoteFacts
    question: Question

    @property
    def appendix(self) -> bool:
        """The files one by one, in an appendix, only when the notes ask for it."""
        return self.question.asks("appendix")


class SeriesKind:
    name = "series"

    def bind(self, ctx: BindContext) -> Sequence[Job[SeriesBinding]]:
        r = ctx.notes
        return [
            Job(
                self.name,
                fs.pattern,
                f"{len(fs.datasets)} files of the same shape named {fs.pattern}",
                SeriesBinding(fs, r.facts, r.question),
                tuple(fs.datasets),
            )  # fmt: skip
            for fs in r.series
            if not any(id(ds) in ctx.claims for ds in fs.datasets)
        ]

    def compute(self, job: Job[SeriesBinding]) -> SeriesSummary | None:
        from labwright.analysis.series_summary import summarise_series

        return summarise_series(job.binding.series, job.binding.facts)

    def goals(self, job: Job[SeriesBinding], result: SeriesSummary) -> list[str]:
        # "How does the result depend on the run's parameter" is what the
        # per-file table and its summary figure answer.
        q = job.binding.question
        return (
            ["series"]
            + (["dependence"] if q.asks("dependence") else [])
            + (["appendix"] if job.binding.appendix else [])
        )

    def uses(self, job: Job[SeriesBinding], result: SeriesSummary) -> Uses:
        def each(name: str | None) -> tuple[Column, ...]:
            if name is None:
                return ()
            return tuple(ds.column(name) for ds in job.datasets if _has(ds, name))

        if result.mode == "fit":
            return Uses(x=each(result.x), y=each(result.y))
        return Uses(summarised=each(result.y))


def _has(ds: Dataset, name: str) -> bool:
    return any(c.name == name for c in ds.columns)


SERIES = SeriesKind()
