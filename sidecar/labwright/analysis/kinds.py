"""The table of analysis kinds: each kind binds the request to data and
computes one typed result.

A kind is one unit with its halves here (`bind`, `compute`, `goals`; one
module each under `analysis/analyses/` and `analysis/procedures/`) and on
the writer side (`agent/offline/kind_writers.py`: `text`, `figures`, and
`script` for the exported compendium). The halves live in two tables
because `analysis/` must not import the writers; a test holds both tables to
the same keys. The order of `KINDS` is the order of binding: kinds driven by
the request (a law, a procedure the notes name) come first and claim their
data; the shape-based kinds (time series, groups, regression, ...) take what
no request bound, so a folder whose notes name a law never gets a generic
fit of the same columns.

A kind claims a table only when it computed a result from it: a law whose
symbols are not the table's columns, or a regression that cannot be fitted,
leaves the table to the kinds after it, and the x-y kind takes whatever is
left.

A new catalogue entry needs no code (the `fit` kind serves all of them); a
new procedure is one module under `analysis/procedures/` plus its line in
`KINDS`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from labwright.analysis.analyses.fit import FIT
from labwright.analysis.analyses.groups import GROUPS
from labwright.analysis.analyses.law import LAW
from labwright.analysis.analyses.paired import PAIRED
from labwright.analysis.analyses.peaks import PEAKS
from labwright.analysis.analyses.quantal import QUANTAL
from labwright.analysis.analyses.regression import REGRESSION
from labwright.analysis.analyses.repeated import REPEATED
from labwright.analysis.analyses.series import SERIES
from labwright.analysis.analyses.spacing import SPACING
from labwright.analysis.analyses.symmetry import SYMMETRY
from labwright.analysis.analyses.timeseries import TIMESERIES
from labwright.analysis.analyses.wide import WIDE
from labwright.analysis.analyses.xy import XY
from labwright.analysis.jobs import Analysis, AnalysisKind, BindContext, Explains, Job, Uses
from labwright.analysis.procedures.calibration import CALIBRATION
from labwright.analysis.procedures.factorial import FACTORIAL
from labwright.analysis.procedures.periodogram import PERIODOGRAM
from labwright.analysis.procedures.run_series import RUN_SERIES
from labwright.analysis.procedures.titration import TITRATION

__all__ = [
    "KINDS",
    "Analysis",
    "AnalysisKind",
    "BindContext",
    "Job",
    "Uses",
    "kind_named",
    "run_kinds",
]

#: In binding order. Request-driven kinds first (the catalogue's laws, then
#: the procedures, which take only entries marked with their procedure); then the shape-based ones,
#: each taking the tables no earlier kind answered (the regression before
#: the groups and time series, which may share a table with it).
KINDS: tuple[AnalysisKind[Any, Any], ...] = (
    RUN_SERIES,
    QUANTAL,
    SPACING,
    FIT,
    TITRATION,
    CALIBRATION,
    PERIODOGRAM,
    FACTORIAL,
    SERIES,
    LAW,
    PEAKS,
    PAIRED,
    REGRESSION,
    GROUPS,
    TIMESERIES,
    REPEATED,
    WIDE,
    SYMMETRY,
    XY,
)

#: How the analyses of one table are presented, whatever order they were bound in.
_PRESENTED = ("run_series", "quantal", "spacing", "fit", "titration", "calibration", "periodogram", "factorial", "series", "law", "peaks", "groups", "timeseries", "regression", "repeated",
              "wide", "symmetry", "xy")  # fmt: skip


def kind_named(name: str) -> AnalysisKind[Any, Any]:
    return next(k for k in KINDS if k.name == name)


def run_kinds(ctx: BindContext) -> list[Analysis[Any, Any]]:
    """Bind and compute every kind in order; each result claims its tables."""
    done: list[Analysis[Any, Any]] = []
    for kind in KINDS:
        for job in kind.bind(ctx):
            result = kind.compute(job)
            if result is None:
                continue
            if isinstance(kind, Explains):
                job = dataclasses.replace(job, reason=kind.reason(job, result))
            done.append(Analysis(job, result, kind.goals(job, result), kind.uses(job, result)))
            ctx.claim(job.datasets, kind.name)
    order = {id(ds): i for i, ds in enumerate(ctx.read.datasets)}

    def place(a: Analysis[Any, Any]) -> tuple[int, int, int]:
        first = min((order.get(id(ds), len(order)) for ds in a.job.datasets), default=len(order))
        rank = _PRESENTED.index(a.kind) if a.kind in _PRESENTED else len(_PRESENTED)
        return (0 if a.dataset is None else 1, first, rank)

    return sorted(done, key=place)
