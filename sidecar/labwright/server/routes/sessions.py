"""Sessions: a dropped folder, its inventory, and everything made from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Response, status

from labwright.server.context import Ctx
from labwright.server.inventory import scan_inventory
from labwright.server.schemas import (
    ErrorBody,
    Id,
    SessionCreate,
    SessionDetail,
    SessionOut,
)
from labwright.store.models import Session

router = APIRouter(prefix="/sessions", tags=["sessions"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


def _folder(raw: str) -> Path:
    """The folder must already exist; it is read, never created or written."""
    missing = "This folder does not exist; choose an existing folder."
    try:
        path = Path(raw).expanduser()
    except RuntimeError:  # "~someone" whose home cannot be found
        raise HTTPException(422, missing) from None
    if not path.is_absolute():
        raise HTTPException(
            422, "The folder path must be absolute; drop the folder onto the window."
        )
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a link loop, or a NUL byte
        raise HTTPException(422, missing) from None
    if not resolved.is_dir():
        raise HTTPException(
            422, "This path is a file, not a folder; choose the folder that holds it."
        )
    return resolved


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=SessionDetail,
    responses={422: {"model": ErrorBody}},
)
def create_session(body: SessionCreate, ctx: Ctx) -> SessionDetail:
    folder = _folder(body.path)
    inventory = scan_inventory(folder)
    session = ctx.store.create_session(
        str(folder),
        inventory=inventory,
        title=body.title or folder.name,
        language=body.language or "en",
    )
    return _detail(session)


@router.get("", response_model=list[SessionOut])
def list_sessions(ctx: Ctx) -> list[SessionOut]:
    return [SessionOut.model_validate(s) for s in ctx.store.list_sessions()]


@router.get("/{session_id}", response_model=SessionDetail, responses=_NOT_FOUND)
def get_session(session_id: Id, ctx: Ctx) -> SessionDetail:
    return _detail(ctx.store.get_session(session_id))


@router.delete(
    "/{session_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses={**_NOT_FOUND, 409: {"model": ErrorBody}},
)
def delete_session(session_id: Id, ctx: Ctx) -> Response:
    ctx.store.delete_session(session_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def _detail(session: Session) -> SessionDetail:
    return SessionDetail.model_validate(session)
