"""The notes' definitions of a column from others: "F = m g", "L = l + d/2".

Read before anything is bound (`analysis/derived_columns.py` computes
them): the values a definition uses are the ones the notes assign to a
symbol ("g = 9.80 m/s²", "g 取 9.80 m/s²", "d = 2.004 cm"), known before the
law is; the columns are those named by the definition's symbols.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import replace

from labwright.analysis.catalogue.expr import FormulaError, parse_expression
from labwright.analysis.catalogue.written import read_formula
from labwright.analysis.derived_columns import apply, evaluate, finite, is_definition
from labwright.analysis.request import DerivedColumn, Evidence
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.equations import Written
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.values import statements
from labwright.analysis.request_rules.words import SYMBOL_IN_TEXT, names_symbol
from labwright.ingest.types import Dataset, ReadResult


def symbol_values(notes: Notes) -> dict[str, tuple[float, str | None]]:
    """Values the notes assign to a symbol, first assignment kept."""
    out: dict[str, tuple[float, str | None]] = {}
    for clause in notes.clauses:
        for st in statements(clause):
            subject = subject_symbol(st.subject)
            if subject is None or st.expected:
                continue
            out.setdefault(subject, (st.measured.value, st.measured.unit))
    return out


def subject_symbol(subject: str) -> str | None:
    """The symbol a value statement assigns: the subject itself ("D = 4.02
    mg/kg"), or the symbol after the quantity's name ("Dose D = 4.02 mg/kg",
    "the wire length L = 0.8 m"); None for a subject that names no symbol."""
    subject = subject.strip()
    if SYMBOL_IN_TEXT.fullmatch(subject):
        return subject
    named = _NAMED_SYMBOL.fullmatch(subject)
    return named.group("sym") if named else None


# A name of one to three words, then a symbol of one letter with a subscript
# or digits; "half-life in adults" ends in a word, not a symbol.
_NAMED_SYMBOL = re.compile(
    r"(?:[A-Za-z][a-z-]*\s+){1,3}(?P<sym>[A-Za-zΑ-Ωα-ω](?:_[A-Za-z0-9]{1,3}|\d{1,2})?)"
)


# "x左", "U测": a Latin symbol with a Chinese qualifier glued to it.
_QUALIFIED = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9]*)_?([\u3400-\u9fff]{1,2})")


def ascii_qualifiers(text: str) -> tuple[str, dict[str, str]]:
    """The formula with each Chinese-qualified symbol ("x左") renamed to one
    the parser reads ("x_q1"), and the new names' qualifiers ("左")."""
    found: dict[str, str] = {}
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        key = m.group(0)
        if key not in names:
            names[key] = f"{m.group(1)}_q{len(names) + 1}"
            found[names[key]] = m.group(2)
        return names[key]

    return _QUALIFIED.sub(rename, text), found


def qualified_columns(qualified: dict[str, str], cols: Sequence[FolderColumn]) -> dict[str, str]:
    """Each qualified symbol's column: the one numeric column whose name has
    the qualifier ("左侧读数" for x左), when the qualifiers tell the columns
    apart; none when a qualifier is in no column or in several."""
    out: dict[str, str] = {}
    for name, qualifier in qualified.items():
        holders = [c.name for c in cols if c.numeric and qualifier in c.name]
        if len(holders) != 1:
            return {}
        out[name] = holders[0]
    return out if len(set(out.values())) == len(out) else {}


def definitions(
    notes: Notes,
    equations: dict[int, list[Written]],
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    known: frozenset[str] = frozenset(),
) -> list[DerivedColumn]:
    values = symbol_values(notes)
    out: list[DerivedColumn] = []
    seen: set[str] = set()
    for clause in notes.clauses:
        for w in equations.get(clause.index, []):
            text, qualified = ascii_qualifiers(w.text)
            for ds, cols in tables:
                named = {c.name: c.name for c in cols if c.numeric and not c.generated_name}
                named.update({c.symbol: c.name for c in cols if c.numeric and c.symbol})
                named.update(qualified_columns(qualified, cols))
                try:
                    wf = read_formula(text, known | set(named) | set(values))
                except FormulaError:
                    break
                eq = wf.equation
                if not eq.explicit or eq.response in seen:
                    break
                expression, means = _with_replicate_means(eq.rhs.text, named, values, cols)
                named = {**named, **means}
                symbols = parse_expression(expression).names
                columns = {
                    s: named[next(n for n in named if names_symbol(n, s))]
                    for s in symbols
                    if any(names_symbol(n, s) for n in named)
                }
                if any(names_symbol(n, eq.response) for n in named):
                    break  # the left side is a column: a law of the data, not a definition
                given = {s: values[s] for s in symbols if s in values and s not in columns}
                if not is_definition(symbols | {eq.response}, eq.response, columns, given):
                    continue
                part = ds.provenance.sheet if ds.provenance else None
                d = DerivedColumn(
                    name=eq.response,
                    expression=expression,
                    written=w.quote,
                    file=ds.source,
                    sheet=part,
                    columns=tuple(sorted(columns.items())),
                    constants=tuple(sorted((s, v, u) for s, (v, u) in given.items())),
                    evidence=Evidence(
                        source=clause.source,
                        phrase=w.quote,
                        reason=f"the notes define {eq.response} from the column(s) "
                        f"{', '.join(sorted(columns.values()))}"
                        + (f" and the given {', '.join(sorted(given))}" if given else "")
                        + f" of {ds.source}: computed row by row",
                    ),
                )
                found = evaluate(d, ds)
                if found is not None and finite(found[0]):
                    out.append(d)
                    seen.add(eq.response)
                break
    return out


def _with_replicate_means(
    expression: str,
    named: dict[str, str],
    values: dict[str, tuple[float, str | None]],
    cols: Sequence[FolderColumn],
) -> tuple[str, dict[str, str]]:
    """`expression` with each symbol that names no column and no given value
    but a group of repeat columns ("t" of t1, t2, t3: one fall timed three
    times) read as the mean of the group, row by row: "a = 2h/t²" is then
    2h/t̄², as the lab computes it. Returns the expression and the names it
    gives the group's columns (t_rep1 -> "t1 (s)")."""
    tree = ast.parse(expression, mode="eval")
    means: dict[str, str] = {}
    grouped: dict[str, ast.expr] = {}
    for symbol in sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}):
        if symbol in values or any(names_symbol(n, symbol) for n in named):
            continue
        group = [c for c in cols if c.numeric and c.replicate_of == symbol]
        if len(group) < 2 or len({c.unit for c in group}) != 1:
            continue
        parts = {f"{symbol}_rep{i}": c.name for i, c in enumerate(group, start=1)}
        means.update(parts)
        grouped[symbol] = ast.parse(f"(({' + '.join(parts)})/{len(parts)})", mode="eval").body

    class _Mean(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return grouped.get(node.id, node)

    if not grouped:
        return expression, {}
    return ast.unparse(_Mean().visit(tree)), means


def with_definitions(read: ReadResult, derived: Sequence[DerivedColumn]) -> ReadResult:
    return apply(read, derived)


# "E = S (Th − Tc)": a law written over the difference of two columns.
_DIFFERENCE = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9_]*)\s*[-−–]\s*([A-Za-z][A-Za-z0-9_]*)\s*\)")


def difference_columns(
    equations: dict[int, list[Written]],
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
) -> tuple[list[DerivedColumn], dict[int, list[Written]]]:
    """A law the notes write over the difference of two columns of one table
    ("E = S (Th − Tc)", "p = ρ g (h1 − h2)"): the difference becomes a column
    of its own, named Δ and the columns' common letter (ΔT, Δh), and the law
    is read over it, so a catalogue law of one variable (the Seebeck
    effect's ΔT) binds it. The equations come back with the difference
    replaced by its name."""
    out: list[DerivedColumn] = []
    rewritten: dict[int, list[Written]] = {}
    for index, written in equations.items():
        kept: list[Written] = []
        for w in written:
            m = _DIFFERENCE.search(w.rhs)
            found = _difference(m, w, tables) if m else None
            if found is None:
                kept.append(w)
                continue
            derived, name = found
            out.append(derived)
            rhs = w.rhs[: m.start()] + f"({name})" + w.rhs[m.end() :] if m else w.rhs
            kept.append(replace(w, rhs=rhs))
        rewritten[index] = kept
    return out, rewritten


def _difference(
    m: re.Match[str], w: Written, tables: Sequence[tuple[Dataset, list[FolderColumn]]]
) -> tuple[DerivedColumn, str] | None:
    a, b = m.group(1), m.group(2)
    if a == b:
        return None
    for ds, cols in tables:
        named = [c for c in cols if c.numeric and not c.generated_name]
        col_a = next((c for c in named if names_symbol(c.name, a)), None)
        col_b = next((c for c in named if names_symbol(c.name, b)), None)
        if col_a is None or col_b is None or col_a is col_b or col_a.dimension != col_b.dimension:
            continue
        letter = a[0] if a[0] == b[0] else a
        name = f"Δ{letter}"
        if any(names_symbol(c.name, name) for c in named):
            return None  # the table has the difference already
        part = ds.provenance.sheet if ds.provenance else None
        derived = DerivedColumn(
            name=name,
            expression=f"{a} - {b}",
            written=f"{name} = {a} − {b}",
            file=ds.source,
            sheet=part,
            columns=((a, col_a.name), (b, col_b.name)),
            evidence=Evidence(
                source=w.clause.source,
                phrase=w.quote,
                reason=f"the law the notes write uses {a} − {b}, the difference of the columns "
                f"{col_a.name} and {col_b.name} of {ds.source}: computed row by row as {name}",
            ),
        )
        found = evaluate(derived, ds)
        if found is not None and finite(found[0]):
            return derived, name
        return None
    return None
