"""The Store: one object, opened once per process, used from any thread."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from labwright.config import DataDir, data_dir
from labwright.store.chat import ChatMixin
from labwright.store.db import ConnectionPool
from labwright.store.migrations import migrate
from labwright.store.owner import OwnerLock
from labwright.store.proposals import ProposalsMixin
from labwright.store.runs import RunsMixin
from labwright.store.sessions import SessionsMixin
from labwright.store.versions import VersionsMixin


class Store(SessionsMixin, VersionsMixin, ProposalsMixin, RunsMixin, ChatMixin):
    """Sessions, versions, proposals, runs, events, messages and usage in SQLite.

    Open with `Store.open()`; it creates the data directory, applies pending
    migrations, marks runs orphaned by a crashed process as interrupted and
    sweeps leftovers of an interrupted session delete. Thread-safe: each
    thread uses its own connection. Close it (or use `with`) when done.
    """

    @classmethod
    def open(cls, home: DataDir | str | os.PathLike[str] | None = None) -> Store:
        """Open the store in `home` (a DataDir or directory; default: config.data_dir())."""
        resolved = home.ensure() if isinstance(home, DataDir) else data_dir(home)
        pool = ConnectionPool(resolved.db_path)
        owner: OwnerLock | None = None
        try:
            migrate(pool.get())
            owner = OwnerLock(resolved.locks_dir)
            store = cls(resolved, pool, owner)
            store.recover_interrupted()
            store._owner.sweep_dead()
            store._sweep_orphan_session_dirs()
        except BaseException:
            if owner is not None:
                owner.release()
            pool.close_all()
            raise
        return store

    @property
    def db_path(self) -> Path:
        return self.home.db_path

    def close(self) -> None:
        """Close every connection and release this process's run ownership.

        Runs still active afterwards are treated as orphaned by the next open.
        """
        self._pool.close_all()
        self._owner.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
