"""The symmetry kind: a 2-D map (a thermal image, a beam profile) checked
for mirror symmetry against its own noise, with its centroid.

Binds every 2-D matrix when the notes ask for symmetry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.symmetry import SymmetryResult
from labwright.ingest.types import Dataset


@dataclass(frozen=True)
class SymmetryBinding:
    dataset: Dataset
    matrix: np.ndarray


class SymmetryKind:
    name = "symmetry"

    def bind(self, ctx: BindContext) -> Sequence[Job[SymmetryBinding]]:
        if not ctx.notes.question.asks("symmetry"):
            return []
        jobs: list[Job[SymmetryBinding]] = []
        for ds in ctx.free():
            if ds.kind != "matrix" or ds.matrix is None or np.asarray(ds.matrix).ndim != 2:
                continue
            why = "the notes ask for symmetry; a 2-D map"
            binding = SymmetryBinding(ds, np.asarray(ds.matrix))
            jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[SymmetryBinding]) -> SymmetryResult | None:
        from labwright.analysis.symmetry import analyse_symmetry

        return analyse_symmetry(job.binding.matrix, job.binding.dataset.name)

    def goals(self, job: Job[SymmetryBinding], result: SymmetryResult) -> list[str]:
        return ["symmetry"]

    def uses(self, job: Job[SymmetryBinding], result: SymmetryResult) -> Uses:
        return Uses()  # a matrix, not columns


SYMMETRY = SymmetryKind()
