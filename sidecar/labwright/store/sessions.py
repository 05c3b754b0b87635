"""Sessions: one dropped folder, its inventory, and the directory of its files."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from labwright.config import SessionPaths
from labwright.store._base import StoreBase, dump_json, from_row, require_session
from labwright.store.db import now
from labwright.store.errors import AlreadyRunningError, NotFoundError
from labwright.store.models import ACTIVE_RUN_STATUSES, Session


def row_to_session(row: sqlite3.Row) -> Session:
    return from_row(Session, row)


class SessionsMixin(StoreBase):
    def create_session(
        self,
        source_path: str | Path,
        *,
        inventory: Any = None,
        title: str = "",
        language: str = "auto",
        genre: str = "lab_report",
    ) -> Session:
        """Record a dropped folder and create the session's directory.

        `inventory` is any JSON value (typically the scan's list of names,
        sizes and hashes); it is a snapshot and is returned as given.
        """
        with self._pool.write() as conn:
            cur = conn.execute(
                "INSERT INTO sessions (source_path, inventory, title, language, genre, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (str(source_path), dump_json(inventory), title, language, genre, now()),
            )
            session = row_to_session(cur.fetchone())
        self.home.session_paths(session.id, create=True)
        return session

    def get_session(self, session_id: int) -> Session:
        row = (
            self._pool.get()
            .execute("SELECT * FROM sessions WHERE id = ?", (session_id,))
            .fetchone()
        )
        if row is None:
            raise NotFoundError(
                f"Session {session_id} does not exist. Reload the session list and pick another one."
            )
        return row_to_session(row)

    def list_sessions(self) -> list[Session]:
        """All sessions, newest first."""
        rows = self._pool.get().execute("SELECT * FROM sessions ORDER BY id DESC").fetchall()
        return [row_to_session(row) for row in rows]

    def update_session(
        self,
        session_id: int,
        *,
        title: str | None = None,
        language: str | None = None,
        genre: str | None = None,
    ) -> Session:
        """Change a session's descriptive fields (its versions are untouched)."""
        changes = {"title": title, "language": language, "genre": genre}
        with self._pool.write() as conn:
            require_session(conn, session_id)
            for column, value in changes.items():
                if value is not None:
                    # Column names come from the fixed dict above, never from input.
                    conn.execute(
                        f"UPDATE sessions SET {column} = ? WHERE id = ?", (value, session_id)
                    )
            row = conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return row_to_session(row)

    def session_paths(self, session_id: int) -> SessionPaths:
        """The session's figures/builds/exports directories (created if missing)."""
        self.get_session(session_id)
        return self.home.session_paths(session_id, create=True)

    def delete_session(self, session_id: int) -> None:
        """Delete the session's rows and its directory. Refused while a run is active.

        This is the only deletion the store performs.
        """
        marks = ",".join("?" for _ in ACTIVE_RUN_STATUSES)
        with self._pool.write() as conn:
            require_session(conn, session_id)
            active = conn.execute(
                f"SELECT id FROM runs WHERE session_id = ? AND status IN ({marks})",
                (session_id, *ACTIVE_RUN_STATUSES),
            ).fetchone()
            if active is not None:
                raise AlreadyRunningError(
                    f"Session {session_id} has a run in progress. Cancel the run, then delete the session."
                )
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        # Rows first: if removing files fails half-way, the leftover directory
        # belongs to no session and is swept on the next open.
        shutil.rmtree(self.home.session_dir(session_id), ignore_errors=True)

    def _sweep_orphan_session_dirs(self) -> list[Path]:
        """Remove session directories whose session row is gone (a crash mid-delete).

        Only directories named by a positive integer are considered, and ids are
        never reused (AUTOINCREMENT), so a live session's files are never touched.
        """
        if not self.home.sessions_dir.is_dir():
            return []
        ids = {row[0] for row in self._pool.get().execute("SELECT id FROM sessions").fetchall()}
        # Ids above the highest ever issued may belong to a session being created
        # by another process right now; leave those alone.
        seq = (
            self._pool.get()
            .execute("SELECT seq FROM sqlite_sequence WHERE name = 'sessions'")
            .fetchone()
        )
        highest = seq[0] if seq else 0
        removed: list[Path] = []
        for path in self.home.sessions_dir.iterdir():
            if not path.name.isdigit() or path.is_symlink() or not path.is_dir():
                continue
            number = int(path.name)
            if 0 < number <= highest and number not in ids:
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        return removed
