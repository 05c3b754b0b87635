"""The trust record of a version: each printed number with its source, the
numbers without one, and every reference's verdict.

Read from the build's provenance.json (written by the pipeline in the same call
that formats each number), its citations.json (the citation check's verdicts,
agent/citation_check.py) and its .bib files; the unsourced numbers are
recomputed against the version's own text, so an edited or restored version is
checked as it reads now.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel

from labwright.agent.bibliography import UNVERIFIED_NOTE
from labwright.agent.citation_check import CITATIONS_JSON
from labwright.agent.offline.provenance import unsourced_numbers
from labwright.safety import is_real_dir
from labwright.server.context import Ctx
from labwright.server.exports import read_regular
from labwright.server.schemas import ErrorBody, Id
from labwright.store.artifacts import build_dir_for

router = APIRouter(prefix="/sessions/{session_id}/versions/{version_no}", tags=["files"])

PROVENANCE_JSON = "provenance.json"
_LIMIT = 16 << 20


class ProvenanceNumber(BaseModel):
    printed: str
    value: float | str
    computation: str
    file: str | None = None
    sheet: str | None = None
    variable: str | None = None
    column: str | None = None


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
    recorded: bool
    numbers: list[ProvenanceNumber]
    quotes: list[ProvenanceQuote]
    unsourced: list[str]
    unverified_citations: list[str]
    citations: list[CitationVerdict] = []


def _record(build: Path | None) -> dict[str, Any] | None:
    if build is None:
        return None
    data = read_regular(build / PROVENANCE_JSON, _LIMIT)
    if data is None:
        return None
    try:
        loaded = json.loads(data)
    except ValueError:
        return None
    return loaded if isinstance(loaded, dict) else None


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


def _citations(build: Path | None) -> list[CitationVerdict]:
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


@router.get("/provenance", response_model=ProvenanceOut, responses={404: {"model": ErrorBody}})
def version_provenance(session_id: Id, version_no: Id, ctx: Ctx) -> ProvenanceOut:
    version = ctx.store.get_version_by_no(session_id, version_no)
    build = build_dir_for(ctx.store, ctx.data, version)
    record = _record(build)
    citations = _citations(build)
    doubtful = [c.key for c in citations if c.cited and c.verdict in ("not_found", "unverifiable")]
    unverified = sorted(set(_unverified(build)) | set(doubtful))
    if record is None:
        return ProvenanceOut(
            recorded=False,
            numbers=[],
            quotes=[],
            unsourced=[],
            unverified_citations=unverified,
            citations=citations,
        )
    quotes = [
        ProvenanceQuote.model_validate(q)
        for q in record.get("quotes", [])
        if isinstance(q, dict) and isinstance(q.get("file"), str) and isinstance(q.get("text"), str)
    ]
    unsourced = list(dict.fromkeys(unsourced_numbers(version.content, record)))
    return ProvenanceOut(
        recorded=True,
        numbers=_numbers(record),
        quotes=quotes,
        unsourced=unsourced,
        unverified_citations=unverified,
        citations=citations,
    )
