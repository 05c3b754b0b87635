"""Runs and their events.

A session has at most one active (queued or running) run; the check and the
insert share one BEGIN IMMEDIATE transaction and a partial unique index backs
it up. Events get sequence numbers 1, 2, 3 ... per run without gaps (MAX + 1
under the write lock, in the same transaction as the insert), so a client that
saw event n resumes with `events_after(run_id, n)` and misses nothing.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from labwright.messages import as_json, say
from labwright.store._base import StoreBase, dump_json, from_row, require_session
from labwright.store.db import now
from labwright.store.errors import AlreadyRunningError, NotFoundError, RunStateError
from labwright.store.models import ACTIVE_RUN_STATUSES, FINAL_RUN_STATUSES, Run, RunEvent

_ACTIVE_SQL = "('queued', 'running')"

INTERRUPTED_MESSAGE = say("run.interrupted")
INTERRUPTED_ACTION = say("action.restart_run")


def row_to_run(row: sqlite3.Row) -> Run:
    return from_row(Run, row)


def row_to_event(row: sqlite3.Row) -> RunEvent:
    return from_row(RunEvent, row)


def _select_run(conn: sqlite3.Connection, run_id: int) -> Run:
    row = conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"Run {run_id} does not exist. Reload the session and try again.")
    return row_to_run(row)


def _event_dict(event: Any) -> dict[str, Any]:
    """Accept a pydantic event (labwright.agent.events) or its dict form.

    Duck-typed on purpose: the store sits below agent/ and must not import it.
    """
    if hasattr(event, "model_dump"):
        data = event.model_dump(mode="json")
    elif isinstance(event, Mapping):
        data = dict(event)
    else:
        raise TypeError(
            f"an event must be a pydantic model or a mapping, not {type(event).__name__}"
        )
    if not isinstance(data.get("type"), str) or not data["type"]:
        raise ValueError("an event needs a non-empty string 'type'")
    return data


def insert_event(conn: sqlite3.Connection, run_id: int, data: dict[str, Any]) -> RunEvent:
    seq = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM run_events WHERE run_id = ?", (run_id,)
    ).fetchone()[0]
    cur = conn.execute(
        "INSERT INTO run_events (run_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)"
        " RETURNING *",
        (run_id, seq, data["type"], dump_json(data), now()),
    )
    return row_to_event(cur.fetchone())


def interrupt(conn: sqlite3.Connection, run_id: int, message: str) -> None:
    """Mark an active run interrupted and end its event stream with error + done.

    Every stream then ends with a `done` event, so a client following it stops.
    """
    conn.execute(
        "UPDATE runs SET status = 'interrupted', error = ?, finished_at = ? WHERE id = ?",
        (message, now(), run_id),
    )
    # Written as the pipeline's `error` and `done` events would be (the store
    # cannot import them: it sits below the pipeline), keys included.
    insert_event(
        conn,
        run_id,
        {
            "type": "error",
            "message": message,
            "action": INTERRUPTED_ACTION,
            "text": as_json(message),
            "action_text": as_json(INTERRUPTED_ACTION),
        },
    )
    insert_event(
        conn,
        run_id,
        {
            "type": "done",
            "ok": False,
            "outcome": "interrupted",
            "pdf_path": None,
            "tex_path": None,
            "version_no": None,
            "problems": [],
        },
    )


class RunsMixin(StoreBase):
    # -- runs ---------------------------------------------------------------

    def start_run(
        self,
        session_id: int,
        *,
        plan: Any = None,
        kind: str = "build",
        status: str = "running",
    ) -> Run:
        """Create the session's active run, or raise AlreadyRunningError.

        `status` is "running" (work starts now) or "queued" (call mark_running
        when it does). `plan` is any JSON value, typically the milestone list.
        """
        if status not in ACTIVE_RUN_STATUSES:
            raise ValueError(f"a new run is queued or running, not {status!r}")
        stamp = now()
        with self._pool.write() as conn:
            require_session(conn, session_id)
            active = conn.execute(
                f"SELECT id FROM runs WHERE session_id = ? AND status IN {_ACTIVE_SQL}",
                (session_id,),
            ).fetchone()
            if active is not None:
                raise AlreadyRunningError(
                    f"Session {session_id} already has a run in progress (run {active[0]})."
                    " Wait for it to finish or cancel it."
                )
            cur = conn.execute(
                "INSERT INTO runs (session_id, kind, status, plan, owner, created_at, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    session_id,
                    kind,
                    status,
                    dump_json(plan),
                    self._owner.token,
                    stamp,
                    stamp if status == "running" else None,
                ),
            )
            return row_to_run(cur.fetchone())

    def get_run(self, run_id: int) -> Run:
        return _select_run(self._pool.get(), run_id)

    def list_runs(self, session_id: int) -> list[Run]:
        """The session's runs, oldest first."""
        with self._pool.read() as conn:
            require_session(conn, session_id)
            rows = conn.execute(
                "SELECT * FROM runs WHERE session_id = ? ORDER BY id", (session_id,)
            ).fetchall()
        return [row_to_run(row) for row in rows]

    def active_run(self, session_id: int) -> Run | None:
        row = (
            self._pool.get()
            .execute(
                f"SELECT * FROM runs WHERE session_id = ? AND status IN {_ACTIVE_SQL}",
                (session_id,),
            )
            .fetchone()
        )
        return None if row is None else row_to_run(row)

    def set_run_plan(self, run_id: int, plan: Any) -> Run:
        with self._pool.write() as conn:
            _select_run(conn, run_id)
            conn.execute("UPDATE runs SET plan = ? WHERE id = ?", (dump_json(plan), run_id))
            return _select_run(conn, run_id)

    def mark_running(self, run_id: int) -> Run:
        """queued -> running."""
        with self._pool.write() as conn:
            run = _select_run(conn, run_id)
            if run.status != "queued":
                raise RunStateError(f"Run {run_id} is {run.status}, not queued. Reload the run.")
            conn.execute(
                "UPDATE runs SET status = 'running', started_at = ? WHERE id = ?", (now(), run_id)
            )
            return _select_run(conn, run_id)

    def finish_run(self, run_id: int, status: str, *, error: str = "") -> Run:
        """Move an active run to done / failed / cancelled / interrupted (exactly once)."""
        if status not in FINAL_RUN_STATUSES:
            raise ValueError(f"a run finishes as one of {FINAL_RUN_STATUSES}, not {status!r}")
        with self._pool.write() as conn:
            run = _select_run(conn, run_id)
            if not run.active:
                raise RunStateError(f"Run {run_id} already ended as {run.status}. Reload the run.")
            conn.execute(
                "UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ?",
                (status, error, now(), run_id),
            )
            return _select_run(conn, run_id)

    def interrupt_run(self, run_id: int, message: str = INTERRUPTED_MESSAGE) -> Run:
        """Mark an active run interrupted and close its event stream (error + done events)."""
        with self._pool.write() as conn:
            run = _select_run(conn, run_id)
            if not run.active:
                raise RunStateError(f"Run {run_id} already ended as {run.status}. Reload the run.")
            interrupt(conn, run_id, message)
            result = _select_run(conn, run_id)
        self._notify_events()
        return result

    def request_cancel(self, run_id: int) -> Run:
        """Ask the run to stop; the pipeline polls `get_run(id).cancel_requested`.

        A flag in the database (not only an in-memory event) so that a run
        started by another process can be cancelled too. Idempotent.
        """
        with self._pool.write() as conn:
            run = _select_run(conn, run_id)
            if run.active:
                conn.execute("UPDATE runs SET cancel_requested = 1 WHERE id = ?", (run_id,))
            return _select_run(conn, run_id)

    def recover_interrupted(self) -> list[int]:
        """Mark runs whose owning process is gone as interrupted; return their ids.

        Called when the store opens. Runs of a live process (another store open
        on the same data directory, or this one) are left alone.
        """
        conn = self._pool.get()
        candidates = conn.execute(
            f"SELECT id, owner FROM runs WHERE status IN {_ACTIVE_SQL} ORDER BY id"
        ).fetchall()
        recovered: list[int] = []
        for run_id, owner in candidates:
            if self._owner.owner_is_alive(owner):
                continue
            with self._pool.write() as tx:
                # Re-check inside the transaction: another store may have done it.
                still = tx.execute(
                    f"SELECT 1 FROM runs WHERE id = ? AND status IN {_ACTIVE_SQL}", (run_id,)
                ).fetchone()
                if still is None:
                    continue
                interrupt(tx, run_id, INTERRUPTED_MESSAGE)
            recovered.append(run_id)
        if recovered:
            self._notify_events()
        return recovered

    # -- events -------------------------------------------------------------

    def append_event(self, run_id: int, event: Any) -> RunEvent:
        """Persist one event (pydantic event or its dict) with the run's next sequence number."""
        data = _event_dict(event)
        with self._pool.write() as conn:
            _select_run(conn, run_id)
            stored = insert_event(conn, run_id, data)
        self._notify_events()
        return stored

    def events_after(
        self, run_id: int, after_seq: int = 0, *, limit: int | None = None
    ) -> list[RunEvent]:
        """Events with seq > after_seq, in order (for SSE resume: pass the last seq seen)."""
        conn = self._pool.get()
        _select_run(conn, run_id)
        rows = conn.execute(
            "SELECT * FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (run_id, after_seq, -1 if limit is None else limit),
        ).fetchall()
        return [row_to_event(row) for row in rows]

    def wait_for_events(
        self, run_id: int, after_seq: int, timeout: float, *, limit: int | None = None
    ) -> list[RunEvent]:
        """Like events_after, but block up to `timeout` seconds until there is one.

        Appends from this process wake the waiter at once; appends from another
        process are seen when the timeout expires, so callers loop with a
        short timeout (e.g. 1 s). Returns [] on timeout. Blocking: from asyncio,
        call it in a worker thread.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._events_cond:
                generation = self._events_generation
            found = self.events_after(run_id, after_seq, limit=limit)
            remaining = deadline - time.monotonic()
            if found or remaining <= 0:
                return found
            with self._events_cond:
                if self._events_generation == generation:
                    self._events_cond.wait(remaining)

    def _notify_events(self) -> None:
        with self._events_cond:
            self._events_generation += 1
            self._events_cond.notify_all()
