"""Races: many threads (each with its own connection) and two stores doing the same thing at once."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from labwright.store import (
    AlreadyRunningError,
    DecidedError,
    Session,
    Store,
    proposals,
    runs,
    versions,
)

THREADS = 8


def _race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; return each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:  # collected and asserted by the caller
            results[i] = exc

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return results


@pytest.fixture
def slow_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen every check-then-write window so the races really overlap.

    Without this, thread start-up on a busy 2-core machine often serialises the
    racers by accident and a missing write lock would go unnoticed. Each check
    below runs after the transaction has begun and before its write.
    """

    def slowed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = fn(*args, **kwargs)
            time.sleep(0.01)
            return result

        return wrapper

    for module, name in (
        (runs, "require_session"),
        (versions, "require_session"),
        (proposals, "_ensure_pending"),
        (runs, "_select_run"),
    ):
        monkeypatch.setattr(module, name, slowed(getattr(module, name)))


def _kinds(results: list[Any]) -> Counter[str]:
    return Counter("ok" if not isinstance(r, Exception) else type(r).__name__ for r in results)


def test_racing_run_starts_give_exactly_one_run(
    store: Store, session: Session, home: Path, slow_checks: None
) -> None:
    other_store = Store.open(home)  # like a second process on the same data directory
    try:
        stores = [store, other_store] * (THREADS // 2)
        for _ in range(3):
            results = _race([lambda s=s: s.start_run(session.id) for s in stores])
            assert _kinds(results) == {"ok": 1, "AlreadyRunningError": THREADS - 1}
            [winner] = [r for r in results if not isinstance(r, Exception)]
            assert store.active_run(session.id) == winner
            store.finish_run(winner.id, "done")
        assert len(store.list_runs(session.id)) == 3
    finally:
        other_store.close()


def test_racing_accepts_of_one_proposal_give_exactly_one_version(
    store: Store, session: Session, slow_checks: None
) -> None:
    base = store.add_version(session.id, "The quick brown fox.")
    for round_no in range(3):
        latest = store.latest_version(session.id)
        assert latest is not None
        p = store.propose_edit(session.id, latest.id, 4, 9, f"slow{round_no}")
        results = _race([lambda p=p: store.accept_proposal(p.id)] * THREADS)
        assert _kinds(results) == {"ok": 1, "DecidedError": THREADS - 1}
        [version] = [r for r in results if not isinstance(r, Exception)]
        assert store.get_proposal(p.id).result_version_id == version.id
    assert [v.version_no for v in store.list_versions(session.id)] == [1, 2, 3, 4]
    assert store.get_version(base.id).content == "The quick brown fox."


def test_racing_accepts_of_sibling_proposals_give_one_winner_rest_stale(
    store: Store, session: Session, slow_checks: None
) -> None:
    base = store.add_version(session.id, "0123456789")
    proposals = [store.propose_edit(session.id, base.id, i, i + 1, "X") for i in range(THREADS)]
    results = _race([lambda p=p: store.accept_proposal(p.id) for p in proposals])
    assert _kinds(results) == {"ok": 1, "StaleBaseError": THREADS - 1}
    statuses = Counter(store.get_proposal(p.id).status for p in proposals)
    assert statuses == {"accepted": 1, "pending": THREADS - 1}
    assert all(not isinstance(r, DecidedError) for r in results)


def test_concurrent_appends_number_versions_per_session_without_gaps(
    store: Store, tmp_path: Path, slow_checks: None
) -> None:
    a = store.create_session(tmp_path)
    b = store.create_session(tmp_path)
    per_thread = 6

    def writer(session_id: int, tag: int) -> list[int]:
        return [store.add_version(session_id, f"{tag}-{i}").version_no for i in range(per_thread)]

    calls = [lambda i=i: writer(a.id if i % 2 else b.id, i) for i in range(THREADS)]
    results = _race(calls)
    assert _kinds(results) == {"ok": THREADS}
    for s in (a, b):
        numbers = [v.version_no for v in store.list_versions(s.id)]
        assert numbers == list(range(1, THREADS // 2 * per_thread + 1))


def test_concurrent_event_appends_are_gap_free(
    store: Store, session: Session, slow_checks: None
) -> None:
    run = store.start_run(session.id)
    per_thread = 6

    def writer(tag: int) -> None:
        for i in range(per_thread):
            store.append_event(run.id, {"type": "step", "stage": "t", "message": f"{tag}:{i}"})

    assert _kinds(_race([lambda i=i: writer(i) for i in range(THREADS)])) == {"ok": THREADS}
    events = store.events_after(run.id)
    assert [e.seq for e in events] == list(range(1, THREADS * per_thread + 1))
    # Each writer's own events keep their order.
    for tag in range(THREADS):
        mine = [
            int(e.payload["message"].split(":")[1])
            for e in events
            if e.payload["message"].startswith(f"{tag}:")
        ]
        assert mine == list(range(per_thread))


def test_reader_follows_a_writer_thread(store: Store, session: Session) -> None:
    """An SSE-style follower resuming from its last seq sees every event exactly once."""
    run = store.start_run(session.id)
    total = 60
    seen: list[int] = []

    def follower() -> None:
        last = 0
        while last < total:
            for event in store.wait_for_events(run.id, last, timeout=5):
                seen.append(event.seq)
                last = event.seq

    t = threading.Thread(target=follower)
    t.start()
    for i in range(total):
        store.append_event(run.id, {"type": "step", "stage": "s", "message": str(i)})
    t.join(timeout=60)
    assert not t.is_alive()
    assert seen == list(range(1, total + 1))


def test_connections_of_finished_threads_are_closed(store: Store, session: Session) -> None:
    """A pipeline thread per run must not leave an open connection behind."""
    import gc

    baseline = store._pool.open_connections()
    threads = [
        threading.Thread(target=lambda: store.add_version(session.id, "x")) for _ in range(10)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    gc.collect()
    assert store._pool.open_connections() == baseline
    assert len(store.list_versions(session.id)) == 10


def test_asyncio_tasks_and_worker_threads_share_the_store(store: Store, session: Session) -> None:
    """The server calls the store from the event loop and from worker threads at once."""
    import asyncio

    async def main() -> Counter[str]:
        async def start_in_thread() -> str:
            try:
                await asyncio.to_thread(store.start_run, session.id)
                return "ok"
            except AlreadyRunningError:
                return "busy"

        async def append_on_loop(i: int) -> None:
            store.add_message(session.id, "user", f"m{i}")  # directly on the loop thread
            await asyncio.sleep(0)

        results = await asyncio.gather(
            *(start_in_thread() for _ in range(6)), *(append_on_loop(i) for i in range(6))
        )
        return Counter(r for r in results if r is not None)

    assert asyncio.run(main()) == {"ok": 1, "busy": 5}
    assert len(store.list_messages(session.id)) == 6
