"""A law written out in the notes: which catalogue entry it is, or a custom
model the engine can fit.

The notes' equation (found by `equations.py`) is read by the catalogue's
formula reader (`catalogue/written.py`: `v = Vmax·[S]/(Km + [S])` becomes
`v = Vmax*S/(Km + S)`, parsed by the safe evaluator) and matched
structurally against every entry (`catalogue/match.py`): it is that law
when both agree as functions under some mapping of the symbols, whatever
letters the notes use. A matched law is named with the written symbols
kept, so a column headed the way the notes write the variable binds.

A formula that is no entry becomes a custom model when it is a law of the
data: its response (the left side) and at least one symbol of the right
side are columns of one table; the other symbols are its parameters. An
equation between quantities only ("ζ = γ/ω₀", "t½ = ln 2/λ", "Ea = −R·slope")
is a relation, not a model of the data, and is left out. A statement of
proportionality ("T² ∝ L", "T² 与 L 成正比") is the formula `T^2 = k*L`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from labwright.analysis.catalogue.custom import KEY as CUSTOM_KEY
from labwright.analysis.catalogue.expr import FormulaError, parse_equation, parse_expression
from labwright.analysis.catalogue.implicit import linear_in, solved_for
from labwright.analysis.catalogue.match import (
    FormulaMatch,
    known_symbols,
    match_collapsed,
    match_formula,
)
from labwright.analysis.catalogue.schema import ModelEntry, Text, Variable
from labwright.analysis.catalogue.written import (
    PHYSICAL_CONSTANTS,
    WrittenFormula,
    read_formula,
    read_sides,
)
from labwright.analysis.law import parse_laws
from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.request import AskedQuantity, Binding, Evidence, NamedModel
from labwright.analysis.request_rules.bindings import (
    Scored,
    bind_table,
    score,
    variable_dimension,
)
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.equations import Written
from labwright.analysis.request_rules.related import (
    Named,
    name_columns,
    relation_before,
    with_named,
)
from labwright.analysis.request_rules.symbol_name import notes_name
from labwright.analysis.request_rules.text import Clause, Notes
from labwright.analysis.request_rules.words import SYMBOL_IN_TEXT, names_symbol, same_symbol
from labwright.ingest.types import Dataset

CUSTOM = (
    CUSTOM_KEY  # the model key of a custom formula's bindings (one definition: catalogue.custom)
)


@dataclass(frozen=True)
class ReadFormula:
    written: WrittenFormula
    clause: Clause
    quote: str
    match: FormulaMatch | None
    # Columns the notes' words give the match's written symbols (related.py).
    named: tuple[Named, ...] = ()


_CALIBRATION = re.compile(
    r"calibrat|\bstandards?\b|\bunknowns?\b|\bsamples?\b|\bassay|standard addition|"
    r"标准|校准|定标|工作曲线|待测|未知|样品|水样|加标",
    re.I,
)


def _proportionalities(clause: Clause) -> list[tuple[str, str]]:
    """("T^2 = k*L", phrase) for each "A^n ∝ B^m" without a constant."""
    out = []
    for law in parse_laws(clause.text):
        if law.constant is None:
            lp = f"^{law.left_power:g}" if law.left_power != 1 else ""
            rp = f"^{law.right_power:g}" if law.right_power != 1 else ""
            k = "k" if "k" not in (law.left, law.right) else "c"
            out.append((f"{law.left}{lp} = {k}*{law.right}{rp}", law.text))
    return out


def read_formulas(
    notes: Notes,
    equations: dict[int, list[Written]],
    entries: Sequence[ModelEntry],
    tables: Sequence[tuple[Dataset, list[FolderColumn]]] = (),
    derived: frozenset[str] = frozenset(),
) -> list[ReadFormula]:
    """The formulas the notes write, each with the law it is: read as
    written, or with a product of its symbols as one parameter (τ = R C).
    A reading that makes a column one of the law's parameters is no
    reading (`columns_stay_variables`). A balance with no one quantity
    alone on a side is solved for the one measured (`_solved_balance`);
    `derived`: the columns the notes define from others."""
    # The columns' names are symbols too: "Gas = a + b*Temp" over the
    # columns Gas and Temp is not G·a·s (three symbols of the catalogue).
    known = set(known_symbols(entries)) | {
        name
        for _, cols in tables
        for c in cols
        if c.numeric
        for name in (c.name, c.symbol)
        if name and SYMBOL_IN_TEXT.fullmatch(name)
    }
    # "Gas = a + b*Temp" is a straight line, a calibration only when the
    # notes speak of one (its standards, unknowns and limits of detection).
    calibrating = any(_CALIBRATION.search(c.text) for c in notes.clauses)
    out: list[ReadFormula] = []
    seen: set[str] = set()
    for clause in notes.clauses:
        texts = [(w.text, w.quote) for w in equations.get(clause.index, [])]
        texts += _proportionalities(clause)
        for text, quote in texts:
            try:
                wf = read_formula(text, known)
            except FormulaError:
                solved = _solved_balance(text, known, tables, derived)
                if solved is None:
                    continue  # prose with an "=" in it, or a formula the reader cannot read
                wf = solved
            if wf.text in seen:
                continue
            seen.add(wf.text)
            named: list[Named] = []
            try:
                raw = match_formula(wf, entries)
                matches = _plausible(raw, tables)
                if not matches:
                    matches = _plausible(match_collapsed(wf.text, entries), tables)
                if not matches:
                    matches, named = _related(raw, clause, quote, tables)
            except (FormulaError, ArithmeticError, ValueError):
                matches = []
            matches = [m for m in matches if _more_than_a_line(m, tables, calibrating)]
            match = matches[0] if matches else None
            out.append(ReadFormula(wf, clause, quote, match, tuple(named) if match else ()))
    return out


def _related(
    raw: Sequence[FormulaMatch],
    clause: Clause,
    quote: str,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
) -> tuple[list[FormulaMatch], list[Named]]:
    """The first reading of a law of one variable that binds once the notes'
    "Y scales with X as" words name its two columns (related.py)."""
    relation = relation_before(clause, quote)
    if relation is None:
        return [], []
    for m in raw:
        variables = {v.name for v in m.entry.variables}
        written = {e: w for w, e in m.mapping if e in variables}
        independents = [v.name for v in m.entry.independents]
        if len(variables) != 2 or len(independents) != 1 or len(written) != 2:
            continue
        named = name_columns(
            relation, written[m.entry.response.name], written[independents[0]], tables
        )
        if named and _binds(m, with_named(tables, named)):
            return [m], named
    return [], []


def _solved_balance(
    text: str,
    known: Collection[str],
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    derived: frozenset[str],
) -> WrittenFormula | None:
    """A balance ("m g r − tau_f = (I + m r²) a / r") as the law of its
    measured quantity (catalogue/implicit.py): of its symbols that name
    columns of one table, the one the notes define from the readings ("a =
    2h/t²"), else the one column that is no set point; None when that is not
    one column or it does not enter linearly."""
    try:
        (lhs, rhs), renamed = read_sides(text, known)
        names = parse_expression(lhs).names | parse_expression(rhs).names
    except FormulaError:
        return None
    for _, cols in tables:
        columns = {
            s: c
            for s in sorted(names)
            for c in cols
            if c.numeric and (names_symbol(c.name, s) or c.symbol == s)
        }
        if len(columns) < 2:
            continue
        measured = [s for s in columns if s in derived] or [
            s for s, c in columns.items() if c.set_point is None
        ]
        if len(measured) != 1:
            continue
        solved = solved_for(lhs, rhs, measured[0])
        if solved is None:
            continue
        try:
            equation = parse_equation(solved, constants=PHYSICAL_CONSTANTS)
        except FormulaError:
            continue
        return WrittenFormula(text, solved, equation, renamed)
    return None


def columns_stay_variables(
    match: FormulaMatch,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    dimensions: bool = True,
) -> bool:
    """A written symbol that names a column is one of the law's measured
    quantities (a variable, or an input a calibration varies), never a
    fitted parameter or a constant, and of the dimension its column is in:
    "U = U0 exp(-t/(R C))" over the columns t and U has the shape of
    Arrhenius's A exp(-Ea/(R T)), but its t would be the activation energy;
    "A = ε l c" over c in µM is not a solenoid's B = μ0 n I. Symbols no
    column is named by may map to anything. `dimensions=False`: the roles
    only (a named law over a column in a wrong unit is still that law; the
    binding then says the unit is wrong)."""
    entry = match.entry
    variables = {v.name: v for v in entry.variables}
    inputs = {i.name: i for i in entry.inputs}
    columns = [c for _, cols in tables for c in cols if c.numeric and not c.generated_name]
    for written, symbol in match.mapping:
        named = [c for c in columns if names_symbol(c.name, written)]
        if not named:
            continue
        if symbol in variables:
            # A variable of any dimension (Michaelis–Menten's v in µmol/min
            # as well as µM/min) holds whatever its column's unit.
            v = variables[symbol]
            want = None if v.dimension == "any" else variable_dimension(v)
        elif symbol in inputs:
            want = dimension(inputs[symbol].unit) if inputs[symbol].unit else None
        else:
            return False
        if (
            dimensions
            and want is not None
            and all(c.dimension is not None and c.dimension != want for c in named)
        ):
            return False
    return True


def _plausible(
    matches: Sequence[FormulaMatch], tables: Sequence[tuple[Dataset, list[FolderColumn]]]
) -> list[FormulaMatch]:
    """The readings whose columns keep their roles and dimensions, else
    those that keep their roles (`columns_stay_variables`), best first."""
    roles = [m for m in matches if columns_stay_variables(m, tables, dimensions=False)]
    if not tables:
        return [m for m in roles if columns_stay_variables(m, tables)] or roles
    # A relation between quantities ("λ = v/f", "t½ = ln 2/λ") has the shape
    # of some law, but is that law only if the law binds the data, or its
    # written variables are the columns (then a wrong unit is said so).
    good = [m for m in roles if _binds(m, tables)]
    if good:
        return [m for m in good if columns_stay_variables(m, tables)] or good
    return [m for m in roles if _names_columns(m, tables)]


def _more_than_a_line(
    match: FormulaMatch,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    calibrating: bool,
) -> bool:
    """A straight line is the shape of many laws: "Gas = a + b*Temp" over
    columns in 1000 ft³ and °C is no thermocouple and no calibration, only
    the line the notes write (fitted as written). A law that is a line is
    the one written when the notes write a variable in the law's letters
    ("V = I R"), or the columns' units are its variables' (a voltage against
    a temperature); a calibration, when the notes speak of one (standards,
    unknowns)."""
    if match.entry.procedure == "calibration":
        return calibrating
    if not _a_line(match.entry):
        return True
    variables = {v.name: v for v in match.entry.variables}
    pairs = [(w, variables[e]) for w, e in match.mapping if e in variables]
    if any(same_symbol(w, v.name) or w in v.symbols for w, v in pairs):
        return True
    columns = [c for _, cols in tables for c in cols if c.numeric and not c.generated_name]
    for written, variable in pairs:
        column = next((c for c in columns if names_symbol(c.name, written)), None)
        want = dimension(variable.unit) if variable.unit else None
        got = dimension(column.unit) if column is not None and column.unit else None
        if want is None or want != got:
            return False
    return bool(pairs)


def _a_line(entry: ModelEntry) -> bool:
    """The law's response is linear in each of its independent variables."""
    try:
        rhs = parse_equation(entry.formula).rhs.text
    except FormulaError:
        return False
    independents = [v.name for v in entry.variables if v.role != "response"]
    return bool(independents) and all(linear_in(rhs, x) for x in independents)


def _names_columns(
    match: FormulaMatch, tables: Sequence[tuple[Dataset, list[FolderColumn]]]
) -> bool:
    """Every variable of the law is written with a symbol a column is named by."""
    names = [c.name for _, cols in tables for c in cols if c.numeric and not c.generated_name]
    variables = {v.name for v in match.entry.variables}
    written = [w for w, e in match.mapping if e in variables]
    return bool(written) and all(any(names_symbol(n, w) for n in names) for w in written)


def _binds(match: FormulaMatch, tables: Sequence[tuple[Dataset, list[FolderColumn]]]) -> bool:
    """The law binds a table, or one of its inputs is a column the notes name
    by the written symbol (a calibration varies the Beer–Lambert law's c)."""
    entry = with_written_symbols(match.entry, match)
    if any(bind_table(entry, ds, cols).complete for ds, cols in tables):
        return True
    inputs = {i.name for i in entry.inputs}
    names = [c.name for _, cols in tables for c in cols if c.numeric and not c.generated_name]
    return any(e in inputs and any(names_symbol(n, w) for n in names) for w, e in match.mapping)


def with_written_symbols(entry: ModelEntry, match: FormulaMatch) -> ModelEntry:
    """The entry with the notes' way of writing each variable added to its
    symbols ("[A]" for c), so columns headed so bind."""
    written_of: dict[str, list[str]] = {}
    renamed = {name: token for token, name in match.written.renamed}
    for w, e in match.mapping:
        written_of.setdefault(e, []).extend([w] + ([renamed[w]] if w in renamed else []))
    variables = tuple(
        replace(v, symbols=tuple(dict.fromkeys((*v.symbols, *written_of.get(v.name, ())))))
        for v in entry.variables
    )
    return replace(entry, variables=variables)


def named_by_formula(f: ReadFormula) -> NamedModel:
    if f.match is not None:
        entry = f.match.entry
        mapped = ", ".join(f"{w}→{e}" for w, e in f.match.mapping if w != e)
        zeroed = f"; without {', '.join(f.match.zeroed)}" if f.match.zeroed else ""
        reason = (
            f"the notes write the {entry.name.en} law" + (f" ({mapped})" if mapped else "") + zeroed
        )
        # The notes' symbols for the law's parameters (hmax for A_inf): the
        # reader asked for hmax, and an answer named A_inf "final value" is
        # not recognisably it.
        parameters = {p.name for p in entry.parameters}
        symbols = tuple(
            (e, w)
            for w, e in f.match.mapping
            if e in parameters and not same_symbol(w, e) and SYMBOL_IN_TEXT.fullmatch(w)
        )
        return NamedModel(
            key=entry.key,
            formula=f.written.text,
            how="formula",
            symbols=symbols,
            evidence=Evidence(source=f.clause.source, phrase=f.quote, reason=reason),
        )
    return NamedModel(
        key=None,
        formula=f.written.text,
        how="formula",
        evidence=Evidence(
            source=f.clause.source,
            phrase=f.quote,
            reason="a formula written in the notes that no law of the catalogue is: fitted as written",
        ),
    )


def _forms(f: ReadFormula, name: str) -> list[str]:
    renamed = {n: token for token, n in f.written.renamed}
    return [name] + ([renamed[name]] if name in renamed else [])


#: The symbols a formula writes for time: with no column named so, the
#: table's one column in a unit of time is it (Orange's "t" over "age (day)").
_TIME_SYMBOLS = frozenset({"t", "time"})


def _variable(f: ReadFormula, name: str, role: str) -> Variable:
    """A written symbol as a law's variable: named by the forms the notes write."""
    return Variable(name, role, Text(name, name), symbols=tuple(_forms(f, name)))  # type: ignore[arg-type]


def _column_for(
    f: ReadFormula, name: str, cols: Sequence[FolderColumn], role: str, taken: set[str]
) -> Scored | None:
    """The column that holds a written symbol: named as it (or a numbered
    repeat of it, or the time of several periods of T), as a law's variables
    bind (`bindings.score`); else, for a time symbol, the table's one column
    in a unit of time."""
    v = _variable(f, name, role)
    best: Scored | None = None
    for col in cols:
        if col.name in taken or col.generated_name:
            continue
        s = score(v, col)
        if s is None or not any(r.startswith("its name") for r in s.reasons):
            continue
        if best is None or s.score > best.score:
            best = s
    if best is not None:
        return best
    if name in _TIME_SYMBOLS:
        timed = [
            c
            for c in cols
            if c.numeric
            and c.role not in ("index", "category", "constant", "empty")
            and c.dimension == "[time]"
            and c.name not in taken
        ]
        if len(timed) == 1:
            return Scored(
                timed[0],
                2.0,
                (f"the column {timed[0].name!r} is the table's one column in a unit of time",),
            )
    return None


#: How a formula's response bound by elimination is explained (`_remaining`).
REMAINING_COLUMN = "is the table's one measurement the others did not take"


def _remaining(cols: Sequence[FolderColumn], taken: set[str]) -> FolderColumn | None:
    """The response of a formula whose left side names no column ("y = L0 (1
    - exp(-k t))" over the columns t and BOD): the table's one measurement
    its other symbols did not take, as a scientist reads the y of the notes."""
    if not taken:
        return None
    left = [
        c
        for c in cols
        if c.numeric and c.role == "measurement" and c.name not in taken and not c.set_point
    ]
    stems = {c.replicate_of for c in left if c.replicate_of}
    if len(stems) == 1 and all(c.replicate_of for c in left):
        return left[0]  # one quantity measured several times: its first repeat
    return left[0] if len(left) == 1 else None


def custom_bindings(
    f: ReadFormula,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    notes: Notes | None = None,
) -> list[Binding]:
    """The custom formula's variables bound to the columns named like them,
    in the first table that has its response and one of its other symbols;
    with the notes, symbols that name no column are bound by what the notes
    say of them (`symbol_columns`)."""
    eq = f.written.equation
    for _ds, cols in tables:
        others: list[tuple[str, Scored]] = []
        taken: set[str] = set()
        for name in sorted(eq.rhs.names):
            s = _column_for(f, name, cols, "independent", taken)
            if s is not None:
                others.append((name, s))
                taken.add(s.column.name)
        response = _column_for(f, eq.response, cols, "response", taken)
        if notes is not None and response is None and not others:
            by_words = _by_the_notes_words(f, cols, notes)
            if eq.response in by_words and len(by_words) >= 2:
                response = by_words.pop(eq.response)
                others = sorted(by_words.items())
                taken = {sc.column.name for _, sc in others} | {response.column.name}
        if response is None:
            left = _remaining(cols, taken)
            if left is not None:
                why = f"the column {left.name!r} {REMAINING_COLUMN}"
                response = Scored(left, 1.0, (why,))
        if response is None or response.column.set_point:
            continue
        found = [(eq.response, response), *others]
        if len(found) < 2:
            continue
        out = []
        for name, sc in found:
            role = "the response (left side)" if name == eq.response else "a variable"
            col = sc.column
            out.append(
                Binding(
                    model=CUSTOM,
                    variable=name,
                    file=col.file,
                    sheet=col.sheet,
                    column=col.name,
                    unit=col.unit,
                    per=sc.per,
                    evidence=Evidence(
                        source=f.clause.source,
                        phrase=f.quote,
                        reason=f"{name} of the written formula is {role}; " + "; ".join(sc.reasons),
                    ),
                )
            )
        return out
    return []


def _by_the_notes_words(
    f: ReadFormula, cols: Sequence[FolderColumn], notes: Notes
) -> dict[str, Scored]:
    """The formula's symbols the notes do not ask for, bound to the table's
    measured columns by the notes' words for them (or their letters)."""
    from labwright.analysis.request_rules.symbol_columns import asked_symbols, bind_by_words

    eq = f.written.equation
    names = sorted(set(eq.rhs.names) - {"pi", "e"})
    asked = asked_symbols(notes, [eq.response, *names], f.quote)
    symbols = [n for n in [eq.response, *names] if n not in asked]
    measured = [c for c in cols if c.numeric and c.role == "measurement" and not c.generated_name]
    plain = [n for n in symbols if not re.search(r"\d", n)]
    if len(symbols) > len(measured) and 2 <= len(plain) <= len(measured):
        # "C = A1 exp(−k1 t) + A2 exp(−k2 t)" over `time` and `conc`: the
        # numbered symbols are the terms' parameters, the others the columns.
        symbols = plain
    if len(symbols) < 2 or len(symbols) > len(measured):
        return {}
    return bind_by_words(notes, symbols, measured)


def custom_asked(
    f: ReadFormula, bound: set[str], notes: Notes, excluded: dict[int, list[tuple[int, int]]]
) -> tuple[list[AskedQuantity], dict[int, list[tuple[int, int]]]]:
    """The custom formula's parameters the notes ask for ("fit y = a exp(-x/τ)
    + c and report τ"), and the spans they take (no catalogue law claims
    them then)."""
    params = set(f.written.equation.rhs.names) - bound - {"pi", "e"}
    wanted = {p: (CUSTOM, p) for p in params}
    return _asked_symbols(f, wanted, notes, excluded, "a parameter of the formula the notes write")


def written_asked(
    f: ReadFormula, notes: Notes, excluded: dict[int, list[tuple[int, int]]]
) -> tuple[list[AskedQuantity], dict[int, list[tuple[int, int]]]]:
    """The parameters of a matched law the notes ask for by their own symbol
    for it: Loblolly's "find the asymptotic height hmax" of h = hmax + (h0 -
    hmax) exp(-k t) asks first_order_offset's A_inf, which was computed and
    printed as "not asked"."""
    if f.match is None:
        return [], {}
    entry = f.match.entry
    parameters = {p.name for p in entry.parameters}
    wanted = {w: (entry.key, e) for w, e in f.match.mapping if e in parameters and w != e}
    # A product read as one parameter (τ = R C): a factor the law derives
    # ("work out C") is asked by its written symbol.
    derived = {d.key.casefold(): d.key for d in entry.derived}
    for w, _e in f.match.mapping:
        if SYMBOL_IN_TEXT.fullmatch(w):
            continue
        for factor in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", w):
            if factor.casefold() in derived:
                wanted.setdefault(factor, (entry.key, derived[factor.casefold()]))
    return _asked_symbols(
        f, wanted, notes, excluded, f"the notes' symbol for it in the {entry.name.en}"
    )


def _asked_symbols(
    f: ReadFormula,
    wanted: dict[str, tuple[str, str]],
    notes: Notes,
    excluded: dict[int, list[tuple[int, int]]],
    why: str,
) -> tuple[list[AskedQuantity], dict[int, list[tuple[int, int]]]]:
    """Written symbols (-> model, quantity) asked in a clause with a cue."""
    renamed = {n: token for token, n in f.written.renamed}
    asked: list[AskedQuantity] = []
    taken: dict[int, list[tuple[int, int]]] = {}
    seen: set[str] = set()
    for clause in notes.clauses:
        cue = asks(clause)
        if cue is None:
            continue
        spans = excluded.get(clause.index, [])
        for m in SYMBOL_IN_TEXT.finditer(clause.text):
            if any(a <= m.start(1) < b for a, b in spans):
                continue
            for p in sorted(wanted):
                if p in seen:
                    continue
                if any(same_symbol(m.group(1), s) for s in (p, renamed.get(p, p))):
                    seen.add(p)
                    name = notes_name(clause, m.start(1))
                    # The notes' words for the symbol ("the half-saturation
                    # constant Khalf") name it: they ask no other law's
                    # quantity (Monod's Ks, the dose-response's top).
                    begin = clause.text.rfind(name, 0, m.start(1)) if name else -1
                    taken.setdefault(clause.index, []).append(
                        (begin if begin >= 0 else m.start(1), m.end(1))
                    )
                    model, quantity = wanted[p]
                    asked.append(
                        AskedQuantity(
                            quantity=quantity,
                            model=model,
                            name=name,
                            evidence=Evidence(
                                source=clause.source,
                                phrase=m.group(1),
                                reason=f"'{m.group(1)}' is asked ('{cue}'); {why}",
                            ),
                        )
                    )
    return asked, taken
