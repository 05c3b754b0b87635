"""Exports: an Overleaf-ready zip of a version, built only from files the session owns.

What goes in is decided by `labwright.export.members_of` (the document's class,
bibliography and figures, each checked with lstat inside the build directory,
arc names generated). The server adds one thing: `main.tex` is the version's
content from the store, not whatever the build directory holds, because a
version made by an accepted edit or a restore shares its ancestor's build.
Bytes are read with O_NOFOLLOW where the OS has it, so a file swapped for a
symlink between the check and the read is still not followed. The zip is built
in memory: an export request writes nothing.

The compendium (issue 23: analysis.py, analysis.ipynb, requirements.txt and
the raw files they read, under `analysis/`) is written by the same code as
`labwright export --compendium` into a temporary folder that is removed
before the response goes out, then zipped with the Overleaf zip's checks.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from labwright.export import (
    COMPENDIUM_DIR,
    LATEXMKRC,
    ExportError,
    compendium_members,
    members_of,
)
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


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.external_attr = 0o644 << 16  # a plain file, never a symlink entry
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def overleaf_zip(content: str, build: Path | None, bibliography: str | None = None) -> bytes:
    return _zip(overleaf_members(content, build, bibliography))


def compendium_zip(folder: Path, record: Mapping[str, Any], lang: str) -> bytes:
    """The compendium of `folder` against the version's number `record`, as a
    zip whose members all sit under `analysis/`. Raises ExportError when a
    written file cannot be a member (a raw file's name no OS can extract)."""
    from labwright.agent.offline.compendium import export_compendium

    with tempfile.TemporaryDirectory(prefix="labwright-compendium-") as tmp:
        root = Path(tmp)
        export_compendium(Path(folder), root / COMPENDIUM_DIR, lang=lang, record=record)
        members: list[tuple[str, bytes]] = []
        for rel in compendium_members(root):
            data = read_regular(root / rel)
            if data is None:
                raise ExportError(f"{rel} is not a regular file, so it is not exported.")
            members.append((rel, data))
    return _zip(members)
