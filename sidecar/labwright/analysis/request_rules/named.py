"""The models the notes name: a catalogue name, an alias or an `asks` phrase.

"Fit the Michaelis–Menten equation", "Arrhenius plot", "米氏方程", "an RC
discharge", "Beer–Lambert". A name is a name wherever it stands (a heading,
the theory, a task), because naming the law is saying it applies; only a
negation before it in the same clause ("do not use a Lorentzian") takes it
back. Each model is listed once, with the first phrase that named it.
A law's word that names the instrument the data were taken with ("a
grating spectrometer", "光栅光谱仪") is not the law: the Balmer lines
measured with a grating are Rydberg's, not the grating equation's.
"""

from __future__ import annotations

import re

from labwright.analysis.request import Evidence, NamedModel
from labwright.analysis.request_rules.cues import negated_before
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.vocabulary import Hit, TermKind, Vocabulary

_MODEL: frozenset[TermKind] = frozenset({"model"})
_QUANTITY: frozenset[TermKind] = frozenset({"quantity"})
_INSTRUMENT = re.compile(
    r"[\s-]*(?:spectrometers?|spectrographs?|spectrophotometers?|monochromators?)\b|"
    r"\s*(?:光谱仪|分光计|单色仪|分光光度计)",
    re.I,
)


def model_hits(notes: Notes, vocab: Vocabulary) -> list[Hit]:
    """Names of laws in the notes. A law's `asks` phrase that is also a
    quantity's phrase ("half-life" asks for radioactive decay, but a
    first-order reaction has a half-life too) names the quantity, not the
    law: which law it belongs to is decided with the other quantities."""
    out: list[Hit] = []
    for clause in notes.clauses:
        quantities = [(q.start, q.end) for q in vocab.hits(clause, _QUANTITY)]
        for h in vocab.hits(clause, _MODEL):
            if negated_before(clause, h.start):
                continue
            if _INSTRUMENT.match(clause.text, h.end):
                continue
            if h.term.how == "asks" and any(a < h.end and h.start < b for a, b in quantities):
                continue
            out.append(h)
    return out


def named_models(notes: Notes, vocab: Vocabulary) -> list[NamedModel]:
    out: list[NamedModel] = []
    seen: set[str] = set()
    for h in model_hits(notes, vocab):
        key = h.term.model
        if key in seen:
            continue
        seen.add(key)
        entry = vocab.entry(key)
        name = entry.name.en if entry is not None else key
        how = "the catalogue's name" if h.term.how == "name" else "a phrase that asks for it"
        out.append(
            NamedModel(
                key=key,
                how="name",
                evidence=Evidence(
                    source=h.clause.source,
                    phrase=h.quote,
                    reason=f"the notes name the {name} law ({how})",
                ),
            )
        )
    return out
