"""Sessions: a dropped folder, its inventory, and everything made from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Response, status

from labwright.messages import say
from labwright.server.context import Ctx
from labwright.server.inventory import scan_inventory
from labwright.server.schemas import (
    ErrorBody,
    Id,
    LanguageOut,
    SessionCreate,
    SessionDetail,
    SessionOut,
    SessionUpdate,
)
from labwright.store.models import Session

router = APIRouter(prefix="/sessions", tags=["sessions"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


def _folder(raw: str) -> Path:
    """The folder must already exist; it is read, never created or written."""
    missing = say("api.folder_missing")
    try:
        path = Path(raw).expanduser()
    except RuntimeError:  # "~someone" whose home cannot be found
        raise HTTPException(422, missing) from None
    if not path.is_absolute():
        raise HTTPException(422, say("api.folder_relative"))
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a link loop, or a NUL byte
        raise HTTPException(422, missing) from None
    if not resolved.is_dir():
        raise HTTPException(422, say("api.folder_is_file"))
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
    if not inventory:
        # Said at the drop, once: a session of nothing would only fail its run.
        raise HTTPException(422, say("folder.empty", folder=folder.name))
    session = ctx.store.create_session(
        str(folder),
        inventory=inventory,
        title=body.title or folder.name,
        language=body.language or "auto",
    )
    return _detail(session)


@router.patch(
    "/{session_id}",
    response_model=SessionDetail,
    responses={**_NOT_FOUND, 422: {"model": ErrorBody}},
    summary="Change the session's report language (auto, en, zh) or title",
)
def update_session(session_id: Id, body: SessionUpdate, ctx: Ctx) -> SessionDetail:
    language = None if body.language is None else body.language or "auto"
    return _detail(ctx.store.update_session(session_id, language=language, title=body.title))


@router.get(
    "/{session_id}/language",
    response_model=LanguageOut,
    responses=_NOT_FOUND,
    summary="The report language a run of this session writes in, and why",
)
def session_language(session_id: Id, ctx: Ctx) -> LanguageOut:
    """Shown at drop time: the same detector as the run's, on a cheap read."""
    from labwright.agent.offline.language import detect_folder_language, detect_language
    from labwright.ingest.scan import scan_folder

    session = ctx.store.get_session(session_id)
    setting = session_setting(session.language)
    folder = Path(session.source_path)
    found = detect_folder_language(folder, scan_folder(folder)) if folder.is_dir() else None
    detected = found or detect_language([])
    chosen = detected if setting == "auto" else detect_language([], chosen=setting)
    return LanguageOut(
        setting=setting, detected=detected.lang, basis=chosen.basis, language=chosen.lang
    )


def session_setting(stored: str) -> Literal["auto", "en", "zh"]:
    return "en" if stored == "en" else "zh" if stored == "zh" else "auto"


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
