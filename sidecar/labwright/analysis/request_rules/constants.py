"""Values the notes give: constants the law needs, and values to compare with.

A value is read by `values.py` with its subject; what the subject is
decides what the value is for:

- an input of a law the request uses (the spring's mass, the enzyme
  concentration E0, the path length) or one of its physical constants (R):
  a given constant, used in the computation;
- a fitted parameter or derived quantity ("Km for this enzyme is reported
  as 2.5 mM", "the literature half-life is 2.55 min", "活化能约为 50
  kJ/mol"): the value the result is compared with, never a constant that
  would fix the fit; the quantity is asked, since a comparison needs it;
- a symbol the catalogue does not know ("C = 100 µF"): kept as a given
  constant under the symbol written, for a written formula or a comparison
  ("compare τ with RC": `expected_products`);
- a variable of the law ("T = 298 K") is a condition of the measurement,
  and words nothing in the catalogue names are not read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.request import AskedQuantity, Evidence, ExpectedValue, GivenConstant
from labwright.analysis.request_rules.text import Clause, Notes
from labwright.analysis.request_rules.values import (
    Measured,
    Statement,
    statements,
    values_before_nouns,
)
from labwright.analysis.request_rules.vocabulary import Hit, Vocabulary
from labwright.analysis.request_rules.words import same_symbol


@dataclass(frozen=True)
class Given:
    constants: list[GivenConstant]
    expected: list[ExpectedValue]
    asked: list[AskedQuantity]


def _subject_hits(st: Statement, vocab: Vocabulary) -> list[Hit]:
    sub = Clause(st.clause.source, st.subject, st.subject, "", False, -1)
    return vocab.hits(sub, frozenset({"input", "quantity", "constant", "variable"}))


def _unit_template(text: str | None, entry: ModelEntry) -> str | None:
    """A catalogue unit with its variables' typical units put in ("{v}/{S}")."""
    if not text:
        return None
    units = {v.name: v.unit for v in entry.variables}
    out = text
    for name, unit in units.items():
        if "{" + name + "}" in out:
            if not unit:
                return None
            plain = re.fullmatch(r"[A-Za-zµμΩ°]+", unit) is not None
            out = out.replace("{" + name + "}", unit if plain else f"({unit})")
    return None if "{" in out else out


def term_dimension(hit: Hit, vocab: Vocabulary) -> str | None:
    """The dimension the catalogue gives the term (an input's, a constant's,
    a parameter's unit), or None when it gives none."""
    entry = vocab.entry(hit.term.model)
    if entry is None:
        return None
    name = hit.term.name
    unit: str | None = None
    if hit.term.kind == "input":
        unit = next((i.unit for i in entry.inputs if i.name == name), None)
    elif hit.term.kind == "constant":
        unit = next((c.unit for c in entry.constants if c.name == name), None)
    elif hit.term.kind == "quantity":
        p = next((p for p in entry.parameters if p.name == name), None)
        d = next((d for d in entry.derived if d.key == name), None)
        unit = p.unit if p is not None else (d.unit if d is not None else None)
    elif hit.term.kind == "variable":
        unit = next((v.unit for v in entry.variables if v.name == name), None)
    return dimension(_unit_template(unit, entry))


def _rank(hits: list[Hit], models: Sequence[str]) -> list[Hit]:
    """Terms of the request's laws first, then inputs before quantities."""
    order = {"input": 0, "constant": 1, "quantity": 2, "variable": 3, "model": 4}
    return sorted(
        hits,
        key=lambda h: (h.term.model not in models, order[h.term.kind], -(h.end - h.start)),
    )


def _given_constant(symbol: str, m: Measured, ev: Evidence, reason: str) -> GivenConstant:
    """A value of the notes, kept as a constant with why it is one."""
    return GivenConstant(
        symbol=symbol, value=m.value, uncertainty=m.uncertainty, unit=m.unit,
        evidence=ev.model_copy(update={"reason": reason}),
    )  # fmt: skip


def _as_written(symbol: str, m: Measured, ev: Evidence) -> GivenConstant:
    """A value the notes give to a symbol no law of the request names, kept
    under the notes' own symbol."""
    return _given_constant(
        symbol, m, ev, f"the notes give {symbol} (no law of the request names it)"
    )


def _symbols_of(requested: Collection[tuple[str | None, str]], vocab: Vocabulary) -> set[str]:
    """How the report writes each requested quantity (its symbol: e for the
    resonance tube's end correction dL_end), and its key."""
    out: set[str] = set()
    for key, quantity in requested:
        out.add(quantity)
        entry = vocab.entry(key) if key else None
        p = entry.parameter(quantity) if entry is not None else None
        if p is not None and p.latex.isidentifier():
            out.add(p.latex)
    return out


def given_values(
    notes: Notes,
    vocab: Vocabulary,
    models: Sequence[str],
    written: Collection[str] = (),
    requested: Collection[tuple[str | None, str]] = (),
    columns: Collection[str] = (),
) -> Given:
    """The constants, the values to compare with and the quantities those ask.

    `written`: the laws the notes write out as a formula. A value of such a
    law's variable ("in a 1.00 cm cuvette" beside "A = ε l c") is kept as a
    given constant: the notes wrote the symbol into the law they ask, and a
    calibration against the other variable needs it (ε = slope/l).
    `requested`: the (law, quantity) pairs the notes already ask for; a
    plain value of one of those is the value to compare with. `columns`: the
    names and symbols of the folder's numeric columns."""
    constants: list[GivenConstant] = []
    expected: list[ExpectedValue] = []
    asked: list[AskedQuantity] = []
    seen: set[str] = set()
    unplaced: list[tuple[Statement, Evidence]] = []
    asked_symbols = _symbols_of(requested, vocab)
    for clause in notes.clauses:
        said = statements(clause)
        taken = [(st.subject_start, st.measured.end) for st in said]
        taken += [(st.measured.start, st.subject_end) for st in said]
        for st in said + values_before_nouns(clause, taken):
            if st.is_symbol:
                hits = [
                    h
                    for h in _subject_hits(st, vocab)
                    if h.term.is_symbol and same_symbol(st.subject, h.term.phrase)
                ]
            else:
                hits = [h for h in _subject_hits(st, vocab)]
            m = st.measured
            # A value whose unit contradicts the term is not its value
            # ("R = 8.314 J/(mol K)" is no resistance).
            got = dimension(m.unit) if m.unit else None
            hits = [
                h
                for h in hits
                if got is None or (want := term_dimension(h, vocab)) is None or want == got
            ]
            # A law outside the request is taken at its word only when the
            # units agree too, and for a value to compare with, only when the
            # sentence says it is one ("R = 10 kΩ" in an RC experiment is a
            # component, not Ohm's law's expected resistance).
            hits = [
                h
                for h in hits
                if h.term.model in models
                or (
                    got is not None
                    and term_dimension(h, vocab) == got
                    and (h.term.kind != "quantity" or st.expected)
                )
            ]
            ranked = _rank(hits, models)
            ev = Evidence(source=clause.source, phrase=st.quote, reason="")
            if not ranked and not st.is_symbol and m.unit and not st.expected:
                unplaced.append((st, ev))
            if not ranked:
                if st.is_symbol and st.expected and st.subject in asked_symbols:
                    continue  # "theory says e ≈ 0.3 D" of the asked end correction e
                if st.is_symbol and any(same_symbol(st.subject, c) for c in columns):
                    continue  # "(Gas = 0, T = -a/b)": a condition on a column, no constant
                if st.is_symbol and st.subject not in seen:
                    seen.add(st.subject)
                    constants.append(_as_written(st.subject, m, ev))
                continue
            top = ranked[0]
            kind, key, name = top.term.kind, top.term.model, top.term.name
            if kind in ("input", "constant") and st.is_symbol and key not in models:
                # A law outside the request vouched only for the value's kind:
                # the notes' own symbol stays (Cavendish's Earth radius R is
                # not Poiseuille's capillary radius r).
                if st.subject in seen:
                    continue
                seen.add(st.subject)
                constants.append(_as_written(st.subject, m, ev))
            elif kind in ("input", "constant"):
                if name in seen:
                    continue
                seen.add(name)
                entry = vocab.entry(key)
                what = "an input" if kind == "input" else "a constant"
                law = entry.name.en if entry else key
                constants.append(
                    _given_constant(
                        name, m, ev, f"{what} of the {law} law ({name}), given in the notes"
                    )
                )
            elif kind == "variable" and key in written and key in models:
                if name in seen:
                    continue
                seen.add(name)
                entry = vocab.entry(key)
                law = entry.name.en if entry else key
                constants.append(
                    _given_constant(
                        name,
                        m,
                        ev,
                        f"the value at which the notes held {name} of the "
                        f"{law} that they write out",
                    )
                )
            elif (
                kind == "quantity"
                and not st.expected
                and not {(key, name), (None, name)} & set(requested)
            ):
                # A plain value of a derived quantity is a given value (a
                # component: "C = 100 µF" of an RC circuit, whose τ is then
                # compared with RC); of a fitted parameter, without saying it
                # is a reference, it is not read (a start value, a guess).
                # Of a quantity the notes ask for, it is the value to compare
                # with ("find C; the can says 47 µF nominal").
                entry = vocab.entry(key)
                derived = entry is not None and any(d.key == name for d in entry.derived)
                if derived and name not in seen:
                    seen.add(name)
                    law = entry.name.en if entry else key
                    constants.append(
                        _given_constant(
                            name, m, ev, f"a value of the {law} law's {name}, given in the notes"
                        )
                    )
            elif kind == "quantity":
                if f"{key}.{name}" in seen or _IDEAL.search(clause.text):
                    # "an ideal diode has n = 1": the limit of the theory, no
                    # value this sample is expected to give.
                    continue
                seen.add(f"{key}.{name}")
                reason = (
                    f"a value of {vocab.quantity_label(key, name)} ({name}) to compare the result with"
                    + (" (a literature or expected value)" if st.expected else "")
                )
                expected.append(
                    ExpectedValue(
                        quantity=name,
                        model=key,
                        value=m.value,
                        uncertainty=m.uncertainty,
                        unit=m.unit,
                        evidence=ev.model_copy(update={"reason": reason}),
                    )
                )
                asked.append(
                    AskedQuantity(
                        quantity=name,
                        model=key,
                        evidence=ev.model_copy(
                            update={
                                "reason": "the notes give a value to compare it with, so it is asked"
                            }
                        ),
                    )
                )
    constants += _by_dimension(unplaced, vocab, models, {c.symbol for c in constants})
    return Given(constants, expected, asked)


# A value the notes call the ideal one (not the ideal gas's constants).
_IDEAL = re.compile(r"\bideal(?:ly)?\b(?!\s+gas)|理想(?!气体)", re.I)


def _by_dimension(
    unplaced: Sequence[tuple[Statement, Evidence]],
    vocab: Vocabulary,
    models: Sequence[str],
    given: set[str],
) -> list[GivenConstant]:
    """A value the notes give in words no input of the law is known by
    ("25.00 mL of diluted vinegar was titrated", "at 295 K") is the input it
    must be when nothing else can be: the one input of the request's laws of
    that dimension still missing (or left at its default), and the one such
    value of that dimension in the notes. Two candidates either way: nothing
    is guessed."""
    missing: dict[str, list[tuple[str, str, str]]] = {}
    for key in models:
        entry = vocab.entry(key)
        if entry is None:
            continue
        for i in entry.inputs:
            # An input with a default (a room temperature) takes the notes'
            # one value of its dimension ("a diode at 295 K") before it.
            if i.name in given or not i.unit:
                continue
            dim = dimension(i.unit)
            if dim is not None:
                missing.setdefault(dim, []).append((i.name, entry.name.en, i.label.en))
    values: dict[str, list[tuple[Statement, Evidence]]] = {}
    for st, ev in unplaced:
        dim = dimension(st.measured.unit) if st.measured.unit else None
        if dim is not None:
            values.setdefault(dim, []).append((st, ev))
    out: list[GivenConstant] = []
    for dim, inputs in missing.items():
        found = values.get(dim, [])
        if len({name for name, _, _ in inputs}) != 1 or len(found) != 1:
            continue
        (name, law, label), (st, ev) = inputs[0], found[0]
        out.append(
            _given_constant(
                name,
                st.measured,
                ev,
                f"the {label} of the {law} law: the notes' one value in its dimension "
                f"('{st.subject}'), and no other input of the law is",
            )
        )
    return out


# "compare τ with RC", "compare the time constant with the product RC", "与 RC 比较"
_COMPARE = re.compile(
    r"\bcompar\w*\b[^.;\n]{0,60}?\b(?:with|to|against)\s+(?:the\s+)?(?:product\s+|value\s+)?"
    r"(?:of\s+)?(?P<expr>[A-Za-z](?:\s*[·*×/]?\s*[A-Za-z]){1,3})\b"
    r"|与\s*(?P<zh>[A-Za-z](?:\s*[·*×/]?\s*[A-Za-z]){1,3})\s*(?:的乘积)?\s*(?:比较|对比|相比)",
    re.I,
)


def expected_products(
    notes: Notes, constants: Sequence[GivenConstant], asked: Sequence[AskedQuantity]
) -> list[ExpectedValue]:
    """ "Compare τ with RC": the product (or ratio) of given constants as the
    expected value of the asked quantity of the clause, with its unit and
    the constants' uncertainties combined (relative, in quadrature)."""
    by_symbol = {c.symbol: c for c in constants}
    out: list[ExpectedValue] = []
    for clause in notes.clauses:
        for m in _COMPARE.finditer(clause.text):
            expr = (m.group("expr") or m.group("zh") or "").replace(" ", "")
            parts = re.findall(r"([·*×/]?)([A-Za-z])", expr)
            if not parts or any(sym not in by_symbol for _, sym in parts):
                continue
            target = next(
                (
                    a
                    for a in asked
                    if a.evidence.source == clause.source and a.evidence.phrase in clause.text
                ),
                asked[0] if len(asked) == 1 else None,
            )
            if target is None:
                continue
            rel2 = 0.0
            factors: list[tuple[bool, GivenConstant]] = []
            for op, sym in parts:
                c = by_symbol[sym]
                if c.uncertainty and c.value:
                    rel2 += (c.uncertainty / c.value) ** 2
                factors.append((op == "/", c))
            product = _product(factors)
            if product is None:
                continue
            value, unit = product
            out.append(
                ExpectedValue(
                    quantity=target.quantity,
                    model=target.model,
                    value=value,
                    uncertainty=abs(value) * math.sqrt(rel2) if rel2 else None,
                    unit=unit,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=m.group(0),
                        reason=f"the notes compare it with {expr}, computed from the values they give",
                    ),
                )
            )
    return out


def _product(factors: list[tuple[bool, GivenConstant]]) -> tuple[float, str | None] | None:
    """The product (or ratio) of given values in base units ("10 kΩ" times
    "100 µF" is 1 s); without units, the plain product and no unit."""
    if any(not c.unit for _, c in factors):
        value = 1.0
        for divide, c in factors:
            value = value / c.value if divide else value * c.value
        return value, None
    from labwright.analysis.quantities import parse_unit, registry

    try:
        ureg = registry()
        q: Any = ureg.Quantity(1.0, "dimensionless")
        for divide, c in factors:
            unit = parse_unit(c.unit)
            if unit is None:
                return None
            f = ureg.Quantity(c.value, unit)
            q = q / f if divide else q * f
        q = q.to_base_units()
        return float(q.magnitude), (f"{q.units:~P}" or None)
    except Exception:  # noqa: BLE001 - units pint cannot combine: no expected value
        return None
