"""Choose the analyses from the column roles and the question.

One entry point, `analyse_folder(read)`, computes everything the writers
need: the question, the roles of every table's columns, the file series, and
the analyses with their results. The choice, per table:

- part of a series of same-shaped files -> analysed with the series;
- a year x month table -> melted into one monthly series -> time series;
- a time column and measurements -> time series (trend unless the notes ask
  for something else only; seasonal cycle, change point and anomalies when
  asked, or the cycle when nothing is asked and the sampling shows one);
- a category column and measurements -> groups (and a regression as well
  when the notes ask for a dependence);
- three or more measurements without a sorted one to serve as x, or the
  notes asking for a model of one of them -> multiple regression;
- a single measurement (beside counters) -> repeated measurements;
- many measurement columns and no x -> wide (all columns shown);
- a law stated in the notes whose quantities are columns of the table ->
  the law tested (transformed quantities fitted through the origin and with
  an intercept, the constant and what it implies);
- anything else -> the x-y path (fits by AICc), restricted to measurements.

`Analysis.goals` lists the goals an analysis answers, so a test can compare
what was run with what the notes asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labwright.analysis.groups import GroupResult, compare_groups, group_codes
from labwright.analysis.notes import NoteFacts, notes_text, read_facts
from labwright.analysis.question import Question, read_question
from labwright.analysis.regression import RegressionResult, pick_response, regress
from labwright.analysis.repeated import Repeated, summarise
from labwright.analysis.roles import TableRoles, infer_roles
from labwright.analysis.series_files import FileSeries, find_series
from labwright.analysis.timeseries import SeriesResult, analyse_series, cycle_visible, sampling
from labwright.analysis.wide import WIDE_MIN, MonthlyWide, WideLayout, layout, monthly_wide
from labwright.ingest.types import Column, Dataset, ReadResult

MAX_SERIES_COLUMNS = 4
MAX_GROUP_MEASUREMENTS = 6
MAX_GROUP_LEVELS = 6  # more groups than this in a time-stamped table: one series
MAX_GROUP_SERIES = 12


@dataclass
class Analysis:
    kind: str  # timeseries | groups | regression | repeated | wide | series | law | xy
    source: str
    dataset: Dataset | None
    goals: list[str]
    reason: str
    result: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class FolderAnalysis:
    question: Question
    facts: NoteFacts
    roles: dict[int, TableRoles] = field(default_factory=dict)  # id(dataset) -> roles
    analyses: list[Analysis] = field(default_factory=list)
    series: list[FileSeries] = field(default_factory=list)
    handled: set[int] = field(default_factory=set)  # id(dataset) not sent down the x-y path
    # "compare it with the product RC": the components the notes give
    # (labwright.analysis.expected.RCQuestion); the writer compares each
    # fitted time constant with the R C of its data set.
    rc: Any = None
    text: str = ""  # the notes as plain text (columns named in them come first)
    # "find the heat-loss coefficient": named coefficients, each read off a
    # straight-line fit whose units give it (labwright.analysis.coefficient).
    coefficients: list[Any] = field(default_factory=list)

    def roles_of(self, ds: Dataset) -> TableRoles | None:
        return self.roles.get(id(ds))

    def kinds(self) -> set[str]:
        return {a.kind for a in self.analyses}

    def goals_answered(self) -> set[str]:
        return {g for a in self.analyses for g in a.goals}

    def record(self) -> dict[str, Any]:
        """JSON-able summary for the provenance record: roles with reasons,
        the question with the phrases that matched, the analyses chosen."""
        tables = []
        for roles in self.roles.values():
            tables.append(
                {
                    "file": roles.dataset.source,
                    "name": roles.dataset.name,
                    "columns": [
                        {"name": c.name, "role": c.role, "reason": c.reason, "unit": c.unit}
                        for c in roles.columns
                    ],
                }
            )
        return {
            "question": dict(self.question.goals),
            "change_at": self.question.change_at,
            "response": self.question.response,
            "tables": tables,
            "analyses": [
                {"kind": a.kind, "source": a.source, "goals": a.goals, "reason": a.reason}
                for a in self.analyses
            ],
        }


@dataclass
class TimeSeriesPart:
    column: Column
    result: SeriesResult


def _sorted_measurement(roles: TableRoles) -> Column | None:
    for col in roles.measurements:
        v = np.asarray(col.values, dtype=float)
        v = v[np.isfinite(v)]
        if v.size >= 3 and np.unique(v).size >= 3:
            d = np.diff(v)
            if np.all(d >= 0) or np.all(d <= 0):
                return col
    return None


def _ts_flags(q: Question, step_years: float, span: float) -> dict[str, bool]:
    asked = {g for g in ("trend", "seasonal", "change", "outliers", "acceleration") if q.asks(g)}
    visible = cycle_visible(step_years, span)
    if not asked:  # nothing asked: what a scientist looks at first
        return {"trend": True, "seasonal": visible, "change": False, "anomalies": False,
                "acceleration": False, "segments": False}  # fmt: skip
    return {
        "trend": "trend" in asked or "change" not in asked,
        "seasonal": "seasonal" in asked and visible,
        "change": "change" in asked,
        "anomalies": "outliers" in asked,
        "acceleration": "acceleration" in asked,
        # More than one named point, or "change points"/"regimes": several levels.
        "segments": "change" in asked and (q.many_changes or len(q.change_points) >= 2),
    }


def _timeseries(
    fa: FolderAnalysis,
    ds: Dataset,
    years: np.ndarray,
    cols: list[Column],
    reason: str,
    limit: int = MAX_SERIES_COLUMNS,
    **extra: Any,
) -> Analysis | None:
    q = fa.question
    parts: list[TimeSeriesPart] = []
    t = np.asarray(years, dtype=float)
    for col in cols[:limit]:
        y = np.asarray(col.values, dtype=float)
        ok = np.isfinite(t) & np.isfinite(y)
        if ok.sum() < 8:
            continue
        n_times, step = sampling(t[ok])
        if n_times < 8:
            continue
        flags = _ts_flags(q, step, float(np.ptp(t[ok])))
        res = analyse_series(
            t, y, change_at=q.change_at,
            change_points=q.change_points if len(q.change_points) >= 2 else None, **flags,
        )  # fmt: skip
        if res is not None:
            parts.append(TimeSeriesPart(col, res))
    if not parts:
        return None
    goals = ["timeseries"]
    first = parts[0].result
    if first.trend is not None:
        goals.append("trend")
    if first.seasonal is not None:
        goals.append("seasonal")
    if first.change is not None or first.segments is not None:
        goals.append("change")
    if first.acceleration is not None:
        goals.append("acceleration")
    if q.asks("outliers") and any(p.result.trend_curve is not None for p in parts):
        goals.append("outliers")
    left = [c.name for c in cols[limit:]]
    # "Compare the growth rate of the stocks": every column's rate in one
    # table, those beyond the limit too (trend only, no figure); only the
    # columns without a trend are still left out.
    rates: list[tuple[Column, Any]] = []
    if left and first.trend is not None:
        rates = [(p.column, p.result.trend) for p in parts if p.result.trend is not None]
        for col in cols[limit:]:
            res = analyse_series(t, np.asarray(col.values, dtype=float), trend=True)
            if res is not None and res.trend is not None:
                rates.append((col, res.trend))
        done = {c.name for c, _ in rates}
        left = [n for n in left if n not in done]
    extra = {"left_out": left, "rate_unit": q.rate_unit, "rates": rates, **extra}
    return Analysis("timeseries", ds.source, ds, goals, reason, parts, extra)


def _split_by_category(
    ds: Dataset, roles: TableRoles, meas: list[Column]
) -> tuple[str, list[Column]] | None:
    """Several stations (sites, samples) in one time-stamped table: one series
    per group of the first category, for the first two measurements; mixing
    them into one series would make the trend and cycle meaningless."""
    cats = roles.of("category")
    if not cats:
        return None
    cat = cats[0]
    codes, levels = group_codes(ds.column(cat.name).values)
    if cat.levels and len(cat.levels) == len(levels):
        levels = list(cat.levels)
    if not 2 <= len(levels) <= MAX_GROUP_LEVELS:
        return None
    cols = []
    for m in meas[:2]:
        y = np.asarray(m.values, dtype=float)
        for i, level in enumerate(levels):
            values = np.where(codes == i, y, np.nan)
            cols.append(Column(f"{m.name} ({level})", values, m.provenance, m.unit))
    return cat.name, cols


def _groups(fa: FolderAnalysis, ds: Dataset, roles: TableRoles) -> Analysis | None:
    cat = roles.of("category")[0]
    codes, levels = group_codes(ds.column(cat.name).values)
    if cat.levels and len(cat.levels) == len(levels):
        levels = list(cat.levels)
    results: list[GroupResult] = []
    for col in roles.measurements[:MAX_GROUP_MEASUREMENTS]:
        r = compare_groups(np.asarray(col.values, dtype=float), codes, levels, col.name, cat.name)
        if r is not None:
            results.append(r)
    if not results:
        return None
    left = [c.name for c in roles.measurements[MAX_GROUP_MEASUREMENTS:]]
    # "The effect of the treatment on ..." is answered by the group comparison.
    goals = ["groups"] + (["dependence"] if fa.question.asks("dependence") else [])
    return Analysis(
        "groups", ds.source, ds, goals,
        f"category column {cat.name} ({cat.reason}) with measurements",
        results, {"codes": codes, "levels": levels, "category": cat.name, "left_out": left},
    )  # fmt: skip


def _panel(fa: FolderAnalysis, ds: Dataset, roles: TableRoles) -> list[Analysis] | None:
    """Panel data: each time repeated for many units of a category (firms,
    countries, stations beyond `MAX_GROUP_LEVELS`). One series of all units
    mixed would give a meaningless trend and cycle; the units are compared
    as groups instead (and the dependence, when asked, is modelled)."""
    cats = roles.of("category")
    if not cats or roles.time is None:
        return None
    _, levels = group_codes(ds.column(cats[0].name).values)
    t = np.asarray(roles.time.years, dtype=float)
    t = t[np.isfinite(t)]
    if len(levels) <= MAX_GROUP_LEVELS or np.unique(t).size > t.size / 2:
        return None
    out: list[Analysis] = []
    g = _groups(fa, ds, roles)
    if g is not None:
        g.reason += f"; {len(levels)} units observed at the same times (panel data)"
        out.append(g)
    if fa.question.asks("dependence") and len(roles.measurements) >= 2:
        r = _regression(fa, ds, roles, "the notes ask for a dependence between measurements")
        if r is not None:
            out.append(r)
    return out or None


def _names_column(hint: str | None, cols: list[Column]) -> bool:
    """Whether the response the notes name is one of `cols`."""
    if not hint:
        return False
    marker = "\x00"  # normalises to "", so it never matches; returned when nothing does
    return pick_response([marker, *(c.name for c in cols)][::-1], hint) != marker


def _named_first(cols: list[Column], text: str) -> list[Column]:
    """Columns the notes name come first, so a limit on how many are analysed
    never drops the one the question is about ("outliers in the volume",
    "the closing price" for a column `Close`)."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w.^]*|[\u4e00-\u9fff]+", text)}

    def named(c: Column) -> bool:
        n = c.name.strip().lower()
        if not n:
            return False
        if n in words or (not n.isascii() and n in text):
            return True
        stem = n[: max(4, len(n) - 1)]
        return len(n) >= 4 and any(w.startswith(stem) for w in words)

    return sorted(cols, key=lambda c: not named(c))


def _regression(fa: FolderAnalysis, ds: Dataset, roles: TableRoles, why: str) -> Analysis | None:
    cols = roles.measurements
    names = [c.name for c in cols]
    response = pick_response(names, fa.question.response)
    res: RegressionResult | None = regress({c.name: c.values for c in cols}, response)
    if res is None:
        return None
    goals = ["dependence"] + (["outliers"] if fa.question.asks("outliers") else [])
    return Analysis("regression", ds.source, ds, goals, why, res)


def _peaks(fa: FolderAnalysis, ds: Dataset, roles: TableRoles) -> Analysis | None:
    """The lines of a densely sampled curve, when the notes ask for them;
    reference values from a column named so anywhere in the folder."""
    from labwright.analysis.peaks import MIN_POINTS, REFERENCE_NAMES, find_peaks, match_references

    x = _sorted_measurement(roles)
    ys = [c for c in roles.measurements if c is not x]
    if x is None or not ys or len(x.values) < MIN_POINTS:
        return None
    res = find_peaks(np.asarray(x.values), np.asarray(ys[0].values), x.name, ys[0].name)
    if res is None or not res.peaks:
        return None
    lo, hi = float(np.nanmin(x.values)), float(np.nanmax(x.values))
    for other in fa.roles.values():
        for c in other.measurements:
            if c is x or not REFERENCE_NAMES.search(c.name):
                continue
            refs = [float(v) for v in np.asarray(c.values, dtype=float) if lo <= v <= hi]
            if refs:
                match_references(res, refs, f"{other.dataset.source}: {c.name}")
                break
        if res.reference_source:
            break
    goals = ["peaks"] + (["error"] if fa.question.asks("error") else [])
    why = f"the notes ask for peaks or lines; {x.name} is sorted and densely sampled"
    return Analysis("peaks", ds.source, ds, goals, why, res, {"x": x, "y": ys[0]})


def _table(fa: FolderAnalysis, ds: Dataset) -> list[Analysis]:
    q = fa.question
    roles = fa.roles[id(ds)]
    meas = roles.measurements
    mw: MonthlyWide | None = monthly_wide(roles)
    if mw is not None:
        col = Column(
            "value", mw.values, ds.column(mw.month_columns[0]).provenance,
            ds.column(mw.month_columns[0]).unit or fa.facts.table_unit,
        )  # fmt: skip
        a = _timeseries(
            fa, ds, mw.years, [col],
            f"a year x month table ({len(mw.month_columns)} month columns) read as one monthly series",
            wide=mw,
        )  # fmt: skip
        return [a] if a else []
    if q.laws and len(meas) >= 2 and roles.time is None:
        from labwright.analysis.law import find_law

        fit = find_law(q.laws, meas)
        if fit is not None:
            goals = ["law"] + (["dependence"] if q.asks("dependence") else [])
            why = f"the notes state the law {fit.statement.text}; its quantities are columns"
            return [Analysis("law", ds.source, ds, goals, why, fit)]
    if q.asks("peaks") and roles.time is None:
        a = _peaks(fa, ds, roles)
        if a is not None:
            return [a]
    if roles.time is not None and meas:
        panel = _panel(fa, ds, roles)
        if panel is not None:
            return panel
        wants_model = q.asks("dependence") and len(meas) >= 2
        time_goals = any(q.asks(g) for g in ("trend", "seasonal", "change", "acceleration"))
        found_ts: list[Analysis] = []
        if wants_model:
            # "A model of TOTEMP as a function of the other variables": the
            # regression the notes ask for; the series only when asked too.
            r = _regression(
                fa, ds, roles, "the notes ask for a model of one quantity on the others"
            )
            if r is not None and not time_goals:
                return [r]
            if r is not None:
                found_ts.append(r)
        meas = _named_first(meas, fa.text)
        split = _split_by_category(ds, roles, meas)
        if split is not None:
            cat, cols = split
            a = _timeseries(
                fa, ds, roles.time.years, cols,
                f"time column ({roles.time.reason}) and category {cat}: one series per group",
                limit=MAX_GROUP_SERIES,
            )  # fmt: skip
            found = [a] if a else []
            if q.asks("groups"):
                g = _groups(fa, ds, roles)
                if g:
                    found.append(g)
            return found
        a = _timeseries(fa, ds, roles.time.years, meas, f"time column ({roles.time.reason})")
        return ([a] if a else []) + found_ts
    out: list[Analysis] = []
    if roles.of("category") and meas:
        g = _groups(fa, ds, roles)
        if g:
            out.append(g)
        # Two measurements: only when the notes name the response ("does
        # survival depend on age"); "the effect of the treatment on height"
        # is the group comparison, not height regressed on leaf count.
        named = _names_column(q.response, meas)
        if q.asks("dependence") and (len(meas) >= 3 or (len(meas) == 2 and named)):
            r = _regression(fa, ds, roles, "the notes ask for a dependence between measurements")
            if r:
                out.append(r)
        return out
    x = _sorted_measurement(roles)
    wants_model = q.asks("dependence") and not q.asks("law")
    if len(meas) >= 3 and (x is None or wants_model) and len(meas) < WIDE_MIN + 2:
        why = (
            "the notes ask for a model of one quantity on the others"
            if wants_model
            else "several measurements and none sorted to serve as x"
        )
        r = _regression(fa, ds, roles, why)
        return [r] if r else []
    if len(meas) == 2 and x is None and not q.asks("law"):
        # Two measured quantities, neither sorted (households' income and
        # food spending, strikes' duration and output): one depends on the
        # other; a histogram of the first would answer nothing.
        r = _regression(
            fa, ds, roles, "two measurements, neither sorted: one regressed on the other"
        )
        if r:
            return [r]
    if len(meas) == 1:
        s: Repeated | None = summarise(meas[0].name, meas[0].values)
        if s is not None:
            goals = ["repeated"] + (["error"] if q.asks("error") else [])
            return [Analysis("repeated", ds.source, ds, goals, "one measured quantity", s)]
    if len(meas) >= WIDE_MIN and x is None:
        lay: WideLayout = layout([c.name for c in meas])
        return [Analysis("wide", ds.source, ds, ["wide"], f"{len(meas)} measurement columns", lay)]
    return []


def _series(fa: FolderAnalysis, fs: FileSeries) -> Analysis:
    from labwright.analysis.series_summary import summarise_series

    result = summarise_series(fs, fa.facts)
    # "How does the result depend on the run's parameter" is what the
    # per-file table and its summary figure answer.
    goals = ["series"] + (["dependence"] if fa.question.asks("dependence") else [])
    # The files one by one, in an appendix, only when the notes ask for it.
    appendix = fa.question.asks("appendix")
    if appendix:
        goals.append("appendix")
    return Analysis(
        "series", fs.pattern, None, goals,
        f"{len(fs.datasets)} files of the same shape named {fs.pattern}", result,
        {"appendix": appendix},
    )  # fmt: skip


_GENERATED = re.compile(r"col\d+")


def _name_headerless(read: ReadResult, text: str) -> None:
    """A table without a header row (columns col1, col2, ...) takes its
    column names and units from a description file that lists exactly as
    many attributes ("1. sepal length in cm"); the file's column stays in the
    provenance."""
    from labwright.analysis.notes import described_columns

    for ds in read.datasets:
        if ds.kind != "table" or not ds.columns:
            continue
        if not all(_GENERATED.fullmatch(c.name) for c in ds.columns):
            continue
        described = described_columns(text, len(ds.columns))
        if described is None:
            continue
        for col, d in zip(ds.columns, described, strict=True):
            col.name = d.name
            if d.unit and not col.unit:
                col.unit = d.unit


def analyse_folder(read: ReadResult) -> FolderAnalysis:
    text = notes_text(read.documents)
    _name_headerless(read, text)
    names = [c.name for ds in read.datasets for c in ds.columns]
    fa = FolderAnalysis(question=read_question(text), facts=read_facts(text, names), text=text)
    from labwright.analysis.expected import read_rc

    fa.rc = read_rc(text)
    if fa.rc is not None:
        fa.question.goals.setdefault("expected", "compare with the product RC")
    from labwright.analysis.coefficient import read_coefficients

    asked_coefficients = read_coefficients(text)
    for ds in read.datasets:
        if ds.kind == "table":
            roles = fa.roles[id(ds)] = infer_roles(ds, fa.facts)
            # A unit the notes state ("pressure in bar") is the column's unit
            # for every reader of it: tables, axis labels, fitted parameters.
            for c in roles.of("measurement"):
                col = ds.column(c.name)
                if c.unit and not col.unit:
                    col.unit = c.unit
    fa.series = find_series(read.datasets)
    in_series = {id(ds) for fs in fa.series for ds in fs.datasets}
    for fs in fa.series:
        fa.analyses.append(_series(fa, fs))
        fa.handled |= {id(ds) for ds in fs.datasets}
    for ds in read.datasets:
        if ds.kind != "table" or id(ds) in in_series:
            continue
        found = _table(fa, ds)
        if found:
            fa.analyses.extend(found)
            fa.handled.add(id(ds))
    # A map the notes ask to check for symmetry (a thermal image, a beam).
    if fa.question.asks("symmetry"):
        from labwright.analysis.symmetry import analyse_symmetry

        for ds in read.datasets:
            if ds.kind != "matrix" or ds.matrix is None or np.asarray(ds.matrix).ndim != 2:
                continue
            res = analyse_symmetry(np.asarray(ds.matrix), ds.name)
            if res is not None:
                why = "the notes ask for symmetry; a 2-D map"
                fa.analyses.append(Analysis("symmetry", ds.source, ds, ["symmetry"], why, res))
                fa.handled.add(id(ds))
    # Tables left to the x-y path (fits by AICc, measurements only) are listed
    # too, so the choice can be compared with the question.
    xy = [ds for ds in read.datasets if ds.kind == "table" and id(ds) not in fa.handled]
    # A coefficient is asked of these fits only when two of a table's
    # columns' units can give it ("the resistance" of repeated readings is
    # their mean, not a slope).
    given = {id(ds): [a for a in asked_coefficients if _gives(a, ds)] for ds in xy}
    fa.coefficients = [a for a in asked_coefficients if any(a in g for g in given.values())]
    if fa.coefficients:
        fa.question.goals.setdefault("coefficient", fa.coefficients[0].name)
    for ds in xy:
        goals = ["xy"] + (["law"] if fa.question.asks("law") else [])
        if fa.rc is not None:
            goals.append("expected")  # fitted tau against R C, in the writer
        if given[id(ds)]:
            goals.append("coefficient")  # from a fitted slope, in the writer
        fa.analyses.append(Analysis("xy", ds.source, ds, goals, "x-y measurements"))
    return fa


def _gives(ask: Any, ds: Dataset) -> bool:
    """Whether a slope between two columns of `ds` has the unit of `ask`."""
    from labwright.analysis.coefficient import answers

    units = [c.unit for c in ds.columns if c.unit]
    return any(answers(ask, x, y) for x in units for y in units if x != y)


def analysis_digest(record: dict[str, Any]) -> str:
    """The analyst's decisions as plain text for the model's material: what
    each column is (with the reason), what the notes ask, which analyses ran.
    Their numbers are in the computed values (with provenance)."""
    if not record:
        return ""
    lines = ["Column roles decided by code (do not fit against index, category or time codes):"]
    for table in record.get("tables", []):
        cols = "; ".join(
            f"{c['name']}: {c['role']}"
            + (f" [{c['unit']}]" if c.get("unit") else "")
            + f" ({c['reason']})"
            for c in table.get("columns", [])
        )
        lines.append(f"- {table['file']}: {cols}")
    asked = record.get("question") or {}
    lines.append(
        "The notes ask for: "
        + (", ".join(f'{g} ("{why}")' for g, why in asked.items()) or "nothing specific")
    )
    lines.append("Analyses run: " + "; ".join(
        f"{a['kind']} of {a['source']} ({a['reason']})" for a in record.get("analyses", [])
    ))  # fmt: skip
    return "\n".join(lines)
