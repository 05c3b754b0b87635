"""Versions: immutable snapshots, per-session numbering, restore as a fork."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from labwright.store import CorruptVersionError, NotFoundError, Session, Store


def test_numbering_is_per_session_when_interleaved(store: Store, tmp_path: Path) -> None:
    a = store.create_session(tmp_path, title="a")
    b = store.create_session(tmp_path, title="b")
    got = []
    for i in range(3):
        got.append(("a", store.add_version(a.id, f"a{i}").version_no))
        got.append(("b", store.add_version(b.id, f"b{i}").version_no))
    assert got == [("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3), ("b", 3)]
    c = store.create_session(tmp_path, title="c")
    assert store.add_version(c.id, "c0").version_no == 1


def test_add_version_links_parent_to_latest_by_default(store: Store, session: Session) -> None:
    v1 = store.add_version(session.id, "one", summary="first draft")
    v2 = store.add_version(session.id, "two", origin="manual")
    assert v1.parent_id is None
    assert v2.parent_id == v1.id
    assert (v2.origin, v2.change_summary, v1.change_summary) == ("manual", "", "first draft")
    assert store.latest_version(session.id) == v2
    assert store.get_version_by_no(session.id, 1) == v1


def test_content_is_stored_exactly(store: Store, session: Session) -> None:
    content = "\\section{误差分析}\r\n% tab\there \x00 nul and emoji \U0001f9ea\n" * 500
    v = store.add_version(session.id, content)
    again = store.get_version(v.id)
    assert again.content == content
    assert again.size_bytes == len(content.encode("utf-8"))


def test_restore_is_a_fork(store: Store, session: Session) -> None:
    v1 = store.add_version(session.id, "v1 text")
    v2 = store.add_version(session.id, "v2 text")
    v3 = store.restore_version(v1.id)
    assert v3.version_no == 3
    assert v3.content == v1.content
    assert v3.parent_id == v1.id
    assert v3.origin == "restored"
    # Nothing was overwritten: the earlier versions are unchanged.
    assert store.get_version(v1.id) == v1
    assert store.get_version(v2.id) == v2
    assert [v.version_no for v in store.list_versions(session.id)] == [1, 2, 3]
    # Undoing a restore is another restore.
    v4 = store.restore_version(v2.id)
    assert (v4.version_no, v4.content, v4.parent_id) == (4, "v2 text", v2.id)


def test_list_versions_has_no_content_but_checksums(store: Store, session: Session) -> None:
    v = store.add_version(session.id, "abc")
    [info] = store.list_versions(session.id)
    assert not hasattr(info, "content")
    assert (info.id, info.sha256, info.size_bytes) == (v.id, v.sha256, 3)


def test_store_api_has_no_way_to_change_content() -> None:
    names = [n for n in dir(Store) if not n.startswith("_")]
    assert not [n for n in names if ("update" in n or "edit" in n or "set" in n) and "version" in n]


def test_database_refuses_update_of_a_version(store: Store, session: Session) -> None:
    v = store.add_version(session.id, "original")
    raw = sqlite3.connect(store.db_path)
    try:
        for sql in (
            "UPDATE versions SET content = 'tampered' WHERE id = ?",
            "UPDATE versions SET version_no = 99 WHERE id = ?",
            "DELETE FROM versions WHERE id = ?",
        ):
            with pytest.raises(sqlite3.DatabaseError):
                raw.execute(sql, (v.id,))
    finally:
        raw.close()
    assert store.get_version(v.id).content == "original"


def test_damaged_content_is_reported_not_returned(store: Store, session: Session) -> None:
    v = store.add_version(session.id, "whole text")
    raw = sqlite3.connect(store.db_path)
    try:
        raw.execute("DROP TRIGGER versions_no_update")  # simulate disk damage
        raw.execute("UPDATE versions SET content = 'whole texT' WHERE id = ?", (v.id,))
        raw.commit()
    finally:
        raw.close()
    with pytest.raises(CorruptVersionError):
        store.get_version(v.id)


def test_unknown_ids(store: Store, session: Session, tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        store.get_version(999)
    with pytest.raises(NotFoundError):
        store.add_version(999, "x")
    other = store.create_session(tmp_path)
    foreign = store.add_version(other.id, "other session")
    with pytest.raises(NotFoundError):
        store.add_version(session.id, "x", parent_id=foreign.id)
    with pytest.raises(ValueError):
        store.add_version(session.id, "x", origin="overwritten")
    assert store.list_versions(session.id) == []


def test_version_can_name_its_run(store: Store, session: Session, tmp_path: Path) -> None:
    run = store.start_run(session.id)
    v = store.add_version(session.id, "draft", run_id=run.id)
    assert v.run_id == run.id
    other = store.create_session(tmp_path)
    with pytest.raises(NotFoundError):
        store.add_version(other.id, "x", run_id=run.id)
