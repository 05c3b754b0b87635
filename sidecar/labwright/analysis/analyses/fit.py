"""The fit kind: each catalogue law the request names, fitted to the columns
the request binds its variables to, answering the quantities asked.

A scientist who has read the notes knows the law, which column is which
variable, the constants given and what each file is; the request
(`analysis/request.py`) holds exactly that, so this kind only looks it up:

- the law: `NamedModel.key` (a named law, or a written formula the request
  rules matched to an entry with `catalogue/match.py`), and the model of
  every binding; entries answered by a procedure (titration, calibration)
  are left to it;
- the data: `request.bindings` of that law, grouped by file and sheet, one
  fit per table that binds the response and every independent variable;
- the inputs: `request.constants` whose symbol is one of the entry's inputs
  (by name or one of its symbols), with their uncertainty and unit;
- the files: a background file's mean response is subtracted, repeat scans
  of the same x are averaged with their spread as sigma, replicate columns
  of the response (v1, v2, v3) are fitted together or averaged as
  `request.replicates` says (together when the notes say nothing: every
  reading is a point, and the residual scatter sets the SE).

The fit itself is the one engine (`analysis/engine.py`). `answers()` gives
every parameter and derived quantity the fit computed; those the notes ask
carry `asked=True`, the others are the customary companions. An asked
quantity the fit could not give (an input missing, a fit that failed) is an
`Unanswered` with the engine's reason. Registered first in `KINDS`, so a
table a law was fitted to is not refitted by the shape-based kinds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from typing import Any

import numpy as np

from labwright.analysis.analyses.peak_answers import peak_quantities
from labwright.analysis.catalogue.custom import KEY as CUSTOM_KEY
from labwright.analysis.catalogue.custom import (
    CustomEntry,
    custom_entry,
    symbol_latex,
    with_starts,
)
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.engine import FitData, FitResult, fit
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.numbered_columns import spec_of
from labwright.analysis.procedures.common import expected, figure_line
from labwright.analysis.quantities import factor, is_offset_scale
from labwright.analysis.replicates import replicate_stems
from labwright.analysis.request import AnalysisRequest, Binding, Unanswered
from labwright.analysis.request_rules.columns import set_point_of
from labwright.analysis.results import Answer, Comparison, FitQuality, fit_quality
from labwright.analysis.scatter import relative_scatter
from labwright.analysis.stacked_runs import is_stacked
from labwright.analysis.subsets import groups_of
from labwright.analysis.transient import before_start, transient_time
from labwright.ingest.types import Column, Dataset, Provenance, ReadResult

#: Procedures whose entries this kind fits (None: a plain law; "peaks": a
#: composite entry, several peaks on a baseline, which the engine fits with
#: lmfit's peak models, `engine_peaks.py`).
_PLAIN = (None, "fit", "peaks")
#: Fewer repeat scans than this are averaged without their spread as the
#: weights: the SD of three values is itself uncertain by half, and weights
#: that noisy biased a three-peak fit by up to 15 SE. The mean is fitted and
#: the residual scatter sets the SE instead.
MIN_SCANS_FOR_WEIGHTS = 5
MIN_POINTS = 3


@dataclass(frozen=True)
class Prepared:
    """The arrays one fit runs on, after the file roles were applied."""

    variables: dict[str, np.ndarray]  # symbol -> values (response included)
    sigma: np.ndarray | None
    notes: tuple[Text, ...]  # what was done to the data (background, averaging), EN/ZH


@dataclass(frozen=True)
class FitBinding:
    """One law bound to one table: the columns of its variables, the inputs
    the notes give, and the data prepared from them."""

    entry: ModelEntry
    dataset: Dataset
    columns: dict[str, Column]  # variable symbol -> column
    units: dict[str, str | None]  # variable symbol -> the unit the column is in
    inputs: dict[str, Any]  # input name -> float or UFloat
    input_units: dict[str, str | None]
    prepared: Prepared
    bindings: tuple[Binding, ...]  # the request's bindings used (their reasons)
    request: AnalysisRequest
    extra: tuple[Dataset, ...] = ()  # background or repeat files used
    notes_text: str = ""  # the notes, for the condition of a catalogue reference
    per: dict[str, int] = field(default_factory=dict)  # variable -> periods its column spans

    @property
    def response(self) -> Column:
        return self.columns[self.entry.response.name]

    @property
    def independents(self) -> list[Column]:
        return [self.columns[v.name] for v in self.entry.independents]


@dataclass
class FitOutcome:
    """A law fitted to a table: the engine's result with what it was fitted from."""

    binding: FitBinding
    result: FitResult
    data: FitData  # what the engine was given (the rows kept)
    quality: FitQuality | None = None
    # The relative scatter the fit was weighted by, when it grows with the
    # value (`scatter.py`); None for a fit unweighted or weighted as stated.
    relative: float | None = None
    _answers: list[Answer] = field(default_factory=list)

    @property
    def entry(self) -> ModelEntry:
        return self.binding.entry

    @property
    def ok(self) -> bool:
        return self.result.ok

    def answers(self) -> list[Answer]:
        if not self.result.ok:
            return []
        if not self._answers:
            self._answers = list(_answers(self))
        return self._answers

    def unanswered(self) -> list[Unanswered]:
        """The asked quantities of this law that the fit did not give."""
        out = []
        entry, res = self.entry, self.result
        for q in self.binding.request.asked:
            if q.model not in (entry.key, None) or q.quantity not in _quantities(entry):
                continue
            if res.ok and q.quantity in res.values:
                continue
            reason = res.skipped.get(q.quantity) if res.ok else res.message
            why = (
                reason.en
                if reason
                else f"the fit of the {entry.name.en} did not give it; check the bound columns."
            )
            out.append(Unanswered(what=f"{_label(entry, q.quantity).en} ({q.quantity})", why=why,
                                  model=entry.key))  # fmt: skip
        return out


# --- binding ---------------------------------------------------------------------------


def _quantities(entry: ModelEntry) -> set[str]:
    return {p.name for p in entry.parameters} | {d.key for d in entry.derived}


def _dataset(read: ReadResult, file: str, sheet: str | None) -> Dataset | None:
    for ds in read.datasets:
        ds_sheet = ds.provenance.sheet if ds.provenance else None
        if ds.source == file and (sheet is None or ds_sheet == sheet):
            return ds
    return None


def _entries(request: AnalysisRequest) -> list[ModelEntry]:
    """The catalogue entries the request names, in the request's order."""
    keys = [m.key for m in request.models if m.key]
    keys += [b.model for b in request.bindings]
    keys += [q.model for q in request.asked if q.model]
    by_key = {e.key: e for e in catalogue()}
    out = []
    for key in dict.fromkeys(keys):
        entry = by_key.get(key)
        if entry is not None and entry.procedure in _PLAIN:
            # An input the request binds to a column is read per row.
            bound = {b.variable for b in request.bindings if b.model == key}
            out.append(entry.with_inputs_as_variables(bound))
    custom = _custom(request)
    return out + ([custom.entry] if custom is not None else [])


def _custom(request: AnalysisRequest) -> CustomEntry | None:
    """The formula the notes write that no catalogue law is, as an entry
    over the symbols the request bound to columns: "fitted as written" is
    what the request says of it, so it is fitted like any law."""
    own = [b for b in request.bindings if b.model == CUSTOM_KEY]
    bound = list(dict.fromkeys(b.variable for b in own))
    units = {b.variable: b.unit for b in own}
    for m in request.models:
        if m.key is None and m.formula:
            found = custom_entry(
                m.formula, bound, {c.symbol: c.unit for c in request.constants}, units
            )
            if found is not None:
                return found
    return None


def _inputs(
    request: AnalysisRequest, entry: ModelEntry
) -> tuple[dict[str, Any], dict[str, str | None]]:
    """The notes' constants that are the entry's inputs (by name or symbol)."""
    from uncertainties import ufloat

    values: dict[str, Any] = {}
    units: dict[str, str | None] = {}
    for inp in entry.inputs:
        names = {inp.name, *inp.symbols}
        given = next((c for c in request.constants if c.symbol in names), None)
        if given is None:
            continue
        values[inp.name] = (
            ufloat(given.value, given.uncertainty) if given.uncertainty else given.value
        )
        units[inp.name] = given.unit
    return values, units


def _role_tables(ctx: BindContext, role: str, exclude: Dataset) -> list[Dataset]:
    out = []
    for fr in ctx.request.files:
        if fr.role != role:
            continue
        ds = _dataset(ctx.read, fr.file, fr.sheet)
        if ds is not None and ds is not exclude:
            out.append(ds)
    return out


def _same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def replicate_columns(ds: Dataset, col: Column) -> list[Column]:
    """The response's replicate columns: the numbered siblings of a numbered
    column (v1 -> v1, v2, v3), in the table's order; just the column else."""
    stems = replicate_stems([c.name for c in ds.columns if c.is_numeric])
    stem = stems.get(col.name)
    if stem is None:
        return [col]
    return [
        c
        for c in ds.columns
        if c.is_numeric and stems.get(c.name, "").casefold() == stem.casefold()
    ]


def _floats(col: Column) -> np.ndarray:
    return np.asarray(col.values, dtype=float)


def matching_column(ds: Dataset, col: Column) -> Column | None:
    """The column of `ds` that holds the same quantity as `col` (same name,
    else the last numeric one: a background file's counts)."""
    numeric = [c for c in ds.columns if c.is_numeric]
    named = next((c for c in numeric if _same_name(c.name, col.name)), None)
    return named or (numeric[-1] if numeric else None)


def prepare(
    ctx: BindContext,
    entry: ModelEntry,
    ds: Dataset,
    columns: dict[str, Column],
    repeats: Sequence[Dataset] | None = None,
    per: Mapping[str, int] | None = None,
) -> tuple[Prepared, tuple[Dataset, ...]]:
    """The arrays of one fit, with the file roles of the request applied.
    `repeats`: the other scans of the same measurement (a file pattern's
    members); None: the folder's files the request calls repeats. `per`:
    variables whose column holds the time of several periods ("10T"), by
    that count: the variable is the column divided by it."""
    prepared, extra = _prepare(ctx, entry, ds, columns, repeats)
    prepared = _from_the_start(entry, columns, prepared)
    spans = {k: n for k, n in (per or {}).items() if n > 1 and k in prepared.variables}
    if not spans:
        return prepared, extra
    variables = dict(prepared.variables)
    sigma = prepared.sigma
    notes = list(prepared.notes)
    for name, n in spans.items():
        variables[name] = variables[name] / n
        if name == entry.response.name and sigma is not None:
            sigma = sigma / n
        col = columns[name].name
        notes.append(Text(f"{col} is the time of {n} periods, divided by {n}",
                          f"{col} 为 {n} 个周期的时间，已除以 {n}"))  # fmt: skip
    return Prepared(variables, sigma, tuple(notes)), extra


def _from_the_start(
    entry: ModelEntry, columns: Mapping[str, Column], prepared: Prepared
) -> Prepared:
    """A law that starts at t = 0 fitted from t = 0 on: the samples before
    (an oscilloscope's pre-trigger part) are left out (`transient.py`)."""
    t = transient_time(entry)
    if t is None or t not in prepared.variables:
        return prepared
    y = prepared.variables[entry.response.name]
    times = prepared.variables[t]
    if times.shape != y.shape:
        return prepared
    early = before_start(times, MIN_POINTS)
    if early is None:
        return prepared
    variables = dict(prepared.variables)
    variables[entry.response.name] = np.where(early, np.nan, y)
    n, col = int(early.sum()), columns[t].name
    note = Text(f"the {n} samples before {col} = 0 (before the start) left out",
                f"{col} = 0 之前的 {n} 个采样点（开始之前）不参与拟合")  # fmt: skip
    return Prepared(variables, prepared.sigma, (*prepared.notes, note))


def _prepare(
    ctx: BindContext,
    entry: ModelEntry,
    ds: Dataset,
    columns: dict[str, Column],
    repeats: Sequence[Dataset] | None,
) -> tuple[Prepared, tuple[Dataset, ...]]:
    req = ctx.request
    yname = entry.response.name
    ycol = columns[yname]
    xs = {v.name: _floats(columns[v.name]) for v in entry.independents}
    notes: list[Text] = []
    extra: list[Dataset] = []
    sigma: np.ndarray | None = None

    reps = replicate_columns(ds, ycol)
    if len(reps) > 1:
        stack = np.column_stack([_floats(c) for c in reps])
        names = ", ".join(c.name for c in reps)
        if req.replicates == "average":
            counts = np.sum(np.isfinite(stack), axis=1)
            with np.errstate(all="ignore"):
                y = np.nanmean(stack, axis=1)
                sd = np.nanstd(stack, axis=1, ddof=1)
                sigma = np.where(counts >= 2, sd / np.sqrt(counts), np.nan)
            if not np.all(np.isfinite(sigma) & (sigma > 0)):
                sigma = None
            notes.append(Text(f"the replicate columns {names} averaged, their spread as the SE",
                              f"重复列 {names} 取平均，以其离散作为标准误差"))  # fmt: skip
        else:
            k = len(reps)
            y = stack.T.reshape(-1)
            xs = {s: np.tile(v, k) for s, v in xs.items()}
            notes.append(Text(f"every reading of the replicate columns {names} fitted as a point",
                              f"重复列 {names} 的每个读数都作为一个数据点拟合"))  # fmt: skip
    else:
        y = _floats(ycol)

    if repeats is None:
        repeats = _role_tables(ctx, "repeat", ds)
    if repeats and len(reps) == 1:
        scans = [y]
        for other in repeats:
            col = matching_column(other, ycol)
            if col is not None and len(col.values) == y.size:
                scans.append(_floats(col))
                extra.append(other)
        if len(scans) > 1:
            stack = np.column_stack(scans)
            y = np.mean(stack, axis=1)
            sd = np.std(stack, axis=1, ddof=1) / math.sqrt(len(scans))
            weighted = len(scans) >= MIN_SCANS_FOR_WEIGHTS and np.all(np.isfinite(sd) & (sd > 0))
            sigma = sd if weighted else None
            if weighted:
                notes.append(Text(f"{len(scans)} repeat scans averaged point by point, their "
                                  "spread as the SE",
                                  f"{len(scans)} 次重复扫描逐点平均，以其离散作为标准误差"))  # fmt: skip
            else:
                notes.append(Text(f"{len(scans)} repeat scans averaged point by point (too few "
                                  "for their spread to weight the points)",
                                  f"{len(scans)} 次重复扫描逐点平均（次数太少，不以其离散加权）"))  # fmt: skip

    for bg in _role_tables(ctx, "background", ds):
        col = matching_column(bg, ycol)
        if col is None:
            continue
        level = _floats(col)
        level = level[np.isfinite(level)]
        if level.size == 0:
            continue
        y = y - float(np.mean(level))
        extra.append(bg)
        notes.append(Text(f"the mean of {col.name} in {bg.source} subtracted as the background",
                          f"扣除 {bg.source} 中 {col.name} 的平均值作为本底"))  # fmt: skip
        break

    return Prepared({**xs, yname: y}, sigma, tuple(notes)), tuple(extra)


def _members(ctx: BindContext, pattern: str, sheet: str | None) -> list[Dataset] | None:
    """The tables a binding's file pattern (`scan*.csv`) stands for, when
    they are repeats of one measurement; None when the pattern is a run
    series or anything else. A pattern binds repeats only (the notes call
    them repeats or scans, or the varying part of the names is a repeat
    index): runs at different set-points (`runs/decay_T#K.csv`) are the run
    series' input, a law across the files, and fitted one by one they would
    answer each run's parameters instead of the question."""
    found = [
        ds
        for ds in ctx.read.datasets
        if fnmatchcase(ds.source, pattern)
        and (sheet is None or (ds.provenance.sheet if ds.provenance else None) == sheet)
    ]
    roles = [ctx.request.role_of(ds.source) for ds in found]
    if len(found) < 2 or any(r is None or r.role != "repeat" for r in roles):
        return None
    return sorted(found, key=lambda d: d.source)


def _bind_entry(ctx: BindContext, entry: ModelEntry) -> list[FitBinding]:
    req = ctx.request
    groups: dict[tuple[str, str | None, str], list[Binding]] = {}
    for b in req.bindings:
        if b.model == entry.key and b.source == "column":
            # A saved figure's lines (line1.x/.y, line2.x/.y) are fitted one by one.
            groups.setdefault((b.file, b.sheet, figure_line(b.column)), []).append(b)
    out = []
    free = {id(ds) for ds in ctx.free()}
    for (file, sheet, _), bs in groups.items():
        repeats: list[Dataset] | None = None
        # A table of that name first: the runs stacked into one
        # ("rates_I*uM.csv, all runs") have a pattern in their name.
        found = _dataset(ctx.read, file, sheet)
        if found is not None:
            ds = found
        elif any(ch in file for ch in "*?["):
            members = _members(ctx, file, sheet)
            if members is None:
                continue
            ds, repeats = members[0], members[1:]
        else:
            continue
        if id(ds) not in free:
            continue
        # The notes may ask the law fitted group by group: one binding per
        # group's rows, and the whole table is theirs (never fitted pooled).
        parts = _groups(req, ds, file, sheet)
        for part in parts or [ds]:
            binding = _bind_table(ctx, entry, part, bs, repeats)
            if binding is not None:
                if parts:
                    binding = replace(binding, extra=(*binding.extra, ds))
                out.append(binding)
    return out


def _groups(req: AnalysisRequest, ds: Dataset, file: str, sheet: str | None) -> list[Dataset]:
    """The tables of `ds`'s groups when the notes ask for one fit per group."""
    for s in req.separately:
        if s.file == file and s.sheet == sheet and (parts := groups_of(ds, s.column)):
            return parts
    return []


def _bind_table(
    ctx: BindContext,
    entry: ModelEntry,
    ds: Dataset,
    bs: list[Binding],
    repeats: list[Dataset] | None,
) -> FitBinding | None:
    req = ctx.request
    wanted = {v.name for v in entry.variables}
    columns: dict[str, Column] = {}
    units: dict[str, str | None] = {}
    per: dict[str, int] = {}
    used: list[Binding] = []
    for b in bs:
        col = next((c for c in ds.columns if c.name == b.column and c.is_numeric), None)
        if col is None or b.variable not in wanted or b.variable in columns:
            continue
        columns[b.variable] = col
        if b.per > 1:
            per[b.variable] = b.per
        units[b.variable] = b.unit if b.unit is not None else col.unit
        used.append(b)
    if entry.key == CUSTOM_KEY and (custom := _custom(req)) is not None and custom.pure_numbers:
        # No units balance the written formula (ln c of a concentration):
        # the notes mean the numbers in the columns' units.
        units = dict.fromkeys(units)
    if set(columns) != wanted:
        return None
    law = _fitted_way_round(ctx, entry, ds, columns)
    prepared, extra = prepare(ctx, law, ds, columns, repeats, per)
    if is_stacked(ds):
        # The run files the stacked table is made of are this fit's too.
        extra = (*extra, *(d for d in ctx.read.datasets if d.source in run_files(ctx)))
    extra = (*extra, *read_long_from(ctx, ds))
    inputs, input_units = _inputs(req, entry)
    notes = ctx.reading.text if ctx.reading is not None else ""
    return FitBinding(law, ds, columns, units, inputs, input_units, prepared,
                      tuple(used), req, extra, notes, per)  # fmt: skip


def _fitted_way_round(
    ctx: BindContext, entry: ModelEntry, ds: Dataset, columns: Mapping[str, Column]
) -> ModelEntry:
    """The law as fitted: its inverse when the experimenter set the column
    of its response (a voltage stepped through 0, 0.5 ... 5 V for "U = R I"),
    so that the quantity read, with its scatter, is the fitted response."""
    if entry.inverse is None:
        return entry
    notes = ctx.reading.text if ctx.reading is not None else ""
    if set_point_of(ds, columns[entry.response.name].name, notes) is None:
        return entry
    return entry.inverted()


def read_long_from(ctx: BindContext, ds: Dataset) -> list[Dataset]:
    """The table a long table (`numbered_columns.py`) was read from: this
    fit's too, so it is not fitted again as plain x-y columns."""
    spec = spec_of(ctx.request.numbered, ds)
    found = _dataset(ctx.read, spec.file, spec.sheet) if spec is not None else None
    return [found] if found is not None else []


def run_files(ctx: BindContext) -> set[str]:
    return {f.file for f in ctx.request.files if f.role == "run"}


def _reason(b: FitBinding) -> str:
    named = next((m for m in b.request.models if m.key == b.entry.key), None)
    why = (
        named.evidence.reason if named else f"the notes ask for a quantity of the {b.entry.name.en}"
    )
    cols = "; ".join(f"{x.variable} = {x.column} ({x.evidence.reason})" for x in b.bindings)
    return f"{why}; {cols}" if cols else why


class FitKind:
    name = "fit"

    def bind(self, ctx: BindContext) -> Sequence[Job[FitBinding]]:
        jobs: list[Job[FitBinding]] = []
        for entry in _entries(ctx.request):
            for b in _bind_entry(ctx, entry):
                jobs.append(Job(self.name, b.dataset.source, _reason(b), b, (b.dataset, *b.extra)))
        return jobs

    def compute(self, job: Job[FitBinding]) -> FitOutcome | None:
        b = job.binding
        p = b.prepared
        keep = np.ones(p.variables[b.entry.response.name].shape, dtype=bool)
        for values in p.variables.values():
            keep &= np.isfinite(values)
        if p.sigma is not None:
            keep &= np.isfinite(p.sigma)
        if int(keep.sum()) < MIN_POINTS:
            return None
        data = FitData(
            variables={s: v[keep] for s, v in p.variables.items()},
            units=b.units,
            inputs=b.inputs,
            input_units=b.input_units,
            sigma=None if p.sigma is None else p.sigma[keep],
            # The notes' peak count and baseline, for a composite law only.
            peaks=b.request.peaks if b.entry.composite is not None else None,
            baseline=b.request.baseline if b.entry.composite is not None else None,
        )
        entry = b.entry
        if entry.key == CUSTOM_KEY:
            entry = _started(entry, data)
        result = fit(entry, data)
        if not result.ok:
            return FitOutcome(b, result, data)
        quality = _quality(result, data.sigma if result.weighted else None)
        relative = None
        if (
            data.sigma is None
            and entry.composite is None
            and not is_offset_scale(b.units.get(entry.response.name))
        ):
            # The scatter grows with the value (a meter's % of reading, a
            # current over decades): refitted with relative weights.
            used = result.used if result.used.shape == result.fitted.shape else slice(None)
            relative = relative_scatter(
                result.fitted[used], result.residuals[used], len(result.parameters),
                runs_p=quality.runs_p,
            )  # fmt: skip
            if relative is not None:
                result, data, relative = _reweighted(entry, data, result)
                # Weights from the scatter itself leave no χ² to test.
                quality = _quality(result, None)
        return FitOutcome(b, result, data, quality=quality, relative=relative)

    def goals(self, job: Job[FitBinding], result: FitOutcome) -> list[str]:
        return ["law"] if result.ok else []

    def uses(self, job: Job[FitBinding], result: FitOutcome) -> Uses:
        b = job.binding
        return Uses(x=tuple(b.independents), y=tuple(replicate_columns(b.dataset, b.response)))


FIT = FitKind()


def _quality(result: FitResult, sigma: Any) -> FitQuality:
    return fit_quality(
        result.residuals, len(result.parameters), sigma=sigma,
        r2=result.r2 if math.isfinite(result.r2) else None,
    )  # fmt: skip


#: Refits with relative weights: the weights follow the fitted values and
#: the relative scatter is re-estimated from each refit's residuals (the
#: first, unweighted fit overstates it where the largest values ruled).
REWEIGHTINGS = 3


def _reweighted(
    entry: ModelEntry, data: FitData, first: FitResult
) -> tuple[FitResult, FitData, float | None]:
    """The fit weighted by a relative scatter (iteratively reweighted least
    squares); the unweighted fit when a refit fails."""
    result, weighted = first, data
    k = len(first.parameters)
    for _ in range(REWEIGHTINGS):
        size = np.abs(result.fitted)
        relative = float(np.sqrt(np.nansum((result.residuals / size) ** 2) / (result.n - k)))
        weighted = replace(data, sigma=relative * size)
        refit = fit(entry, weighted)
        if not refit.ok:
            return first, data, None
        result = refit
    return result, weighted, relative


def _started(entry: ModelEntry, data: FitData) -> ModelEntry:
    """A written formula with start values searched on these data, in the
    SI base units the engine evaluates start rules in."""
    from labwright.analysis import engine

    prep = engine._prepare(entry, data)
    if isinstance(prep, FitResult):
        return entry
    y = prep.y * prep.plan.variables[entry.response.name].factor
    inputs = {name: engine._nominal(v) for name, v in prep.inputs_base.items()}
    return with_starts(entry, prep.x_base, y, inputs)


# --- answers ---------------------------------------------------------------------------


def _label(entry: ModelEntry, quantity: str) -> Text:
    for p in entry.parameters:
        if p.name == quantity:
            return p.label
    for d in entry.derived:
        if d.key == quantity:
            return d.label
    return Text(quantity, quantity)


def _latex(entry: ModelEntry, quantity: str) -> str:
    for p in entry.parameters:
        if p.name == quantity:
            return p.latex
    for d in entry.derived:
        if d.key == quantity:
            return d.latex
    return quantity


def _reference(entry: ModelEntry, quantity: str, unit: str | None, notes: str) -> Comparison | None:
    """The catalogue's textbook value of the quantity, in the answer's unit;
    one made under a condition (a nuclide, a solvent) only when the notes
    name that condition: Ba-137m's half-life is no yardstick for In-116m."""
    for ref in entry.references:
        if ref.quantity != quantity:
            continue
        if ref.condition and ref.condition.casefold() not in notes.casefold():
            continue
        f = 1.0 if not (unit and ref.unit) else factor(ref.unit, unit)
        if f is None:
            continue
        unc = None if ref.uncertainty is None else ref.uncertainty * f
        return Comparison(ref.value * f, unc, unit, ref.source, source_zh=ref.source_zh)
    return None


def method_text(outcome: FitOutcome) -> Text:
    """One line: what was fitted to what, and where the SE comes from (no
    number at all: the table prints it as fixed words, so neither a computed
    value nor the formula's 2 of 2*pi, which the ledger cannot source)."""
    b, res = outcome.binding, outcome.result
    e = b.entry
    y = b.response.name
    x = ", ".join(c.name for c in b.independents)
    se = (
        Text(
            "weighted by a relative uncertainty estimated from the scatter, which grows with "
            "the value",
            "残差随数值增大，按由残差估计的相对不确定度加权",
        )
        if outcome.relative is not None
        else Text("weighted by the stated uncertainties", "按给定不确定度加权")
        if res.weighted
        else Text(
            "SE from the covariance scaled by the residual scatter",
            "标准误差由按残差离散缩放的协方差矩阵给出",
        )  # fmt: skip
    )
    return Text(
        f"least-squares fit of the {e.name.en} to {y} against {x}; {se.en}",
        f"{e.name.zh}对 {y}–{x} 的最小二乘拟合；{se.zh}",
    )


def _answers(outcome: FitOutcome) -> list[Answer]:
    b, res = outcome.binding, outcome.result
    e, req = b.entry, b.request
    asked = {q.quantity for q in req.asked if q.model in (e.key, None)}
    sources: tuple[Provenance, ...] = tuple(
        c.provenance for c in (*b.independents, *replicate_columns(b.dataset, b.response))
    )
    total = b.dataset.n_rows
    rows = f"all {res.n}" if res.n == total else f"{res.n} points from {total} rows"
    how = method_text(outcome)
    line = _line_values(outcome)
    # (key, label, LaTeX, the entry's quantity it answers): a composite fit
    # answers peak by peak (several centres for one asked "centre").
    items: list[tuple[str, Text, str, str | None]]
    if res.peaks:
        items = [(q.key, q.label, q.latex, q.asked_as) for q in peak_quantities(e, res)]
    else:
        order = [p.name for p in e.parameters] + [d.key for d in e.derived]
        items = [(q, _label(e, q), _latex(e, q), q) for q in order]
    written, names = notes_symbols(req, e.key)
    out = []
    for q, label, latex, asked_as in items:
        if q not in res.values:
            continue
        symbol = written.get(q)
        if symbol is not None:
            latex = symbol_latex(symbol)
        if q in names:
            label = Text(names[q], names[q])
        value, se = res.value(q), res.se(q)
        if q in line:
            value, se = line[q]
        if not math.isfinite(value):
            continue
        unit = res.units.get(q)
        if e.key == CUSTOM_KEY and q in names:
            value, se, unit = _in_named_unit(names[q], value, se, unit)
        comp = expected(req, q, unit) or _reference(e, q, unit, b.notes_text)
        out.append(Answer(
            q, label, latex, value, se if math.isfinite(se) else None, unit,
            _LINE_METHOD if q in line else how,
            e.key, asked_as in asked, comp, sources, rows, outcome.quality,
            asked_as if asked_as != q else None, symbol,
        ))  # fmt: skip
    return out


def _in_named_unit(
    name: str, value: float, se: float, unit: str | None
) -> tuple[float, float, str | None]:
    """A written formula's parameter in the unit of the catalogue quantity the
    notes call it by: "the spring constant k" of T^2 = (4π²/k)(m + m_eff)
    comes out of the dimensional analysis in kg/s², which is N/m, the unit a
    spring constant is given in. Unchanged when no quantity of the catalogue
    has that name in a fixed unit of the same dimension."""
    wanted = name.strip().casefold()
    for entry in catalogue():
        for label, target in [
            *((p.label, p.display_unit or p.unit) for p in entry.parameters),
            *((d.label, d.unit) for d in entry.derived),
        ]:
            if not target or "{" in target or wanted not in (label.en.casefold(), label.zh):
                continue
            k = factor(unit, target) if unit else None
            if k is not None:
                return value * k, se * k, target
    return value, se, unit


def notes_symbols(req: AnalysisRequest, key: str) -> tuple[dict[str, str], dict[str, str]]:
    """The notes' own symbols for the law's parameters (A_inf -> hmax) and
    their own words for the asked ones ("asymptotic height"): the report
    names an answer as the reader asked for it. The words are the notes' in
    their language, so one text serves both."""
    written: dict[str, str] = {}
    for m in req.models:
        if m.key == key:
            written.update(dict(m.symbols))
    names = {q.quantity: q.name for q in req.asked if q.model == key and q.name is not None}
    return written, names


#: No number in it: the plot's own name ("ln p–1/T") carries a digit the
#: ledger cannot source.
_LINE_METHOD = Text(
    "ordinary least squares of the linearised plot the notes ask for (from its slope and "
    "intercept)",
    "按笔记要求的线性化作图作普通最小二乘直线拟合（由斜率和截距得出）",
)


def _line_values(outcome: FitOutcome) -> dict[str, tuple[float, float]]:
    """The parameters off the straight line, when the notes ask for the
    law's linearised method (`analysis/linearised.py`); {} otherwise."""
    from labwright.analysis.engine import linear
    from labwright.analysis.linearised import asks_linearised

    e = outcome.entry
    if not asks_linearised(e, outcome.binding.notes_text):
        return {}
    line = linear(e, outcome.data, outcome.result)
    if not line.ok:
        return {}
    out: dict[str, tuple[float, float]] = {}
    for name in line.values:
        value, se = line.value(name), line.se(name)
        if (
            math.isfinite(value)
            and math.isfinite(se)
            and line.units.get(name) == outcome.result.units.get(name)
        ):
            out[name] = (value, se)
    return out
