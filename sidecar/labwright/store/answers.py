"""The store's cache database: what outside services answered, kept for a while.

A second SQLite file beside the user's store (``cache/answers.sqlite`` in the
data directory), owned by this package like ``labwright.db`` and migrated by
the same module (``migrations.CACHE_MIGRATIONS``), but apart from it on
purpose:

* it is disposable: deleting it loses nothing a person made, so a broken or
  locked file is worked around (the answers then live in memory for the
  process) instead of stopping a build, which ``labwright.db`` never is;
* the resolver writes a row per answer from many threads at once; those
  writes must not queue behind a run's event appends for the store's write
  lock, nor the other way round;
* a copy of the store (a backup, a bug report) does not carry a pile of
  index records.

A row is a key (what was asked, named by its asker), a JSON text and when it
was fetched. What the values mean, and how long they stay good, is the
asker's business (``verify/cache.py`` for the citation indexes).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

from labwright.config import DataDir
from labwright.store.migrations import CACHE_MIGRATIONS, migrate

log = logging.getLogger(__name__)

CACHE_FILE = "answers.sqlite"
#: A cache read or write waits at most this long for another process's write:
#: a build would rather ask the service again than wait for its cache.
BUSY_TIMEOUT_S = 2.0


class AnswerCache:
    """Thread-safe key -> (JSON text, fetched_at) rows; `path` None: memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._memory: dict[str, tuple[str, float]] = {}
        self._conn: sqlite3.Connection | None = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                # One connection shared under the lock: rows are small and
                # each statement is short, so a pool would buy nothing.
                conn = sqlite3.connect(
                    str(path),
                    isolation_level=None,
                    check_same_thread=False,
                    timeout=BUSY_TIMEOUT_S,
                )
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                migrate(conn, CACHE_MIGRATIONS)
                self._conn = conn
            except (sqlite3.Error, OSError) as error:
                # A broken cache file must never stop a build: work from memory.
                log.warning("the answer cache at %s is unusable (%s); using memory", path, error)
                self._conn = None

    @classmethod
    def in_data_dir(cls, home: DataDir) -> AnswerCache:
        return cls(home.cache_dir / CACHE_FILE)

    @property
    def persistent(self) -> bool:
        """False when answers live in memory only (no file, or the file was unusable)."""
        return self._conn is not None

    def get(self, key: str) -> tuple[str, float] | None:
        with self._lock:
            row = self._memory.get(key)
            if row is not None or self._conn is None:
                return row
            try:
                found = self._conn.execute(
                    "SELECT value, fetched_at FROM answers WHERE key = ?", (key,)
                ).fetchone()
            except sqlite3.Error:
                return None
        return (str(found[0]), float(found[1])) if found else None

    def put(self, key: str, value: str, fetched_at: float) -> None:
        with self._lock:
            self._memory[key] = (value, fetched_at)
            if self._conn is None:
                return
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO answers (key, value, fetched_at) VALUES (?, ?, ?)",
                    (key, value, fetched_at),
                )
            except sqlite3.Error:
                pass  # memory still has it for this process

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
