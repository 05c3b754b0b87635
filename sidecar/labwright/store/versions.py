"""Document versions: immutable full snapshots, numbered per session.

There is no function here (or anywhere) that changes a version's content; a
trigger in the schema refuses it as well. Every change, including a restore,
appends a new version whose `parent_id` records where it came from.
"""

from __future__ import annotations

import hashlib
import sqlite3

from labwright.store._base import StoreBase, from_row, require_session
from labwright.store.db import now
from labwright.store.errors import CorruptVersionError, NotFoundError
from labwright.store.models import VERSION_ORIGINS, Version, VersionInfo

_INFO_COLUMNS = (
    "id, session_id, version_no, change_summary, parent_id, origin, run_id, sha256,"
    " length(CAST(content AS BLOB)) AS size_bytes, created_at"
)


_CONTENT_COLUMNS = "content, bibliography, bib_sha256"


def content_sha256(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def row_to_version(row: sqlite3.Row) -> Version:
    content = row["content"]
    bibliography = row["bibliography"]
    # Verified on every read: a damaged version is reported, never shown as if whole.
    damaged_bib = bibliography is not None and content_sha256(bibliography) != row["bib_sha256"]
    if content_sha256(content) != row["sha256"] or damaged_bib:
        raise CorruptVersionError(
            f"Version {row['version_no']} of session {row['session_id']} is damaged."
            " Restore an earlier version."
        )
    return from_row(Version, row)


def row_to_info(row: sqlite3.Row) -> VersionInfo:
    return from_row(VersionInfo, row)


def select_version(conn: sqlite3.Connection, version_id: int) -> Version:
    row = conn.execute(
        f"SELECT {_INFO_COLUMNS}, {_CONTENT_COLUMNS} FROM versions WHERE id = ?", (version_id,)
    ).fetchone()
    if row is None:
        raise NotFoundError(
            f"Version {version_id} does not exist. Reload the version list and pick another one."
        )
    return row_to_version(row)


def latest_version_id(conn: sqlite3.Connection, session_id: int) -> int | None:
    row = conn.execute(
        "SELECT id FROM versions WHERE session_id = ? ORDER BY version_no DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    return None if row is None else int(row[0])


def insert_version(
    conn: sqlite3.Connection,
    session_id: int,
    content: str,
    *,
    summary: str,
    parent_id: int | None,
    origin: str,
    run_id: int | None,
    bibliography: str | None = None,
) -> Version:
    """Append a version inside the caller's write transaction.

    The number is MAX + 1 within the session, read under the write lock that
    BEGIN IMMEDIATE took, so concurrent appends cannot pick the same number.
    """
    if not isinstance(content, str):
        raise TypeError("version content must be str")
    if bibliography is not None and not isinstance(bibliography, str):
        raise TypeError("a version's bibliography must be str or None")
    if origin not in VERSION_ORIGINS:
        raise ValueError(f"unknown version origin {origin!r}; use one of {VERSION_ORIGINS}")
    require_session(conn, session_id)
    if parent_id is not None:
        parent = conn.execute(
            "SELECT session_id FROM versions WHERE id = ?", (parent_id,)
        ).fetchone()
        if parent is None or parent[0] != session_id:
            raise NotFoundError(
                f"Version {parent_id} is not part of session {session_id}. Pick a version of this session."
            )
    if run_id is not None:
        run = conn.execute("SELECT session_id FROM runs WHERE id = ?", (run_id,)).fetchone()
        if run is None or run[0] != session_id:
            raise NotFoundError(
                f"Run {run_id} is not part of session {session_id}. Pick a run of this session."
            )
    next_no = conn.execute(
        "SELECT COALESCE(MAX(version_no), 0) + 1 FROM versions WHERE session_id = ?", (session_id,)
    ).fetchone()[0]
    cur = conn.execute(
        "INSERT INTO versions (session_id, version_no, content, sha256, change_summary,"
        " parent_id, origin, run_id, created_at, bibliography, bib_sha256)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        f" RETURNING {_INFO_COLUMNS}, {_CONTENT_COLUMNS}",
        (
            session_id,
            next_no,
            content,
            content_sha256(content),
            summary,
            parent_id,
            origin,
            run_id,
            now(),
            bibliography,
            None if bibliography is None else content_sha256(bibliography),
        ),
    )
    return row_to_version(cur.fetchone())


class VersionsMixin(StoreBase):
    def add_version(
        self,
        session_id: int,
        content: str,
        *,
        summary: str = "",
        origin: str = "generated",
        parent_id: int | None = None,
        run_id: int | None = None,
        bibliography: str | None = None,
    ) -> Version:
        """Append a new latest version (with the .bib it cites from, when it has one).

        `parent_id` defaults to the session's latest version at the moment of
        the append (None for the first one).
        """
        with self._pool.write() as conn:
            if parent_id is None:
                parent_id = latest_version_id(conn, session_id)
            return insert_version(
                conn,
                session_id,
                content,
                summary=summary,
                parent_id=parent_id,
                origin=origin,
                run_id=run_id,
                bibliography=bibliography,
            )

    def get_version(self, version_id: int) -> Version:
        return select_version(self._pool.get(), version_id)

    def get_version_by_no(self, session_id: int, version_no: int) -> Version:
        conn = self._pool.get()
        row = conn.execute(
            "SELECT id FROM versions WHERE session_id = ? AND version_no = ?",
            (session_id, version_no),
        ).fetchone()
        if row is None:
            raise NotFoundError(
                f"Session {session_id} has no version {version_no}. Reload the version list."
            )
        return select_version(conn, row[0])

    def latest_version(self, session_id: int) -> Version | None:
        """The session's newest version, or None before the first one."""
        with self._pool.read() as conn:
            require_session(conn, session_id)
            version_id = latest_version_id(conn, session_id)
            return None if version_id is None else select_version(conn, version_id)

    def list_versions(self, session_id: int) -> list[VersionInfo]:
        """The session's versions without content, oldest first."""
        with self._pool.read() as conn:
            require_session(conn, session_id)
            rows = conn.execute(
                f"SELECT {_INFO_COLUMNS} FROM versions WHERE session_id = ? ORDER BY version_no",
                (session_id,),
            ).fetchall()
        return [row_to_info(row) for row in rows]

    def restore_version(self, version_id: int) -> Version:
        """Restore is a fork: append a copy of `version_id` as the new latest.

        Nothing is overwritten; undoing a restore is another restore.
        """
        with self._pool.write() as conn:
            source = select_version(conn, version_id)
            return insert_version(
                conn,
                source.session_id,
                source.content,
                summary=f"Restored from v{source.version_no}",
                parent_id=source.id,
                origin="restored",
                run_id=None,
                bibliography=source.bibliography,
            )
