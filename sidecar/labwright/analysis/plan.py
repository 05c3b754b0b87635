"""The analyst's entry point: read the folder's notes and columns, bind the
request to data through the table of kinds, and keep what was computed.

`analyse_folder(read)` is the one call the writers need. It reads the notes
(goals, units, labels, R C components, named coefficients), every table's
column roles and shape, and the series of same-shaped files
(`analysis/reading.py`); then every kind of `analysis/kinds.py` binds in
order and computes its typed results; the answers the results give and the
requests no result could answer are collected for the report's results
table and the provenance record.

`Analysis.goals` lists the goals an analysis answers, so a test can compare
what was run with what the notes asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.coefficient import CoefficientAsk
from labwright.analysis.defined import defined_answers, defined_from_answers
from labwright.analysis.expected import RCQuestion
from labwright.analysis.jobs import Analysis, BindContext
from labwright.analysis.notes import NoteFacts
from labwright.analysis.question import Question
from labwright.analysis.reading import Reading, read_notes_and_roles
from labwright.analysis.references import with_free_references, with_rc_expected
from labwright.analysis.request import AnalysisRequest, Unanswered
from labwright.analysis.results import Answer, AnswerSheet
from labwright.analysis.roles import TableRoles
from labwright.analysis.series_files import FileSeries
from labwright.analysis.series_summary import SeriesSummary
from labwright.ingest.types import Dataset, ReadResult

__all__ = ["Analysis", "FolderAnalysis", "analyse_folder", "analysis_digest"]


@dataclass
class FolderAnalysis:
    reading: Reading
    request: AnalysisRequest = field(default_factory=lambda: AnalysisRequest.model_validate({}))
    analyses: list[Analysis[Any, Any]] = field(default_factory=list)
    sheet: AnswerSheet = field(default_factory=AnswerSheet)
    # id(dataset) the kinds answered (not sent down the x-y path).
    handled: set[int] = field(default_factory=set)
    # Coefficients the notes name that some x-y table's units can give.
    coefficients: list[CoefficientAsk] = field(default_factory=list)

    @property
    def question(self) -> Question:
        return self.reading.question

    @property
    def facts(self) -> NoteFacts:
        return self.reading.facts

    @property
    def text(self) -> str:
        return self.reading.text

    @property
    def roles(self) -> dict[int, TableRoles]:
        return self.reading.roles

    @property
    def series(self) -> list[FileSeries]:
        return self.reading.series

    @property
    def rc(self) -> RCQuestion | None:
        return self.reading.rc

    def roles_of(self, ds: Dataset) -> TableRoles | None:
        return self.reading.roles_of(ds)

    def kinds(self) -> set[str]:
        return {a.kind for a in self.analyses}

    def goals_answered(self) -> set[str]:
        return {g for a in self.analyses for g in a.goals}

    def record(self) -> dict[str, Any]:
        """JSON-able summary for the provenance record: roles with reasons,
        the question with the phrases that matched, the analyses chosen, the
        request with every binding's reason, the answers and what could not
        be answered."""
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
                {
                    "kind": a.kind,
                    "source": a.source,
                    "goals": a.goals,
                    "reason": a.reason,
                    "columns": a.uses.record(),
                }
                for a in self.analyses
            ],
            "request": self.request.record(),
            **self.sheet.record(),
        }


def analyse_folder(read: ReadResult, request: AnalysisRequest | None = None) -> FolderAnalysis:
    """Read, bind, compute. `request` is what the notes ask, already read
    (by rules, or by a model through the typed tool and validated); without
    it the request is empty and the shape-based kinds answer the goals the
    notes' phrases ask."""
    from labwright.analysis.kinds import run_kinds

    if request is not None and request.derived:
        # The columns the notes define ("F = m g") join their tables in place:
        # the report's tables, figures and exported script read them too.
        from labwright.analysis.derived_columns import apply

        read.datasets[:] = apply(read, request.derived).datasets
    if request is not None and request.numbered:
        # "L1, L2" read as L at n = 1, 2: the long table joins the folder's
        # (analysis/numbered_columns.py).
        from labwright.analysis.numbered_columns import with_long_tables

        read.datasets.extend(with_long_tables(read.datasets, request.numbered))
    if request is not None:
        # A law fitted over all runs at once reads the runs stacked, with the
        # file names' value as a column (analysis/stacked_runs.py).
        from labwright.analysis.stacked_runs import stack_runs

        stacked = stack_runs(read.datasets, request.files)
        if stacked is not None and any(b.file == stacked.source for b in request.bindings):
            read.datasets.append(stacked)
    reading = read_notes_and_roles(read)
    fa = FolderAnalysis(reading=reading)
    if request is not None:
        fa.request = request
    ctx = BindContext(request=fa.request, read=read, reading=reading)
    fa.analyses = run_kinds(ctx)
    fa.handled = {id(ds) for a in fa.analyses if a.kind != "xy" for ds in a.job.datasets}
    fa.coefficients = [
        ask
        for ask in reading.coefficient_asks
        if any(ask in a.result.coefficients for a in fa.analyses if a.kind == "xy")
    ]
    if fa.coefficients:
        fa.question.goals.setdefault("coefficient", fa.coefficients[0].name)
    answers = [answer for a in fa.analyses for answer in a.answers()]
    answers += defined_answers([a.result for a in fa.analyses if a.kind == "fit"], fa.request)
    answers += defined_from_answers(answers, fa.request)
    answers = with_free_references(with_rc_expected(answers, fa.rc), fa.request.expected)
    answers = _told_apart_by_table(_named_as_asked(answers, fa.request))
    computed = _computed_models(fa.analyses, answers)
    fa.sheet = AnswerSheet(
        answers=answers,
        unanswered=[
            # "No column holds factor A" of a law whose procedure bound its
            # own columns and answered (warpbreaks' two-way ANOVA): the
            # law's variable binding was not how it was computed.
            *(
                u
                for u in fa.request.unanswered
                if (u.variable is None or u.model not in computed) and not _overruled(u, answers)
            ),
            *(u for a in fa.analyses for u in a.unanswered()),
        ],
    )
    fa.sheet.unanswered += _not_reached(fa.request, fa.sheet, computed, fa.analyses)
    # A coefficient the x-y fits give from their units (the heat-loss
    # coefficient as the reciprocal of a K/W slope) is answered there, even
    # though no catalogue law has it.
    given = {c.name.strip().lower() for c in fa.coefficients}
    fa.sheet.unanswered = [u for u in fa.sheet.unanswered if u.what.strip().lower() not in given]
    return fa


def _named_as_asked(answers: list[Answer], request: AnalysisRequest) -> list[Answer]:
    """An answer named as the notes asked for it ("the concentration of
    acetic acid", not the catalogue's "concentration of the acid"), when the
    notes describe it in words of their own and one answer alone answers
    that ask (peaks answer one ask several times: each keeps its own name)."""
    from labwright.analysis.request_rules.words import SPECIES_SYMBOL, SYMBOL_IN_TEXT, same_symbol

    named = {(q.model, q.quantity): q.name for q in request.asked if q.name}
    # Asked by a symbol of the notes' own ("c(HAc)" for the analyte's
    # concentration, "c_x" for the unknown's x_0): the answer carries it, so
    # the reader finds what was asked.
    symbols = {
        (q.model, q.quantity): q.evidence.phrase
        for q in request.asked
        if SPECIES_SYMBOL.fullmatch(q.evidence.phrase.strip())
        or SYMBOL_IN_TEXT.fullmatch(q.evidence.phrase.strip())
    }
    count: dict[tuple[str | None, str], int] = {}
    for a in answers:
        count[(a.model, a.asks)] = count.get((a.model, a.asks), 0) + 1
    out = []
    for a in answers:
        name = named.get((a.model, a.asks))
        if name and a.asked and count[(a.model, a.asks)] == 1 and name != a.label.en:
            a = replace(a, label=Text(name, name))
        symbol = symbols.get((a.model, a.asks))
        if (
            symbol
            and a.symbol is None
            and count[(a.model, a.asks)] == 1
            and not same_symbol(symbol.strip(), a.latex)
            and not same_symbol(symbol.strip(), a.quantity)
        ):
            a = replace(a, symbol=symbol.strip())
        out.append(a)
    return out


def _told_apart_by_table(answers: list[Answer]) -> list[Answer]:
    """Answers of one quantity of one law from several tables (a workbook's
    two sheets, one per herbicide; two files, one per spring) name their
    table: two rows "EC50" in the results table cannot be told apart. A
    sheet names its answer when its file has others, else the file does."""
    groups: dict[tuple[str | None, str], list[int]] = {}
    for i, a in enumerate(answers):
        if a.sources:
            groups.setdefault((a.model, a.quantity), []).append(i)
    out = list(answers)
    for members in groups.values():
        if len(members) < 2:
            continue
        tables = [
            (src.file, src.sheet, src.subset) for src in (answers[i].sources[0] for i in members)
        ]
        if len(set(tables)) != len(members):
            continue  # several answers of one table (peaks, unknowns) keep their own names
        files = [file for file, _, _ in tables]
        for i, (file, sheet, subset) in zip(members, tables, strict=True):
            # A group's own name ("Before" of "Insul = Before"); else a file's
            # name when it is the only one of its file, else its sheet.
            stem = PurePosixPath(file).stem
            part = stem if files.count(file) == 1 or not sheet else sheet
            if subset:
                part = subset.split(" = ", 1)[1]
            label = answers[i].label
            out[i] = replace(
                answers[i], label=Text(f"{label.en} ({part})", f"{label.zh}（{part}）"), part=part
            )
    return out


def _overruled(u: Unanswered, answers: list[Answer]) -> bool:
    """The request's "it needs an input the notes do not give" is a guess
    made before any analysis: an answer of the quantity it names ("molar
    absorptivity (eps)"; ε off a calibration slope, the calibration's
    unknowns) of the same law, or of any when it names none, overrules it."""
    m = re.search(r"\(([^()]+)\)\s*$", u.what)
    if m is None:
        return False
    return any(
        m.group(1) in (a.quantity, a.asks) and (u.model is None or u.model == a.model)
        for a in answers
    )


def _computed_models(analyses: list[Analysis[Any, Any]], answers: list[Answer]) -> set[str]:
    """The laws an analysis computed: those its answers name, and those
    answered by a procedure that ran and gave an answer (the factorial's
    cells and effects name no law)."""
    from labwright.analysis.catalogue.load import catalogue

    out = {a.model for a in answers if a.model}
    answered_kinds = {a.kind for a in analyses if a.answers()}
    out |= {e.key for e in catalogue() if e.procedure and e.procedure in answered_kinds}
    return out


def _per_file_series(analyses: list[Analysis[Any, Any]], quantity: str) -> SeriesSummary | None:
    """The file series whose per-file fits give `quantity` (τ of each run)."""
    from labwright.analysis.request_rules.words import symbol_key

    key = symbol_key(quantity)
    for a in analyses:
        r = a.result
        if isinstance(r, SeriesSummary) and r.mode == "fit":
            if any(symbol_key(name) == key for name in r.quantities):
                return r
    return None


def _not_reached(
    request: AnalysisRequest,
    sheet: AnswerSheet,
    computed: set[str],
    analyses: list[Analysis[Any, Any]],
) -> list[Unanswered]:
    """Asked quantities no analysis answered and nothing said why: the
    report must still say each was not computed (a question left in silence
    reads as answered somewhere)."""
    from labwright.analysis.catalogue.load import catalogue

    answered = {a.quantity for a in sheet.answers} | {a.asks for a in sheet.answers}
    out: list[Unanswered] = []
    for q in request.asked:
        if q.quantity in answered or any(
            f"({q.quantity})" in u.what for u in [*sheet.unanswered, *out]
        ):
            continue
        entry = next((e for e in catalogue() if e.key == q.model), None)
        label = (
            next((p.label.en for p in entry.parameters if p.name == q.quantity), None)
            if entry
            else None
        )
        if entry is not None and label is None:
            label = next((d.label.en for d in entry.derived if d.key == q.quantity), None)
        law = f"the {entry.name.en}" if entry else "a law"
        runs = _per_file_series(analyses, q.quantity)
        if runs is not None:
            # A series of files fitted one by one gives the quantity per file
            # (decay-runs' τ of each run): "not computed" would contradict
            # the series table.
            why = (
                f"It was computed for each of the {len(runs.series.datasets)} files "
                f"{runs.series.pattern} (see the series table in the Results), not as one value."
            )
        elif q.model in computed:
            # The law was computed (its table is in the Results) but gives
            # no single value of this quantity: "not computed" would
            # contradict the table (warpbreaks' interaction row).
            why = (
                f"{law[0].upper()}{law[1:]} was computed (see its table in the Results) but "
                "gives no single value of it."
            )
        else:
            why = f"No table of the folder binds every variable of {law}, so it was not computed."
        # Named as the notes asked for it ("阻尼系数", "the mass of the spring"),
        # the catalogue's label when they asked by a symbol.
        phrase = q.name or q.evidence.phrase
        said = (
            phrase
            if phrase and (re.search(r"[\u3400-\u9fff]", phrase) or len(phrase.split()) >= 2)
            else None
        )
        what = f"{said or label or q.quantity} ({q.quantity})"
        out.append(Unanswered(what=what, why=why, model=q.model))
    return out


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
    request = record.get("request") or {}
    if request.get("asked"):
        # The request read from the notes, not the shape-based goals.
        lines.append("The notes ask for: " + "; ".join(
            a["quantity"] + (f" of {a['model']}" if a.get("model") else "")
            + f' ("{a["evidence"]["phrase"]}")'
            for a in request["asked"]
        ))  # fmt: skip
    else:
        asked = record.get("question") or {}
        lines.append(
            "The notes ask for: "
            + (", ".join(f'{g} ("{why}")' for g, why in asked.items()) or "nothing specific")
        )
    lines.append("Analyses run: " + "; ".join(
        f"{a['kind']} of {a['source']} ({a['reason']})" for a in record.get("analyses", [])
    ))  # fmt: skip
    return "\n".join(lines)
