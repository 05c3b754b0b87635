"""The regression kind: ordinary least squares of one measurement on the
others, with influence diagnostics and a refit without the flagged rows.

Binds, before the groups and time-series kinds (which may share the table):
panel data or a time-stamped table when the notes ask for a dependence; a
table with a category when the notes ask for a dependence of a named
response (or among three measurements or more); a plain table of several
measurements none of which is sorted to serve as x, or whose notes ask for a
model; two unsorted measurements (one depends on the other).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.analyses.shape_rules import is_panel, names_column, wants_model
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.question import Question
from labwright.analysis.reading import sorted_measurement
from labwright.analysis.regression import RegressionResult, pick_response, regress
from labwright.analysis.roles import TableRoles
from labwright.analysis.wide import WIDE_MIN
from labwright.ingest.types import Dataset

_DEPENDENCE = "the notes ask for a dependence between measurements"
_MODEL = "the notes ask for a model of one quantity on the others"


@dataclass(frozen=True)
class RegressionBinding:
    dataset: Dataset
    roles: TableRoles
    question: Question


def _why(q: Question, roles: TableRoles, ds: Dataset, shape: str | None) -> str | None:
    """Why this table gets a regression, or None when it does not."""
    meas = roles.measurements
    if shape == "time":
        if is_panel(ds, roles):
            return _DEPENDENCE if wants_model(q, roles) else None
        return _MODEL if wants_model(q, roles) else None
    if shape == "category":
        # Two measurements: only when the notes name the response ("does
        # survival depend on age"); "the effect of the treatment on height"
        # is the group comparison, not height regressed on leaf count.
        named = names_column(q.response, meas)
        if q.asks("dependence") and (len(meas) >= 3 or (len(meas) == 2 and named)):
            return _DEPENDENCE
        return None
    if shape != "plain":
        return None
    x = sorted_measurement(roles)
    model = q.asks("dependence") and not q.asks("law")
    if len(meas) >= 3 and (x is None or model) and len(meas) < WIDE_MIN + 2:
        return _MODEL if model else "several measurements and none sorted to serve as x"
    if len(meas) == 2 and x is None and not q.asks("law"):
        # Two measured quantities, neither sorted (households' income and
        # food spending, strikes' duration and output): one depends on the
        # other; a histogram of the first would answer nothing.
        return "two measurements, neither sorted: one regressed on the other"
    return None


class RegressionKind:
    name = "regression"

    def bind(self, ctx: BindContext) -> Sequence[Job[RegressionBinding]]:
        r = ctx.notes
        q = r.question
        jobs: list[Job[RegressionBinding]] = []
        for ds in ctx.free():
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds):
                continue
            why = _why(q, roles, ds, r.shape_of(ds))
            if why is not None:
                jobs.append(Job(self.name, ds.source, why, RegressionBinding(ds, roles, q), (ds,)))
        return jobs

    def compute(self, job: Job[RegressionBinding]) -> RegressionResult | None:
        cols = job.binding.roles.measurements
        response = pick_response([c.name for c in cols], job.binding.question.response)
        return regress({c.name: c.values for c in cols}, response)

    def goals(self, job: Job[RegressionBinding], result: RegressionResult) -> list[str]:
        outliers = job.binding.question.asks("outliers")
        return ["dependence"] + (["outliers"] if outliers else [])

    def uses(self, job: Job[RegressionBinding], result: RegressionResult) -> Uses:
        ds = job.binding.dataset
        return Uses(
            x=tuple(ds.column(p) for p in result.predictors), y=(ds.column(result.response),)
        )


REGRESSION = RegressionKind()
