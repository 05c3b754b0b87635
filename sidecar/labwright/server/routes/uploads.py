"""Uploads: a folder dropped on the browser page, copied into a session-owned place.

A browser drop yields files without paths on this machine, so the page sends
the files here and a session is made from the copy. The API's guard accepts
only JSON bodies of at most 1 MiB, so files arrive as base64 chunks, appended
in order (each chunk says the offset it starts at).

Every name is reduced to a safe relative path before anything is written:
"/"-separated, no empty or "." parts, no "..", no absolute or drive-letter
names, no backslashes, control characters or over-long parts, at most
`max_depth` parts. Writing walks the copy one directory at a time with
O_NOFOLLOW and directory file descriptors (openat), so a symlink met anywhere
on the way is refused, never followed, and nothing can land outside the copy
(labwright.safety.append_below).
Archives are not accepted: a zip or tar could carry links and would need a
second set of checks for nothing a folder drop cannot already do.

Limits on the total size, the file count and the depth are checked when the
upload is announced and again on every chunk. Each violation is its own 4xx
with one sentence; a refused chunk writes nothing.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
import shutil
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, status
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from labwright.config import DataDir
from labwright.messages import say
from labwright.safety import WriteRefused, append_below, is_real_dir
from labwright.server.context import Ctx
from labwright.server.inventory import scan_inventory
from labwright.server.routes.noecho import NoEchoRoute
from labwright.server.schemas import ErrorBody, SessionDetail

router = APIRouter(prefix="/uploads", tags=["uploads"], route_class=NoEchoRoute)

UploadId = Annotated[str, PathParam(pattern=r"^[0-9a-f]{32}$")]
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (404, 409, 413, 422)
}
_SEALED = "sealed"  # beside the copy: set once a session was made from it
_FORBIDDEN_CHARS = frozenset('\\:*?"<>|')


@dataclass(frozen=True)
class UploadLimits:
    max_total: int = 2 << 30  # 2 GiB: a large lab folder, not a disk image
    max_files: int = 10_000
    max_depth: int = 16
    max_part: int = 255
    max_path: int = 1024


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UploadCreate(_Request):
    name: str = Field(default="", max_length=255, description="The dropped folder's name.")
    file_count: int = Field(ge=1, le=2**31)
    total_size: int = Field(ge=0, le=2**53)


class UploadOut(BaseModel):
    id: str
    max_total: int
    max_files: int
    max_depth: int


class ChunkIn(_Request):
    path: str = Field(min_length=1, max_length=4096)
    offset: int = Field(ge=0, le=2**53)
    data: str = Field(max_length=1 << 20, description="The chunk's bytes, base64.")


class ChunkOut(BaseModel):
    path: str
    size: int


class UploadSessionIn(_Request):
    title: str = Field(default="", max_length=300)
    language: str = Field(default="auto", pattern=r"^(|auto|en|zh)$")


def limits_of(request: Request) -> UploadLimits:
    found = getattr(request.app.state, "upload_limits", None)
    return found if isinstance(found, UploadLimits) else UploadLimits()


def uploads_dir(data: DataDir) -> Path:
    return data.root / "uploads"


def _reject(code: int, sentence: str) -> HTTPException:
    return HTTPException(code, sentence)


def safe_parts(raw: str, limits: UploadLimits) -> tuple[str, ...]:
    """The name as a tuple of safe parts, or a 422 saying what is wrong with it."""
    name = unicodedata.normalize("NFC", raw)
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise _reject(
            422, "A file name holds a control character; rename the file and upload again."
        )
    if "\\" in name:
        raise _reject(422, "A file name holds a backslash; rename the file and upload again.")
    if name.startswith("/") or (len(name) >= 2 and name[1] == ":" and name[0].isalpha()):
        raise _reject(
            422, "A file name is an absolute path; upload files by their place in the folder."
        )
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if ".." in parts:
        raise _reject(
            422, "A file name climbs out of the folder with '..'; upload the folder itself."
        )
    if not parts:
        raise _reject(422, "A file name is empty; upload files with names.")
    if len(parts) > limits.max_depth:
        raise _reject(
            422,
            f"The folder is nested more than {limits.max_depth} levels deep; upload a flatter folder.",
        )
    if len(name) > limits.max_path or any(len(p.encode()) > limits.max_part for p in parts):
        raise _reject(422, "A file name is too long; shorten it and upload again.")
    if any(set(p) & _FORBIDDEN_CHARS or p.endswith((" ", ".")) for p in parts):
        raise _reject(
            422, "A file name holds a character that is not allowed in names; rename the file."
        )
    return parts


_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@contextmanager
def _locked(upload_id: str) -> Iterator[None]:
    """One writer per upload, so the size and count checks cannot race each other."""
    with _locks_guard:
        lock = _locks.setdefault(upload_id, threading.Lock())
    with lock:
        yield


def _upload_root(ctx_data: DataDir, upload_id: str) -> Path:
    root = uploads_dir(ctx_data) / upload_id
    if not is_real_dir(root):
        raise _reject(404, "This upload does not exist; drop the folder again.")
    return root


def _folder_name(raw: str, limits: UploadLimits) -> str:
    """The copy is named like the dropped folder (the report names it); else "upload"."""
    try:
        parts = safe_parts(raw, limits)
    except HTTPException:
        return "upload"
    return parts[0] if len(parts) == 1 and parts[0] != _SEALED else "upload"


def _copy_of(root: Path) -> Path:
    """The one real directory inside an upload's root: the copy."""
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                return Path(entry.path)
    raise _reject(404, "This upload does not exist; drop the folder again.")


def _usage(files: Path) -> tuple[int, int]:
    """(file count, total bytes) of the copy, without following any link."""
    count = total = 0
    stack = [files]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                else:
                    count += 1
                    total += entry.stat(follow_symlinks=False).st_size
    return count, total


# What the route says when safety.append_below refuses a write (409, one sentence).
_REFUSED = {
    "link_on_way": "A link or file is in the way of this name; upload the folder again.",
    "link_at_name": "A link or folder is in the way of this name; upload the folder again.",
    "exists": "This file was already uploaded; drop the folder again.",
    "no_start": "A chunk arrived before its file's start; upload the file from its beginning.",
    "out_of_order": "A chunk arrived out of order; upload the file again from its start.",
}


def _write(files: Path, parts: tuple[str, ...], offset: int, data: bytes) -> int:
    """Append `data` at `offset` to the file named by `parts` inside `files`; its new size."""
    try:
        return append_below(files, parts, offset, data)
    except WriteRefused as refused:
        raise _reject(409, _REFUSED[refused.reason]) from None


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=UploadOut,
    responses=_ERRORS,
    summary="Announce a folder upload (its file count and total size are checked against the limits)",
)
def create_upload(body: UploadCreate, request: Request, ctx: Ctx) -> UploadOut:
    limits = limits_of(request)
    if body.file_count > limits.max_files:
        raise _reject(
            422, f"The folder has more than {limits.max_files} files; upload a smaller folder."
        )
    if body.total_size > limits.max_total:
        raise _reject(
            413,
            f"The folder is larger than {limits.max_total >> 20} MB; upload a smaller folder.",
        )
    upload_id = secrets.token_hex(16)
    root = uploads_dir(ctx.data)
    root.mkdir(mode=0o700, exist_ok=True)
    (root / upload_id / _folder_name(body.name, limits)).mkdir(mode=0o700, parents=True)
    return UploadOut(
        id=upload_id,
        max_total=limits.max_total,
        max_files=limits.max_files,
        max_depth=limits.max_depth,
    )


@router.post("/{upload_id}/chunks", response_model=ChunkOut, responses=_ERRORS)
def put_chunk(upload_id: UploadId, body: ChunkIn, request: Request, ctx: Ctx) -> ChunkOut:
    limits = limits_of(request)
    parts = safe_parts(body.path, limits)
    try:
        data = base64.b64decode(body.data, validate=True)
    except (binascii.Error, ValueError):
        raise _reject(422, "A chunk is not valid base64; upload the file again.") from None
    with _locked(upload_id):
        root = _upload_root(ctx.data, upload_id)
        if os.path.lexists(root / _SEALED):
            raise _reject(409, "This upload is finished; drop the folder again to add files.")
        files = _copy_of(root)
        count, total = _usage(files)
        if total + len(data) > limits.max_total:
            raise _reject(
                413,
                f"The folder is larger than {limits.max_total >> 20} MB; upload a smaller folder.",
            )
        if body.offset == 0 and count + 1 > limits.max_files:
            raise _reject(
                422, f"The folder has more than {limits.max_files} files; upload a smaller folder."
            )
        size = _write(files, parts, body.offset, data)
    return ChunkOut(path="/".join(parts), size=size)


@router.post(
    "/{upload_id}/session",
    status_code=status.HTTP_201_CREATED,
    response_model=SessionDetail,
    responses=_ERRORS,
    summary="Finish an upload: make a session from the copy (no more chunks after this)",
)
def finish_upload(upload_id: UploadId, body: UploadSessionIn, ctx: Ctx) -> SessionDetail:
    with _locked(upload_id):
        root = _upload_root(ctx.data, upload_id)
        if os.path.lexists(root / _SEALED):
            raise _reject(409, "This upload is already a session; open it from the start screen.")
        files = _copy_of(root)
        if _usage(files)[0] == 0:
            raise _reject(422, "No file arrived; drop a folder that holds files.")
        inventory = scan_inventory(files)
        if not inventory:
            # Only what a file manager leaves (.DS_Store, Thumbs.db, dot files):
            # said at the drop, as for a folder given by path (sessions.py). A
            # session of nothing would only fail its run, with a sentence naming
            # the copy's internal path (issue 21). The copy goes: nothing is left.
            shutil.rmtree(root)
            raise HTTPException(422, say("folder.empty", folder=files.name))
        (root / _SEALED).touch(mode=0o600)
    session = ctx.store.create_session(
        str(files),
        inventory=inventory,
        title=body.title or files.name,
        language=body.language or "auto",
    )
    return SessionDetail.model_validate(session)


@router.delete(
    "/{upload_id}", status_code=status.HTTP_204_NO_CONTENT, responses=_ERRORS, response_model=None
)
def delete_upload(upload_id: UploadId, ctx: Ctx) -> None:
    """Drop an unfinished upload (the page gave up); a finished one belongs to its session."""
    with _locked(upload_id):
        root = _upload_root(ctx.data, upload_id)
        if os.path.lexists(root / _SEALED):
            raise _reject(409, "This upload is a session now; delete the session instead.")
        shutil.rmtree(root)
