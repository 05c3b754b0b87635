"""Exports: an Overleaf-ready zip of a version, built only from files the session owns.

The zip holds `main.tex` (the version's content, from the store), the build's
own template and bibliography files, its figures, and a `latexmkrc` that
selects XeLaTeX, so it compiles on Overleaf as it is. Member names are made
here from our own build directory, never taken from a request. Every member is
checked with lstat and opened with O_NOFOLLOW where the OS has it, so a
symlink planted in a build directory (pointing at ~/.ssh, say) is skipped, not
followed into the archive.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from pathlib import Path

from labwright.server.artifacts import FIGURES_DIR, IMAGE_SUFFIXES, is_real_dir

MAIN_TEX = "main.tex"
LATEXMKRC = "latexmkrc"
# XeLaTeX through latexmk: Overleaf reads this file to pick the engine.
LATEXMKRC_TEXT = (
    "$pdf_mode = 5;\n$xelatex = 'xelatex -interaction=nonstopmode -file-line-error %O %S';\n"
)
SOURCE_SUFFIXES = frozenset({".cls", ".sty", ".bib", ".bst", ".tex", ".clo", ".def"})
_MAX_MEMBERS = 2000
_MAX_MEMBER_BYTES = 64 << 20
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


def read_regular(path: Path, limit: int = _MAX_MEMBER_BYTES) -> bytes | None:
    """Bytes of a regular, non-symlink file; None for anything else."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_BINARY)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        return handle.read(limit + 1)[:limit]


def _is_root_document(data: bytes) -> bool:
    return b"\\documentclass" in data[:4096]


def _safe_name(name: str) -> bool:
    return bool(name) and not name.startswith(".") and "/" not in name and "\\" not in name


def overleaf_members(content: str, build: Path | None) -> list[tuple[str, bytes]]:
    """(archive name, bytes) pairs; the main document always first."""
    members: list[tuple[str, bytes]] = [(MAIN_TEX, content.encode("utf-8"))]
    taken = {MAIN_TEX, LATEXMKRC}
    if build is not None and is_real_dir(build):
        with os.scandir(build) as entries:
            top = sorted(entries, key=lambda e: e.name)
        for entry in top:
            path = Path(entry.path)
            if len(members) >= _MAX_MEMBERS:
                break
            if entry.name in taken or not _safe_name(entry.name):
                continue
            if path.suffix.lower() not in SOURCE_SUFFIXES:
                continue
            data = read_regular(path)
            # Another whole document (e.g. the build's own copy of main) is not an input.
            if data is None or (path.suffix.lower() == ".tex" and _is_root_document(data)):
                continue
            members.append((entry.name, data))
            taken.add(entry.name)
        figures = build / FIGURES_DIR
        if is_real_dir(figures):
            with os.scandir(figures) as entries:
                pictures = sorted(entries, key=lambda e: e.name)
            for entry in pictures:
                path = Path(entry.path)
                if len(members) >= _MAX_MEMBERS:
                    break
                if not _safe_name(entry.name) or path.suffix.lower() not in IMAGE_SUFFIXES:
                    continue
                data = read_regular(path)
                if data is not None:
                    members.append((f"{FIGURES_DIR}/{entry.name}", data))
    members.append((LATEXMKRC, LATEXMKRC_TEXT.encode("ascii")))
    return members


def overleaf_zip(content: str, build: Path | None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in overleaf_members(content, build):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16  # plain file, never a symlink entry
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()
