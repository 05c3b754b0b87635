"""Runs and run events: one active run per session, gap-free sequence numbers, recovery."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from labwright.agent.events import Done, Milestone, Step, event_from_dict, event_to_dict
from labwright.store import AlreadyRunningError, NotFoundError, RunStateError, Session, Store


def test_run_lifecycle(store: Store, session: Session) -> None:
    plan = [{"stage": "scan"}, {"stage": "compile"}]
    run = store.start_run(session.id, plan=plan)
    assert (run.status, run.plan, run.kind, run.active) == ("running", plan, "build", True)
    assert run.started_at is not None and run.finished_at is None
    assert store.active_run(session.id) == run
    done = store.finish_run(run.id, "done")
    assert (done.status, done.active) == ("done", False)
    assert done.finished_at is not None
    assert store.active_run(session.id) is None
    with pytest.raises(RunStateError):
        store.finish_run(run.id, "failed")
    assert store.get_run(run.id).status == "done"


def test_queued_then_running(store: Store, session: Session) -> None:
    run = store.start_run(session.id, status="queued")
    assert run.started_at is None
    with pytest.raises(AlreadyRunningError):
        store.start_run(session.id)
    running = store.mark_running(run.id)
    assert running.status == "running" and running.started_at is not None
    with pytest.raises(RunStateError):
        store.mark_running(run.id)


def test_one_active_run_per_session(store: Store, session: Session, tmp_path: Path) -> None:
    first = store.start_run(session.id)
    with pytest.raises(AlreadyRunningError):
        store.start_run(session.id)
    # Another session is independent.
    other = store.create_session(tmp_path)
    store.start_run(other.id)
    store.finish_run(first.id, "failed", error="boom")
    second = store.start_run(session.id)
    assert [r.id for r in store.list_runs(session.id)] == [first.id, second.id]
    assert store.get_run(first.id).error == "boom"


def test_schema_also_forbids_two_active_runs(store: Store, session: Session) -> None:
    store.start_run(session.id)
    raw = sqlite3.connect(store.db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO runs (session_id, status, created_at) VALUES (?, 'queued', 'now')",
                (session.id,),
            )
    finally:
        raw.close()


def test_cancel_flag(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    assert not run.cancel_requested
    assert store.request_cancel(run.id).cancel_requested
    assert store.finish_run(run.id, "cancelled").status == "cancelled"


def test_bad_transitions_and_ids(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    with pytest.raises(ValueError):
        store.finish_run(run.id, "running")
    with pytest.raises(ValueError):
        store.start_run(session.id, status="done")
    with pytest.raises(NotFoundError):
        store.get_run(999)
    with pytest.raises(NotFoundError):
        store.start_run(999)
    with pytest.raises(NotFoundError):
        store.append_event(999, {"type": "step"})


def test_events_round_trip_with_gap_free_sequence(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    events = [
        Milestone(index=1, total=2, stage="scan"),
        Step(stage="scan", message="read 3 files"),
        Done(ok=True, version_no=1),
    ]
    stored = [store.append_event(run.id, e) for e in events]
    assert [s.seq for s in stored] == [1, 2, 3]
    assert [s.type for s in stored] == ["milestone", "step", "done"]
    back = store.events_after(run.id)
    assert [event_from_dict(e.payload) for e in back] == events
    assert [e.payload for e in back] == [event_to_dict(e) for e in events]
    assert [e.seq for e in store.events_after(run.id, 1)] == [2, 3]
    assert store.events_after(run.id, 3) == []
    assert [e.seq for e in store.events_after(run.id, 0, limit=2)] == [1, 2]


def test_sequences_are_per_run(store: Store, session: Session, tmp_path: Path) -> None:
    other = store.create_session(tmp_path)
    r1, r2 = store.start_run(session.id), store.start_run(other.id)
    seqs = [
        (r, store.append_event(r, {"type": "step", "stage": "s", "message": "m"}).seq)
        for r in (r1.id, r2.id, r1.id, r2.id)
    ]
    assert seqs == [(r1.id, 1), (r2.id, 1), (r1.id, 2), (r2.id, 2)]


def test_events_are_append_only(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    store.append_event(run.id, {"type": "step", "stage": "s", "message": "m"})
    raw = sqlite3.connect(store.db_path)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            raw.execute("UPDATE run_events SET payload = '{}'")
        with pytest.raises(sqlite3.DatabaseError):
            raw.execute("DELETE FROM run_events")
    finally:
        raw.close()
    assert len(store.events_after(run.id)) == 1


def test_event_needs_a_type(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    with pytest.raises(ValueError):
        store.append_event(run.id, {"message": "no type"})
    with pytest.raises(TypeError):
        store.append_event(run.id, "step")
    assert store.events_after(run.id) == []


def test_wait_for_events_wakes_on_append(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    assert store.wait_for_events(run.id, 0, timeout=0.01) == []
    got: list[int] = []

    def waiter() -> None:
        got.extend(e.seq for e in store.wait_for_events(run.id, 0, timeout=30))

    t = threading.Thread(target=waiter)
    t.start()
    store.append_event(run.id, {"type": "step", "stage": "s", "message": "m"})
    t.join(timeout=30)
    assert not t.is_alive()
    assert got == [1]


def _assert_interrupted(store: Store, run_id: int) -> None:
    run = store.get_run(run_id)
    assert run.status == "interrupted"
    assert run.finished_at is not None and run.error
    tail = store.events_after(run_id)[-2:]
    assert [e.type for e in tail] == ["error", "done"]
    # The recovery events are valid members of the event union.
    error, done = (event_from_dict(e.payload) for e in tail)
    assert done.ok is False  # type: ignore[union-attr]
    assert error.message  # type: ignore[union-attr]


def test_reopen_marks_orphaned_runs_interrupted(home: Path, tmp_path: Path) -> None:
    store = Store.open(home)
    s = store.create_session(tmp_path)
    running = store.start_run(s.id)
    store.append_event(running.id, {"type": "step", "stage": "s", "message": "m"})
    s2 = store.create_session(tmp_path)
    queued = store.start_run(s2.id, status="queued")
    s3 = store.create_session(tmp_path)
    finished = store.start_run(s3.id)
    store.finish_run(finished.id, "done")
    store.close()  # the owning "process" goes away without finishing its runs

    with Store.open(home) as reopened:
        _assert_interrupted(reopened, running.id)
        _assert_interrupted(reopened, queued.id)
        assert [e.seq for e in reopened.events_after(running.id)] == [1, 2, 3]
        assert reopened.get_run(finished.id).status == "done"
        assert reopened.events_after(finished.id) == []
        # The session can run again.
        reopened.start_run(s.id)
    with Store.open(home) as third:  # recovery happens once
        assert [e.seq for e in third.events_after(running.id)] == [1, 2, 3]


def test_open_leaves_runs_of_a_live_store_alone(home: Path, tmp_path: Path) -> None:
    first = Store.open(home)
    s = first.create_session(tmp_path)
    run = first.start_run(s.id)
    second = Store.open(home)  # e.g. `labwright build` next to the desktop app
    try:
        assert second.get_run(run.id).status == "running"
        assert second.recover_interrupted() == []
    finally:
        second.close()
    first.finish_run(run.id, "done")
    first.close()


def test_interrupt_run_explicitly(store: Store, session: Session) -> None:
    run = store.start_run(session.id)
    store.interrupt_run(run.id)
    _assert_interrupted(store, run.id)
    with pytest.raises(RunStateError):
        store.interrupt_run(run.id)
