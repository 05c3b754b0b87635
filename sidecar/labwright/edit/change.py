"""The result of every edit path: a range of the base version and the text to put there.

Deterministic edits, scoped model edits, bibliography edits and the parts of
a split whole-document edit all end as `Change`s; the service turns each into
a pending proposal. Nothing here touches the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from labwright.latex.splice import splice


@dataclass(frozen=True, slots=True)
class Change:
    start: int
    end: int
    new_text: str
    #: A store proposal scope: section, whole, bib, abstract, keywords.
    scope: str
    #: What it addresses, for people: "n3 Results", "title", "whole report".
    target: str
    #: One sentence: what the change does.
    summary: str

    def apply(self, content: str) -> str:
        return splice(content, self.start, self.end, self.new_text)


@dataclass(frozen=True, slots=True)
class EditOutcome:
    """Changes to propose, or none and a sentence saying why."""

    changes: tuple[Change, ...] = ()
    #: The assistant's reply: what was proposed, or why nothing was.
    reply: str = ""
    #: Gate refusals (instructional sentences), for the event log.
    problems: tuple[str, ...] = ()
