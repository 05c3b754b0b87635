"""A series of runs, one file per value of a parameter: the quantity of each
run, then the law across the runs.

The request says it all (`request_rules`): the runs and the parameter each
file's name gives (`files`, role "run"), the law's variable that is a
quantity found in each run (a binding with source "per_run",
`model.quantity`), and the per-run law's variables bound to the run files'
columns (under a file pattern). Each run's quantity comes from the per-run
law's own procedure (a period by periodogram) or from the one fit engine;
its SE weights the fit of the law across the runs (the engine again), whose
parameters and derived quantities answer the request. A set-point column in
the run files (the bath temperature repeated on every row) is never used:
the parameter comes from the file names.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.engine import FitData, FitResult, fit
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.procedures.common import expected
from labwright.analysis.request import AnalysisRequest, Binding, FileRole
from labwright.analysis.results import Answer
from labwright.ingest.types import Column, Dataset

MIN_RUNS = 3


@dataclass(frozen=True)
class Run:
    dataset: Dataset
    value: float  # the parameter, from the file name
    quantity: float
    se: float
    columns: tuple[Column, ...]


@dataclass
class RunSeriesResult:
    law: ModelEntry
    per_run: ModelEntry
    quantity: str  # the per-run quantity's key ("P", "k")
    variable: str  # the law's variable it is ("T", "k")
    parameter: str  # the law's variable the file names give ("L", "T")
    parameter_unit: str | None
    quantity_unit: str | None
    runs: list[Run]
    fit: FitResult
    request: AnalysisRequest

    @property
    def birge(self) -> float:
        """sqrt(reduced chi-square) when above 1: the runs scatter about the
        law more than their own SEs say (a parameter set only to the
        precision its file name gives), and the law's SEs are widened so."""
        red = self.fit.redchi
        return math.sqrt(red) if math.isfinite(red) and red > 1 else 1.0

    def se(self, q: str) -> float:
        return self.fit.se(q) * self.birge

    def answers(self) -> list[Answer]:
        req = self.request
        asked = [a.quantity for a in req.asked if a.model == self.law.key]
        keys = asked or list(self.fit.parameters)
        src = tuple(c.provenance for r in self.runs for c in r.columns[-1:])
        how = Text(
            f"{self.per_run.name.en} in each of the {len(self.runs)} runs, then "
            f"{self.law.name.en} across the runs (weighted by each run's SE; widened by "
            "sqrt(reduced chi-square) when the runs scatter more)",
            f"每次实验先求{self.per_run.name.zh}，再对各次结果拟合{self.law.name.zh}（以各自标准误差加权）",
        )
        out = []
        for q in keys:
            if q not in self.fit.values:
                continue
            label = self.law.label_of(q) or Text(q, q)
            unit = self.fit.units.get(q)
            out.append(Answer(q, label, q, self.fit.value(q), self.se(q), unit, how,
                              self.law.key, q in asked, expected(req, q, unit), src,
                              f"{len(self.runs)} runs"))  # fmt: skip
        return out


@dataclass(frozen=True)
class RunSeriesBinding:
    law: ModelEntry
    per_run: ModelEntry
    quantity: str
    variable: str
    parameter: str
    parameter_unit: str | None
    runs: tuple[tuple[Dataset, float, dict[str, Column]], ...]
    request: AnalysisRequest


def _entry(key: str) -> ModelEntry | None:
    return next((e for e in catalogue() if e.key == key), None)


def _run_columns(
    ds: Dataset, per_run: ModelEntry, bindings: Sequence[Binding]
) -> dict[str, Column] | None:
    cols: dict[str, Column] = {}
    for b in bindings:
        if b.model != per_run.key or b.source != "column":
            continue
        if not (b.file == ds.source or fnmatch.fnmatchcase(ds.source, b.file)):
            continue
        col = next((c for c in ds.columns if c.name == b.column and c.is_numeric), None)
        if col is not None:
            cols[b.variable] = col
    needed = {v.name for v in per_run.variables}
    return cols if needed <= set(cols) else None


def per_run_quantity(
    per_run: ModelEntry, quantity: str, cols: dict[str, Column]
) -> tuple[float, float, str | None] | None:
    """The quantity of one run, its SE and unit: by the per-run law's
    procedure when it has one (a period by periodogram), else the engine."""
    if per_run.procedure == "periodogram":
        from labwright.analysis.procedures.periodogram import analyse_period

        t = cols[per_run.independents[0].name]
        y = cols[per_run.response.name]
        found = analyse_period(per_run, t, y)
        if found is None:
            return None
        answer = next((a for a in found.answers() if a.quantity == quantity), None)
        if answer is None or answer.se is None:
            return None
        return answer.value, answer.se, answer.unit
    data = FitData(
        variables={v: np.asarray(c.values, dtype=float) for v, c in cols.items()},
        units={v: c.unit for v, c in cols.items()},
    )
    res = fit(per_run, data)
    if not res.ok or quantity not in res.values:
        return None
    return res.value(quantity), res.se(quantity), res.units.get(quantity)


class RunSeriesKind:
    name = "run_series"

    def bind(self, ctx: BindContext) -> Sequence[Job[RunSeriesBinding]]:
        req = ctx.request
        if req.procedure != "run_series":
            return []
        jobs: list[Job[RunSeriesBinding]] = []
        free = {id(ds) for ds in ctx.free()}
        for b in req.bindings:
            if b.source != "per_run" or "." not in b.column:
                continue
            law, (per_key, quantity) = _entry(b.model), b.column.split(".", 1)
            per_run = _entry(per_key)
            named = next(
                (x for x in req.bindings if x.model == b.model and x.source == "file_names"), None
            )
            if law is None or per_run is None or named is None:
                continue
            runs: list[tuple[Dataset, float, dict[str, Column]]] = []
            roles: list[FileRole] = [
                f for f in req.files if f.role == "run" and f.value is not None
            ]
            for role in roles:
                ds = next(
                    (d for d in ctx.read.datasets if d.source == role.file and id(d) in free), None
                )
                cols = None if ds is None else _run_columns(ds, per_run, req.bindings)
                if ds is not None and cols is not None and role.value is not None:
                    runs.append((ds, role.value, cols))
            if len(runs) < MIN_RUNS:
                continue
            why = (f"one run per value of {named.variable} (from the file names); "
                   f"{b.evidence.reason}")  # fmt: skip
            binding = RunSeriesBinding(law, per_run, quantity, b.variable, named.variable,
                                       named.unit, tuple(runs), req)  # fmt: skip
            jobs.append(Job(self.name, b.file, why, binding, tuple(r[0] for r in runs)))
        return jobs

    def compute(self, job: Job[RunSeriesBinding]) -> RunSeriesResult | None:
        b = job.binding
        runs: list[Run] = []
        unit: str | None = None
        for ds, value, cols in b.runs:
            found = per_run_quantity(b.per_run, b.quantity, cols)
            if found is None or not (math.isfinite(found[0]) and found[1] > 0):
                continue
            runs.append(Run(ds, value, found[0], found[1], tuple(cols.values())))
            unit = found[2]
        if len(runs) < MIN_RUNS:
            return None
        data = FitData(
            variables={b.parameter: np.array([r.value for r in runs]),
                       b.variable: np.array([r.quantity for r in runs])},
            units={b.parameter: b.parameter_unit, b.variable: unit},
            sigma=np.array([r.se for r in runs]),
        )  # fmt: skip
        across = fit(b.law, data)
        if not across.ok:
            return None
        return RunSeriesResult(b.law, b.per_run, b.quantity, b.variable, b.parameter,
                               b.parameter_unit, unit, runs, across, b.request)  # fmt: skip

    def goals(self, job: Job[RunSeriesBinding], result: RunSeriesResult) -> list[str]:
        return ["dependence", "law"]

    def uses(self, job: Job[RunSeriesBinding], result: RunSeriesResult) -> Uses:
        ind = {v.name for v in result.per_run.independents}
        xs = tuple(c for _, _, cols in job.binding.runs for v, c in cols.items() if v in ind)
        ys = tuple(c for _, _, cols in job.binding.runs for v, c in cols.items() if v not in ind)
        return Uses(x=xs, y=ys)


RUN_SERIES = RunSeriesKind()
