"""Append-only schema migrations, applied when the store opens.

Each migration is a function named ``mNNN_what``; its name is recorded in the
``_migrations`` table in the same transaction as its statements, so a crash
leaves it either fully applied and recorded or not applied at all. Never edit a
migration once it is on main: add a new one to the end of MIGRATIONS.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from labwright.store.db import now

Migration = Callable[[sqlite3.Connection], None]


def _run(conn: sqlite3.Connection, *statements: str) -> None:
    # Not executescript(): it COMMITs first, which would split a migration from
    # its _migrations row.
    for statement in statements:
        conn.execute(statement)


def m001_initial(conn: sqlite3.Connection) -> None:
    """Sessions, immutable versions, proposals, runs and run events."""
    _run(
        conn,
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source_path TEXT NOT NULL,
            inventory TEXT NOT NULL DEFAULT 'null',
            title TEXT NOT NULL DEFAULT '',
            language TEXT NOT NULL DEFAULT 'en',
            genre TEXT NOT NULL DEFAULT 'lab_report',
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL DEFAULT 'build',
            status TEXT NOT NULL CHECK (status IN
                ('queued', 'running', 'done', 'failed', 'cancelled', 'interrupted')),
            plan TEXT NOT NULL DEFAULT 'null',
            error TEXT NOT NULL DEFAULT '',
            cancel_requested INTEGER NOT NULL DEFAULT 0,
            owner TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT
        )""",
        # The rule "one active run per session" lives in the schema too, so even
        # a code path that forgot BEGIN IMMEDIATE could not create a second one.
        """CREATE UNIQUE INDEX runs_one_active_per_session
            ON runs(session_id) WHERE status IN ('queued', 'running')""",
        "CREATE INDEX runs_by_session ON runs(session_id, id)",
        """CREATE TABLE versions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            version_no INTEGER NOT NULL CHECK (version_no >= 1),
            content TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            change_summary TEXT NOT NULL DEFAULT '',
            parent_id INTEGER REFERENCES versions(id),
            origin TEXT NOT NULL,
            run_id INTEGER REFERENCES runs(id),
            created_at TEXT NOT NULL,
            UNIQUE (session_id, version_no)
        )""",
        """CREATE TABLE proposals (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            base_version_id INTEGER NOT NULL REFERENCES versions(id),
            char_start INTEGER NOT NULL CHECK (char_start >= 0),
            char_end INTEGER NOT NULL CHECK (char_end >= char_start),
            old_text TEXT NOT NULL,
            new_text TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'accepted', 'rejected')),
            scope TEXT NOT NULL,
            target TEXT NOT NULL DEFAULT '',
            summary TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            decided_at TEXT,
            result_version_id INTEGER REFERENCES versions(id)
        )""",
        "CREATE INDEX proposals_by_session ON proposals(session_id, id)",
        """CREATE TABLE run_events (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            type TEXT NOT NULL,
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, seq)
        ) WITHOUT ROWID""",
    )


def m002_messages_and_usage(conn: sqlite3.Connection) -> None:
    """Chat messages and per-call model usage."""
    _run(
        conn,
        """CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
            content TEXT NOT NULL,
            version_id INTEGER REFERENCES versions(id),
            proposal_id INTEGER REFERENCES proposals(id),
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX messages_by_session ON messages(session_id, id)",
        """CREATE TABLE usage (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
            step TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL,
            prompt_tokens INTEGER NOT NULL CHECK (prompt_tokens >= 0),
            cached_tokens INTEGER NOT NULL
                CHECK (cached_tokens >= 0 AND cached_tokens <= prompt_tokens),
            completion_tokens INTEGER NOT NULL CHECK (completion_tokens >= 0),
            cost REAL NOT NULL CHECK (cost >= 0),
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX usage_by_session ON usage(session_id, run_id)",
    )


def m003_immutability_guards(conn: sqlite3.Connection) -> None:
    """Make "every change appends" a property of the file, not only of our code.

    A version row can never be updated; it can be deleted only as part of
    deleting its session (the cascade runs after the session row is gone).
    Run events are append-only in the same way. A proposal's text and range are
    frozen, and its status moves once, from pending to a decision.
    """
    _run(
        conn,
        """CREATE TRIGGER versions_no_update BEFORE UPDATE ON versions
        BEGIN SELECT RAISE(ABORT, 'versions are immutable; append a new version'); END""",
        """CREATE TRIGGER versions_no_delete BEFORE DELETE ON versions
        WHEN EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session_id)
        BEGIN SELECT RAISE(ABORT, 'versions are deleted only with their session'); END""",
        """CREATE TRIGGER run_events_no_update BEFORE UPDATE ON run_events
        BEGIN SELECT RAISE(ABORT, 'run events are append-only'); END""",
        """CREATE TRIGGER run_events_no_delete BEFORE DELETE ON run_events
        WHEN EXISTS (SELECT 1 FROM runs WHERE id = OLD.run_id)
        BEGIN SELECT RAISE(ABORT, 'run events are deleted only with their run'); END""",
        """CREATE TRIGGER proposals_frozen BEFORE UPDATE ON proposals
        WHEN OLD.status != 'pending'
          OR NEW.base_version_id IS NOT OLD.base_version_id
          OR NEW.session_id IS NOT OLD.session_id
          OR NEW.char_start IS NOT OLD.char_start
          OR NEW.char_end IS NOT OLD.char_end
          OR NEW.old_text IS NOT OLD.old_text
          OR NEW.new_text IS NOT OLD.new_text
        BEGIN SELECT RAISE(ABORT, 'a decided proposal and its text are final'); END""",
    )


def m004_usage_priced(conn: sqlite3.Connection) -> None:
    """Whether a usage row's cost is known.

    A model missing from the price table has an unknown cost. Storing it as 0
    would make session totals look cheaper than they were, so the row keeps
    cost 0 with `priced = 0`, and totals count the unpriced calls separately.
    """
    _run(
        conn,
        "ALTER TABLE usage ADD COLUMN priced INTEGER NOT NULL DEFAULT 1 CHECK (priced IN (0, 1))",
    )


def m005_report_language_auto(conn: sqlite3.Connection) -> None:
    """A session's report language may be "auto" (detected for each run).

    Until now no client chose a session's language (the window sent it with
    each run, and a session was stored as "en" whatever its folder held), so
    a stored "en" is not a choice: it becomes "auto". SQLite cannot change a
    column's default in place; new rows get their language from the store.
    """
    conn.execute("UPDATE sessions SET language = 'auto' WHERE language = 'en'")


def m006_versioned_bibliography(conn: sqlite3.Connection) -> None:
    """The bibliography is part of a version, and a proposal can change it.

    A version's .bib (NULL for versions made before) with its own checksum, so a
    damaged one is reported like damaged content. A proposal's `bib_old` /
    `bib_new` (NULL: it does not touch the bibliography) are frozen like its
    text: a citation request is one proposal, the cite and its entry.
    """
    _run(
        conn,
        "ALTER TABLE versions ADD COLUMN bibliography TEXT",
        "ALTER TABLE versions ADD COLUMN bib_sha256 TEXT",
        "ALTER TABLE proposals ADD COLUMN bib_old TEXT",
        "ALTER TABLE proposals ADD COLUMN bib_new TEXT",
        """CREATE TRIGGER proposals_bib_frozen BEFORE UPDATE ON proposals
        WHEN NEW.bib_old IS NOT OLD.bib_old OR NEW.bib_new IS NOT OLD.bib_new
        BEGIN SELECT RAISE(ABORT, 'a proposal and its text are final'); END""",
    )


MIGRATIONS: tuple[Migration, ...] = (
    m001_initial,
    m002_messages_and_usage,
    m003_immutability_guards,
    m004_usage_priced,
    m005_report_language_auto,
    m006_versioned_bibliography,
)


# --- the cache database (store/answers.py) -------------------------------------------
# A chain of its own: the cache is a separate, disposable file, so its schema
# never waits on (or is entangled with) the user's store.


def c001_answers(conn: sqlite3.Connection) -> None:
    """One row per question asked of an outside service: its answer and when it came."""
    _run(
        conn,
        """CREATE TABLE answers (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            fetched_at REAL NOT NULL
        )""",
    )


CACHE_MIGRATIONS: tuple[Migration, ...] = (c001_answers,)


def applied(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations recorded in this database, in order applied."""
    _ensure_table(conn)
    rows = conn.execute("SELECT name FROM _migrations ORDER BY rowid").fetchall()
    return [row[0] for row in rows]


def _ensure_table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )


def migrate(conn: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """Apply every migration not yet recorded; return the names applied now.

    Each one runs in its own BEGIN IMMEDIATE transaction and is re-checked
    inside it, so two processes opening the same database at once cannot apply
    a migration twice.
    """
    _ensure_table(conn)
    done_now: list[str] = []
    for migration in migrations:
        name = migration.__name__
        conn.execute("BEGIN IMMEDIATE")
        try:
            seen = conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone()
            if seen is None:
                migration(conn)
                conn.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, now())
                )
                done_now.append(name)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return done_now
