"""Exports: an Overleaf-ready zip of a version, built only from files the session owns.

What goes in is decided by `labwright.export.members_of` (the document's class,
bibliography and figures, each checked with lstat inside the build directory,
arc names generated). The server adds one thing: `main.tex` is the version's
content from the store, not whatever the build directory holds, because a
version made by an accepted edit or a restore shares its ancestor's build.
Bytes are read with O_NOFOLLOW where the OS has it, so a file swapped for a
symlink between the check and the read is still not followed. The zip is built
in memory: an export request writes nothing.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from labwright.export import LATEXMKRC, ExportError, members_of
from labwright.latex.bibfile import bib_file_name
from labwright.safety import read_regular_whole

MAIN_TEX = "main.tex"
_FIXED_TIME = (2026, 1, 1, 0, 0, 0)
_MAX_MEMBER_BYTES = 64 << 20


def read_regular(path: Path, limit: int = _MAX_MEMBER_BYTES) -> bytes | None:
    """Bytes of a regular, non-symlink file of at most `limit` bytes; None for anything else."""
    return read_regular_whole(path, limit)


def overleaf_members(
    content: str, build: Path | None, bibliography: str | None = None
) -> list[tuple[str, bytes]]:
    """(arc name, bytes) pairs: main.tex first, then the build's checked members, then latexmkrc.

    `bibliography`: the version's own .bib, which replaces the build's copy (a
    version made by an accepted citation shares its ancestor's build)."""
    members: list[tuple[str, bytes]] = [(MAIN_TEX, content.encode("utf-8"))]
    if build is not None and (build / MAIN_TEX).is_file():
        for member in members_of(build / MAIN_TEX):
            if member.arcname == MAIN_TEX:
                continue
            data = read_regular(member.path)
            if data is None:
                raise ExportError(f"{member.arcname} is not a regular file, so it is not exported.")
            members.append((member.arcname, data))
    name = bib_file_name(content)
    if bibliography is not None and name is not None:
        members = [m for m in members if m[0] != name]
        members.append((name, bibliography.encode("utf-8")))
    members.append(("latexmkrc", LATEXMKRC.encode("utf-8")))
    return members


def overleaf_zip(content: str, build: Path | None, bibliography: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in overleaf_members(content, build, bibliography):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.external_attr = 0o644 << 16  # a plain file, never a symlink entry
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()
