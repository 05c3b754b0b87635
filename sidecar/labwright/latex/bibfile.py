"""Which .bib file a document cites from, so a version's bibliography can be written
beside it and read back from its build (the file name comes from the document's
own ``\\bibliography{…}``; a name that is not a plain file name is never used)."""

from __future__ import annotations

import re
from pathlib import Path

from labwright.safety import read_regular_whole

_BIBLIOGRAPHY = re.compile(r"^(?:[^%\n]|\\%)*?\\bibliography\{([^}]*)\}", re.M)
_PLAIN_NAME = re.compile(r"^[\w.-]+$")
_MAX_BIB_BYTES = 16 << 20


def bib_file_name(tex: str) -> str | None:
    """``refs.bib`` for ``\\bibliography{refs}`` (the first of several); None without one."""
    match = _BIBLIOGRAPHY.search(tex)
    if match is None:
        return None
    stem = match.group(1).split(",")[0].strip().removesuffix(".bib")
    if not stem or not _PLAIN_NAME.match(stem) or stem.startswith("."):
        return None
    return f"{stem}.bib"


def read_bibliography(tex: str, build_dir: Path) -> str | None:
    """The .bib `tex` cites from in `build_dir` (a regular file), or None."""
    name = bib_file_name(tex)
    if name is None:
        return None
    data = read_regular_whole(build_dir / name, _MAX_BIB_BYTES)
    return None if data is None else data.decode("utf-8", errors="replace")


def write_bibliography(tex: str, bibliography: str, build_dir: Path) -> Path | None:
    """Write a version's bibliography where `tex` looks for it; None when it names none."""
    name = bib_file_name(tex)
    if name is None:
        return None
    path = build_dir / name
    if path.is_symlink():
        path.unlink()  # never write through a link placed in a build directory
    path.write_text(bibliography, encoding="utf-8")
    return path
