"""The trust record of a version: each printed number with its source, the
numbers without one, and every reference's verdict.

Read from the number record (provenance.json, written by the pipeline in the
same call that formats each number) of the version's build, or of its
nearest ancestor's when the version has none (an accepted edit, a restore),
and the build's citations.json (the citation check's verdicts,
agent/citation_check.py) and .bib files. Which recorded numbers a version
prints, and in what state, is read from the version's own text (its
`\\lwnum` tags, verify/trace.py), so an edited or restored version is traced
as it reads now: a number an edit did not touch keeps its source, a changed
one is re-traced or listed as not traced. docs/window-contract.md is the
contract.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, model_validator

from labwright.agent.bibliography import UNVERIFIED_NOTE
from labwright.agent.citation_check import CITATIONS_JSON
from labwright.agent.offline.provenance import trace_document
from labwright.safety import is_real_dir
from labwright.server.context import Ctx
from labwright.server.exports import read_regular
from labwright.server.schemas import ErrorBody, Id
from labwright.store.artifacts import PROVENANCE_JSON, build_dir_for, record_for
from labwright.verify.trace import Trace

__all__ = ["PROVENANCE_JSON", "router"]

router = APIRouter(prefix="/sessions/{session_id}/versions/{version_no}", tags=["files"])

_LIMIT = 16 << 20


class ProvenanceNumber(BaseModel):
    #: The record entry's id; the PDF link of this number is named `lwnum.<id>`.
    id: str | None = None
    #: As this version prints it (for a re-traced number, not the recorded text).
    printed: str
    #: The full-precision value the record holds.
    value: float | str
    computation: str
    #: The computation in Chinese, for a window in 中文; None when the phrase
    #: catalogue (agent/offline/computation_words.py) has no whole form.
    computation_zh: str | None = None
    file: str | None = None
    sheet: str | None = None
    variable: str | None = None
    column: str | None = None
    #: traced: as recorded; retraced: the recorded value at another precision
    #: (an edit changed it); not_traced: the record does not vouch for it.
    #: None for a version without tags (matched by printed text, by="strings").
    status: Literal["traced", "retraced", "not_traced"] | None = None
    #: The recorded text, when the version prints it otherwise.
    recorded_printed: str | None = None

    @model_validator(mode="after")
    def _chinese_computation(self) -> ProvenanceNumber:
        # The record keeps the English phrase (the compendium matches on it);
        # the Chinese form is the appendix's, said the same way.
        if self.computation_zh is None and self.computation:
            from labwright.agent.offline.computation_words import computation_text, covered

            if covered(self.computation):
                self.computation_zh = computation_text(self.computation, "zh")
        return self


class ProvenanceQuote(BaseModel):
    file: str
    text: str


class CitationEvidence(BaseModel):
    source: str
    record_id: str
    url: str = ""
    title: str = ""
    authors: list[str] = []
    year: int | None = None
    venue: str = ""
    doi: str = ""
    found_by: str = ""
    cached_at: float | None = None


class CitationDifference(BaseModel):
    field: str
    entry: str
    record: str


class CitationProposal(BaseModel):
    entry: str
    diff: str


class CitationVerdict(BaseModel):
    key: str
    verdict: Literal["verified", "corrected", "unverifiable", "not_found"]
    reason: str
    origin: Literal["user", "model"]
    file: str = ""
    evidence: CitationEvidence | None = None
    matched: list[str] = []
    differences: list[CitationDifference] = []
    proposal: CitationProposal | None = None
    cited: bool = True


class ProvenanceOut(BaseModel):
    #: False: no number record speaks for this version; nothing is known
    #: about its numbers (not "every number has a source").
    recorded: bool
    #: How numbers were matched: "tags" (each traced number is tagged in the
    #: text), "strings" (an untagged older version: by printed text), "none".
    by: Literal["tags", "strings", "none"] = "none"
    #: The version whose build wrote the record (an edit's is its ancestor's).
    record_version: int | None = None
    #: by="tags": each tagged number of this version, once per id, in text
    #: order, with its status; by="strings": every recorded number.
    numbers: list[ProvenanceNumber]
    quotes: list[ProvenanceQuote]
    #: Printed numbers nothing traces (not-traced tags, untagged numbers).
    unsourced: list[str]
    unverified_citations: list[str]
    citations: list[CitationVerdict] = []


def _unverified(build: Path | None) -> list[str]:
    if build is None or not is_real_dir(build):
        return []
    from labwright.verify.bibtex import parse_bib  # bibtexparser loads only when asked

    keys: list[str] = []
    with os.scandir(build) as entries:
        for entry in entries:
            if not (entry.name.endswith(".bib") and entry.is_file(follow_symlinks=False)):
                continue
            data = read_regular(Path(entry.path), _LIMIT)
            text = data.decode("utf-8", errors="replace") if data else ""
            keys += [e.key for e in parse_bib(text).entries if UNVERIFIED_NOTE in e.get("note")]
    return sorted(set(keys))


def read_citations(build: Path | None) -> list[CitationVerdict]:
    """The citation check's verdicts recorded with a build (empty: none)."""
    data = read_regular(build / CITATIONS_JSON, _LIMIT) if build is not None else None
    try:
        loaded = json.loads(data) if data else {}
    except ValueError:
        return []
    out = []
    for item in loaded.get("verdicts", []) if isinstance(loaded, dict) else []:
        try:
            out.append(CitationVerdict.model_validate(item))
        except ValueError:
            continue  # one malformed verdict must not hide the others
    return out


def _numbers(record: dict[str, Any]) -> list[ProvenanceNumber]:
    out = []
    for item in record.get("numbers", []):
        try:
            out.append(ProvenanceNumber.model_validate(item))
        except ValueError:
            continue  # one malformed entry must not hide the others
    return out


def _traced(trace: Trace) -> list[ProvenanceNumber]:
    out: list[ProvenanceNumber] = []
    seen: set[str] = set()
    for n in trace.numbers:
        if n.id in seen:
            continue
        seen.add(n.id)
        entry = dict(n.entry or {})
        recorded = entry.get("printed")
        fields = {k: entry.get(k) for k in ("file", "sheet", "variable", "column")}
        try:
            out.append(
                ProvenanceNumber(
                    id=n.id,
                    printed=n.printed,
                    value=entry.get("value", "nan"),
                    computation=str(entry.get("computation", "")),
                    status=n.status,
                    recorded_printed=recorded if recorded != n.printed else None,
                    **fields,
                )
            )
        except ValueError:
            continue
    return out


@router.get("/provenance", response_model=ProvenanceOut, responses={404: {"model": ErrorBody}})
def version_provenance(session_id: Id, version_no: Id, ctx: Ctx) -> ProvenanceOut:
    version = ctx.store.get_version_by_no(session_id, version_no)
    build = build_dir_for(ctx.store, ctx.data, version)
    citations = read_citations(build)
    doubtful = [c.key for c in citations if c.cited and c.verdict in ("not_found", "unverifiable")]
    unverified = sorted(set(_unverified(build)) | set(doubtful))
    found = record_for(ctx.store, ctx.data, version)
    if found is None:
        return ProvenanceOut(
            recorded=False,
            numbers=[],
            quotes=[],
            unsourced=[],
            unverified_citations=unverified,
            citations=citations,
        )
    record = found.data
    quotes = [
        ProvenanceQuote.model_validate(q)
        for q in record.get("quotes", [])
        if isinstance(q, dict) and isinstance(q.get("file"), str) and isinstance(q.get("text"), str)
    ]
    trace, bad_quotes = trace_document(version.content, record)
    return ProvenanceOut(
        recorded=True,
        by=trace.by,
        record_version=found.version_no,
        numbers=_traced(trace) if trace.by == "tags" else _numbers(record),
        quotes=quotes,
        unsourced=list(dict.fromkeys(bad_quotes + trace.unsourced)),
        unverified_citations=unverified,
        citations=citations,
    )
