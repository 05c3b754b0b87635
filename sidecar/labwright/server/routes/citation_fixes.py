"""A corrected reference becomes a proposal: the index's values for the fields that
differ, in the version's bibliography, to accept or reject like a chat edit.

The citation check (verify/resolve.py) never changes a person's .bib: a
"corrected" verdict carries the fixed entry (`proposal.entry`) in the build's
citations.json. This route turns that entry into a store proposal on the
version's own bibliography (a change of the .bib alone, scope "bib"); the
proposals routes accept it (a new version with the corrected .bib, rebuilt)
or reject it.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from labwright.messages import say
from labwright.server.context import Ctx
from labwright.server.routes.provenance import CitationVerdict, read_citations
from labwright.server.schemas import ErrorBody, Id, ProposalOut
from labwright.store.artifacts import build_dir_for

router = APIRouter(prefix="/sessions/{session_id}/versions/{version_no}", tags=["proposals"])

_ERRORS: dict[int | str, dict[str, object]] = {404: {"model": ErrorBody}, 409: {"model": ErrorBody}}


@router.post(
    "/citations/{key}/proposal", response_model=ProposalOut, status_code=201, responses=_ERRORS
)
def propose_citation_fix(session_id: Id, version_no: Id, key: str, ctx: Ctx) -> ProposalOut:
    from labwright.verify.bibtex import parse_bib, replace_entries  # bibtexparser loads here

    version = ctx.store.get_version_by_no(session_id, version_no)
    verdict = _corrected(read_citations(build_dir_for(ctx.store, ctx.data, version)), key)
    if verdict is None or verdict.proposal is None:
        raise HTTPException(404, say("cite.no_correction", key=key))
    bibliography = version.bibliography
    parsed = parse_bib(bibliography or "")
    if key not in parsed.by_key():
        raise HTTPException(409, say("cite.not_in_bibliography", key=key))
    fixed = replace_entries(parsed, {key: verdict.proposal.entry})
    if fixed == bibliography:
        raise HTTPException(409, say("cite.already_corrected", key=key))
    fields = ", ".join(dict.fromkeys(d.field for d in verdict.differences)) or "entry"
    source = verdict.evidence.source.capitalize() if verdict.evidence else "the index"
    proposal = ctx.store.propose_edit(
        session_id,
        version.id,
        0,
        0,
        "",
        scope="bib",
        target=key,
        summary=f"Correct {fields} of the reference {key} from {source}.",
        bibliography=fixed,
    )
    return ProposalOut.model_validate(proposal)


def _corrected(verdicts: list[CitationVerdict], key: str) -> CitationVerdict | None:
    return next((v for v in verdicts if v.key == key and v.verdict == "corrected"), None)
