"""The store's cache database: answers kept across processes, a broken file never fatal."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from labwright.config import DataDir
from labwright.store.answers import CACHE_FILE, AnswerCache
from labwright.store.migrations import CACHE_MIGRATIONS


def test_answers_outlive_the_process_that_fetched_them(tmp_path: Path) -> None:
    home = DataDir(tmp_path / "home")
    first = AnswerCache.in_data_dir(home)
    first.put("crossref:doi:10.1/x", '{"records": []}', 1000.0)
    first.close()
    again = AnswerCache.in_data_dir(home)
    assert again.persistent
    assert again.get("crossref:doi:10.1/x") == ('{"records": []}', 1000.0)
    assert again.get("crossref:doi:10.1/other") is None
    again.close()
    assert (home.cache_dir / CACHE_FILE).is_file()


def test_the_schema_comes_from_the_migrations_module(tmp_path: Path) -> None:
    path = tmp_path / "cache" / CACHE_FILE
    AnswerCache(path).close()
    AnswerCache(path).close()  # a second open applies nothing twice
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY rowid")]
        assert names == [m.__name__ for m in CACHE_MIGRATIONS]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_cache_migrations_are_numbered_in_order() -> None:
    names = [m.__name__ for m in CACHE_MIGRATIONS]
    assert [int(n[1:4]) for n in names] == list(range(1, len(names) + 1))
    assert all(n.startswith("c") for n in names)


def test_a_broken_cache_file_falls_back_to_memory_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "cache" / CACHE_FILE
    path.parent.mkdir(parents=True)
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    cache = AnswerCache(path)
    assert not cache.persistent
    cache.put("k", "1", 5.0)
    assert cache.get("k") == ("1", 5.0)  # this process still has it
    cache.close()
    assert path.read_bytes() == garbage  # nothing was written over the file


def test_memory_only_without_a_path() -> None:
    cache = AnswerCache(None)
    assert cache.get("k") is None
    cache.put("k", "v", 1.0)
    assert cache.get("k") == ("v", 1.0)


def test_many_threads_write_at_once_and_every_row_lands(tmp_path: Path) -> None:
    path = tmp_path / "cache" / CACHE_FILE
    cache = AnswerCache(path)

    def write(n: int) -> None:
        for i in range(25):
            cache.put(f"t{n}:{i}", str(i), float(i))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cache.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 200
    finally:
        conn.close()
