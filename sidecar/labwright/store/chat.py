"""Chat messages of a session and the model usage (tokens, cost) of every call."""

from __future__ import annotations

import sqlite3

from labwright.store._base import StoreBase, from_row, require_session
from labwright.store.db import now
from labwright.store.errors import NotFoundError
from labwright.store.models import MESSAGE_ROLES, Message, UsageRow, UsageTotals


def row_to_message(row: sqlite3.Row) -> Message:
    return from_row(Message, row)


def row_to_usage(row: sqlite3.Row) -> UsageRow:
    return from_row(UsageRow, row)


_TOTALS = (
    "COUNT(*) AS calls, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,"
    " COALESCE(SUM(cached_tokens), 0) AS cached_tokens,"
    " COALESCE(SUM(completion_tokens), 0) AS completion_tokens, COALESCE(SUM(cost), 0.0) AS cost,"
    " COALESCE(SUM(1 - priced), 0) AS unpriced_calls"
)


def _totals(row: sqlite3.Row) -> UsageTotals:
    return from_row(UsageTotals, row)


def _require_owned(
    conn: sqlite3.Connection, table: str, row_id: int | None, session_id: int
) -> None:
    """A reference to a version/proposal/run must stay inside the same session."""
    if row_id is None:
        return
    # `table` is one of our own literal table names, never input.
    row = conn.execute(f"SELECT session_id FROM {table} WHERE id = ?", (row_id,)).fetchone()
    if row is None or row[0] != session_id:
        raise NotFoundError(
            f"{table[:-1].capitalize()} {row_id} is not part of session {session_id}."
            " Reload the session and try again."
        )


class ChatMixin(StoreBase):
    # -- messages -----------------------------------------------------------

    def add_message(
        self,
        session_id: int,
        role: str,
        content: str,
        *,
        version_id: int | None = None,
        proposal_id: int | None = None,
    ) -> Message:
        """Append a chat message, optionally linked to the version or proposal it concerns."""
        if role not in MESSAGE_ROLES:
            raise ValueError(f"unknown message role {role!r}; use one of {MESSAGE_ROLES}")
        with self._pool.write() as conn:
            require_session(conn, session_id)
            _require_owned(conn, "versions", version_id, session_id)
            _require_owned(conn, "proposals", proposal_id, session_id)
            cur = conn.execute(
                "INSERT INTO messages (session_id, role, content, version_id, proposal_id,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (session_id, role, content, version_id, proposal_id, now()),
            )
            return row_to_message(cur.fetchone())

    def list_messages(self, session_id: int, *, last: int | None = None) -> list[Message]:
        """The session's messages, oldest first; `last` keeps only the newest n."""
        with self._pool.read() as conn:
            require_session(conn, session_id)
            rows = conn.execute(
                "SELECT * FROM (SELECT * FROM messages WHERE session_id = ? ORDER BY id DESC"
                " LIMIT ?) ORDER BY id",
                (session_id, -1 if last is None else last),
            ).fetchall()
        return [row_to_message(row) for row in rows]

    # -- usage --------------------------------------------------------------

    def record_usage(
        self,
        session_id: int,
        *,
        model: str,
        prompt_tokens: int,
        cached_tokens: int = 0,
        completion_tokens: int,
        cost: float | None,
        step: str = "",
        run_id: int | None = None,
    ) -> UsageRow:
        """Record one model call. `cached_tokens` is the part of `prompt_tokens`
        served from cache; `cost=None` records a call whose price is unknown."""
        priced = cost is not None
        cost = cost if cost is not None else 0.0
        if min(prompt_tokens, cached_tokens, completion_tokens) < 0 or cost < 0:
            raise ValueError("token counts and cost cannot be negative")
        if cached_tokens > prompt_tokens:
            raise ValueError("cached tokens are part of the prompt tokens and cannot exceed them")
        with self._pool.write() as conn:
            require_session(conn, session_id)
            _require_owned(conn, "runs", run_id, session_id)
            cur = conn.execute(
                "INSERT INTO usage (session_id, run_id, step, model, prompt_tokens, cached_tokens,"
                " completion_tokens, cost, priced, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING *",
                (
                    session_id,
                    run_id,
                    step,
                    model,
                    prompt_tokens,
                    cached_tokens,
                    completion_tokens,
                    float(cost),
                    int(priced),
                    now(),
                ),
            )
            return row_to_usage(cur.fetchone())

    def list_usage(
        self, *, session_id: int | None = None, run_id: int | None = None
    ) -> list[UsageRow]:
        """Usage rows of a run or a session, oldest first."""
        where, args = _scope(session_id, run_id)
        rows = (
            self._pool.get()
            .execute(f"SELECT * FROM usage WHERE {where} ORDER BY id", args)
            .fetchall()
        )
        return [row_to_usage(row) for row in rows]

    def usage_totals(
        self, *, session_id: int | None = None, run_id: int | None = None
    ) -> UsageTotals:
        """Sum over a run or over a whole session (all its runs and chat edits)."""
        where, args = _scope(session_id, run_id)
        row = (
            self._pool.get().execute(f"SELECT {_TOTALS} FROM usage WHERE {where}", args).fetchone()
        )
        return _totals(row)

    def usage_by_step(
        self, *, session_id: int | None = None, run_id: int | None = None
    ) -> dict[str, UsageTotals]:
        """Totals per pipeline step (explore, draft, reflect, ...) of a run or session."""
        where, args = _scope(session_id, run_id)
        rows = (
            self._pool.get()
            .execute(
                f"SELECT step, {_TOTALS} FROM usage WHERE {where} GROUP BY step ORDER BY MIN(id)",
                args,
            )
            .fetchall()
        )
        return {row["step"]: _totals(row) for row in rows}


def _scope(session_id: int | None, run_id: int | None) -> tuple[str, tuple[int, ...]]:
    if (session_id is None) == (run_id is None):
        raise ValueError("pass exactly one of session_id or run_id")
    if run_id is not None:
        return "run_id = ?", (run_id,)
    assert session_id is not None
    return "session_id = ?", (session_id,)
