"""The offline reading of the request: small rules, one concept each.

`read_request(read, catalogue)` reads the folder's notes and description
files into an `AnalysisRequest` in the order a scientist reads them: the
laws named (`named.py`) and written out (`equations.py`, `formula.py`), the
quantities asked (`asked.py`), the values given (`values.py` ->
`constants.py`), the roles of the files (`files.py`), the binding of each
law's variables to columns (`columns.py`, `bindings.py`), how replicates are
used and which procedure answers (`method.py`), and what cannot be answered
(`bindings.py`, `unknown.py`). Every item keeps the phrase it came from and
a reason. A note that names nothing gives an empty request, never a guess.
"""

from __future__ import annotations

import os.path
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache

from labwright.analysis.catalogue.custom import KEY as CUSTOM_KEY
from labwright.analysis.catalogue.custom import PARAMETER as CUSTOM_PARAMETER
from labwright.analysis.catalogue.custom import custom_entry
from labwright.analysis.catalogue.expr import FormulaError, parse_equation
from labwright.analysis.catalogue.match import known_symbols
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.request import (
    AnalysisRequest,
    AskedQuantity,
    Binding,
    Evidence,
    FileRole,
    GivenConstant,
    NamedModel,
    NumberedReadings,
    Unanswered,
)
from labwright.analysis.request_rules.asked import mentions, resolve
from labwright.analysis.request_rules.asked_units import with_asked_units
from labwright.analysis.request_rules.bindings import (
    TableBinding,
    bind_table,
    bindings_of,
    missing_variables,
    run_binding,
)
from labwright.analysis.request_rules.columns import FolderColumn, folder_tables, table_columns
from labwright.analysis.request_rules.constants import expected_products, given_values
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.dated_rate import trend_rates
from labwright.analysis.request_rules.defined import defined_quantities
from labwright.analysis.request_rules.definitions import (
    definitions,
    difference_columns,
    subject_symbol,
    symbol_values,
    with_definitions,
)
from labwright.analysis.request_rules.described import (
    described_by_formula,
    nested_in_formula,
    same_as_formula,
)
from labwright.analysis.request_rules.equations import find_equations
from labwright.analysis.request_rules.files import file_roles
from labwright.analysis.request_rules.formula import (
    REMAINING_COLUMN,
    custom_asked,
    custom_bindings,
    named_by_formula,
    read_formulas,
    with_written_symbols,
    written_asked,
)
from labwright.analysis.request_rules.means import asked_means, named_means, nominal_values
from labwright.analysis.request_rules.method import procedure, replicates
from labwright.analysis.request_rules.named import named_models
from labwright.analysis.request_rules.noted_unknowns import noted_unknowns
from labwright.analysis.request_rules.numbered import bind_by_column_numbers, with_per_row_inputs
from labwright.analysis.request_rules.peak_shape import baseline, peak_count
from labwright.analysis.request_rules.references import free_references
from labwright.analysis.request_rules.related import with_named
from labwright.analysis.request_rules.separately import separate_fits
from labwright.analysis.request_rules.text import Notes, read_notes
from labwright.analysis.request_rules.unknown import unknown_requests
from labwright.analysis.request_rules.values import statements
from labwright.analysis.request_rules.vocabulary import Vocabulary
from labwright.analysis.request_rules.words import same_symbol
from labwright.analysis.stacked_runs import stack_runs
from labwright.ingest.types import Dataset, ReadResult

__all__ = ["read_request", "vocabulary"]

# More tables than this bound alike are recorded once, under a file pattern.
_ALIKE = 3
_NOT_BOUND = frozenset({"background", "blank", "reference"})


@lru_cache(maxsize=4)
def _vocabulary(entries: tuple[ModelEntry, ...]) -> Vocabulary:
    return Vocabulary(entries)


def vocabulary(catalogue: Iterable[ModelEntry]) -> Vocabulary:
    """The catalogue's phrases, compiled once per catalogue."""
    return _vocabulary(tuple(catalogue))


def _notes_score(notes: Notes, vocab: Vocabulary) -> dict[str, float]:
    """How much of each law's vocabulary the notes use (distinct phrases)."""
    seen: dict[str, set[str]] = {}
    for clause in notes.clauses:
        for h in vocab.hits(clause):
            seen.setdefault(h.term.model, set()).add(h.term.phrase.lower())
    return {k: float(len(v)) for k, v in seen.items()}


Tables = list[tuple[Dataset, list[FolderColumn]]]


def _role_key(ds: Dataset) -> tuple[str, str | None]:
    return ds.source, ds.provenance.sheet if ds.provenance else None


def _bind_tables(
    entry: ModelEntry, tables: Tables, roles: dict[tuple[str, str | None], FileRole]
) -> list[TableBinding]:
    out = []
    for ds, cols in tables:
        role = roles.get(_role_key(ds))
        if role is not None and role.role in _NOT_BOUND:
            continue
        out.append(bind_table(entry, ds, cols))
    return out


def _data_score(
    entry: ModelEntry, tables: Tables, roles: dict[tuple[str, str | None], FileRole]
) -> float:
    """Evidence that the folder's columns are this law's (not the two-column rule)."""
    best = 0.0
    for tb in _bind_tables(entry, tables, roles):
        if tb.complete and not tb.fallback:
            best = max(best, 1.0 + tb.evidence_score / 10.0)
    if best and _reads_unknowns(entry) and any(r.role == "unknowns" for r in roles.values()):
        # Standards beside a file of unknowns: the law that reads the
        # unknowns' responses back (a calibration line), not one that needs none.
        best += 0.5
    return best


def _reads_unknowns(entry: ModelEntry) -> bool:
    return any("unknown" in i.label.en.lower() for i in entry.inputs)


_LAST_NUMBER = re.compile(r"\d+(?:[.p]\d+)?(?=\D*$)")


def file_pattern(files: Sequence[str]) -> str:
    """One name for files that differ in a number: run_T25C.csv, run_T35C.csv
    -> run_T*C.csv."""
    numbered = {_LAST_NUMBER.sub("*", f, count=1) for f in files}
    if len(numbered) == 1:
        return numbered.pop()
    prefix = os.path.commonprefix(list(files))
    suffix = os.path.commonprefix([f[::-1] for f in files])[::-1]
    return f"{prefix}*{suffix}" if len(prefix) + len(suffix) < min(map(len, files)) else files[0]


def _compact(
    entry: ModelEntry, complete: list[TableBinding], source_of: dict[str, str]
) -> list[Binding]:
    """Bindings of the tables, those bound alike (replicate and run files)
    recorded once under their file pattern."""
    groups: dict[tuple[tuple[str, str], ...], list[TableBinding]] = {}
    for tb in complete:
        key = tuple(sorted((v, s.column.name) for v, s in tb.chosen.items()))
        groups.setdefault(key, []).append(tb)
    out: list[Binding] = []
    for group in groups.values():
        files = sorted({tb.dataset.source for tb in group})
        if len(group) >= _ALIKE and len(files) == len(group):
            pattern = file_pattern(files)
            for b in bindings_of(group[0], source_of):
                reason = f"{b.evidence.reason} (the same in all {len(files)} files)"
                out.append(
                    b.model_copy(
                        update={
                            "file": pattern,
                            "evidence": b.evidence.model_copy(update={"reason": reason}),
                        }
                    )
                )
        else:
            for tb in group:
                out.extend(bindings_of(tb, source_of))
    return out


def _readings_columns(tables: Tables) -> list[FolderColumn]:
    """The measured column of each table that holds readings of one quantity."""
    out = []
    for _, cols in tables:
        kept = [c for c in cols if c.role not in ("index", "empty")]
        if [c.role for c in kept] == ["measurement"]:
            out.append(kept[0])
    return out


def read_request(read: ReadResult, catalogue: Iterable[ModelEntry]) -> AnalysisRequest:
    """The request the folder's notes make, read by rules (no model)."""
    entries = tuple(catalogue)
    vocab = vocabulary(entries)
    notes = read_notes(read.documents)
    excluded: dict[int, list[tuple[int, int]]] = {}
    equations = {clause.index: find_equations(clause) for clause in notes.clauses}
    for clause in notes.clauses:
        spans = [(w.start, w.end) for w in equations[clause.index]]
        spans += [(s.subject_start, s.measured.end) for s in statements(clause)]
        if spans:
            excluded[clause.index] = spans
    named = named_models(notes, vocab)
    tables = folder_tables(read, notes)
    # Columns the notes define from others ("F = m g", "L = l + d/2"): made
    # first, so the laws bind them; their equations are no laws.
    derived = definitions(notes, equations, tables, frozenset(known_symbols(entries)))
    # A law written over a difference of columns ("E = S (Th − Tc)"): the
    # difference is a column (ΔT), the law read over it.
    differences, equations = difference_columns(equations, tables)
    derived += [d for d in differences if all(d.name != e.name for e in derived)]
    if derived:
        read = with_definitions(read, derived)
        tables = folder_tables(read, notes)
        quotes = {d.written for d in derived}
        equations = {i: [w for w in ws if w.quote not in quotes] for i, ws in equations.items()}
    files = file_roles(read.datasets, notes)
    roles = {(f.file, f.sheet): f for f in files}
    runs = [f for f in files if f.role == "run"]
    # The runs as one table with the file names' value as a column: a law
    # of two independent variables measured one file per value of the
    # second binds it, and is fitted once over all runs.
    stacked = stack_runs(read.datasets, files)
    stacked_tables: Tables = [(stacked, table_columns(stacked, notes))] if stacked else []
    # Laws written out: a catalogue entry (its written symbols kept for
    # binding) or a custom formula bound to the columns it names.
    augmented: dict[str, ModelEntry] = {}
    custom: list[Binding] = []
    custom_q: list[AskedQuantity] = []
    formulas = read_formulas(
        notes,
        equations,
        entries,
        [*tables, *stacked_tables],
        frozenset(d.name for d in derived),
    )
    # "metabolic rate scales with body mass as B = a M^b": the columns the
    # notes' words name carry the written symbols, so the law binds them.
    tables = with_named(tables, [n for f in formulas for n in f.named])
    for f in formulas:
        if f.match is not None:
            key = f.match.entry.key
            augmented.setdefault(key, with_written_symbols(f.match.entry, f.match))
            if all(n.key != key for n in named):
                named.append(named_by_formula(f))
            else:
                # Named in words and written out too ("NTC 热敏电阻" and
                # "R_T = R_25·exp[B(1/T − 1/T_25)]"): the answers keep the
                # notes' symbols (R_25 for the catalogue's R0).
                written_symbols = named_by_formula(f).symbols
                named = [
                    n.model_copy(update={"symbols": written_symbols})
                    if n.key == key and not n.symbols and written_symbols
                    else n
                    for n in named
                ]
            own_q, taken = written_asked(f, notes, excluded)
            custom_q += own_q
            for index, spans in taken.items():
                excluded.setdefault(index, []).extend(spans)
        elif not custom:
            found = custom_bindings(f, tables, notes)
            # "r = D/2" defines a variable: no parameter is left to fit.
            if found and custom_entry(f.written.text, [b.variable for b in found]) is not None:
                custom = found
                named.append(named_by_formula(f))
                found_q, taken = custom_asked(f, {b.variable for b in found}, notes, excluded)
                custom_q += found_q
                for index, spans in taken.items():
                    excluded.setdefault(index, []).extend(spans)
    notes_score = _notes_score(notes, vocab)

    def entry_of(key: str) -> ModelEntry | None:
        return augmented.get(key) or vocab.entry(key)

    def score(key: str) -> float:
        entry = entry_of(key)
        data = _data_score(entry, tables, roles) if entry is not None else 0.0
        return notes_score.get(key, 0.0) + data

    asked, implied = resolve(
        mentions(notes, vocab, excluded, [n.key for n in named if n.key]), vocab, named, score
    )
    asked = custom_q + asked
    models: list[NamedModel] = named + implied
    keys = [m.key for m in models if m.key]
    written = [m.key for m in models if m.key and m.how == "formula"]
    given = given_values(
        notes,
        vocab,
        keys,
        written,
        {(a.model, a.quantity) for a in asked},
        {n for _, cols in tables for c in cols if c.numeric for n in (c.name, c.symbol) if n},
    )
    seen = {(a.model, a.quantity) for a in asked}
    for a in given.asked:
        if (a.model, a.quantity) not in seen:
            seen.add((a.model, a.quantity))
            asked.append(a)
            if a.model and a.model not in keys:
                keys.append(a.model)
                models.append(NamedModel(key=a.model, how="quantity", evidence=a.evidence))
    expected = given.expected + expected_products(notes, given.constants, asked)
    expected += free_references(notes, expected, given.constants)

    bindings: list[Binding] = list(custom)
    numbered: list[NumberedReadings] = []
    unanswered: list[Unanswered] = []
    unbound: list[str] = []
    source_of = {c.name: c.file for _, cols in tables for c in cols}
    source_of = {name: "columns" for name in source_of}
    for col_list in (cols for _, cols in tables):
        for c in col_list:
            if c.described:
                note = next((cl.source for cl in notes.clauses if c.described in cl.text), None)
                if note:
                    source_of[c.name] = note
    for key in list(keys):
        entry = entry_of(key)
        if entry is None:
            continue
        # A tuning fork's frequency given per row: the input is a variable
        # when the law then binds (by columns, or by numbered columns).
        bound: list[TableBinding] | None = None
        by_numbers: (
            tuple[TableBinding, NumberedReadings, tuple[Dataset, list[FolderColumn]]] | None
        ) = None
        per_row = with_per_row_inputs(entry, tables, given.constants)
        if per_row is not entry:
            trial = _bind_tables(per_row, tables, roles)
            whole = any(tb.complete for tb in trial)
            counted = None if whole else bind_by_column_numbers(per_row, trial, notes)
            if whole or counted is not None:
                entry, bound, by_numbers = per_row, trial, counted
        if bound is None:
            bound = _bind_tables(entry, tables, roles)
        complete = [tb for tb in bound if tb.complete]
        if complete:
            bindings.extend(_compact(entry, complete, source_of))
            continue
        # "L1, L2" of a resonance tube: the law's count is the columns' number.
        if by_numbers is None:
            by_numbers = bind_by_column_numbers(entry, bound, notes)
        if by_numbers is not None:
            long_binding, spec, long_table = by_numbers
            numbered.append(spec)
            tables.append(long_table)
            bindings.extend(_compact(entry, [long_binding], source_of))
            continue
        # Only a law of two or more independent variables, one of them the
        # runs' parameter: a law of one (T against L) across runs is the run
        # series' (`run_binding`: each run's period, then the law).
        across_runs = [
            tb
            for tb in _bind_tables(entry, stacked_tables, roles)
            if tb.complete
            and len(entry.independents) >= 2
            and any(
                s.column.name == runs[0].parameter and v in {x.name for x in entry.independents}
                for v, s in tb.chosen.items()
            )
        ]
        if across_runs:
            bindings.extend(_compact(entry, across_runs, source_of))
            continue
        across = run_binding(entry, runs, entries)
        if across is not None:
            found, per_run = across
            bindings.extend(found)
            if per_run is not None and per_run not in keys:
                keys.append(per_run)
                per_entry = vocab.entry(per_run)
                if per_entry is not None:
                    models.append(
                        NamedModel(
                            key=per_run,
                            how="per_run",
                            evidence=Evidence(
                                source="catalogue",
                                phrase=entry.response.label.en,
                                reason=f"the {entry.response.label.en} of each run is found by the {per_entry.name.en} law",
                            ),
                        )
                    )
                    run_files = {r.file for r in runs}
                    per_bound = [
                        tb
                        for tb in _bind_tables(per_entry, tables, roles)
                        if tb.complete and tb.dataset.source in run_files
                    ]
                    bindings.extend(_compact(per_entry, per_bound, source_of))
            continue
        unbound.append(key)
        best = max(bound, key=lambda tb: (len(tb.chosen), tb.evidence_score), default=None)
        if any(a.model == key for a in asked):
            unanswered.extend(missing_variables(entry, best))
    bindings, borrowed = _without_borrowed_columns(bindings)
    for key, variable in borrowed:
        entry = entry_of(key)
        if entry is not None and any(a.model == key for a in asked):
            unbound.append(key)
            unanswered.extend(u for u in missing_variables(entry, None) if u.variable == variable)
    # A law the notes mention (a word, a relation, a file's name) that binds
    # no table and of which nothing is asked is no request: "λ = v/f" is no
    # Wien's law, "the resonance curve" no driven oscillator to report as
    # not answered.
    idle = {
        k
        for k in unbound
        if not any(a.model == k for a in asked)
        and not any(m.key == k and _asked_to_use(notes, m) for m in models)
    }
    models = [m for m in models if m.key not in idle]
    keys = [k for k in keys if k not in idle]
    # A law named in passing beside the written formula that was fitted
    # ("a logistic curve ..., OD = A/(1 + ...)") asks nothing of its own.
    bound_keys = {b.model for b in bindings}
    bound_formulas = [
        i
        for i, m in enumerate(models)
        if m.how == "formula" and ((m.key is None and custom) or m.key in bound_keys)
    ]
    passing = described_by_formula(notes, models, unbound, bound_formulas)
    # "Fit the logistic growth curve C = Cmax/(1 + exp(-(t - t0)/s))": the
    # named law is the written formula in other letters, one fit.
    if custom:
        text = next((m.formula for m in models if m.how == "formula" and m.key is None), None)
        given.constants.extend(_values_of_formula_symbols(notes, text, given.constants, custom))
        own = custom_entry(
            text or "",
            sorted({b.variable for b in custom}),
            {c.symbol: c.unit for c in given.constants},
            {b.variable: b.unit for b in custom},
        )
        if own is not None:

            def parameters_of(key: str) -> int | None:
                entry = entry_of(key)
                return len(entry.parameters) if entry is not None else None

            def quantities_of(key: str) -> set[str]:
                entry = entry_of(key)
                if entry is None:
                    return set()
                return {p.name for p in entry.parameters} | {d.key for d in entry.derived}

            formula_asks = [a.quantity for a in asked if a.model == CUSTOM_KEY]
            passing |= same_as_formula(
                notes, models, bindings, CUSTOM_KEY, len(own.entry.parameters), parameters_of,
                formula_asks, quantities_of,
            )  # fmt: skip
            written_params = [p.name for p in own.entry.parameters]
            for m in models:
                law = entry_of(m.key) if m.key else None
                if law is None or m.key in passing:
                    continue
                symbols = nested_in_formula(text or "", written_params, law)
                if symbols is None:
                    continue
                passing.add(law.key)
                asked = _asked_of_formula(asked, law.key, symbols, written_params)
            asked = _undecided_to_formula(asked, own.entry)
        # A value the notes give is not asked: "from tau and R, work out C"
        # names R as an input.
        given_symbols = {c.symbol for c in given.constants}
        asked = [a for a in asked if not (a.model == CUSTOM_KEY and a.quantity in given_symbols)]
    if passing:
        models = [m for m in models if m.key not in passing]
        keys = [k for k in keys if k not in passing]
        asked = [a for a in asked if a.model not in passing]
        unanswered = [u for u in unanswered if u.model not in passing]
        bindings = [b for b in bindings if b.model not in passing]
    written_out = any(m.how == "formula" and m.key is None for m in models)
    inside = _formula_inside_law(asked, bindings, entry_of) if written_out else None
    if inside is not None:
        # "λ = v/f" beside the resonance-tube law that answers v: a relation
        # inside the law, whose left side names no column, is no law of its
        # own; what the notes ask of it, the law answers.
        models = [m for m in models if not (m.how == "formula" and m.key is None)]
        already = {(a.model, a.quantity) for a in asked}
        asked = [
            a
            if a.model != CUSTOM_KEY
            else a.model_copy(
                update={"model": inside[a.quantity][0], "quantity": inside[a.quantity][1]}
            )
            for a in asked
            if a.model != CUSTOM_KEY or inside[a.quantity] not in already
        ]
        bindings = [b for b in bindings if b.model != CUSTOM_KEY]
        custom = []
    only_asked = _answered_elsewhere(models, asked, bindings, notes)
    if only_asked:
        models = [m for m in models if m.key not in only_asked]
        keys = [k for k in keys if k not in only_asked]
        asked = [a for a in asked if a.model not in only_asked]
        unanswered = [u for u in unanswered if u.model not in only_asked]

    # "The growth rate per year" of a dated series is its trend (no law);
    # the two-column fallback is no evidence that a table is the law's.
    def binds(key: str) -> bool:
        if any(b.model == key for b in bindings):
            return True
        entry = entry_of(key)
        return entry is not None and _data_score(entry, tables, roles) > 0

    trends = trend_rates(asked, models, binds, (ds for ds, _ in tables))
    rates = tuple(dict.fromkeys(a.name or a.evidence.phrase for a in trends))
    if trends:
        gone = {(a.model, a.quantity) for a in trends}
        asked = [a for a in asked if (a.model, a.quantity) not in gone]
        laws = {a.model for a in trends if a.model}
        implied_only = {m.key for m in models if m.key in laws and m.how == "quantity"}
        models = [m for m in models if m.key not in implied_only]
        keys = [k for k in keys if k not in implied_only]
        unanswered = [u for u in unanswered if u.model not in implied_only]
    # An input bound to a column (per row) is no input the notes must give.
    read_per_row = {(b.model, b.variable) for b in bindings}
    unanswered.extend(_missing_inputs(asked, vocab, given.constants, read_per_row))
    unanswered.extend(unknown_requests(notes, vocab, {b.model for b in bindings}))
    # "The mean density D" of a file of readings, when no law binds a table:
    # the repeated-readings analysis answers it (request_rules/means.py).
    have = {a.quantity for a in asked}
    # Files of readings of one quantity, which the repeated-readings kind takes.
    readings = _readings_columns(tables)
    means: list[AskedQuantity] = []
    if readings and not bindings:
        means = [m for m in asked_means(notes) if m.quantity not in have]
        # "Estimate the resistance" over readings of R (ohm): their mean.
        by_name, unanswered = named_means(unanswered, readings, entries, notes)
        means += [m for m in by_name if m.quantity not in have]
        # "A nominal 1 kOhm resistor": the value the notes give for that
        # symbol is what the mean of its readings is compared with.
        expected += nominal_values(by_name, given.constants, expected)
    asked += means
    used = [e for e in (vocab.entry(k) for k in keys) if e is not None]
    quantities = {
        q for e in used for q in (*(p.name for p in e.parameters), *(d.key for d in e.derived))
    }
    quantities |= {w for m in models for _, w in m.symbols}
    quantities |= {m.quantity for m in means}
    if (
        custom
        and (
            own_entry := custom_entry(
                next((m.formula for m in models if m.how == "formula" and m.key is None), "") or "",
                sorted({b.variable for b in custom}),
                {c.symbol: c.unit for c in given.constants},
                {b.variable: b.unit for b in custom},
            )
        )
        is not None
    ):
        quantities |= {p.name for p in own_entry.entry.parameters}
        quantities |= {d.key for d in own_entry.entry.derived}
    given_map = {c.symbol: (c.value, c.unit) for c in given.constants} | symbol_values(notes)
    columns = {c.name for _, cols in tables for c in cols}
    defined = defined_quantities(notes, equations, quantities, given_map, columns)
    # A column of no unit takes the one the unit of an asked answer implies
    # ("the growth rate r (per day)": the time is in days).
    bindings = with_asked_units(
        bindings,
        {k: e for k in {b.model for b in bindings} if (e := entry_of(k)) is not None},
        notes,
        asked,
    )
    rep = replicates(notes)
    # A peak count and baseline matter only to a composite (peaks) law.
    composite = any(e.composite is not None for e in used)
    count = peak_count(notes) if composite else None
    base = baseline(notes) if composite else None
    return AnalysisRequest(
        asked=tuple(asked),
        models=tuple(models),
        procedure=procedure(notes, used, bindings),
        bindings=tuple(bindings),
        constants=tuple(given.constants),
        files=tuple(files),
        expected=tuple(expected),
        replicates=rep[0] if rep else None,  # type: ignore[arg-type]
        unanswered=tuple(unanswered),
        peaks=count[0] if count else None,
        baseline=base[0] if base else None,  # type: ignore[arg-type]
        derived=tuple(derived),
        defined=tuple(defined),
        numbered=tuple(numbered),
        trend_rates=rates,
        separately=tuple(separate_fits(notes, tables)),
        noted_unknowns=tuple(
            noted_unknowns(notes) if any(e.procedure == "calibration" for e in used) else ()
        ),
    )


def _values_of_formula_symbols(
    notes: Notes,
    formula: str | None,
    constants: Sequence[GivenConstant],
    custom: Sequence[Binding],
) -> list[GivenConstant]:
    """Values the notes assign to symbols of the formula they write that no
    column holds ("g = 9.81 m s^-2" under a torque balance): inputs of the
    formula, not parameters to fit, even when a law of the catalogue claimed
    the symbol first (g is free fall's parameter)."""
    if not formula:
        return []
    try:
        names = parse_equation(formula).names
    except FormulaError:
        return []
    taken = {c.symbol for c in constants} | {b.variable for b in custom}
    out: list[GivenConstant] = []
    for clause in notes.clauses:
        for st in statements(clause):
            symbol = subject_symbol(st.subject)
            if (
                symbol is None
                or symbol not in names
                or symbol in taken
                or st.expected
                or not st.measured.unit
            ):
                continue
            taken.add(symbol)
            out.append(
                GivenConstant(
                    symbol=symbol,
                    value=st.measured.value,
                    uncertainty=st.measured.uncertainty,
                    unit=st.measured.unit,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=st.quote,
                        reason=f"the notes give {symbol}, a symbol of the formula they write",
                    ),
                )
            )
    return out


def _answered_elsewhere(
    models: Sequence[NamedModel],
    asked: Sequence[AskedQuantity],
    bindings: Sequence[Binding],
    notes: Notes,
) -> set[str]:
    """Laws brought in only because they have a quantity asked ("劲度系数": a
    spring's period law) whose every asked quantity a bound law answers:
    no request of their own. A quantity is answered by a bound law when it
    is the same, or when the notes write its words right before a symbol
    asked of a bound law ("the moment of inertia I of the turntable", with
    I a parameter of the torque balance they write)."""
    bound_laws = {b.model for b in bindings}
    answered = {a.quantity for a in asked if a.model in bound_laws}
    symbols = [re.escape(s) for s in sorted(answered, key=len, reverse=True)]
    named = re.compile(r"\s+(?:" + "|".join(symbols) + r")(?![\w])") if symbols else None

    def answered_by_its_words(a: AskedQuantity) -> bool:
        phrase = a.evidence.phrase
        return (
            named is not None
            and bool(phrase)
            and any(
                named.match(c.text, i + len(phrase))
                for c in notes.clauses
                for i in (m.start() for m in re.finditer(re.escape(phrase), c.text))
            )
        )

    return {
        m.key
        for m in models
        if m.key is not None
        and m.how == "quantity"
        and m.key not in bound_laws
        and all(
            a.quantity in answered or answered_by_its_words(a) for a in asked if a.model == m.key
        )
    }


def _formula_inside_law(
    asked: Sequence[AskedQuantity],
    bindings: Sequence[Binding],
    entry_of: Callable[[str], ModelEntry | None],
) -> dict[str, tuple[str, str]] | None:
    """When the written formula is a relation inside a bound law, the law
    and its quantity that answer each quantity asked of it; else None. Inside: its response
    was only the table's one remaining column (no column is named as its
    left side), and a law the data bind has every quantity asked of it (by
    the same name)."""
    own = [b for b in bindings if b.model == CUSTOM_KEY]
    if own and not any(REMAINING_COLUMN in b.evidence.reason for b in own):
        return None  # its left side names a column: a law of its own
    of_formula = {a.quantity for a in asked if a.model == CUSTOM_KEY}
    if not of_formula:
        return None
    answered_by: dict[str, tuple[str, str]] = {}
    for key in dict.fromkeys(b.model for b in bindings if b.model != CUSTOM_KEY):
        entry = entry_of(key)
        if entry is None:
            continue
        for q in of_formula:
            same = next((k for k in entry.quantity_keys() if same_symbol(q, k)), None)
            if q not in answered_by and same is not None:
                answered_by[q] = (key, same)
    return answered_by if of_formula <= answered_by.keys() else None


def _missing_inputs(
    asked: Sequence[AskedQuantity],
    vocab: Vocabulary,
    given: Sequence[GivenConstant],
    per_row: Collection[tuple[str, str]] = (),
) -> list[Unanswered]:
    """An asked quantity whose expression needs an input the notes do not
    give; `per_row`: the (law, input) pairs a column holds instead."""
    have = {c.symbol for c in given}
    out: list[Unanswered] = []
    for a in asked:
        entry = vocab.entry(a.model) if a.model else None
        if entry is None:
            continue
        exprs = [d.expr for d in entry.derived if d.key == a.quantity] + [entry.formula]
        names = {n for e in exprs for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", e)}
        for i in entry.inputs:
            if (entry.key, i.name) in per_row:
                continue  # read per row from a column
            if i.name in names and i.default is None and i.name not in have:
                out.append(
                    Unanswered(
                        what=f"{vocab.quantity_label(entry.key, a.quantity)} ({a.quantity})",
                        why=f"the notes do not give the {i.label.en} ({i.name}), which it needs",
                    )
                )
    return out


def _asked_of_formula(
    asked: Sequence[AskedQuantity], key: str, symbols: dict[str, str], parameters: Sequence[str]
) -> list[AskedQuantity]:
    """The law's asked quantities, asked of the written formula that
    generalises it under the written symbol (the spring's k is the k of
    "T^2 = (4π²/k)(m + m_eff)"); once each."""
    out: list[AskedQuantity] = []
    have = {(a.model, a.quantity) for a in asked}
    for a in asked:
        written = symbols.get(a.quantity) if a.model == key else None
        if written is None or written not in parameters:
            out.append(a)
            continue
        if (CUSTOM_KEY, written) in have:
            continue
        have.add((CUSTOM_KEY, written))
        out.append(a.model_copy(update={"model": CUSTOM_KEY, "quantity": written}))
    return out


def _undecided_to_formula(asked: Sequence[AskedQuantity], entry: ModelEntry) -> list[AskedQuantity]:
    """A quantity asked by a name several laws have ("the time constant",
    left to the data to decide), asked of the written formula when one of
    its quantities goes by that name (RC of "V0 (1 - exp(-t/RC))")."""
    names: dict[str, str] = {}
    for p in entry.parameters:
        if p.label != CUSTOM_PARAMETER:  # "parameter a" names nothing
            names.setdefault(p.label.en.casefold(), p.name)
            names.setdefault(p.label.zh, p.name)
    for d in entry.derived:
        for phrase in (d.label.en, d.label.zh, *d.asks.all()):
            names.setdefault(phrase.casefold(), d.key)
    out: list[AskedQuantity] = []
    for a in asked:
        key = names.get(a.evidence.phrase.casefold()) if a.model is None else None
        if key is None:
            out.append(a)
        else:
            out.append(
                a.model_copy(update={"model": CUSTOM_KEY, "quantity": key, "candidates": ()})
            )
    return out


def _by_name(b: Binding) -> bool:
    """Bound by what the column is called or what the notes say of it, not by
    its unit's dimension alone or for being the one column left."""
    reason = b.evidence.reason
    return "its name" in reason or "in its name" in reason or "description" in reason


def _holders(bindings: Sequence[Binding]) -> dict[tuple[str, str | None, str], list[Binding]]:
    """The bindings that hold each column by its name, per column."""
    held: dict[tuple[str, str | None, str], list[Binding]] = {}
    for b in bindings:
        if _by_name(b):
            held.setdefault((b.file, b.sheet, b.column), []).append(b)
    return held


def _without_borrowed_columns(
    bindings: Sequence[Binding],
) -> tuple[list[Binding], list[tuple[str, str]]]:
    """The bindings less those of a law that takes, by its unit alone, a
    column another law holds by its name: a pendulum's "周期 T" (a period,
    in s) is no damped oscillator's time axis, its "摆长 l" no displacement,
    and fitting one to them gave a damping ratio of 5e-10 for a question
    ("the damping coefficient of the air drag") the data cannot answer. The
    law keeps nothing in that table; (law, variable) of each borrowed
    binding is returned, to be said not answered."""
    held = _holders(bindings)

    def taken_from_another(b: Binding) -> bool:
        others = [h for h in held.get((b.file, b.sheet, b.column), []) if h.model != b.model]
        # The same symbol for the same column is agreement, not borrowing: a
        # written "C(t) = A1 exp(−k1 t) + ..." read C and t as the law named
        # beside it ("IV bolus") does, whatever a third law calls it.
        return bool(others) and not any(same_symbol(h.variable, b.variable) for h in others)

    # A written formula whose left side named no column ("mg = k(L − L₀)":
    # "mg" took the one column left, the masses) holds no column against a
    # law that binds that column by its name.
    guessed = {
        (b.model, b.file, b.sheet)
        for b in bindings
        if REMAINING_COLUMN in b.evidence.reason and taken_from_another(b)
    }
    dropped = [b for b in bindings if (b.model, b.file, b.sheet) in guessed]
    bindings = [b for b in bindings if (b.model, b.file, b.sheet) not in guessed]
    held = _holders(bindings)
    borrowed = [b for b in bindings if not _by_name(b) and taken_from_another(b)]
    gone = {(b.model, b.file, b.sheet) for b in borrowed}
    kept = [b for b in bindings if (b.model, b.file, b.sheet) not in gone]
    return kept, [(b.model, b.variable) for b in (*dropped, *borrowed)]


def _asked_to_use(notes: Notes, m: NamedModel) -> bool:
    """The law is named in a clause that asks for something ("fit an
    Arrhenius plot", "verify Boyle's law", "用阿伦尼乌斯公式"): a request
    to use it, not a mention in a title, a description or a file name."""
    if m.how not in ("name", "formula"):
        return False
    return any(
        c.source == m.evidence.source
        and m.evidence.phrase
        and m.evidence.phrase in c.text
        and asks(c) is not None
        for c in notes.clauses
    )
