"""File safety: the few checks every package that touches a user's path needs.

Two threats recur everywhere: a path (typed by the model, or a symlink in the
user's folder) that resolves outside the folder it should stay in, and a name
that is not the regular file it looks like (a symlink swapped in for a
secret, a FIFO that blocks the reader forever). The seed had five private
copies of these checks; this module is the one copy, and it stays free of
other Labwright imports so the lowest layers (ingest, sandbox) can use it.

Reading: `read_regular` (O_NOFOLLOW, non-blocking, checked on the descriptor,
size limit, tail reads). Placing: `resolve_inside`, `is_inside`, `real_inside`,
`is_plain_below`. Kinds: `is_regular_file`, `is_real_dir`. Writing below a
folder without following links: `append_below` (openat, one part at a time).
"""

from __future__ import annotations

import errno
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


def is_real_dir(path: Path) -> bool:
    """A directory that is not a symlink to one (lstat, never stat)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def is_plain_below(path: Path, root: Path) -> bool:
    """`path` lies below `root` by its own name: no symlink on the way from `root`
    to its parent (a `figures/` that is a link elsewhere, even inside `root`, is
    refused). The last part itself is the caller's to check (`is_regular_file`)."""
    try:
        parts = Path(path).relative_to(root).parts
    except ValueError:
        return False
    expected = os.path.join(os.path.realpath(root), *parts[:-1])
    return os.path.realpath(Path(path).parent) == expected


# --- writing below a folder -----------------------------------------------------------

_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class WriteRefused(Exception):
    """A write below a folder that must not happen; `reason` says which check refused it:

    - "link_on_way": a link or a file stands where a folder of the path should be;
    - "link_at_name": a link or a folder stands where the file should be;
    - "exists": the file is already there (a write from its start must create it);
    - "no_start": a write past the start of a file that does not exist yet;
    - "out_of_order": the file's size is not the offset the write starts at.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def append_below(root: Path, parts: tuple[str, ...], offset: int, data: bytes) -> int:
    """Write `data` at `offset` into the file `root/parts...`, creating its folders;
    the file's new size. Offset 0 creates the file (it must not exist); a later
    offset must equal the file's size. `parts` must already be safe names.

    Walks one directory at a time with O_NOFOLLOW and directory descriptors
    (openat), so a symlink met anywhere on the way is refused, never followed,
    and nothing lands outside `root`, even when the tree changes meanwhile.
    """
    if not os.supports_dir_fd >= {os.open, os.mkdir}:  # pragma: no cover - Windows
        return _append_portable(root, parts, offset, data)
    fd = os.open(root, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW)
    try:
        for part in parts[:-1]:
            child = _open_dir(fd, part)
            os.close(fd)
            fd = child
        flags = os.O_WRONLY | _O_NOFOLLOW | _O_BINARY
        flags |= os.O_CREAT | os.O_EXCL if offset == 0 else 0
        try:
            out = os.open(parts[-1], flags, 0o600, dir_fd=fd)
        except FileExistsError:
            raise WriteRefused("exists") from None
        except FileNotFoundError:
            raise WriteRefused("no_start") from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENOTDIR):
                raise WriteRefused("link_at_name") from None
            raise
        with os.fdopen(out, "wb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise WriteRefused("link_at_name")
            if info.st_size != offset:
                raise WriteRefused("out_of_order")
            handle.seek(offset)
            handle.write(data)
            return offset + len(data)
    finally:
        os.close(fd)


def _open_dir(parent_fd: int, name: str) -> int:
    """Open (creating it if needed) one directory below `parent_fd`; a link is refused."""
    try:
        os.mkdir(name, 0o700, dir_fd=parent_fd)
    except FileExistsError:
        pass
    try:
        return os.open(name, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW, dir_fd=parent_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise WriteRefused("link_on_way") from None
        raise


def _append_portable(
    root: Path, parts: tuple[str, ...], offset: int, data: bytes
) -> int:  # pragma: no cover - Windows has no openat
    """Check each existing part with lstat (links and junctions refused), then write."""
    current = root
    for part in parts[:-1]:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            current.mkdir(mode=0o700)
            continue
        reparse = getattr(info, "st_file_attributes", 0) & 0x400  # link/junction
        if not stat.S_ISDIR(info.st_mode) or reparse:
            raise WriteRefused("link_on_way")
    target = current / parts[-1]
    if os.path.lexists(target):
        info = os.lstat(target)
        if offset == 0 or not stat.S_ISREG(info.st_mode) or info.st_size != offset:
            raise WriteRefused("exists")
    elif offset != 0:
        raise WriteRefused("no_start")
    with open(target, "ab" if offset else "xb") as handle:
        handle.write(data)
    return offset + len(data)
