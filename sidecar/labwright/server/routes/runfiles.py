"""Files a run has made so far, before it has a version: its figures.

The progress screen shows each figure as its `figure` event arrives; the
version routes cannot serve it yet (the version is made at the end). Names are
matched against a listing of the run's figures directory, never joined onto a
path, and symlinks are never followed (store.artifacts).
"""

from __future__ import annotations

import mimetypes
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import Response

from labwright.server.context import Ctx
from labwright.server.exports import read_regular
from labwright.server.schemas import ErrorBody, Id
from labwright.store.artifacts import find_figure, run_dir

router = APIRouter(tags=["runs"])

FigureName = Annotated[str, PathParam(max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}},
    404: {"model": ErrorBody},
}


@router.get("/runs/{run_id}/figures/{name}", response_class=Response, responses=_DOC)
def run_figure(run_id: Id, name: FigureName, ctx: Ctx) -> Response:
    run = ctx.store.get_run(run_id)
    path = find_figure(run_dir(ctx.data, run.session_id, run.id), name)
    data = read_regular(path) if path is not None else None
    if path is None or data is None:
        raise HTTPException(404, "This figure is not there yet; wait for the run to draw it.")
    return Response(
        data,
        media_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
        headers={
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
        },
    )
