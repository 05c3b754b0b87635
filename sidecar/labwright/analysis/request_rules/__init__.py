"""The offline reading of the request: small rules, one concept each.

`read_request(read, catalogue)` reads the folder's notes and description
files into an `AnalysisRequest` in the order a scientist reads them: the
laws named (`named.py`) and written out (`equations.py`, `formula.py`), the
quantities asked (`asked.py`), the values given (`values.py` ->
`constants.py`, `expected.py`), the roles of the files (`files.py`), the
binding of each law's variables to columns (`bindings.py`) and what cannot
be answered (`unanswered.py`). Every item keeps the phrase it came from and
a reason. A note that names nothing gives an empty request, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_rules.asked import mentions, resolve
from labwright.analysis.request_rules.equations import find_equations
from labwright.analysis.request_rules.named import named_models
from labwright.analysis.request_rules.text import Notes, read_notes
from labwright.analysis.request_rules.values import statements
from labwright.analysis.request_rules.vocabulary import Vocabulary
from labwright.ingest.types import ReadResult

__all__ = ["read_request", "vocabulary"]


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


def read_request(read: ReadResult, catalogue: Iterable[ModelEntry]) -> AnalysisRequest:
    """The request the folder's notes make, read by rules (no model)."""
    vocab = vocabulary(catalogue)
    notes = read_notes(read.documents)
    excluded: dict[int, list[tuple[int, int]]] = {}
    for clause in notes.clauses:
        spans = [(w.start, w.end) for w in find_equations(clause)]
        spans += [(s.subject_start, s.measured.end) for s in statements(clause)]
        if spans:
            excluded[clause.index] = spans
    named = named_models(notes, vocab)
    scores = _notes_score(notes, vocab)
    asked, implied = resolve(
        mentions(notes, vocab, excluded, [n.key for n in named if n.key]),
        vocab,
        named,
        lambda k: scores.get(k, 0.0),
    )
    return AnalysisRequest(asked=tuple(asked), models=tuple(named + implied))
