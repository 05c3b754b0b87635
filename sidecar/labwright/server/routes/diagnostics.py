"""The last compile of a session, explained: plain sentences, one action each."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter

from labwright.latex.diagnose import diagnose, humanize
from labwright.safety import is_real_dir
from labwright.server.context import AppContext, Ctx
from labwright.server.exports import read_regular
from labwright.server.schemas import DiagnosticsOut, ErrorBody, Id
from labwright.store.artifacts import own_pdf, run_dir

router = APIRouter(tags=["diagnostics"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}
_LOG_LIMIT = 8 << 20


def _newest_log(folder: Path) -> Path | None:
    """The most recent TeX log in a build directory (two levels deep, no symlinks)."""
    found: list[tuple[float, Path]] = []
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        if not is_real_dir(current):
            continue
        with os.scandir(current) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and depth < 2:
                    stack.append((Path(entry.path), depth + 1))
                elif entry.is_file(follow_symlinks=False) and entry.name.endswith(".log"):
                    found.append((entry.stat(follow_symlinks=False).st_mtime, Path(entry.path)))
    return max(found)[1] if found else None


def last_compile(ctx: AppContext, session_id: int) -> DiagnosticsOut:
    ctx.store.get_session(session_id)
    finished = [r for r in ctx.store.list_runs(session_id) if not r.active]
    if not finished:
        return DiagnosticsOut(
            run_id=None, version_no=None, compiled=False, degraded=False, error_count=0, messages=[]
        )
    run = finished[-1]
    made = [v for v in ctx.store.list_versions(session_id) if v.run_id == run.id]
    version = made[-1] if made else None
    folder = run_dir(ctx.data, session_id, run.id)
    compiled = version is not None and own_pdf(ctx.data, version) is not None
    log_path = _newest_log(folder)
    data = read_regular(log_path, _LOG_LIMIT) if log_path is not None else None
    if data is None:
        messages = (
            [] if compiled else ["No compile log was kept for the last run. Start a new run."]
        )
        return DiagnosticsOut(
            run_id=run.id,
            version_no=version.version_no if version else None,
            compiled=compiled,
            degraded=not compiled,
            error_count=0,
            messages=messages,
        )
    diag = diagnose(data.decode("utf-8", errors="replace"))
    return DiagnosticsOut(
        run_id=run.id,
        version_no=version.version_no if version else None,
        compiled=compiled,
        degraded=diag.degraded or not compiled,
        error_count=diag.error_count,
        messages=humanize(diag),
    )


@router.get(
    "/sessions/{session_id}/diagnostics", response_model=DiagnosticsOut, responses=_NOT_FOUND
)
def session_diagnostics(session_id: Id, ctx: Ctx) -> DiagnosticsOut:
    return last_compile(ctx, session_id)
