"""What the scholarly indexes answered, kept in the data directory.

One SQLite file (``cache/citations.sqlite``), one row per question: the key
names the index and what was asked (``crossref:doi:10.1103/physrevlett.116.061102``,
``openalex:title:<normalised title>``), the value is the JSON the resolver
made of the answer (records, or none found). Rows have a time to live:
found records keep longer than "nothing found", which a later deposit can
change. Offline, expired rows still answer: an old record is better
evidence than none, and the verdict says when it was fetched.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_DIR = "cache"
CACHE_FILE = "citations.sqlite"
FOUND_TTL_S = 30 * 86400.0
ABSENT_TTL_S = 3 * 86400.0


@dataclass(frozen=True)
class Cached:
    value: Any
    fetched_at: float
    fresh: bool


class CitationCache:
    """Thread-safe: the resolver asks from several threads at once."""

    def __init__(
        self,
        path: Path | None,
        *,
        found_ttl_s: float = FOUND_TTL_S,
        absent_ttl_s: float = ABSENT_TTL_S,
    ) -> None:
        self.path = path
        self.found_ttl_s = found_ttl_s
        self.absent_ttl_s = absent_ttl_s
        self._lock = threading.Lock()
        self._memory: dict[str, tuple[str, float]] = {}
        self._conn: sqlite3.Connection | None = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=5.0)
                self._conn.execute(
                    "CREATE TABLE IF NOT EXISTS answers ("
                    " key TEXT PRIMARY KEY, value TEXT NOT NULL, fetched_at REAL NOT NULL)"
                )
                self._conn.commit()
            except sqlite3.Error:
                # A broken cache file must never stop a build: work from memory.
                self._conn = None

    @classmethod
    def in_data_dir(cls, root: Path, **ttl: float) -> CitationCache:
        return cls(root / CACHE_DIR / CACHE_FILE, **ttl)

    def get(self, key: str, *, now: float | None = None) -> Cached | None:
        now = time.time() if now is None else now
        with self._lock:
            row = self._memory.get(key)
            if row is None and self._conn is not None:
                try:
                    found = self._conn.execute(
                        "SELECT value, fetched_at FROM answers WHERE key = ?", (key,)
                    ).fetchone()
                except sqlite3.Error:
                    found = None
                row = (found[0], float(found[1])) if found else None
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None
        ttl = self.absent_ttl_s if _is_absent(value) else self.found_ttl_s
        return Cached(value, row[1], fresh=now - row[1] < ttl)

    def put(self, key: str, value: Any, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._memory[key] = (text, now)
            if self._conn is not None:
                try:
                    self._conn.execute(
                        "INSERT OR REPLACE INTO answers (key, value, fetched_at) VALUES (?, ?, ?)",
                        (key, text, now),
                    )
                    self._conn.commit()
                except sqlite3.Error:
                    pass  # memory still has it for this run

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _is_absent(value: Any) -> bool:
    return value in (None, []) or (isinstance(value, dict) and not value.get("records"))
