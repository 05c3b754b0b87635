"""Which catalogue entry a formula written in the notes is.

Notes write a law with their own symbols (`c = c₀e^{-kt}`, `[A] = [A]0
exp(-k t)`, `N = N0 e^{-t/τ}`... ), so names alone cannot decide. A written
formula is the entry's law when, after mapping each written symbol to one of
the entry's, both sides agree as functions: evaluated on random points (all
symbols drawn log-uniformly around 1, the same draw for both), the written
equation holds wherever both are defined. Names narrow the search first (a
written symbol equal to an entry's symbol, or to one of the ways its
variable is written, is mapped to it); the rest are tried in every
assignment, which is few for laws of at most seven symbols. A parameter of
the entry that the written formula lacks may be zero (`U = R I` is Ohm's law
with no offset); a constant it lacks keeps its value.

Matches are ranked by how many written names agreed with the entry's by
name, so `U = R·I` is Ohm's law before it is Hooke's, whose form is the same.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from labwright.analysis.catalogue.expr import (
    ARRAY,
    Expr,
    FormulaError,
    parse_equation,
    parse_expression,
)
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.catalogue.written import GREEK, WrittenFormula, read_formula

_POINTS = 24
_MAX_ASSIGNMENTS = 5000
_RTOL = 1e-7
_MAX_SUCCESSES = 12


@dataclass(frozen=True)
class FormulaMatch:
    """A catalogue entry a written formula is, and how its symbols map."""

    entry: ModelEntry
    written: WrittenFormula
    mapping: tuple[tuple[str, str], ...]  # written symbol -> entry symbol
    zeroed: tuple[str, ...] = ()  # entry parameters the written formula leaves out (= 0)
    by_name: int = 0  # written symbols whose name agreed with the entry's

    @property
    def exact(self) -> bool:
        """Every parameter of the entry is in the written formula."""
        return not self.zeroed

    def entry_symbol(self, written: str) -> str | None:
        return dict(self.mapping).get(written)


@lru_cache(maxsize=4096)
def _fold(name: str) -> str:
    """A symbol folded for comparison: N_0 ~ N0 ~ N₀, K_m ~ Km, λ ~ lam ~ lambda.
    Cached: a pure function of its text, called ~4,000 times a build on a few
    hundred symbols (every entry's aliases, for each formula the notes write)."""
    text = "".join(GREEK.get(ch, ch) for ch in name)
    text = text.replace("lambda", "lam").replace("[", "").replace("]", "")
    return re.sub(r"[\s_{}\\]", "", text).casefold()


def _aliases(entry: ModelEntry) -> dict[str, set[str]]:
    """Folded names each entry symbol is known by (its name, its variable's symbols)."""
    names: dict[str, set[str]] = {}
    for v in entry.variables:
        names[v.name] = {_fold(v.name)} | {_fold(s) for s in v.symbols}
    for p in entry.parameters:
        names[p.name] = {_fold(p.name), _fold(p.latex)}
    for c in entry.constants:
        names[c.name] = {_fold(c.name)}
    for i in entry.inputs:
        names[i.name] = {_fold(i.name)} | {_fold(s) for s in i.symbols}
    return names


def known_symbols(entries: Iterable[ModelEntry]) -> set[str]:
    """Identifiers the entries use (for splitting `RT` into R·T when reading)."""
    known: set[str] = set()
    for entry in entries:
        for name in _aliases(entry):
            known.add(name)
        for v in entry.variables:
            known.update(s for s in v.symbols if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", s))
    return known


def _assignments(
    written: list[str],
    response: str,
    entry_response: str,
    candidates: Mapping[str, list[str]],
    variables: Sequence[str] = (),
) -> Iterable[dict[str, str]]:
    """Injective maps of the written symbols to entry symbols, in the order
    of each symbol's candidates. The written response is one of the law's
    variables: its response, or another when the notes write the law the
    other way round ("F = k x" of a law fitted as x = F/k); the law's
    response is then another written symbol."""
    order = sorted(written, key=lambda w: w != response)
    count = 0
    swapped = [v for v in variables if v != entry_response]

    def extend(i: int, used: set[str], partial: dict[str, str]) -> Iterable[dict[str, str]]:
        nonlocal count
        if count > _MAX_ASSIGNMENTS:
            return
        if i == len(order):
            if entry_response in partial.values():
                count += 1
                yield dict(partial)
            return
        w = order[i]
        if w == response:
            options = [entry_response, *(v for v in candidates[w] if v in swapped)]
        else:
            options = candidates[w]
        for s in options:
            if s in used:
                continue
            partial[w] = s
            used.add(s)
            yield from extend(i + 1, used, partial)
            used.discard(s)
            del partial[w]

    yield from extend(0, set(), {})


def _offsets(rhs: Expr, variables: frozenset[str] = frozenset()) -> frozenset[str]:
    return _offsets_of(rhs.text, variables)


@lru_cache(maxsize=1024)
def _offsets_of(text: str, variables: frozenset[str]) -> frozenset[str]:
    """Names that are a whole additive term of the right side (F0 in k*x +
    F0), or of a sum inside it that shifts one of the law's `variables`
    (F0 in (F - F0)/k), written once: the only parameters a written formula
    may leave out (as zero). A term beside another parameter (A0 in A_inf +
    (A0 - A_inf) e^{-kt}) is part of the law's shape, not an offset.
    Cached: every candidate mapping of every entry asks it."""
    rhs = parse_expression(text)
    names = [n.id for n in ast.walk(rhs.tree) if isinstance(n, ast.Name)]

    def terms_of(node: ast.expr) -> list[ast.expr]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            return terms_of(node.left) + terms_of(node.right)
        return [node]

    found = {t.id for t in terms_of(rhs.tree.body) if isinstance(t, ast.Name)}
    for node in ast.walk(rhs.tree.body):
        if node is rhs.tree.body or not (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub)
        ):
            continue
        terms = [t.id for t in terms_of(node) if isinstance(t, ast.Name)]
        if any(t in variables for t in terms):
            found |= {t for t in terms if t not in variables}
    return frozenset(name for name in found if names.count(name) == 1)


def _agree(lhs: Any, rhs: Any) -> bool:
    lhs, rhs = np.broadcast_arrays(np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float))
    ok = np.isfinite(lhs) & np.isfinite(rhs)
    if ok.sum() < _POINTS // 3:
        return False
    scale = np.maximum(np.abs(lhs[ok]), np.abs(rhs[ok]))
    return bool(np.all(np.abs(lhs[ok] - rhs[ok]) <= _RTOL * scale + 1e-300))


def _check(
    written: WrittenFormula,
    entry_rhs: Expr,
    entry: ModelEntry,
    mapping: Mapping[str, str],
    values: Mapping[str, np.ndarray[Any, Any]],
) -> tuple[str, ...] | None:
    """The entry parameters set to zero for the written formula to equal the
    entry's law under `mapping` (() when none), or None when it does not."""
    mapped = set(mapping.values())
    missing = [
        p.name for p in entry.parameters if p.name not in mapped and p.name in entry_rhs.names
    ]
    if not set(missing) <= _offsets(entry_rhs, frozenset(v.name for v in entry.variables)):
        return None
    env: dict[str, Any] = dict(values)
    for c in entry.constants:
        if c.name not in mapped:
            env[c.name] = c.value
    for i in entry.inputs:
        if i.name not in mapped and i.default is not None:
            env[i.name] = i.default
    for p in missing:
        env[p] = 0.0
    with np.errstate(all="ignore"):
        try:
            y = entry_rhs.evaluate(env, ARRAY)
            w_env = {w: (y if s == entry.response.name else env[s]) for w, s in mapping.items()}
            lhs = written.equation.lhs.evaluate(w_env, ARRAY)
            rhs = written.equation.rhs.evaluate(w_env, ARRAY)
        except (FormulaError, KeyError, ArithmeticError, ValueError, TypeError):
            return None
    return tuple(missing) if _agree(lhs, rhs) else None


def match_formula(
    formula: str | WrittenFormula, entries: Iterable[ModelEntry]
) -> list[FormulaMatch]:
    """The entries the written formula is, best first (most symbols agreeing
    by name, then the exact ones before those with a parameter left out).

    A text is read with the entries' symbols as the known names; when that
    reading matches nothing, it is read again with every single letter known
    too, so `y = mx + c` is y = m·x + c."""
    pool = list(entries)
    if isinstance(formula, WrittenFormula):
        return _matches(formula, pool)
    known = known_symbols(pool)
    found = _matches(read_formula(formula, known), pool)
    if not found:
        letters = known | set("abcdfghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        again = read_formula(formula, letters)
        if again.text != read_formula(formula, known).text:
            found = _matches(again, pool)
    return found


def match_collapsed(formula: str, entries: Iterable[ModelEntry]) -> list[FormulaMatch]:
    """The entries a written formula is once a product of its symbols is
    one parameter: "U = U0 exp(-t/(R C))" is the discharge law V0 exp(-t/τ)
    with τ = R C. Products of two or three bare symbols are tried one at a
    time, never with the response among them; a match counts only when the
    law itself knows every factor, as an input or a quantity it derives (the
    discharge law takes R and derives C = τ/R): otherwise any product would
    make a formula some simpler law (A = ε l c would be Ohm's law)."""
    try:
        equation = parse_equation(formula)
    except FormulaError:
        return []
    pool = list(entries)
    for node in ast.walk(equation.rhs.tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div)):
            continue
        names = _product_names(node)
        if names is None or not 2 <= len(names) <= 3 or equation.response in names:
            continue
        fresh = next(f"q{i}" for i in range(1, 99) if f"q{i}" not in equation.names)
        collapsed = ast.unparse(
            _Replace(node, ast.Name(fresh, ast.Load())).visit(
                ast.parse(ast.unparse(equation.rhs.tree.body), mode="eval")
            )
        )
        text = f"{ast.unparse(equation.lhs.tree.body)} = {collapsed}"
        try:
            found = _matches(read_formula(text, known_symbols(pool) | {fresh}), pool)
        except (FormulaError, ArithmeticError, ValueError):
            continue
        found = [m for m in found if _knows_factors(m.entry, names)]
        if found:
            product = ast.unparse(node)
            return [
                replace(m, mapping=tuple((product if w == fresh else w, e) for w, e in m.mapping))
                for m in found
            ]
    return []


def _knows_factors(entry: ModelEntry, names: list[str]) -> bool:
    known: set[str] = set()
    for i in entry.inputs:
        known |= {_fold(i.name)} | {_fold(s) for s in i.symbols}
    known |= {_fold(d.key) for d in entry.derived}
    return all(_fold(n) in known for n in names)


def _product_names(node: ast.expr) -> list[str] | None:
    """The names of a product of bare symbols (R*C, R/L), or None."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div):
        left, right = _product_names(node.left), _product_names(node.right)
        if left is None or right is None:
            return None
        return left + right
    return None


class _Replace(ast.NodeTransformer):
    """Puts `new` where a node equal to `old` stands."""

    def __init__(self, old: ast.expr, new: ast.expr) -> None:
        self.old, self.new = ast.dump(old), new

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and ast.dump(node) == self.old:
            return self.new
        out: ast.AST = super().visit(node)
        return out


def _matches(written: WrittenFormula, pool: list[ModelEntry]) -> list[FormulaMatch]:
    """The entries the formula is, its response the law's response or, when
    the notes write the law the other way round ("F = k x" of x = F/k), a
    variable of the law named as the written response (that larger search
    runs only for the laws whose variable the written response names)."""
    return _search(written, pool)


def _search(written: WrittenFormula, pool: list[ModelEntry]) -> list[FormulaMatch]:
    names = sorted(written.names)
    rng = np.random.default_rng(20261202)
    matches: list[FormulaMatch] = []
    for entry in pool:
        symbols = [v.name for v in entry.variables] + [p.name for p in entry.parameters]
        symbols += [c.name for c in entry.constants] + [i.name for i in entry.inputs]
        entry_rhs = parse_equation(entry.formula).rhs
        # Every variable and parameter must be written, but for offsets left out.
        variables = frozenset(v.name for v in entry.variables)
        essential = (
            len(entry.variables) + len(entry.parameters) - len(_offsets(entry_rhs, variables))
        )
        if not essential <= len(names) <= len(symbols):
            continue
        aliases = _aliases(entry)
        response = _fold(written.equation.response)
        swap = any(
            response in aliases[v.name] for v in entry.variables if v.name != entry.response.name
        )
        # Symbols of the same name are tried first, then every other one.
        candidates: dict[str, list[str]] = {}
        for w in names:
            same = [s for s in symbols if _fold(w) in aliases[s]]
            rest = [s for s in symbols if s not in same and (swap or s != entry.response.name)]
            candidates[w] = same + rest
        values = {s: np.exp(rng.uniform(np.log(0.4), np.log(2.5), _POINTS)) for s in symbols}
        # Symmetric forms (a product, a sum) match under several maps: keep
        # the one whose names agree most.
        best: FormulaMatch | None = None
        successes = 0
        for mapping in _assignments(
            names,
            written.equation.response,
            entry.response.name,
            candidates,
            [v.name for v in entry.variables] if swap else (),
        ):
            zeroed = _check(written, entry_rhs, entry, mapping, values)
            if zeroed is None:
                continue
            by_name = sum(_fold(w) in aliases[s] for w, s in mapping.items())
            if best is None or by_name > best.by_name:
                best = FormulaMatch(entry, written, tuple(sorted(mapping.items())), zeroed, by_name)
            successes += 1
            if successes >= _MAX_SUCCESSES or by_name == len(names):
                break
        if best is not None:
            matches.append(best)
    matches.sort(key=lambda m: (-m.by_name, len(m.zeroed), m.entry.key))
    return matches
