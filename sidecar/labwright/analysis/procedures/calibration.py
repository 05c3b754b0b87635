"""Calibration: a straight line through standards, the unknowns read back
from it with their standard errors, the limits of detection and
quantification; standard addition as the same line's x-intercept.

One analysis per calibration, never "two separate calibration lines": the
standards give the line (statsmodels OLS; WLS with weights 1/s^2 when every
standard was measured in replicate), the unknowns (a file or sheet the
request marks so, else a table that holds the response column but not the
concentration) are predicted inversely,

    x0 = (ȳ0 - a)/b,
    s_x0 = s_y/|b| sqrt(1/m + 1/n + (ȳ0 - ȳ)^2/(b^2 Σ(x - x̄)^2)),

computed through the fit's covariance (the same formula for OLS; WLS uses
the weight at the nearest standard). LOD = 3.3 s_y/b and LOQ = 10 s_y/b,
their SE from those of s_y (≈ s_y/sqrt(2(n - 2))) and b. Standard addition:
c = a/b with s = s_y/|b| sqrt(1/n + ȳ^2/(b^2 Σ(x - x̄)^2)).

A column that labels the unknowns (sample 1, 2, 3; replicate 1, 2, 3) only
groups their readings: it is never fitted or summarised.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.procedures.common import (
    BoundTable,
    asked,
    bound_tables,
    entries_of,
    expected,
)
from labwright.analysis.procedures.slope_law import SlopeAnswer, slope_answers
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.results import Answer
from labwright.ingest.types import Column, Dataset, Provenance

MIN_STANDARDS = 3
REPLICATE = re.compile(r"replicat|\brep\b|repeat|reading|trial|重复|平行|次数", re.I)
# The notes say the unknown was measured several times: its file's row
# numbers (编号 1, 2, 3) then number the readings of one sample.
REPLICATED_IN_NOTES = re.compile(
    r"平行测定|平行测量|平行测|重复测定|重复测量|\bin\s+(?:duplicate|triplicate|quadruplicate)\b"
    r"|\bmeasured\s+(?:twice|(?:two|three|four|five|\d+)\s+times)\b"
    r"|\b(?:two|three|four|five|\d+)\s+(?:parallel|replicate|repeated?)\s+"
    r"(?:readings|measurements|determinations)\b",
    re.I,
)
_ADDITION = "standard_addition"


@dataclass(frozen=True)
class Unknown:
    """One unknown sample: its readings and the concentration read back."""

    label: Text
    readings: np.ndarray
    x0: float
    se: float


@dataclass
class CalibrationResult:
    entry: ModelEntry
    x: Column
    y: Column
    xs: np.ndarray
    ys: np.ndarray
    a: float
    b: float
    se_a: float
    se_b: float
    s_y: float  # residual standard deviation (unit weight for WLS)
    r2: float
    weighted: bool
    lod: float
    lod_se: float
    loq: float
    loq_se: float
    unknowns: list[Unknown] = field(default_factory=list)
    unknown_table: Dataset | None = None
    unknown_y: Column | None = None
    unknown_ids: Column | None = None
    # The unknowns' rows are readings of one sample (a replicate label, or
    # row numbers of readings the notes say were repeated).
    one_sample: bool = False
    c_sample: float | None = None  # standard addition: the x-intercept's magnitude
    c_sample_se: float | None = None
    request: AnalysisRequest | None = None
    # Parameters of the notes' law read off the slope (ε = b/l).
    slope_laws: list[SlopeAnswer] = field(default_factory=list)

    @property
    def addition(self) -> bool:
        return self.entry.key == _ADDITION

    def answers(self) -> list[Answer]:
        req = self.request or AnalysisRequest()
        key = self.entry.key
        src = (self.x.provenance, self.y.provenance)
        xu, yu = self.x.unit, self.y.unit
        fit = "WLS" if self.weighted else "OLS"
        line = Text(f"straight line through the {self.xs.size} standards ({fit})",
                    f"{self.xs.size} 个标准点的直线拟合（{fit}）")  # fmt: skip
        rows = f"all {self.xs.size}"
        slope_unit = (f"{yu or '1'}/({xu})" if "/" in xu else f"{yu or '1'}/{xu}") if xu else yu
        out = [
            Answer("b", Text("sensitivity (slope)", "灵敏度（斜率）"), "b", self.b, self.se_b,
                   slope_unit, line, key, asked(req, "b"), None, src, rows),
            Answer("a", Text("intercept", "截距"), "a", self.a, self.se_a, yu, line, key,
                   asked(req, "a"), None, src, rows),
        ]  # fmt: skip
        if self.addition and self.c_sample is not None:
            how = Text(
                "x-intercept of the standard-addition line, c = a/b; "
                "s = s_y/b sqrt(1/n + ȳ²/(b² Σ(x - x̄)²))",
                "标准加入直线的 x 截距 c = a/b；s = s_y/b sqrt(1/n + ȳ²/(b² Σ(x - x̄)²))",
            )
            out.append(Answer("c_sample", Text("sample concentration", "样品浓度"), "c_x",
                              self.c_sample, self.c_sample_se, xu, how, key, True,
                              expected(req, "c_sample", xu), src, rows))  # fmt: skip
            return out
        for u in self.unknowns:
            how = Text(
                f"inverse prediction from the calibration line ({u.readings.size} reading(s)); "
                "s_x0 = s_y/b sqrt(1/m + 1/n + (ȳ0 - ȳ)²/(b² Σ(x - x̄)²))",
                f"由校准直线反算（{u.readings.size} 次读数）；"
                "s_x0 = s_y/b sqrt(1/m + 1/n + (ȳ0 - ȳ)²/(b² Σ(x - x̄)²))",
            )
            usrc = src + ((self.unknown_y.provenance,) if self.unknown_y else ())
            out.append(Answer("x0", u.label, "x_0", u.x0, u.se, xu, how, key, True,
                              expected(req, "x0", xu), usrc, None))  # fmt: skip
        out += [s.answer(req, self.x, self.y, rows) for s in self.slope_laws]
        limit = Text("3.3 s_y/b and 10 s_y/b from the calibration line",
                     "由校准直线计算 3.3 s_y/b 与 10 s_y/b")  # fmt: skip
        out.append(Answer("LOD", Text("limit of detection", "检出限"), r"\mathrm{LOD}", self.lod,
                          self.lod_se, xu, limit, key, asked(req, "LOD"), None, src, rows))  # fmt: skip
        out.append(Answer("LOQ", Text("limit of quantification", "定量限"), r"\mathrm{LOQ}",
                          self.loq, self.loq_se, xu, limit, key, asked(req, "LOQ"), None, src,
                          rows))  # fmt: skip
        return out


# --- the computation -------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    a: float
    b: float
    cov: np.ndarray  # of (a, b)
    s_y: float
    r2: float
    weighted: bool
    group_var: dict[float, float]  # x -> variance of its replicates (WLS)
    n: int


def fit_line(x: np.ndarray, y: np.ndarray) -> Line | None:
    """OLS, or WLS with 1/s^2 of each standard's replicates when every
    standard was measured at least twice (and their spreads differ)."""
    # The modules, not statsmodels.api: the api pulls in every model
    # statsmodels has (seconds on a cold start), among them the time-series
    # extensions the frozen bundle leaves out (build_scripts' excludes).
    from statsmodels.regression.linear_model import OLS, WLS
    from statsmodels.tools.tools import add_constant

    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if np.unique(x).size < MIN_STANDARDS or x.size < MIN_STANDARDS:
        return None
    X = add_constant(x, has_constant="add")
    levels, counts = np.unique(x, return_counts=True)
    var = {
        float(v): float(np.var(y[x == v], ddof=1))
        for v, c in zip(levels, counts, strict=True)
        if c >= 2
    }
    weighted = len(var) == levels.size and levels.size >= MIN_STANDARDS and min(var.values()) > 0
    if weighted:
        w = np.array([1.0 / var[float(v)] for v in x])
        res = WLS(y, X, weights=w).fit()
    else:
        res = OLS(y, X).fit()
    if x.size <= 2:
        return None
    a, b = (float(p) for p in res.params)
    if b == 0 or not math.isfinite(b):
        return None
    return Line(a, b, np.asarray(res.cov_params()), float(math.sqrt(res.scale)),
                float(res.rsquared), weighted, var if weighted else {}, int(x.size))  # fmt: skip


def inverse(line: Line, readings: np.ndarray) -> tuple[float, float]:
    """x0 and its SE for the mean of `readings` (delta method through the
    fit's covariance: for OLS exactly the textbook s_x0)."""
    m = readings.size
    y0 = float(np.mean(readings))
    x0 = (y0 - line.a) / line.b
    if line.weighted:
        near = min(line.group_var, key=lambda v: abs(v - x0))
        var_y0 = line.group_var[near] / m
    else:
        var_y0 = line.s_y**2 / m
    ca, cb, cab = line.cov[0, 0], line.cov[1, 1], line.cov[0, 1]
    var = (var_y0 + ca + x0**2 * cb + 2 * x0 * cab) / line.b**2
    return x0, math.sqrt(max(var, 0.0))


def x_intercept(line: Line) -> tuple[float, float]:
    """c = a/b (the sample's concentration in standard addition) and its SE."""
    c = line.a / line.b
    ca, cb, cab = line.cov[0, 0], line.cov[1, 1], line.cov[0, 1]
    var = (ca + c**2 * cb - 2 * c * cab) / line.b**2
    return c, math.sqrt(max(var, 0.0))


def limits(line: Line) -> tuple[float, float, float, float]:
    """LOD, its SE, LOQ, its SE."""
    rel_s = 1.0 / math.sqrt(2 * max(line.n - 2, 1))
    rel = math.hypot(rel_s, math.sqrt(line.cov[1, 1]) / abs(line.b))
    lod, loq = 3.3 * line.s_y / abs(line.b), 10 * line.s_y / abs(line.b)
    return lod, lod * rel, loq, loq * rel


#: The metadata key of a table that is one named sample: readings the notes
#: write out, or one column of samples side by side.
_NOTED = "one sample"
#: The metadata key naming (by id) the table a one-sample part was cut from.
_PART_OF = "part of"


def _ids(table: Dataset, y: Column) -> Column | None:
    return next((c for c in table.columns if c is not y), None)


def one_sample(table: Dataset, y: Column, replicated: bool = False) -> bool:
    """The unknowns' rows are readings of one sample: their labelling column
    names replicates, or numbers the rows (1, 2, 3) of readings the notes
    say were repeated (`replicated`)."""
    ids = _ids(table, y)
    if ids is None:
        return False
    if REPLICATE.search(ids.name):
        return True
    if not replicated or not ids.is_numeric:
        return False
    v = np.asarray(ids.values, dtype=float)
    return bool(np.array_equal(v, np.arange(1, v.size + 1)))


def unknown_groups(
    table: Dataset, y: Column, replicated: bool = False
) -> list[tuple[Text, np.ndarray]]:
    """The unknowns' readings: grouped by the labelling column (one sample
    when its rows are readings of one: `one_sample`), one unknown per row
    without one."""
    values = np.asarray(y.values, dtype=float)
    if (named := table.metadata.get(_NOTED)) is not None:
        # One named sample (readings the notes write out, or one column of
        # samples side by side): all its readings, named as the data name it.
        ok = np.isfinite(values)
        return [(Text(named, named), values[ok])] if ok.any() else []
    ids = _ids(table, y)
    if one_sample(table, y, replicated):
        ok = np.isfinite(values)
        return [(Text("sample concentration", "样品浓度"), values[ok])] if ok.any() else []
    out: list[tuple[Text, np.ndarray]] = []
    if ids is None:
        for i, v in enumerate(values, 1):
            if math.isfinite(v):
                out.append(
                    (Text(f"concentration of unknown {i}", f"未知样 {i} 的浓度"), np.array([v]))
                )
        return out
    labels = [_label(v) for v in ids.values]
    for label in dict.fromkeys(labels):
        sel = np.array([lab == label for lab in labels]) & np.isfinite(values)
        if sel.any():
            out.append(
                (Text(f"concentration of sample {label}", f"样品 {label} 的浓度"), values[sel])
            )
    return out


def _label(v: object) -> str:
    if isinstance(v, float | np.floating) and float(v).is_integer():
        return str(int(v))
    return str(v).strip()


def calibrate(
    table: BoundTable,
    x: Column,
    y: Column,
    unknowns: Sequence[tuple[Dataset, Column]] = (),
    request: AnalysisRequest | None = None,
    replicated: bool = False,
) -> CalibrationResult | None:
    xs, ys = np.asarray(x.values, dtype=float), np.asarray(y.values, dtype=float)
    ok = np.isfinite(xs) & np.isfinite(ys)
    line = fit_line(xs[ok], ys[ok])
    if line is None:
        return None
    lod, lod_se, loq, loq_se = limits(line)
    res = CalibrationResult(
        table.entry, x, y, xs[ok], ys[ok], line.a, line.b, math.sqrt(line.cov[0, 0]),
        math.sqrt(line.cov[1, 1]), line.s_y, line.r2, line.weighted, lod, lod_se, loq, loq_se,
        request=request,
    )  # fmt: skip
    if table.entry.key == _ADDITION:
        res.c_sample, res.c_sample_se = x_intercept(line)
        return res
    if request is not None:
        from labwright.analysis.catalogue.load import catalogue

        entries = {e.key: e for e in catalogue()}
        res.slope_laws = slope_answers(request, x, y, res.b, res.se_b, entries)
    for ds, ucol in unknowns:
        for label, readings in unknown_groups(ds, ucol, replicated):
            x0, se = inverse(line, readings)
            res.unknowns.append(Unknown(label, readings, x0, se))
        res.unknown_table, res.unknown_y, res.unknown_ids = ds, ucol, _ids(ds, ucol)
        res.one_sample = one_sample(ds, ucol, replicated)
    return res


# --- the kind --------------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationBinding:
    table: BoundTable
    x: Column
    y: Column
    unknowns: tuple[tuple[Dataset, Column], ...]
    request: AnalysisRequest
    replicated: bool = False  # the notes say the unknown was measured several times


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def find_unknowns(
    ctx: BindContext, standards: Dataset, x: Column, y: Column
) -> list[tuple[Dataset, Column]]:
    """The tables of unknowns and their response column: those the request
    marks as unknowns, else every free table that holds the response
    (a column of the same name) but not the concentration."""
    req = ctx.request
    marked = []
    for ds in ctx.read.datasets:
        sheet = ds.provenance.sheet if ds.provenance else None
        role = next(
            (f for f in req.files if f.file == ds.source and f.sheet in (None, sheet)), None
        )
        if role is not None and role.role == "unknowns" and ds is not standards:
            marked.append(ds)
    candidates = marked or [ds for ds in ctx.free() if ds is not standards and ds.kind == "table"]
    out: list[tuple[Dataset, Column]] = []
    for ds in candidates:
        numeric = [c for c in ds.columns if c.is_numeric]
        if any(_same(c.name, x.name) for c in numeric):
            continue
        col = next((c for c in numeric if _same(c.name, y.name)), None)
        if col is None and ds in marked and len(numeric) >= 2 and _samples_side_by_side(ds):
            # 样品1 | 样品2: each column one sample, its rows the replicate readings.
            out.extend(_one_sample(ds, c) for c in numeric)
            continue
        if col is None and ds in marked:
            named = [c for c in numeric if not REPLICATE.search(c.name)]
            col = named[-1] if named else None
        if col is not None:
            out.append((ds, col))
    return out or noted_tables(req, y)


#: "样品1", "Sample A", "unknown 2", "S1": a column that names a sample.
_SAMPLE_NAME = re.compile(
    r"^\s*(?:样品?|试样|水样|未知样?|samples?|unknowns?|S)\s*[-_ ]?[A-Za-z0-9]{1,3}\s*$", re.I
)


def _samples_side_by_side(ds: Dataset) -> bool:
    """Every numeric column of the table names a sample."""
    return all(_SAMPLE_NAME.match(c.name) for c in ds.columns if c.is_numeric)


def _one_sample(ds: Dataset, col: Column) -> tuple[Dataset, Column]:
    """One column of a table of samples side by side, as its own sample."""
    part = Dataset(
        name=f"{ds.name}: {col.name}",
        source=ds.source,
        kind="table",
        columns=[col],
        provenance=ds.provenance,
        metadata={_NOTED: col.name, _PART_OF: str(id(ds))},
    )
    return part, col


def noted_tables(req: AnalysisRequest, y: Column) -> list[tuple[Dataset, Column]]:
    """The unknowns whose readings the notes write out, each as a small
    table of its readings (the response's name and unit) labelled by the
    notes' name for it, so its readings are one sample."""
    out = []
    for noted in req.noted_unknowns:
        source = noted.evidence.source
        values = np.asarray(noted.values, dtype=float)
        reading = Column(
            y.name, values, Provenance(source, None, None, f"{y.name}, {noted.label}"), y.unit
        )
        label = Column(
            "sample",
            np.array([noted.label] * values.size, dtype=object),
            Provenance(source, None, None, "sample"),
        )
        table = Dataset(
            name=noted.label,
            source=source,
            kind="table",
            columns=[label, reading],
            provenance=Provenance(source),
            notes=[noted.evidence.phrase],
            metadata={_NOTED: noted.label},
        )
        out.append((table, reading))
    return out


class CalibrationKind:
    name = "calibration"

    def bind(self, ctx: BindContext) -> Sequence[Job[CalibrationBinding]]:
        req = ctx.request
        free = {id(ds) for ds in ctx.free()}
        jobs: list[Job[CalibrationBinding]] = []
        taken: set[int] = set()  # the tables read back as unknowns are no calibration
        for entry in entries_of(req, "calibration"):
            for table in bound_tables(req, ctx.read, entry):
                xy = table.xy()
                if xy is None or id(table.dataset) not in free or id(table.dataset) in taken:
                    continue
                x, y = xy
                unknowns = [] if entry.key == _ADDITION else find_unknowns(ctx, table.dataset, x, y)
                what = "standard addition" if entry.key == _ADDITION else "a calibration line"
                why = f"the notes ask for {what}; {table.reason}"
                if unknowns:
                    why += "; unknowns: " + ", ".join(f"{ds.name} ({c.name})" for ds, c in unknowns)
                notes = ctx.reading.text if ctx.reading is not None else ""
                replicated = bool(REPLICATED_IN_NOTES.search(notes))
                b = CalibrationBinding(table, x, y, tuple(unknowns), req, replicated)
                parts = {ds.metadata.get(_PART_OF) for ds, _ in unknowns}
                wholes = [d for d in ctx.read.datasets if str(id(d)) in parts]
                datasets = (table.dataset, *(ds for ds, _ in unknowns), *wholes)
                taken |= {id(ds) for ds in datasets}
                jobs.append(Job(self.name, table.dataset.source, why, b, datasets))
        return jobs

    def compute(self, job: Job[CalibrationBinding]) -> CalibrationResult | None:
        b = job.binding
        return calibrate(b.table, b.x, b.y, b.unknowns, b.request, b.replicated)

    def goals(self, job: Job[CalibrationBinding], result: CalibrationResult) -> list[str]:
        return ["calibration"]

    def uses(self, job: Job[CalibrationBinding], result: CalibrationResult) -> Uses:
        b = job.binding
        # The unknowns' responses are read back, not fitted: explanatory.
        return Uses(x=(b.x, *(c for _, c in b.unknowns)), y=(b.y,))


CALIBRATION = CalibrationKind()
