"""The peaks kind: the lines of a densely sampled curve (Gaussian profiles
on a linear baseline), matched to reference values from a column named so
anywhere in the folder.

Binds a table without a time axis when the notes ask for peaks or lines and
a sorted measurement gives x; a curve with no peak above the noise leaves the
table free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.peaks import PeakResult
from labwright.analysis.question import Question
from labwright.analysis.reading import sorted_measurement
from labwright.analysis.roles import TableRoles
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class PeaksBinding:
    dataset: Dataset
    x: Column
    y: Column
    question: Question
    # Every table's measurements, where a reference column may be found.
    others: tuple[TableRoles, ...] = ()


class PeaksKind:
    name = "peaks"

    def bind(self, ctx: BindContext) -> Sequence[Job[PeaksBinding]]:
        from labwright.analysis.peaks import MIN_POINTS

        r = ctx.notes
        q = r.question
        if not q.asks("peaks"):
            return []
        jobs: list[Job[PeaksBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds) or r.shape_of(ds) == "monthly":
                continue
            if roles.time is not None:
                continue
            x = sorted_measurement(roles)
            ys = [c for c in roles.measurements if c is not x]
            if x is None or not ys or len(x.values) < MIN_POINTS:
                continue
            why = f"the notes ask for peaks or lines; {x.name} is sorted and densely sampled"
            binding = PeaksBinding(ds, x, ys[0], q, tuple(r.roles.values()))
            jobs.append(Job(self.name, ds.source, why, binding, (ds,)))
        return jobs

    def compute(self, job: Job[PeaksBinding]) -> PeakResult | None:
        from labwright.analysis.peaks import REFERENCE_NAMES, find_peaks, match_references

        b = job.binding
        x = b.x
        res = find_peaks(np.asarray(x.values), np.asarray(b.y.values), x.name, b.y.name)
        if res is None or not res.peaks:
            return None
        lo, hi = float(np.nanmin(x.values)), float(np.nanmax(x.values))
        for other in b.others:
            for c in other.measurements:
                if c is x or not REFERENCE_NAMES.search(c.name):
                    continue
                refs = [float(v) for v in np.asarray(c.values, dtype=float) if lo <= v <= hi]
                if refs:
                    match_references(res, refs, f"{other.dataset.source}: {c.name}")
                    break
            if res.reference_source:
                break
        return res

    def goals(self, job: Job[PeaksBinding], result: PeakResult) -> list[str]:
        return ["peaks"] + (["error"] if job.binding.question.asks("error") else [])

    def uses(self, job: Job[PeaksBinding], result: PeakResult) -> Uses:
        return Uses(x=(job.binding.x,), y=(job.binding.y,))


PEAKS = PeaksKind()
