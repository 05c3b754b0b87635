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
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        # flock locks belong to the open file description, so a second store
        # opened in the same process still sees the first one's lock as held.
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True


class OwnerLock:
    """This process's (this store's) liveness lock."""

    def __init__(self, locks_dir: Path) -> None:
        self.token = secrets.token_hex(12)
        self._dir = locks_dir
        self._path = locks_dir / f"{self.token}.lock"
        self._handle: IO[bytes] | None = open(self._path, "a+b")  # noqa: SIM115
        if not _try_lock(self._handle):  # a fresh random name: cannot be held by anyone
            raise RuntimeError(f"could not lock {self._path}")

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing releases the lock
            self._handle = None
            self._path.unlink(missing_ok=True)

    def owner_is_alive(self, token: str) -> bool:
        """True when the store that wrote `token` is still open somewhere."""
        if token == self.token:
            return True
        if not token or not all(c in "0123456789abcdef" for c in token):
            return False  # written by no live store (or not by us at all)
        path = self._dir / f"{token}.lock"
        try:
            handle = open(path, "r+b")  # noqa: SIM115
        except FileNotFoundError:
            return False
        with handle:
            if not _try_lock(handle):
                return True
        # We got the lock, so its owner is dead: the file is only litter now.
        path.unlink(missing_ok=True)
        return False

    def sweep_dead(self) -> None:
        """Remove lock files whose owners are gone (left behind by crashes)."""
        for path in self._dir.glob("*.lock"):
            self.owner_is_alive(path.stem)
