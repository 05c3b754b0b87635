"""File safety: the few checks every package that touches a user's path needs.

Two threats recur everywhere: a path (typed by the model, or a symlink in the
user's folder) that resolves outside the folder it should stay in, and a name
that is not the regular file it looks like (a symlink swapped in for a
secret, a FIFO that blocks the reader forever). The seed had five private
copies of these checks; this module is the one copy, and it stays free of
other Labwright imports so the lowest layers (ingest, sandbox) can use it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


class PathEscape(ValueError):
    """A relative path that leaves its root (message: one sentence the model can act on)."""


def resolve_inside(root: Path, relative: str | None) -> Path:
    """Resolve `relative` under `root` (symlinks included) or raise PathEscape."""
    base = root.resolve()
    candidate = (base / (relative or "")).resolve()
    if candidate != base and base not in candidate.parents:
        raise PathEscape(
            f"'{relative}' is outside the data folder; use a path relative to the folder, "
            "as listed by list_dir."
        )
    return candidate


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path`, resolved (symlinks included), lies in or at `root`."""
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def real_inside(real_path: str, real_root: str) -> bool:
    """`is_inside` for paths already passed through os.path.realpath (the scanner's hot loop)."""
    try:
        return os.path.commonpath([real_path, real_root]) == real_root
    except ValueError:  # different drives on Windows
        return False


def is_regular_file(path: Path) -> bool:
    """A regular file that is not a symlink (lstat, never stat)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read_regular(path: Path, *, limit: int | None = None, tail: bool = False) -> bytes | None:
    """The bytes of a regular file, never through a symlink and never blocking; else None.

    `limit`: at most this many bytes (the last ones with `tail`); a longer file
    is cut. `read_regular_whole` refuses a longer file instead.
    """
    opened = open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    with os.fdopen(fd, "rb") as handle:
        if tail and limit is not None and info.st_size > limit:
            handle.seek(info.st_size - limit)
        return handle.read(limit) if limit is not None else handle.read()


def read_regular_whole(path: Path, limit: int) -> bytes | None:
    """The whole file when it is regular and at most `limit` bytes; None otherwise."""
    opened = open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit) if info.st_size <= limit else None


def open_regular(path: Path) -> tuple[int, os.stat_result] | None:
    """An fd of a regular file opened without following a symlink; checked on the fd,
    so a file swapped between a check and the open is still caught."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_BINARY)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info
