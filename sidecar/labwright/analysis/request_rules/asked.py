"""The quantities the notes ask for, by name or symbol, in English and Chinese.

A quantity is asked when the catalogue knows its phrase ("activation
energy", "半衰期", "equivalence volume", "peak widths") or its symbol ("Km",
"t½", "λ"), and the clause it stands in asks (a verb such as "determine" or
"求", a question, a "Tasks" heading above it, or a clause that is nothing
but a list of quantities). A quantity inside a written equation is part of
the law, not a request; one after a negation is not asked; a one-letter
Latin symbol counts only where symbols are listed ("find g", "determine A
and Ea"), never as a word ("a", "I").

Which law a quantity belongs to: the law the notes name when it has the
quantity; else the only law that has it; else the law with the most
evidence in the notes and the columns (`score`); else none, and every
candidate is listed for the analysis to compare.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from labwright.analysis.request import AskedQuantity, Evidence, NamedModel
from labwright.analysis.request_rules.cues import (
    asks,
    is_list_of_terms,
    negated_before,
    source_spans,
)
from labwright.analysis.request_rules.text import Clause, Notes
from labwright.analysis.request_rules.vocabulary import Hit, TermKind, Vocabulary
from labwright.analysis.request_rules.words import symbol_key

_QUANTITY: frozenset[TermKind] = frozenset({"quantity"})
_VARIABLE: frozenset[TermKind] = frozenset({"variable"})
_MODEL: frozenset[TermKind] = frozenset({"model"})
_LIST_BEFORE = re.compile(
    r"(?:\b(?:find|determine|calculate|compute|estimate|obtain|get|report|give|extract|"
    r"deduce|derive|evaluate|want|need|and|or|value of|values of)"
    r"|[,;:、，；：(（&]|求出?|计算|得到|确定|估计|给出|和|与|及|以及)\s*$",
    re.I,
)
_LATIN_LETTER = re.compile(r"[A-Za-z]")

Span = tuple[int, int]
Score = Callable[[str], float]


@dataclass(frozen=True)
class Mention:
    """One place in the notes that asks for a quantity (one or several laws have it)."""

    clause: Clause
    start: int
    end: int
    quote: str
    cue: str
    candidates: tuple[tuple[str, str], ...]  # (model key, quantity key)
    generic: bool = False  # only a word several laws share ("amplitude"): needs its law named


def _one_letter(h: Hit) -> bool:
    key = symbol_key(h.term.phrase)
    return h.term.is_symbol and len(key) == 1 and bool(_LATIN_LETTER.fullmatch(key))


_NEXT_IN_LIST = re.compile(r"\s*(?:,|;|&|\band\b|\bor\b|和|与|及|、|，|\(|（)?\s*", re.I)
# One-letter symbols that are also words: "a", "A" and "I" are symbols only
# in a list of symbols or right after their quantity's name.
_WORDS_TOO = frozenset({"a", "A", "I"})


def _listed(clause: Clause, h: Hit, accepted: list[Hit]) -> bool:
    """A one-letter symbol after an asking verb or a separator, or right
    after the quantity's own name ("the activation energy Ea")."""
    after_accepted = any(
        a.end <= h.start and _NEXT_IN_LIST.fullmatch(clause.text[a.end : h.start]) for a in accepted
    )
    if symbol_key(h.term.phrase) in _WORDS_TOO or clause.text[h.start : h.end] in _WORDS_TOO:
        return after_accepted
    return after_accepted or bool(_LIST_BEFORE.search(clause.text[: h.start]))


_UNIT_BEFORE = re.compile(r"(?:\d\s*|[·*/(（\[]\s*)$")
_UNIT_AFTER = re.compile(r"^\s*(?:[·*/⁻⁰¹²³⁴⁵⁶⁷⁸⁹^]|-\d)")


def _in_unit(text: str, h: Hit) -> bool:
    """A one-letter symbol that is a unit's letter: "in S·cm²·mol⁻¹", "0.5 h",
    "(h)", "mol/L": after a number or inside a compound unit, it names no
    quantity (the siemens is no Nernst slope, the hour no Hill slope)."""
    return bool(_UNIT_BEFORE.search(text[: h.start])) or bool(_UNIT_AFTER.match(text[h.end :]))


def _part_of_name(clause: Clause, h: Hit, law: Hit) -> bool:
    """The quantity's word is inside a law's name, or the word right before
    it ("second-order kinetics", "the RC low-pass filter", "gamma
    attenuation"); a name that is the quantity's own phrase ("Young's
    modulus", "carrying capacity") still asks for it."""
    if (h.start, h.end) == (law.start, law.end):
        return False
    if law.start <= h.start and h.end <= law.end:
        return True
    one_word = " " not in clause.text[h.start : h.end].strip()
    return (
        h.end <= law.start
        and one_word
        and re.fullmatch(r"[\s-]*", clause.text[h.end : law.start]) is not None
    )


def mentions(
    notes: Notes,
    vocab: Vocabulary,
    excluded: dict[int, list[Span]],
    named: Sequence[str] = (),
) -> list[Mention]:
    """Every asking mention of a quantity; `excluded` holds, per clause
    index, the spans of equations and values (not requests). A phrase that
    is a variable of a named law is its data, not a request ("fit an
    Arrhenius plot of the rate constants": k is Arrhenius's response)."""
    out: list[Mention] = []
    for clause in notes.clauses:
        hits = vocab.hits(clause, _QUANTITY)
        if not hits:
            continue
        spans = list(excluded.get(clause.index, []))
        own = {(h.term.model, h.start, h.end) for h in hits}
        spans += [
            (v.start, v.end)
            for v in vocab.hits(clause, _VARIABLE)
            if v.term.model in named
            and (not v.term.is_symbol or clause.text[v.start : v.end] == v.term.phrase)
            # "amplitude" is a sinusoid's signal and its A: the quantity wins.
            and (v.term.model, v.start, v.end) not in own
        ]
        names = [law for law in vocab.hits(clause, _MODEL) if law.term.how == "name"]
        hits = [h for h in hits if not any(_part_of_name(clause, h, law) for law in names)]
        hits = [h for h in hits if not any(a <= h.start and h.end <= b for a, b in spans)]
        if not hits:
            continue
        sources = source_spans(clause)
        hits = [h for h in hits if not any(a <= h.start < b for a, b in sources)]
        if not hits:
            continue
        cue = asks(clause)
        if cue is None and is_list_of_terms(clause, [(h.start, h.end) for h in hits]):
            cue = "a list of quantities"
        if cue is None:
            continue
        accepted: list[Hit] = []
        for h in hits:
            if negated_before(clause, h.start):
                continue
            if _one_letter(h) and (_in_unit(clause.text, h) or not _listed(clause, h, accepted)):
                continue
            if h.term.is_symbol and clause.text[h.end : h.end + 3].lstrip().startswith("="):
                continue  # "τ = RC": an equation or value, read elsewhere
            accepted.append(h)
        groups: dict[Span, list[Hit]] = {}
        for h in accepted:
            groups.setdefault((h.start, h.end), []).append(h)
        for (start, end), group in groups.items():
            cands = tuple(dict.fromkeys((h.term.model, h.term.name) for h in group))
            generic = all(vocab.is_generic(h.term) for h in group)
            out.append(Mention(clause, start, end, group[0].quote, cue, cands, generic))
    return out


def _described(quote: str) -> str | None:
    """The notes' own name of a quantity they describe ("the concentration of
    acetic acid", "period of the solar cycle"): a phrase of three words or
    more names the answer as the reader asked for it; a word or a symbol
    ("Km", "half-life") leaves the catalogue's name. In Chinese, an owner
    joined to its quantity by 的 ("醋酸的浓度") names it so too."""
    if re.fullmatch(r"[\u4e00-\u9fff]{1,8}的[\u4e00-\u9fff]{1,8}", quote.strip()):
        return quote.strip()
    words = re.findall(r"[A-Za-z][\w'’-]*", quote)
    if len(words) < 3 or not re.fullmatch(r"[A-Za-z][\w\s'’()-]*", quote.strip()):
        return None
    return re.sub(r"^(?:the|a|an)\s+", "", quote.strip(), flags=re.I)


def _reason(m: Mention, model_name: str, why: str) -> str:
    return f"'{m.quote}' is asked ('{m.cue}'); {why} ({model_name})"


def resolve(
    found: Sequence[Mention],
    vocab: Vocabulary,
    named: Sequence[NamedModel],
    score: Score,
) -> tuple[list[AskedQuantity], list[NamedModel]]:
    """Asked quantities with their law, and the laws they imply that the
    notes did not name."""
    named_keys = [n.key for n in named if n.key]
    asked: list[AskedQuantity] = []
    implied: list[NamedModel] = []
    seen: set[tuple[str | None, str]] = set()

    def add(
        m: Mention, model: str | None, quantity: str, why: str, cands: tuple[str, ...] = ()
    ) -> None:
        if (model, quantity) in seen:
            return
        seen.add((model, quantity))
        entry = vocab.entry(model) if model else None
        name = entry.name.en if entry else "law to be chosen from the data"
        asked.append(
            AskedQuantity(
                quantity=quantity,
                model=model,
                candidates=cands,
                name=_described(m.quote),
                evidence=Evidence(
                    source=m.clause.source, phrase=m.quote, reason=_reason(m, name, why)
                ),
            )
        )

    # First the mentions only one law has, or a named law has: what they
    # imply decides the ambiguous ones ("determine Ea and A": A is
    # Arrhenius's, because Ea is).
    undecided: list[Mention] = []
    for m in found:
        models = list(dict.fromkeys(k for k, _ in m.candidates))
        quantity_of = {k: q for k, q in m.candidates}
        in_named = [k for k in models if k in named_keys]
        if len(in_named) > 1:
            # Two named laws have it (the photoelectric effect by frequency
            # and by wavelength): the one the notes' words fit, if one does.
            scored = sorted(((score(k), k) for k in in_named), reverse=True)
            if scored[0][0] > scored[1][0]:
                in_named = [scored[0][1]]
        subscripted = None if in_named else _subscripted_in_named(m, named_keys, vocab)
        if in_named:
            for k in in_named:
                add(m, k, quantity_of[k], "a quantity of the law the notes name")
        elif subscripted is not None:
            k, q = subscripted
            add(m, k, q, "the subscripted symbol of a quantity of the law the notes name")
        elif m.generic:
            undecided.append(m)
        elif len(models) == 1 and _bare_symbol(m.quote) and score(models[0]) <= 0:
            continue  # a lone letter implies no law the data and notes do not support
        elif len(models) == 1:
            k = models[0]
            add(m, k, quantity_of[k], "the only law in the catalogue with this quantity")
            if all(i.key != k for i in implied):
                implied.append(_implied(m, k, vocab, "the only law with this quantity"))
        else:
            undecided.append(m)
    for m in undecided:
        models = list(dict.fromkeys(k for k, _ in m.candidates))
        quantity_of = {k: q for k, q in m.candidates}
        in_implied = [k for k in models if any(i.key == k for i in implied)]
        if len(in_implied) == 1:
            k = in_implied[0]
            add(m, k, quantity_of[k], "a quantity of the law the other asked quantities imply")
            continue
        if m.generic:
            continue  # "the amplitude" of no law the notes name: not a request read by rules
        scored = sorted(((score(k), k) for k in models), reverse=True)
        best, second = scored[0], scored[1]
        if best[0] > 0 and best[0] > second[0]:
            k = best[1]
            why = "of the laws with this quantity, the one the notes and columns fit best"
            add(m, k, quantity_of[k], why)
            if all(i.key != k for i in implied):
                implied.append(_implied(m, k, vocab, why))
            continue
        # Undecided: the analysis compares the candidates on the data.
        quantities = list(dict.fromkeys(q for _, q in m.candidates))
        for q in quantities:
            cands = tuple(k for k in models if quantity_of[k] == q)
            add(m, None, q, f"{len(cands)} laws have it; the data decide", cands)
    return asked, implied


def _bare_symbol(quote: str) -> bool:
    """A quote that is a symbol of one or two characters ("B", "h", "Km" is
    not: it is three): alone it says too little to bring in a law."""
    return len(quote.strip()) <= 2


def _symbol_base(symbol: str) -> str:
    """A symbol without its subscript: `\\Delta H_\\mathrm{vap}` and `dH_vap`
    -> ΔH and dH; `ΔH` stays ΔH."""
    text = symbol.replace("\\mathrm", "").replace("\\Delta", "Δ").replace("\\", "")
    return re.sub(r"[\s{}]", "", text).split("_")[0]


def _subscripted_in_named(
    m: Mention, named: Sequence[str], vocab: Vocabulary
) -> tuple[str, str] | None:
    """The one parameter of a named law whose symbol is the asked symbol
    with a subscript: mercury's "ΔH" of a named Clausius-Clapeyron law is
    its ΔH_vap, not the only other law with a bare ΔH (van 't Hoff's
    enthalpy of reaction, which then bound the vapour pressure as K)."""
    quote = _symbol_base(m.quote)
    if not quote or quote != m.quote.replace(" ", "") or len(quote) > 4:
        return None
    found = []
    for key in named:
        entry = vocab.entry(key)
        if entry is None:
            continue
        for p in entry.parameters:
            if "_" in p.name and quote in {_symbol_base(p.name), _symbol_base(p.latex)}:
                found.append((key, p.name))
    return found[0] if len(found) == 1 else None


def _implied(m: Mention, key: str, vocab: Vocabulary, why: str) -> NamedModel:
    entry = vocab.entry(key)
    name = entry.name.en if entry else key
    return NamedModel(
        key=key,
        how="quantity",
        evidence=Evidence(
            source=m.clause.source,
            phrase=m.quote,
            reason=f"the notes ask for '{m.quote}', {why}: {name}",
        ),
    )
