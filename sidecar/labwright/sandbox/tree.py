"""Remove a folder tree a job left behind, however deep, never following a link.

Why not `shutil.rmtree`: on Python 3.11 it recurses once per level, so a
chain of a few thousand nested folders (a job can make one in seconds) makes
it raise RecursionError and leaves the tree on the host. That needs a work
folder without the per-job tmpfs (isolation missing or switched off); with
the tmpfs the copy-out brings back at most `isolate.COPY_MAX_DEPTH` levels.

The walk holds one directory descriptor at a time: it descends with
`openat(O_NOFOLLOW|O_DIRECTORY)` and climbs back with `openat("..")`,
checking that `..` is the folder it came from (device and inode), so neither
the nesting depth nor RLIMIT_NOFILE bounds it, and a link planted anywhere
is removed as a name, never entered. Each folder is read once; its
sub-folders wait on an explicit stack.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass
class _Level:
    name: str  # this folder's name in its parent ("" for the top)
    ident: tuple[int, int]  # (st_dev, st_ino), to check the climb back
    pending: list[str] = field(default_factory=list)  # sub-folders not yet entered


def _where(top: str, names: list[str]) -> str:
    # Built only for a message: joining the whole chain at every level of a
    # deep tree costs time quadratic in its depth.
    return os.path.join(top, *names)


def _clear_files(fd: int, errors: list[str], where: Callable[[], str]) -> list[str]:
    """Unlink every non-folder entry of the folder open at `fd`; return its sub-folders."""
    folders: list[str] = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.name)
                continue
            try:
                os.unlink(entry.name, dir_fd=fd)
            except OSError as exc:
                errors.append(f"{where()}/{entry.name}: {exc.strerror or exc}")
    return folders


def remove_tree(path: str) -> list[str]:
    """Remove `path` and everything under it; return what could not be removed.

    A link or a file at `path` itself is unlinked (a link's target is never
    touched). Errors are collected, not raised, so one immutable file does
    not stop the rest from going.
    """
    errors: list[str] = []
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return errors
    if not stat.S_ISDIR(st.st_mode):
        try:
            os.unlink(path)
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
        return errors
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError as exc:
        return [f"{path}: {exc.strerror or exc}"]
    names: list[str] = []  # the path below `path`, for messages
    try:
        top = os.fstat(fd)
        levels = [_Level("", (top.st_dev, top.st_ino), _clear_files(fd, errors, lambda: path))]
        while levels:
            level = levels[-1]
            if level.pending:
                name = level.pending.pop()
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    errors.append(f"{_where(path, names)}/{name}: {exc.strerror or exc}")
                    continue
                os.close(fd)
                fd = child
                names.append(name)
                cst = os.fstat(fd)
                pending = _clear_files(fd, errors, lambda: _where(path, names))
                levels.append(_Level(name, (cst.st_dev, cst.st_ino), pending))
                continue
            levels.pop()
            if not levels:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            pst = os.fstat(parent)
            os.close(fd)
            fd = parent
            if (pst.st_dev, pst.st_ino) != levels[-1].ident:
                # Something moved the tree while we walked it: stop rather
                # than remove entries of a folder we did not come from.
                errors.append(f"{_where(path, names)}: its parent changed during removal")
                return errors
            try:
                os.rmdir(level.name, dir_fd=fd)
            except OSError as exc:
                errors.append(f"{_where(path, names)}: {exc.strerror or exc}")
            names.pop()
    finally:
        os.close(fd)
    try:
        os.rmdir(path)
    except OSError as exc:
        errors.append(f"{path}: {exc.strerror or exc}")
    return errors
