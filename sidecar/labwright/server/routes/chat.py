"""Chat editing: post a message, follow the turn as a run, read the conversation.

A chat turn is a run of kind "chat": its reply and proposals are run events,
stored before they are streamed, so `/runs/{id}/events` follows and resumes
a turn exactly like a build. Accepting a proposal (routes/proposals.py)
starts a "compile" run for the new version.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import Field

from labwright.agent.events import Event
from labwright.server.context import Ctx
from labwright.server.schemas import ErrorBody, Id, MessageOut, RunOut, _Request
from labwright.server.settings import PipelineRequest
from labwright.store.models import Run

router = APIRouter(tags=["chat"])

MAX_MESSAGE = 4000


class ChatIn(_Request):
    message: str = Field(min_length=1, max_length=MAX_MESSAGE, description="What to change.")


_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody},
    409: {"model": ErrorBody, "description": "Another run of this session is in progress."},
}


def _chat_pipeline(ctx: Any, session_id: int, message: str) -> Any:
    def run(request: PipelineRequest) -> Iterator[Event]:
        from labwright.edit.citations import resolver_check
        from labwright.edit.material import folder_digest
        from labwright.edit.model import ClientModel
        from labwright.edit.service import ChatTurn, chat_turn
        from labwright.llm import client_from_settings
        from labwright.store.artifacts import record_for

        def record(version: Any) -> Any:
            found = record_for(ctx.store, ctx.data, version)
            return found.data if found is not None else None

        client = client_from_settings()
        try:
            model = ClientModel(client, cancel=request.cancel) if client is not None else None
            turn = ChatTurn(
                ctx.store,
                session_id,
                message,
                model,
                digest=lambda: folder_digest(Path(request.folder)),
                record=record,
                check_references=resolver_check(ctx.data.root),
            )
            yield from chat_turn(turn)
        finally:
            if client is not None:
                client.close()

    return run


@router.post(
    "/sessions/{session_id}/chat",
    response_model=RunOut,
    responses=_RESPONSES,
    summary="Ask for a change; follow the returned run's events for the reply and proposals",
)
def post_chat(session_id: Id, body: ChatIn, ctx: Ctx) -> RunOut:
    message = body.message.strip()
    if not message:
        raise HTTPException(422, "The message is empty; type what you want changed.")

    def prepare(_run: Run) -> Any:
        return _chat_pipeline(ctx, session_id, message)

    return RunOut.model_validate(ctx.runs.start_task(session_id, "chat", prepare))


@router.get(
    "/sessions/{session_id}/messages",
    response_model=list[MessageOut],
    responses={404: {"model": ErrorBody}},
    summary="The session's chat messages, oldest first",
)
def list_messages(session_id: Id, ctx: Ctx) -> list[MessageOut]:
    return [MessageOut.model_validate(m) for m in ctx.store.list_messages(session_id)]
