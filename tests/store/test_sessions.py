"""Sessions: created with a directory; deleting one removes its rows and files, nothing else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from labwright.store import AlreadyRunningError, NotFoundError, Session, Store


def test_create_get_list(store: Store, session: Session, tmp_path: Path) -> None:
    assert session.source_path == str(tmp_path / "data")
    assert session.inventory == [{"name": "a.csv", "size": 3}]
    assert (session.title, session.language, session.genre) == ("Pendulum", "auto", "lab_report")
    assert store.get_session(session.id) == session
    later = store.create_session(tmp_path, title="实验报告", language="zh")
    assert [s.id for s in store.list_sessions()] == [later.id, session.id]
    assert store.get_session(later.id).title == "实验报告"


def test_session_directory_is_created(store: Store, session: Session) -> None:
    paths = store.session_paths(session.id)
    assert paths.root == store.home.sessions_dir / str(session.id)
    assert paths.figures.is_dir() and paths.builds.is_dir() and paths.exports.is_dir()


def test_update_changes_only_named_fields(store: Store, session: Session) -> None:
    updated = store.update_session(session.id, title="Damped pendulum")
    assert (updated.title, updated.language, updated.inventory) == (
        "Damped pendulum",
        "auto",
        session.inventory,
    )
    with pytest.raises(NotFoundError):
        store.update_session(999, title="x")


def _count(db: Path, table: str, session_id: int) -> int:
    conn = sqlite3.connect(db)
    try:
        if table == "run_events":
            sql = "SELECT COUNT(*) FROM run_events JOIN runs ON runs.id = run_events.run_id WHERE runs.session_id = ?"
        else:
            sql = f"SELECT COUNT(*) FROM {table} WHERE session_id = ?"
        return int(conn.execute(sql, (session_id,)).fetchone()[0])
    finally:
        conn.close()


TABLES = ("versions", "proposals", "runs", "run_events", "messages", "usage")


def _fill(store: Store, session_id: int) -> None:
    v1 = store.add_version(session_id, "abc")
    p = store.propose_edit(session_id, v1.id, 0, 1, "A")
    store.accept_proposal(p.id)
    store.restore_version(v1.id)
    run = store.start_run(session_id)
    store.append_event(run.id, {"type": "step", "stage": "s", "message": "m"})
    store.record_usage(
        session_id,
        run_id=run.id,
        step="draft",
        model="m",
        prompt_tokens=10,
        completion_tokens=5,
        cost=0.1,
    )
    store.add_message(session_id, "user", "hi", proposal_id=p.id, version_id=v1.id)
    store.finish_run(run.id, "done")
    (store.session_paths(session_id).figures / "fig.png").write_bytes(b"png")


def test_delete_removes_rows_and_directory_only_of_that_session(
    store: Store, tmp_path: Path
) -> None:
    doomed = store.create_session(tmp_path)
    kept = store.create_session(tmp_path)
    _fill(store, doomed.id)
    _fill(store, kept.id)
    folder = tmp_path / "data-folder"
    folder.mkdir()
    (folder / "raw.csv").write_text("1,2\n", encoding="utf-8")
    store.update_session(doomed.id, title="x")

    store.delete_session(doomed.id)

    with pytest.raises(NotFoundError):
        store.get_session(doomed.id)
    for table in TABLES:
        assert _count(store.db_path, table, doomed.id) == 0, table
        assert _count(store.db_path, table, kept.id) > 0, table
    assert not store.home.session_dir(doomed.id).exists()
    assert (store.session_paths(kept.id).figures / "fig.png").read_bytes() == b"png"
    assert (folder / "raw.csv").exists()  # the user's folder is never ours to delete
    with pytest.raises(NotFoundError):
        store.delete_session(doomed.id)


def test_delete_refused_while_running(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    with pytest.raises(AlreadyRunningError):
        store.delete_session(session.id)
    assert store.get_session(session.id) == session
    assert store.home.session_dir(session.id).is_dir()
    store.finish_run(run.id, "cancelled")
    store.delete_session(session.id)
    assert store.list_sessions() == []


def test_leftover_directory_of_a_deleted_session_is_swept_on_open(
    home: Path, tmp_path: Path
) -> None:
    with Store.open(home) as store:
        gone = store.create_session(tmp_path)
        alive = store.create_session(tmp_path)
        gone_dir = store.session_paths(gone.id).root
        alive_dir = store.session_paths(alive.id).root
        # Simulate a crash between deleting the rows and removing the files.
        raw = sqlite3.connect(store.db_path)
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM sessions WHERE id = ?", (gone.id,))
        raw.commit()
        raw.close()
        future = store.home.sessions_dir / "999"  # not issued yet: maybe another process's
        future.mkdir()
        stray = store.home.sessions_dir / "notes"
        stray.mkdir()
    with Store.open(home):
        assert not gone_dir.exists()
        assert alive_dir.is_dir() and future.is_dir() and stray.is_dir()
