"""ConnectionPool transactions: a failed write never leaves the write lock held."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from labwright.store.db import ConnectionPool


def test_failed_commit_releases_the_write_lock(tmp_path: Path) -> None:
    pool = ConnectionPool(tmp_path / "t.db")
    try:
        conn = pool.get()
        conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        conn.execute("CREATE TABLE child (id INTEGER PRIMARY KEY, p INTEGER REFERENCES parent(id))")
        # A deferred foreign key is checked at COMMIT, so the COMMIT itself fails
        # (standing in for disk full or an I/O error at commit time).
        with pytest.raises(sqlite3.IntegrityError), pool.write() as tx:
            tx.execute("PRAGMA defer_foreign_keys = ON")
            tx.execute("INSERT INTO child (p) VALUES (42)")
        assert not conn.in_transaction
        assert conn.execute("SELECT COUNT(*) FROM child").fetchone()[0] == 0

        other = sqlite3.connect(tmp_path / "t.db", timeout=0.2, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # would raise "database is locked"
            other.execute("INSERT INTO parent (id) VALUES (1)")
            other.execute("COMMIT")
        finally:
            other.close()
        with pool.write() as tx:  # and the pool's own connection still works
            tx.execute("INSERT INTO child (p) VALUES (1)")
        assert conn.execute("SELECT COUNT(*) FROM child").fetchone()[0] == 1
    finally:
        pool.close_all()


def test_exception_in_the_block_rolls_back(tmp_path: Path) -> None:
    pool = ConnectionPool(tmp_path / "t.db")
    try:
        conn = pool.get()
        conn.execute("CREATE TABLE t (x INTEGER)")
        with pytest.raises(RuntimeError), pool.write() as tx:
            tx.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("caller failed")
        assert not conn.in_transaction
        assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0
    finally:
        pool.close_all()
