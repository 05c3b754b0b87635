"""Files of a version: its PDF, its figures, and its exports (PDF, Overleaf
zip, and the analysis compendium: the script and notebook that recompute the
version's numbers from the raw files, issue 23).

All GETs, and none writes anything: the zip is built in memory per request.
Download names are generated from ids, never taken from the request.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import Response

from labwright.export import ExportError, check_exportable
from labwright.safety import is_real_dir
from labwright.server.context import AppContext, Ctx
from labwright.server.exports import compendium_zip, overleaf_zip, read_regular
from labwright.server.schemas import ErrorBody, FigureOut, Id
from labwright.store.artifacts import (
    build_dir_for,
    find_figure,
    list_figures,
    pdf_for,
    record_for,
)
from labwright.store.models import Version

router = APIRouter(prefix="/sessions/{session_id}/versions/{version_no}", tags=["files"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}
FigureName = Annotated[str, PathParam(max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


def _binary(media: str) -> dict[int | str, dict[str, Any]]:
    return {
        200: {"content": {media: {"schema": {"type": "string", "format": "binary"}}}},
        **_NOT_FOUND,
    }


def _version(ctx: AppContext, session_id: int, version_no: int) -> Version:
    return ctx.store.get_version_by_no(session_id, version_no)


def _pdf_bytes(ctx: AppContext, version: Version) -> bytes:
    pdf = pdf_for(ctx.store, ctx.data, version)
    data = read_regular(pdf) if pdf is not None else None
    if data is None:
        raise HTTPException(
            404, "This version has no compiled PDF; open a version that came from a run."
        )
    return data


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}


@router.get("/pdf", response_class=Response, responses=_binary("application/pdf"))
def version_pdf(session_id: Id, version_no: Id, ctx: Ctx) -> Response:
    data = _pdf_bytes(ctx, _version(ctx, session_id, version_no))
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": "inline", "Cache-Control": "no-store"},
    )


@router.get("/figures", response_model=list[FigureOut], responses=_NOT_FOUND)
def version_figures(session_id: Id, version_no: Id, ctx: Ctx) -> list[FigureOut]:
    version = _version(ctx, session_id, version_no)
    build = build_dir_for(ctx.store, ctx.data, version)
    base = f"/api/sessions/{session_id}/versions/{version_no}/figures"
    return [
        FigureOut(name=p.name, size=p.lstat().st_size, url=f"{base}/{p.name}")
        for p in list_figures(build)
    ]


@router.get("/figures/{name}", response_class=Response, responses=_binary("image/png"))
def version_figure(session_id: Id, version_no: Id, name: FigureName, ctx: Ctx) -> Response:
    version = _version(ctx, session_id, version_no)
    path = find_figure(build_dir_for(ctx.store, ctx.data, version), name)
    data = read_regular(path) if path is not None else None
    if path is None or data is None:
        raise HTTPException(404, "This figure does not exist; reload the figure list.")
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Response(
        data,
        media_type=media,
        headers={
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            # An SVG is a document that can hold script; never let it run as one.
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
        },
    )


@router.get(
    "/export/pdf",
    response_class=Response,
    responses={**_binary("application/pdf"), 409: {"model": ErrorBody}},
)
def export_pdf(session_id: Id, version_no: Id, ctx: Ctx) -> Response:
    version = _version(ctx, session_id, version_no)
    pdf = pdf_for(ctx.store, ctx.data, version)
    try:  # a build that overwrote its own inputs is not exported
        if pdf is not None:
            check_exportable(pdf.parent)
    except ExportError as exc:
        raise HTTPException(409, str(exc)) from None
    data = _pdf_bytes(ctx, version)
    name = f"labwright-session{session_id}-v{version_no}.pdf"
    return Response(data, media_type="application/pdf", headers=_attachment(name))


@router.get(
    "/export/zip",
    response_class=Response,
    responses={**_binary("application/zip"), 409: {"model": ErrorBody}},
    summary="An Overleaf-ready zip of this version (main.tex, figures, latexmkrc)",
)
def export_zip(session_id: Id, version_no: Id, ctx: Ctx) -> Response:
    version = _version(ctx, session_id, version_no)
    try:
        data = overleaf_zip(
            version.content, build_dir_for(ctx.store, ctx.data, version), version.bibliography
        )
    except ExportError as exc:
        raise HTTPException(409, f"{exc} Rebuild the report, then export again.") from None
    name = f"labwright-session{session_id}-v{version_no}.zip"
    return Response(data, media_type="application/zip", headers=_attachment(name))


@router.get(
    "/export/compendium",
    response_class=Response,
    responses={**_binary("application/zip"), 409: {"model": ErrorBody}},
    summary="The analysis compendium of this version (analysis/: script, notebook, "
    "requirements, raw data) that recomputes its numbers",
)
def export_compendium_zip(session_id: Id, version_no: Id, ctx: Ctx) -> Response:
    from labwright.agent.offline.compendium_build import document_lang

    version = _version(ctx, session_id, version_no)
    record = record_for(ctx.store, ctx.data, version)
    if record is None:
        raise HTTPException(
            404, "This version has no number record; open a version that came from a run."
        )
    folder = Path(ctx.store.get_session(session_id).source_path)
    if not is_real_dir(folder):
        raise HTTPException(
            409, "The data folder of this session is gone; put it back, then export again."
        )
    try:
        # The script compares with the numbers this version's record holds,
        # in the language the version is written in.
        data = compendium_zip(folder, record.data, document_lang(version.content))
    except ExportError as exc:
        raise HTTPException(409, f"{exc} Rename the file, then export again.") from None
    except Exception as exc:  # noqa: BLE001 - a folder the analysis cannot read again
        raise HTTPException(
            409, f"The analysis could not be exported ({exc}); run the report again, then export."
        ) from None
    name = f"labwright-session{session_id}-v{version_no}-analysis.zip"
    return Response(data, media_type="application/zip", headers=_attachment(name))
