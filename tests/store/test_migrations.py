"""Migrations: applied once, in order, on open; an old database is brought up to date."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from labwright.config import data_dir
from labwright.store import Store
from labwright.store.db import connect
from labwright.store.migrations import MIGRATIONS, applied, m001_initial, migrate


def _names() -> list[str]:
    return [m.__name__ for m in MIGRATIONS]


def test_migration_names_are_numbered_in_order() -> None:
    names = _names()
    assert names[0] == "m001_initial"
    assert [int(n[1:4]) for n in names] == list(range(1, len(names) + 1))


def test_fresh_open_applies_all(home: Path) -> None:
    with Store.open(home) as store:
        conn = sqlite3.connect(store.db_path)
        try:
            assert [
                r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY rowid")
            ] == _names()
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            conn.close()


def test_foreign_keys_are_on_in_store_connections(store: Store) -> None:
    assert store._pool.get().execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_old_database_gets_missing_migrations_and_keeps_data(home: Path) -> None:
    # Build a database as the first release left it: only m001 applied, with data.
    db = data_dir(home).db_path
    conn = connect(db)
    assert migrate(conn, (m001_initial,)) == ["m001_initial"]
    conn.execute(
        "INSERT INTO sessions (source_path, title, created_at) VALUES ('/x', 'old', '2026-01-01T00:00:00+00:00')"
    )
    conn.close()

    with Store.open(home) as store:
        assert store.get_session(1).title == "old"
        assert applied(store._pool.get()) == _names()
        # Tables from later migrations exist and work.
        store.add_message(1, "user", "hello")
        assert [m.content for m in store.list_messages(1)] == ["hello"]


def test_opening_twice_applies_nothing_twice(home: Path) -> None:
    Store.open(home).close()
    conn = sqlite3.connect(data_dir(home).db_path)
    first = conn.execute("SELECT name, applied_at FROM _migrations ORDER BY rowid").fetchall()
    conn.close()

    store = Store.open(home)
    try:
        assert migrate(store._pool.get()) == []
    finally:
        store.close()
    conn = sqlite3.connect(data_dir(home).db_path)
    again = conn.execute("SELECT name, applied_at FROM _migrations ORDER BY rowid").fetchall()
    conn.close()
    assert again == first
    assert len(again) == len(MIGRATIONS)


def test_failing_migration_leaves_no_trace(home: Path) -> None:
    conn = connect(data_dir(home).db_path)

    def m002_broken(c: sqlite3.Connection) -> None:
        c.execute("CREATE TABLE half_done (x INTEGER)")
        c.execute("THIS IS NOT SQL")

    try:
        migrate(conn, (m001_initial, m002_broken))
    except sqlite3.OperationalError:
        pass
    else:
        raise AssertionError("a broken migration must raise")
    assert applied(conn) == ["m001_initial"]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half_done" not in tables
    conn.close()
