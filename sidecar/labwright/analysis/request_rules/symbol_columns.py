"""Written symbols that name no column, bound by what the notes say of them.

Notes often write a law in symbols of their own over columns named in
words: "U = A [1 − exp(−k (C − C0))]" over the columns `conc` and `uptake`,
"v = Vmax S/(Km + S)" over `substrate` and `rate`. A scientist reads the
binding from the words the notes attach to each symbol ("the uptake rate
U", "C is the CO2 concentration") matched against the columns' names and
what the notes say of each column; and, when the notes say nothing of the
symbols, from a one-to-one match of each symbol's letter with the first
letter of the only columns left (U ↔ uptake, C ↔ conc); when the words
placed all symbols but one, the last takes the one column left. The letter is the
weaker reading and is taken only when it pairs every symbol with a distinct
column and no other column could be meant.

Only the symbols the notes do not ask for are variables here: an asked
symbol ("report A, C0 and k") is a parameter of the law, never a column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.analysis.request_rules.bindings import Scored
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.symbol_name import notes_name
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.words import SYMBOL_IN_TEXT, same_symbol, stem

# "A = the asymptotic uptake rate", "C is the ambient concentration",
# "U denotes the uptake", "C 为 CO2 浓度".
_DEFINED_AS = r"\s*(?:=|:|is|denotes|stands for|为|表示|是)\s*(?:the\s+)?([^,;.()=]{3,60})"
_TOKENS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[\u4e00-\u9fff]+")
_FUNCTION_WORDS = frozenset(
    "the a an of in at on for with and or to from by as is are be its their per which "
    "that this when where was were one each all".split()
)
MIN_ABBREVIATION = 3  # "conc" for "concentration"; "c" alone abbreviates nothing


def asked_symbols(notes: Notes, symbols: Sequence[str], formula: str = "") -> set[str]:
    """The symbols a clause with an asking cue names ("Report A, C0 and k"),
    outside the written `formula` itself."""
    out: set[str] = set()
    for clause in notes.clauses:
        if asks(clause) is None:
            continue
        text = clause.text.replace(formula, " ") if formula else clause.text
        for m in SYMBOL_IN_TEXT.finditer(text):
            out |= {s for s in symbols if same_symbol(m.group(1), s)}
    return out


def content_words(words: str) -> set[str]:
    tokens = (t.lower() for t in _TOKENS.findall(words))
    return {stem(t) for t in tokens if t not in _FUNCTION_WORDS and len(t) >= 2}


def symbol_words(notes: Notes, symbol: str) -> set[str]:
    """Content words the notes attach to a symbol: the name before it ("the
    uptake rate U") and a definition after it ("C is the concentration")."""
    words: set[str] = set()
    pattern = re.compile(rf"(?<![\w\\]){re.escape(symbol)}(?!\w)")
    for clause in notes.clauses:
        for m in pattern.finditer(clause.text):
            name = notes_name(clause, m.start())
            if name:
                words |= content_words(name)
        for m in re.finditer(rf"(?<![\w\\]){re.escape(symbol)}(?!\w){_DEFINED_AS}", clause.text):
            words |= content_words(m.group(1))
    return words


def column_words(col: FolderColumn) -> set[str]:
    return content_words(col.name) | content_words(col.described or "")


def _overlap(words: set[str], col: FolderColumn) -> int:
    """Shared content words, an abbreviated column name counting as its word
    ("conc" of "concentration")."""
    theirs = column_words(col)
    hits = len(words & theirs)
    for t in theirs - words:
        if len(t) >= MIN_ABBREVIATION and any(w.startswith(t) for w in words if len(w) > len(t)):
            hits += 1
    return hits


def bind_by_words(
    notes: Notes, symbols: Sequence[str], columns: Sequence[FolderColumn]
) -> dict[str, Scored]:
    """Each symbol to the one column its words name best, or by letter when
    the notes' words name none (see the module's note); symbols left
    unbound are absent."""
    out: dict[str, Scored] = {}
    free = list(columns)
    scored = []
    for s in symbols:
        words = symbol_words(notes, s)
        for col in free:
            hits = _overlap(words, col) if words else 0
            if hits:
                scored.append((hits, s, col, words))
    for hits, s, col, words in sorted(scored, key=lambda t: -t[0]):
        if s in out or col not in free:
            continue
        rivals = [h for h, s2, c2, _ in scored if s2 == s and c2 is not col and h == hits]
        if rivals:
            continue  # two columns named alike: the words decide nothing
        shown = ", ".join(sorted(words))
        out[s] = Scored(
            col, 1.5, (f"the notes' words for {s} ({shown}) name the column {col.name!r}",)
        )
        free.remove(col)
    rest = [s for s in symbols if s not in out]
    if out and len(rest) == 1 and len(free) == 1:
        # The words placed every other symbol: the last takes the last column.
        why = f"the notes' words placed the other symbols; {free[0].name!r} is the one column left"
        out[rest[0]] = Scored(free[0], 1.0, (why,))
    elif rest and len(rest) == len(free) and all(len(s) == 1 for s in rest):
        by_letter = {s: [c for c in free if c.name[:1].casefold() == s.casefold()] for s in rest}
        if all(len(cs) == 1 for cs in by_letter.values()) and len(
            {id(cs[0]) for cs in by_letter.values()}
        ) == len(rest):
            for s, (col,) in by_letter.items():
                why = (
                    f"the notes say nothing of {s}; of the columns left, only {col.name!r} "
                    f"begins with its letter"
                )
                out[s] = Scored(col, 1.0, (why,))
    return out
