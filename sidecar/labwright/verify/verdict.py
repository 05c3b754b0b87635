"""What the resolver says of one reference, with the evidence for it.

Four verdicts: ``verified`` (an index holds this work; the matched fields are
listed), ``corrected`` (it holds it, but a field differs or the preprint was
published since: the fix is a proposal with a diff, never applied to a
user's file), ``unverifiable`` (no answer: offline, checks turned off, the
services failed, or nothing to look up) and ``not_found`` (the indexes
answered and none holds it: likely invented).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

VerdictKind = Literal["verified", "corrected", "unverifiable", "not_found"]
Origin = Literal["user", "model"]
VERDICTS: tuple[VerdictKind, ...] = ("verified", "corrected", "unverifiable", "not_found")
#: The reason of an "unverifiable" entry whose check the caller's time budget
#: ended before (its answer is still fetched, and cached for the next build).
NOT_CHECKED_IN_TIME = (
    "It was not checked in the time the build allows; the next build will check it."
)


@dataclass(frozen=True)
class Difference:
    field: str
    entry: str
    record: str

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "entry": self.entry, "record": self.record}


@dataclass(frozen=True)
class Evidence:
    """The record that decided, as a reader would check it."""

    source: str  # crossref | openalex
    record_id: str
    url: str = ""
    title: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    doi: str = ""
    #: How the record was found: doi, arxiv, isbn or search.
    found_by: str = ""
    #: When the answer came from the cache, when the index gave it (Unix time).
    cached_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "record_id": self.record_id,
            "url": self.url,
            "title": self.title,
            "authors": list(self.authors),
            "year": self.year,
            "venue": self.venue,
            "doi": self.doi,
            "found_by": self.found_by,
            "cached_at": self.cached_at,
        }


@dataclass(frozen=True)
class Proposal:
    """A correction to review: the entry as the record has it, and the diff of the file."""

    entry: str
    diff: str

    def to_json(self) -> dict[str, str]:
        return {"entry": self.entry, "diff": self.diff}


@dataclass(frozen=True)
class Verdict:
    key: str
    verdict: VerdictKind
    #: One sentence for people: why this verdict.
    reason: str
    origin: Origin = "user"
    #: The .bib file the entry came from (a folder-relative path), if any.
    file: str = ""
    evidence: Evidence | None = None
    matched: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    proposal: Proposal | None = None
    #: For model entries: whether the report cites it (dropped ones are not).
    cited: bool = True
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def trusted(self) -> bool:
        return self.verdict in ("verified", "corrected")

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "verdict": self.verdict,
            "reason": self.reason,
            "origin": self.origin,
            "file": self.file,
            "evidence": self.evidence.to_json() if self.evidence else None,
            "matched": list(self.matched),
            "differences": [d.to_json() for d in self.differences],
            "proposal": self.proposal.to_json() if self.proposal else None,
            "cited": self.cited,
        }
