"""State shared by the store's parts (sessions, versions, proposals, runs, chat)."""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

from labwright.config import DataDir
from labwright.store.db import ConnectionPool
from labwright.store.errors import NotFoundError
from labwright.store.owner import OwnerLock


class StoreBase:
    """Holds the connection pool, the data directory and this store's owner lock."""

    def __init__(self, home: DataDir, pool: ConnectionPool, owner: OwnerLock) -> None:
        self.home = home
        self._pool = pool
        self._owner = owner
        # Wakes threads waiting for new run events appended by this process.
        self._events_cond = threading.Condition()
        self._events_generation = 0


def dump_json(value: Any) -> str:
    # ensure_ascii=False keeps Chinese titles readable in the file; sort_keys
    # makes equal values byte-identical.
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def load_json(text: str) -> Any:
    return json.loads(text)


def require_session(conn: sqlite3.Connection, session_id: int) -> None:
    if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
        raise NotFoundError(
            f"Session {session_id} does not exist. Reload the session list and pick another one."
        )
