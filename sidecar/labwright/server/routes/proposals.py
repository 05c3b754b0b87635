"""Proposed edits: listed per session, accepted (a new version) or rejected, once."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from labwright.agent.events import Event
from labwright.server.context import AppContext, Ctx
from labwright.server.routes.versions import version_out
from labwright.server.schemas import ErrorBody, Id, ProposalOut, VersionOut
from labwright.server.settings import Pipeline, PipelineRequest
from labwright.store.artifacts import PDF_NAME, PDF_OWNER, build_dir_for, record_for, run_dir
from labwright.store.errors import DecidedError, StaleBaseError
from labwright.store.models import Proposal, Run, Version

router = APIRouter(tags=["proposals"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}
_DECIDE: dict[int | str, dict[str, Any]] = {
    **_NOT_FOUND,
    409: {
        "model": ErrorBody,
        "description": "Already decided, or its base is no longer the latest.",
    },
}


@router.get(
    "/sessions/{session_id}/proposals", response_model=list[ProposalOut], responses=_NOT_FOUND
)
def list_proposals(
    session_id: Id,
    ctx: Ctx,
    status: Annotated[Literal["pending", "accepted", "rejected"] | None, Query()] = None,
) -> list[ProposalOut]:
    return [
        ProposalOut.model_validate(p) for p in ctx.store.list_proposals(session_id, status=status)
    ]


@router.get("/proposals/{proposal_id}", response_model=ProposalOut, responses=_NOT_FOUND)
def get_proposal(proposal_id: Id, ctx: Ctx) -> ProposalOut:
    return ProposalOut.model_validate(ctx.store.get_proposal(proposal_id))


@router.post(
    "/proposals/{proposal_id}/accept",
    response_model=VersionOut,
    responses=_DECIDE,
    summary="Accept: a new version, whose PDF the run `run_id` of the answer builds",
)
def accept_proposal(proposal_id: Id, ctx: Ctx) -> VersionOut:
    proposal = ctx.store.get_proposal(proposal_id)
    _precheck(ctx, proposal)
    accepted: list[Version] = []

    def prepare(run: Run) -> Pipeline:
        # Inside the run's creation, so a refusal (decided, stale) closes the run too.
        version = ctx.store.accept_proposal(proposal_id, run_id=run.id)
        accepted.append(version)
        return _recompile(ctx, version, run)

    ctx.runs.start_task(proposal.session_id, "compile", prepare)
    return version_out(ctx, accepted[0])


def _precheck(ctx: AppContext, proposal: Proposal) -> None:
    """Refuse the common conflicts before a run is created for nothing."""
    if proposal.status != "pending":
        raise DecidedError(
            f"Proposal {proposal.id} was already {proposal.status}. Reload the proposals."
        )
    latest = ctx.store.latest_version(proposal.session_id)
    # Parts of a split whole edit may still apply on a newer version (the store decides).
    if proposal.scope != "whole" and (latest is None or latest.id != proposal.base_version_id):
        raise StaleBaseError(
            f"Proposal {proposal.id} was made for an older version of the document."
            " Ask for the edit again on the current version."
        )


def _recompile(ctx: AppContext, version: Version, run: Run) -> Pipeline:
    from labwright.edit.locate import document_language
    from labwright.edit.recompile import compile_build, prepare_build

    parent = ctx.store.get_version(version.parent_id) if version.parent_id else None
    ancestor = build_dir_for(ctx.store, ctx.data, parent) if parent else None
    record = record_for(ctx.store, ctx.data, parent) if parent else None
    out = run_dir(ctx.data, version.session_id, run.id)
    lang = document_language(version.content) or ctx.store.get_session(version.session_id).language
    main = prepare_build(
        version.content,
        ancestor,
        out,
        lang,
        version.bibliography,
        record=record.path if record else None,
    )

    def publish(pdf: Path) -> Path:
        target = out / PDF_NAME
        if pdf != target:
            shutil.copyfile(pdf, target)
        (out / PDF_OWNER).write_text(str(version.id), encoding="utf-8")
        return target

    def pipeline(_request: PipelineRequest) -> Iterator[Event]:
        return compile_build(main, version.version_no, publish)

    return pipeline


@router.post("/proposals/{proposal_id}/reject", response_model=ProposalOut, responses=_DECIDE)
def reject_proposal(proposal_id: Id, ctx: Ctx) -> ProposalOut:
    return ProposalOut.model_validate(ctx.store.reject_proposal(proposal_id))
