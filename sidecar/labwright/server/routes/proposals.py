"""Proposed edits: listed per session, accepted (a new version) or rejected, once."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from labwright.server.context import Ctx
from labwright.server.routes.versions import version_out
from labwright.server.schemas import ErrorBody, Id, ProposalOut, VersionOut
from labwright.store.models import Proposal

router = APIRouter(tags=["proposals"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}
_DECIDE: dict[int | str, dict[str, Any]] = {
    **_NOT_FOUND,
    409: {
        "model": ErrorBody,
        "description": "Already decided, or its base is no longer the latest.",
    },
}


def proposal_out(p: Proposal) -> ProposalOut:
    return ProposalOut.model_validate(p)


@router.get(
    "/sessions/{session_id}/proposals", response_model=list[ProposalOut], responses=_NOT_FOUND
)
def list_proposals(
    session_id: Id,
    ctx: Ctx,
    status: Annotated[Literal["pending", "accepted", "rejected"] | None, Query()] = None,
) -> list[ProposalOut]:
    return [proposal_out(p) for p in ctx.store.list_proposals(session_id, status=status)]


@router.get("/proposals/{proposal_id}", response_model=ProposalOut, responses=_NOT_FOUND)
def get_proposal(proposal_id: Id, ctx: Ctx) -> ProposalOut:
    return proposal_out(ctx.store.get_proposal(proposal_id))


@router.post("/proposals/{proposal_id}/accept", response_model=VersionOut, responses=_DECIDE)
def accept_proposal(proposal_id: Id, ctx: Ctx) -> VersionOut:
    return version_out(ctx, ctx.store.accept_proposal(proposal_id))


@router.post("/proposals/{proposal_id}/reject", response_model=ProposalOut, responses=_DECIDE)
def reject_proposal(proposal_id: Id, ctx: Ctx) -> ProposalOut:
    return proposal_out(ctx.store.reject_proposal(proposal_id))
