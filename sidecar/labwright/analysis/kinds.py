"""The table of analysis kinds: each kind binds the request to data and
computes one typed result.

A kind is one unit with two halves here (`bind`, `compute`) and two on the
writer side (`agent/offline/kind_writers.py`: `text`, `figures`, and
`script` for the exported compendium). The halves live in two tables
because `analysis/` must not import the writers; a test holds both tables to
the same keys. The order of `KINDS` is the order of binding: kinds driven by
the request (a law, a procedure the notes name) come first and claim their
data; the shape-based kinds (time series, groups, regression, ...) take what
no request bound, so a folder whose notes name a law never gets a generic
fit of the same columns.

A new catalogue entry needs no code (the `fit` kind serves all of them); a
new procedure is one module under `analysis/procedures/` plus its line in
`KINDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from labwright.analysis.request import AnalysisRequest
from labwright.ingest.types import Dataset, ReadResult

B = TypeVar("B")  # a kind's typed binding
R_co = TypeVar("R_co", covariant=True)  # a kind's typed result


@dataclass(frozen=True)
class Job(Generic[B]):
    """One analysis to run: which kind, on which data, and why."""

    kind: str
    source: str  # the file (or file pattern) it is about
    reason: str  # one plain sentence for the method section
    binding: B
    datasets: tuple[Dataset, ...] = ()  # the tables it claims


@dataclass
class BindContext:
    """What a kind may look at to decide its jobs."""

    request: AnalysisRequest
    read: ReadResult
    claimed: set[int] = field(default_factory=set)  # id(dataset) bound by an earlier kind

    def free(self) -> list[Dataset]:
        return [ds for ds in self.read.datasets if id(ds) not in self.claimed]


class AnalysisKind(Protocol[B, R_co]):
    name: str

    def bind(self, ctx: BindContext) -> Sequence[Job[B]]: ...

    def compute(self, job: Job[B]) -> R_co | None: ...
