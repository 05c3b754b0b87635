"""Versions: immutable, listed per session; restoring one forks it as the newest."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, status

from labwright.server.context import AppContext, Ctx
from labwright.server.schemas import ErrorBody, Id, VersionOut, VersionSummary
from labwright.store.artifacts import pdf_for
from labwright.store.models import Version, VersionInfo

router = APIRouter(prefix="/sessions/{session_id}/versions", tags=["versions"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


def version_summary(ctx: AppContext, v: VersionInfo) -> VersionSummary:
    has_pdf = pdf_for(ctx.store, ctx.data, v) is not None
    return VersionSummary.model_validate(v).model_copy(update={"has_pdf": has_pdf})


def version_out(ctx: AppContext, v: Version) -> VersionOut:
    has_pdf = pdf_for(ctx.store, ctx.data, v) is not None
    return VersionOut.model_validate(v).model_copy(update={"has_pdf": has_pdf})


@router.get("", response_model=list[VersionSummary], responses=_NOT_FOUND)
def list_versions(session_id: Id, ctx: Ctx) -> list[VersionSummary]:
    return [version_summary(ctx, v) for v in ctx.store.list_versions(session_id)]


@router.get("/{version_no}", response_model=VersionOut, responses=_NOT_FOUND)
def get_version(session_id: Id, version_no: Id, ctx: Ctx) -> VersionOut:
    return version_out(ctx, ctx.store.get_version_by_no(session_id, version_no))


@router.post(
    "/{version_no}/restore",
    status_code=status.HTTP_201_CREATED,
    response_model=VersionOut,
    responses=_NOT_FOUND,
    summary="Restore a version as a new latest version (a fork; nothing is overwritten)",
)
def restore_version(session_id: Id, version_no: Id, ctx: Ctx) -> VersionOut:
    source = ctx.store.get_version_by_no(session_id, version_no)
    return version_out(ctx, ctx.store.restore_version(source.id))
