"""The catalogue's words, indexed once: what each phrase of the notes names.

Every name a request can use comes from the catalogue, never from a list in
code: a model by its name, aliases and `asks` phrases; a quantity (a fitted
parameter or a derived quantity) by its `asks` phrases, its label and its
symbol; a variable by its symbols and words (used to bind columns and to
tell models apart); an input by its symbols and words (to read the
constants the notes give). A new catalogue entry is found in notes without
code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from labwright.analysis.catalogue.schema import ModelEntry, Phrases, Text
from labwright.analysis.request_rules.text import Clause
from labwright.analysis.request_rules.words import (
    SPECIES_SYMBOL,
    SYMBOL_IN_TEXT,
    Span,
    find_chinese,
    find_words,
    is_chinese,
    phrase_stems,
    same_symbol,
    symbol_key,
    tokens,
)

GENERIC_LAWS = 3  # a one-word phrase of this many laws names no quantity alone
#: One-word phrases that name a kind of quantity, not a quantity: "find the
#: coefficient" asks for some law's coefficient, and a law that lists the
#: bare word among its asks must not be chosen by it (the heated plate's
#: "heat-loss coefficient" became the Stefan–Boltzmann prefactor). Stems,
#: as `phrase_stems` writes them.
_KIND_NOUNS = frozenset(
    phrase_stems(w)[0]
    for w in ("coefficient", "constant", "factor", "parameter", "ratio", "value", "prefactor")
)
TermKind = Literal["model", "quantity", "variable", "input", "constant"]
# How a term names its thing: a name or alias (strong), an `asks` phrase, a
# label (the quantity's display name), a symbol.
TermHow = Literal["name", "asks", "label", "symbol", "word"]


@dataclass(frozen=True)
class Term:
    kind: TermKind
    model: str  # the catalogue model key
    name: str  # quantity key, variable or input name; "" for the model itself
    phrase: str  # as the catalogue writes it
    how: TermHow

    @property
    def is_symbol(self) -> bool:
        return self.how == "symbol"


@dataclass(frozen=True)
class Hit:
    term: Term
    clause: Clause
    start: int
    end: int
    contiguous: bool = True  # a phrase as written, not found inverted or across a list

    @property
    def quote(self) -> str:
        return self.clause.quote(self.start, self.end)


def _phrases(p: Phrases) -> Iterator[str]:
    yield from (s for s in p.all() if s.strip())


def _labels(t: Text | None) -> Iterator[str]:
    if t is not None:
        yield from (s for s in (t.en, t.zh) if s and s.strip())


def _latex_symbol(latex: str) -> str | None:
    """A LaTeX symbol written simply enough to be a symbol in notes ("K_m",
    "\\lambda", "t_{1/2}"); None for an expression."""
    s = latex.strip().strip("$")
    if not s or len(s) > 24 or any(c in s for c in "+-*=()^ "):
        return None
    return s


_SYMBOL_LIKE = re.compile(r"[A-Za-zΑ-Ωα-ω][A-Za-z0-9_{}^/½]*")


def _how(phrase: str, symbols: Iterable[str], default: TermHow) -> TermHow:
    """An `asks` phrase or label written as a symbol ("Km", "a", "EC50",
    "V_max", "FWHM") is matched as a symbol, never as a word: "a" is not the
    article."""
    p = phrase.strip()
    if SPECIES_SYMBOL.fullmatch(p):
        return "symbol"  # "c(HAc)": a chemist's symbol, never the words c and HAc
    if not _SYMBOL_LIKE.fullmatch(p) or is_chinese(p):
        return default
    if len(p) >= 4 and p.isalpha() and p.islower():
        return default  # a word ("bandwidth"; "kcat" reads as a word too)
    if any(same_symbol(p, s) for s in symbols):
        return "symbol"
    if (
        len(p) <= 3
        or any(ch.isdigit() or ch == "_" for ch in p)
        or any(ch.isupper() for ch in p[1:])
    ):
        return "symbol"
    return default


def _terms(entry: ModelEntry) -> Iterator[Term]:
    key = entry.key
    for phrase in _labels(entry.name):
        yield Term("model", key, "", phrase, "name")
    for phrase in _phrases(entry.aliases):
        yield Term("model", key, "", phrase, "name")
    for phrase in _phrases(entry.asks):
        yield Term("model", key, "", phrase, "asks")
    for p in entry.parameters:
        own = (p.name, p.latex)
        for phrase in _phrases(p.asks):
            yield Term("quantity", key, p.name, phrase, _how(phrase, own, "asks"))
        for phrase in _labels(p.label):
            yield Term("quantity", key, p.name, phrase, _how(phrase, own, "label"))
        for sym in {p.name, _latex_symbol(p.latex) or p.name}:
            yield Term("quantity", key, p.name, sym, "symbol")
    for d in entry.derived:
        own = (d.key, d.latex)
        for phrase in _phrases(d.asks):
            yield Term("quantity", key, d.key, phrase, _how(phrase, own, "asks"))
        for phrase in _labels(d.label):
            yield Term("quantity", key, d.key, phrase, _how(phrase, own, "label"))
        for sym in {d.key, _latex_symbol(d.latex) or d.key}:
            yield Term("quantity", key, d.key, sym, "symbol")
    for v in entry.variables:
        for sym in {v.name, *v.symbols}:
            yield Term("variable", key, v.name, sym, "symbol")
        for phrase in (*_phrases(v.words), *_labels(v.label)):
            yield Term("variable", key, v.name, phrase, "word")
    for i in entry.inputs:
        for sym in {i.name, *i.symbols}:
            yield Term("input", key, i.name, sym, "symbol")
        for phrase in (*_phrases(i.words), *_labels(i.label)):
            yield Term("input", key, i.name, phrase, "word")
    for c in entry.constants:
        yield Term("constant", key, c.name, c.name, "symbol")
        for phrase in _labels(c.label):
            yield Term("constant", key, c.name, phrase, "word")


@dataclass(frozen=True)
class _Compiled:
    term: Term
    stems: tuple[str, ...]  # English words
    chinese: bool
    symbol: str  # symbol key


class Vocabulary:
    """The catalogue's phrases, compiled for matching clauses."""

    def __init__(self, catalogue: Iterable[ModelEntry]) -> None:
        self.entries: dict[str, ModelEntry] = {}
        compiled: list[_Compiled] = []
        seen: set[tuple[TermKind, str, str, str]] = set()
        for entry in catalogue:
            self.entries[entry.key] = entry
            for term in _terms(entry):
                k = (term.kind, term.model, term.name, term.phrase)
                if k in seen:
                    continue
                seen.add(k)
                if term.is_symbol:
                    compiled.append(_Compiled(term, (), False, symbol_key(term.phrase)))
                elif is_chinese(term.phrase):
                    compiled.append(_Compiled(term, (), True, ""))
                else:
                    stems = phrase_stems(term.phrase)
                    if stems:
                        compiled.append(_Compiled(term, stems, False, ""))
        self._compiled = tuple(compiled)
        # One-word phrases that many laws use for a quantity ("amplitude",
        # "frequency", "constant", "振幅"): alone they say which quantity
        # only once the law is known.
        # A one-word phrase that is also how a law names a *variable*
        # ("wavelength", "order", "power") is as ambiguous.
        laws_of: dict[str, set[str]] = {}
        variable_words: set[str] = set()
        for c in compiled:
            if c.term.is_symbol:
                continue
            key = c.stems[0] if len(c.stems) == 1 else (c.term.phrase if c.chinese else "")
            if not key or not (len(c.stems) == 1 or len(c.term.phrase) <= 2):
                continue
            if c.term.kind == "quantity":
                laws_of.setdefault(key, set()).add(c.term.model)
            elif c.term.kind in ("variable", "input"):
                variable_words.add(key)
        self._generic = {
            k
            for k, laws in laws_of.items()
            if len(laws) >= GENERIC_LAWS or k in variable_words or k in _KIND_NOUNS
        }
        self._by_symbol: dict[str, list[_Compiled]] = {}
        for c in compiled:
            if c.symbol:
                self._by_symbol.setdefault(c.symbol[:1], []).append(c)
        # Which phrases can match a clause at all, by what every match needs:
        # an English phrase all its stems (so its first), a Chinese phrase its
        # first character. `hits` looks only at those, in catalogue order.
        self._by_first_stem: dict[str, list[int]] = {}
        self._by_first_char: dict[str, list[int]] = {}
        self._stem_sets: dict[int, frozenset[str]] = {}
        for i, c in enumerate(compiled):
            if c.chinese:
                joined = "".join(c.term.phrase.split())
                if joined:
                    self._by_first_char.setdefault(joined[0], []).append(i)
            elif c.stems:
                self._by_first_stem.setdefault(c.stems[0], []).append(i)
                self._stem_sets[i] = frozenset(c.stems)

    def is_generic(self, term: Term) -> bool:
        """A one-word quantity phrase that several laws share."""
        if term.kind != "quantity" or term.is_symbol:
            return False
        if is_chinese(term.phrase):
            # Two characters ("系数", "周期") sit inside longer words
            # ("表面张力系数"): never enough alone.
            return len(term.phrase.strip()) <= 2 or term.phrase in self._generic
        stems = phrase_stems(term.phrase)
        return len(stems) == 1 and stems[0] in self._generic

    def entry(self, key: str) -> ModelEntry | None:
        return self.entries.get(key)

    def hits(self, clause: Clause, kinds: frozenset[TermKind] | None = None) -> list[Hit]:
        """Every term found in the clause; a hit inside a longer hit of the
        same kind is dropped ("rate constant" inside "second-order rate
        constant" names one thing)."""
        text = clause.text
        toks = tokens(text)
        present = set(toks.stems)
        found: list[Hit] = []
        # Every other phrase finds nothing here (see __init__).
        candidates = {i for s in present for i in self._by_first_stem.get(s, ())}
        candidates.update(i for ch in set(text) for i in self._by_first_char.get(ch, ()))
        for i in sorted(candidates):
            c = self._compiled[i]
            if kinds is not None and c.term.kind not in kinds:
                continue
            spans: list[Span] = []
            if c.chinese:
                spans = find_chinese(c.term.phrase, text)
            elif c.stems:
                if not self._stem_sets[i] <= present:
                    continue
                if len(c.stems) == 1 and len(c.term.phrase) <= 3 and c.term.how != "label":
                    # A short alias ("MM", "RC") only as written, in capitals.
                    spans = _exact(c.term.phrase, text)
                else:
                    spans = find_words(c.stems, text, toks)
            # "log-logistic" is no logistic law, "non-linear" no line: a word
            # joined by a hyphen to the phrase's first word is another word.
            spans = [sp for sp in spans if not _hyphen_joined(text, sp.start)]
            found.extend(Hit(c.term, clause, sp.start, sp.end, sp.contiguous) for sp in spans)
        for m in [*SPECIES_SYMBOL.finditer(text), *SYMBOL_IN_TEXT.finditer(text)]:
            raw = m.group(1)
            if re.search(r"\d\s?$", text[: m.start(1)]):
                continue  # "2.000 m", "50 W": a unit after its number, not a symbol
            if raw in _ENGLISH_WORDS and not _symbol_context(text, m.start(1), m.end(1)):
                continue  # "Is the decay first order?": a word, not the diode's Is
            key = symbol_key(raw)
            for c in self._by_symbol.get(key[:1], ()):
                if kinds is not None and c.term.kind not in kinds:
                    continue
                if same_symbol(raw, c.term.phrase):
                    found.append(Hit(c.term, clause, m.start(1), m.end(1)))
        return _outermost(found)

    def quantity_label(self, model: str, quantity: str) -> str:
        entry = self.entries.get(model)
        if entry is None:
            return quantity
        for p in entry.parameters:
            if p.name == quantity:
                return p.label.en
        for d in entry.derived:
            if d.key == quantity:
                return d.label.en
        return quantity

    def models_with(self, quantity: str) -> list[str]:
        """Models that have a quantity of this key."""
        return [k for k, e in self.entries.items() if quantity in e.quantity_keys()]


# Two-letter English words that are also symbols of some law (Is, In, At...):
# a symbol only where written as one ("Is = 2 nA", "find I_s", "of Is and n").
_ENGLISH_WORDS = frozenset(
    "Is In It As At If On Or No So To Be By Do Of Up Us We An Am Go Me My He".split()
)


def _symbol_context(text: str, start: int, end: int) -> bool:
    """Written as a symbol: beside "=" or a bracket, or capitalised inside a
    sentence ("find Is and n"), where the English word would be lower case;
    at a sentence's start "Is" is the word."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    if after[:1] in ("=", "≈", ")", "]", "（", "(") or before[-1:] in ("(", "[", "$"):
        return True
    return bool(before) and not before.endswith((".", "?", "!", ":", "\n"))


def _hyphen_joined(text: str, start: int) -> bool:
    return start > 1 and text[start - 1] == "-" and text[start - 2].isalpha()


def _exact(phrase: str, text: str) -> list[Span]:
    pattern = r"(?<![A-Za-z0-9])" + re.escape(phrase) + r"(?![A-Za-z0-9])"
    return [Span(m.start(), m.end()) for m in re.finditer(pattern, text)]


def _outermost(hits: list[Hit]) -> list[Hit]:
    """Hits not inside a longer hit of the same kind: "constant" inside "rate
    constant", "frequency" inside "resonance frequency" name nothing of their
    own. Inside a phrase found across a list ("peak centres, widths and
    areas" for "peak area") the other items stay: they are other quantities."""
    out: list[Hit] = []
    for h in hits:
        inside = any(
            o is not h
            and o.term.kind == h.term.kind
            and (o.contiguous or o.term.name == h.term.name)
            and o.start <= h.start
            and h.end <= o.end
            and (o.end - o.start) > (h.end - h.start)
            for o in hits
        )
        if not inside:
            out.append(h)
    out.sort(key=lambda h: (h.start, -(h.end - h.start)))
    return out
