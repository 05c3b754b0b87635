"""The contracts every analysis kind is written against: a job (what to run
on which data, and why), the context a kind binds from, the kind itself, and
the analysis it leaves (the job with its typed result).

They live apart from the table of kinds (`analysis/kinds.py`) because every
kind module imports them and the table imports every kind module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from labwright.analysis.request import AnalysisRequest, Unanswered
from labwright.ingest.types import Column, Dataset, ReadResult

if TYPE_CHECKING:
    from labwright.analysis.reading import Reading
    from labwright.analysis.results import Answer

B = TypeVar("B")  # a kind's typed binding
R = TypeVar("R")  # a kind's typed result
R_co = TypeVar("R_co", covariant=True)


@dataclass(frozen=True)
class Job(Generic[B]):
    """One analysis to run: which kind, on which data, and why."""

    kind: str
    source: str  # the file (or file pattern) it is about
    reason: str  # one plain sentence for the method section
    binding: B
    datasets: tuple[Dataset, ...] = ()  # the tables it claims


@dataclass(frozen=True)
class Uses:
    """The columns an analysis used, by how it used them, so that a harmful
    analysis (a set-point fitted as a response, an index summarised) can be
    found from the provenance record alone: `y` a fitted or modelled
    response, `x` an explanatory variable, `summarised` a column whose mean
    and spread (or group comparison) the report gives."""

    x: tuple[Column, ...] = ()
    y: tuple[Column, ...] = ()
    summarised: tuple[Column, ...] = ()

    def record(self) -> dict[str, list[str]]:
        def ref(c: Column) -> str:
            return f"{c.provenance.file}: {c.name}"

        return {
            "x": [ref(c) for c in self.x],
            "y": [ref(c) for c in self.y],
            "summarised": [ref(c) for c in self.summarised],
        }


@dataclass
class BindContext:
    """What a kind may look at to decide its jobs: the request, what was
    read, the notes and column roles (`reading`), and which tables earlier
    kinds already answered (`claims`: id(dataset) -> the kinds, in order)."""

    request: AnalysisRequest
    read: ReadResult
    reading: Reading | None = None
    claims: dict[int, list[str]] = field(default_factory=dict)

    @property
    def claimed(self) -> set[int]:
        return set(self.claims)

    def free(self) -> list[Dataset]:
        return [ds for ds in self.read.datasets if id(ds) not in self.claims]

    def claimed_by(self, ds: Dataset) -> list[str]:
        return self.claims.get(id(ds), [])

    def claim(self, datasets: Sequence[Dataset], kind: str) -> None:
        for ds in datasets:
            self.claims.setdefault(id(ds), []).append(kind)

    @property
    def notes(self) -> Reading:
        """The reading of the notes and columns (always set by `analyse_folder`)."""
        if self.reading is None:
            raise LookupError("the folder's notes and roles were not read")
        return self.reading


class AnalysisKind(Protocol[B, R_co]):
    """One kind of analysis: which jobs it can run, and how it runs one.

    `compute` returns None when the data cannot give the result (too few
    points, a singular fit); the tables stay free for the kinds after it.
    `goals` says which of the notes' goals the result answers, so a test can
    compare what was run with what was asked."""

    name: str

    def bind(self, ctx: BindContext) -> Sequence[Job[B]]: ...

    def compute(self, job: Job[B]) -> R_co | None: ...

    def goals(self, job: Job[B], result: Any) -> list[str]: ...

    def uses(self, job: Job[B], result: Any) -> Uses: ...


@runtime_checkable
class Explains(Protocol):
    """A kind whose reason is only known once the result is (the law the
    notes state that the columns matched)."""

    def reason(self, job: Job[Any], result: Any) -> str: ...


@dataclass
class Analysis(Generic[B, R]):
    """A job with its typed result: what the writers, the provenance record
    and the benchmark read."""

    job: Job[B]
    result: R
    goals: list[str] = field(default_factory=list)
    uses: Uses = field(default_factory=Uses)

    @property
    def kind(self) -> str:
        return self.job.kind

    @property
    def source(self) -> str:
        return self.job.source

    @property
    def reason(self) -> str:
        return self.job.reason

    @property
    def binding(self) -> B:
        return self.job.binding

    @property
    def dataset(self) -> Dataset | None:
        """The one table (or matrix) the analysis is about; None for a
        series of files, whose text has a section of its own."""
        ds = self.job.datasets
        return ds[0] if len(ds) == 1 else None

    def answers(self) -> list[Answer]:
        """The answers the result gives (a result without answers gives none)."""
        offer = getattr(self.result, "answers", None)
        return list(offer()) if callable(offer) else []

    def unanswered(self) -> list[Unanswered]:
        """What the request asked of this analysis that its result could not
        give, with the reason (a result that says nothing gives none)."""
        offer = getattr(self.result, "unanswered", None)
        return list(offer()) if callable(offer) else []
