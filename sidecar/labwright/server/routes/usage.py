"""Token usage and cost, per run and per session (runs plus chat edits)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from labwright.server.context import Ctx
from labwright.server.schemas import ErrorBody, Id, UsageOut
from labwright.store.models import UsageTotals

router = APIRouter(tags=["usage"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


def _out(totals: UsageTotals, by_step: dict[str, UsageTotals]) -> UsageOut:
    # The totals map by from_attributes; by_step is the one derived field.
    out = UsageOut.model_validate(totals)
    out.by_step = {step: t.cost for step, t in by_step.items()}
    return out


@router.get("/runs/{run_id}/usage", response_model=UsageOut, responses=_NOT_FOUND)
def run_usage(run_id: Id, ctx: Ctx) -> UsageOut:
    ctx.store.get_run(run_id)
    return _out(ctx.store.usage_totals(run_id=run_id), ctx.store.usage_by_step(run_id=run_id))


@router.get("/sessions/{session_id}/usage", response_model=UsageOut, responses=_NOT_FOUND)
def session_usage(session_id: Id, ctx: Ctx) -> UsageOut:
    ctx.store.get_session(session_id)
    return _out(
        ctx.store.usage_totals(session_id=session_id),
        ctx.store.usage_by_step(session_id=session_id),
    )
