"""Which numbers of a document are traced to the data, read from its tags.

A tagged document (one the offline writer made, or one made from it) says
for each traced number which record entry it is (`\\lwnum{ID}{printed}`,
verify/tags.py). Each tag is then one of: traced (the entry's printed text),
re-traced (a re-rounding of the entry's value: an edit changed the
precision), or not traced (an unknown id, or digits the value does not
round to). A bare number in a tagged document is not traced: nothing
vouches for it, however its digits compare.

A document without any tag (written before tags existed) is checked the
old way, by its printed strings against the record; `Trace.by` says which
rule was used, so a reader can tell a weaker answer from a strong one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from labwright.verify import tags

#: A number as the offline formatter prints it (optionally in scientific form).
NUMBER_TOKEN = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:\\times10\^\{-?\d+\})?")


@dataclass(frozen=True)
class TracedNumber:
    """One tag of the document and what the record says of it."""

    id: str
    printed: str
    status: tags.Status
    #: The record's entry (provenance.json) when the id is known.
    entry: Mapping[str, Any] | None = None


@dataclass
class Trace:
    by: Literal["tags", "strings"]
    numbers: list[TracedNumber] = field(default_factory=list)
    #: Printed texts nothing traces: not-traced tags, then bare numbers.
    unsourced: list[str] = field(default_factory=list)

    def of_status(self, status: tags.Status) -> list[TracedNumber]:
        return [n for n in self.numbers if n.status == status]


def _entries(record: Mapping[str, Any] | None) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for item in (record or {}).get("numbers", []):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            out.setdefault(item["id"], item)
    return out


def trace_numbers(body: str, record: Mapping[str, Any] | None) -> Trace:
    """Trace the numbers of `body`: document text from which whatever is not
    a quantity (quotes, names, lengths, comments) has already been removed."""
    found = tags.find_tags(body, loose=True)
    if not found:
        recorded = {
            e.get("printed") for e in (record or {}).get("numbers", []) if isinstance(e, dict)
        }
        return Trace(
            "strings", unsourced=[t for t in NUMBER_TOKEN.findall(body) if t not in recorded]
        )
    known = tags.known_from_record(record)
    entries = _entries(record)
    trace = Trace("tags")
    pieces: list[str] = []
    last = 0
    for t in found:
        status = tags.status_of(t, known)
        printed = tags.untag(t.printed)
        trace.numbers.append(TracedNumber(t.id, printed, status, entries.get(t.id)))
        if status == "not_traced":
            trace.unsourced.append(printed)
        pieces.append(body[last : t.start])
        pieces.append(" ")
        last = t.end
    pieces.append(body[last:])
    rest = tags.untag("".join(pieces))
    trace.unsourced += NUMBER_TOKEN.findall(rest)
    return trace
