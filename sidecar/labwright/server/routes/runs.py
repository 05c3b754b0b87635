"""Runs: start, cancel, inspect, and follow their events as server-sent events.

The event stream replays the run's persisted events after the client's last
sequence number (`Last-Event-ID` header, or `after` in the query for the first
connection) and then follows new ones as they are appended. Because both the
replay and the live part read the same ordered rows by `seq > last`, a client
that reconnects with the last id it saw receives every event exactly once.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Header, HTTPException, Query
from pydantic import ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent

from labwright.agent.events import Warning_, event_from_dict
from labwright.server.context import AppContext, Ctx
from labwright.server.pipeline import NoModelError
from labwright.server.schemas import ErrorBody, Id, RunEventOut, RunOut, RunStart
from labwright.store import Store
from labwright.store.models import RunEvent

router = APIRouter(tags=["runs"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}
_CONFLICT: dict[int | str, dict[str, Any]] = {409: {"model": ErrorBody}}
_BATCH = 500  # events per store read while replaying


def event_out(event: RunEvent) -> RunEventOut:
    try:
        payload = event_from_dict(event.payload)
    except ValidationError:
        # A row this version cannot read (written by a newer or an older
        # Labwright) is shown as a warning rather than breaking the whole stream.
        payload = Warning_(
            message=f"An event of this run ({event.type}) could not be read; update Labwright to see it."
        )
    return RunEventOut(
        seq=event.seq, type=payload.type, payload=payload, created_at=event.created_at
    )


@router.post(
    "/sessions/{session_id}/runs",
    response_model=RunOut,
    responses={**_NOT_FOUND, **_CONFLICT},
    summary="Start a run (409 while another run of this session is active, or no model for mode llm)",
)
def start_run(session_id: Id, ctx: Ctx, body: RunStart | None = None) -> RunOut:
    body = body or RunStart()
    try:
        return RunOut.model_validate(ctx.runs.start(session_id, body.language, body.mode))
    except NoModelError as exc:
        raise HTTPException(409, str(exc)) from None


@router.get("/sessions/{session_id}/runs", response_model=list[RunOut], responses=_NOT_FOUND)
def list_runs(session_id: Id, ctx: Ctx) -> list[RunOut]:
    return [RunOut.model_validate(r) for r in ctx.store.list_runs(session_id)]


@router.get("/runs/{run_id}", response_model=RunOut, responses=_NOT_FOUND)
def get_run(run_id: Id, ctx: Ctx) -> RunOut:
    return RunOut.model_validate(ctx.store.get_run(run_id))


@router.post(
    "/runs/{run_id}/cancel",
    response_model=RunOut,
    responses={**_NOT_FOUND, **_CONFLICT},
    summary="Ask a run to stop (409 when it has already ended)",
)
def cancel_run(run_id: Id, ctx: Ctx) -> RunOut:
    return RunOut.model_validate(ctx.runs.cancel(run_id))


_SSE_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "A text/event-stream: `id` is the event's seq, `event` its type, "
        "`data` a RunEventOut as JSON. The stream ends after the run has ended and "
        "every event was sent.",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    },
    **_NOT_FOUND,
}


@router.get(
    "/runs/{run_id}/events",
    response_class=EventSourceResponse,
    responses=_SSE_DOC,
    summary="Follow a run's events, resuming after a sequence number",
)
async def run_events(
    run_id: Id,
    ctx: Ctx,
    after: Annotated[int, Query(ge=0, le=2**53)] = 0,
    last_event_id: Annotated[str | None, Header(max_length=32)] = None,
) -> EventSourceResponse:
    start = after
    if last_event_id is not None and last_event_id.strip():
        try:
            start = int(last_event_id)
        except ValueError:
            raise HTTPException(
                422, "Last-Event-ID must be a number; reconnect without it."
            ) from None
        if start < 0:
            raise HTTPException(422, "Last-Event-ID must not be negative; reconnect without it.")
    await to_thread.run_sync(ctx.store.get_run, run_id)  # 404 before the stream starts
    return EventSourceResponse(
        _follow(ctx, run_id, start),
        ping=ctx.settings.sse_ping_seconds,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.get(
    "/runs/{run_id}/events/list",
    response_model=list[RunEventOut],
    responses=_NOT_FOUND,
    summary="The run's persisted events after a sequence number, as JSON",
)
def list_run_events(
    run_id: Id,
    ctx: Ctx,
    after: Annotated[int, Query(ge=0, le=2**53)] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> list[RunEventOut]:
    ctx.store.get_run(run_id)
    return [event_out(e) for e in ctx.store.events_after(run_id, after, limit=limit)]


def _read(store: Store, run_id: int, last: int) -> list[RunEvent]:
    return store.events_after(run_id, last, limit=_BATCH)


async def _follow(ctx: AppContext, run_id: int, last: int) -> AsyncIterator[ServerSentEvent]:
    store = ctx.store
    with ctx.hub.subscribe(run_id) as waiter:
        while True:
            events = await to_thread.run_sync(_read, store, run_id, last)
            for event in events:
                out = event_out(event)
                data = out.model_dump(mode="json")
                yield ServerSentEvent(data=json.dumps(data), id=str(event.seq), event=out.type)
                last = event.seq
            if events:
                continue
            run = await to_thread.run_sync(store.get_run, run_id)
            if not run.active:
                # The final events may have landed between our read and the status read.
                tail = await to_thread.run_sync(_read, store, run_id, last)
                if not tail:
                    return
                continue
            await waiter.wait(ctx.settings.sse_ping_seconds)
