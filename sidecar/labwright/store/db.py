"""SQLite connections: one per thread, WAL, foreign keys, explicit transactions.

The store is used from FastAPI's worker threads, from the asyncio loop thread
and from a pipeline thread at once. Each thread gets its own connection (a
sqlite3 connection must not be used by two threads at the same time), and
SQLite's own locking serialises writers across threads and processes. Every
read-modify-write runs inside ``BEGIN IMMEDIATE``, which takes the write lock
before the first read, so "check then insert" can never interleave with another
writer's "check then insert".
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

# A writer waits this long for another writer before giving up. Generous on
# purpose: transactions here are short, and a loaded 2-core machine is slow.
BUSY_TIMEOUT_MS = 30_000


def now() -> str:
    """Timestamps are stored as ISO 8601 UTC text: sortable and readable in any tool."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: the sqlite3 module must not open transactions on
    # its own; we issue BEGIN IMMEDIATE / COMMIT explicitly.
    # check_same_thread=False only so that close_all() may close it from
    # another thread; each connection is otherwise used by one thread.
    conn = sqlite3.connect(
        str(path), isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        conn.close()
        raise sqlite3.OperationalError(f"could not switch {path} to WAL mode (got {mode})")
    # NORMAL in WAL mode: a killed app loses nothing that was committed; a power
    # cut may lose the last commits but never corrupts the file.
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class _Holder:
    """Owns one thread's connection; when the thread ends, its thread-local
    slot is dropped, the holder is collected and the finalizer closes the
    connection (a pipeline thread per run must not leak file handles)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.close = weakref.finalize(self, conn.close)


class ConnectionPool:
    """Hands each thread its own connection and closes them all at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._holders: weakref.WeakSet[_Holder] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closed = False

    def get(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError("the store is closed")
        holder: _Holder | None = getattr(self._local, "holder", None)
        if holder is None:
            with self._lock:
                if self._closed:
                    raise RuntimeError("the store is closed")
                holder = _Holder(connect(self.path))
                self._holders.add(holder)
            self._local.holder = holder
        return holder.conn

    def open_connections(self) -> int:
        """How many threads hold a live connection (for tests and diagnostics)."""
        return sum(1 for h in list(self._holders) if h.close.alive)

    def close_all(self) -> None:
        with self._lock:
            self._closed = True
            holders = list(self._holders)
        for holder in holders:
            try:
                holder.close()
            except sqlite3.Error:
                pass

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding SQLite's write lock from its first statement."""
        conn = self.get()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            # COMMIT itself can fail (disk full, I/O error, a deferred constraint)
            # and then leaves the transaction open: this thread would hold the
            # write lock for good and every other writer would time out.
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: several SELECTs see one consistent snapshot."""
        conn = self.get()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")
