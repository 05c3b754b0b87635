"""Which process owns a run, and whether that process is still alive.

Crash recovery marks runs left active by a dead process as interrupted. It must
not touch runs of a process that is alive: the desktop sidecar and a
`labwright build` in a terminal may share one data directory. A PID check is
not enough (PIDs are reused, and on Windows `os.kill(pid, 0)` terminates the
process), so each open store holds an exclusive OS lock on a file named after
a random owner token; the kernel releases it when the process dies, even by
SIGKILL. A run records its owner token; a lock we can take means its owner is gone.
"""

from __future__ import annotations

import logging
import secrets
import sys
from pathlib import Path
from typing import IO

if sys.platform == "win32":  # pragma: no cover - exercised on Windows CI only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import errno
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        """True if we got the lock, False if someone holds it.

        Raises OSError when the file system cannot lock at all (some network
        mounts); the caller then falls back to treating other owners as gone.
        flock locks belong to the open file description, so a second store
        opened in the same process still sees the first one's lock as held.
        """
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True


log = logging.getLogger(__name__)


class OwnerLock:
    """This process's (this store's) liveness lock."""

    def __init__(self, locks_dir: Path) -> None:
        self.token = secrets.token_hex(12)
        self._dir = locks_dir
        self._path = locks_dir / f"{self.token}.lock"
        self._handle: IO[bytes] | None = open(self._path, "a+b")  # noqa: SIM115
        try:
            # A fresh random name cannot be held by anyone else.
            self._locking = _try_lock(self._handle)
        except OSError:
            self._locking = False
        if not self._locking:
            # No usable locks here: liveness of other processes is unknowable,
            # so recovery falls back to "every other owner is gone".
            log.warning("file locks unavailable in %s; run recovery assumes one process", locks_dir)

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing releases the lock
            self._handle = None
            self._path.unlink(missing_ok=True)

    def owner_is_alive(self, token: str) -> bool:
        """True when the store that wrote `token` is still open somewhere."""
        if token == self.token:
            return True
        if not self._locking:
            return False
        if not token or not all(c in "0123456789abcdef" for c in token):
            return False  # written by no live store (or not by us at all)
        path = self._dir / f"{token}.lock"
        try:
            handle = open(path, "r+b")  # noqa: SIM115
        except FileNotFoundError:
            return False
        with handle:
            try:
                if not _try_lock(handle):
                    return True
            except OSError:
                return False
        # We got the lock, so its owner is dead: the file is only litter now.
        path.unlink(missing_ok=True)
        return False

    def sweep_dead(self) -> None:
        """Remove lock files whose owners are gone (left behind by crashes)."""
        for path in self._dir.glob("*.lock"):
            self.owner_is_alive(path.stem)
