"""Proposed edits: model output lands here first, and in the version chain only on accept.

A proposal is a character range of a base version plus the text to put there.
Accepting it splices that text into the base and appends a version; that is only
allowed while the base is still the latest version, because the range was
computed against the base and splicing it into anything newer would silently
drop every change made since.
"""

from __future__ import annotations

import sqlite3

from labwright.store._base import StoreBase, from_row, require_session
from labwright.store.db import now
from labwright.store.errors import DecidedError, NotFoundError, RangeMismatchError, StaleBaseError
from labwright.store.models import PROPOSAL_SCOPES, Proposal, Version
from labwright.store.versions import insert_version, latest_version_id, select_version


def splice(content: str, start: int, end: int, new_text: str) -> str:
    """Replace content[start:end]; every character outside the range is kept as is.

    Kept local (not labwright.latex.splice): the store sits below latex/ in the
    dependency order, and this is the whole of it.
    """
    return content[:start] + new_text + content[end:]


def row_to_proposal(row: sqlite3.Row) -> Proposal:
    return from_row(Proposal, row)


def _select(conn: sqlite3.Connection, proposal_id: int) -> Proposal:
    row = conn.execute("SELECT * FROM proposals WHERE id = ?", (proposal_id,)).fetchone()
    if row is None:
        raise NotFoundError(
            f"Proposal {proposal_id} does not exist. Reload the proposals and pick another one."
        )
    return row_to_proposal(row)


def _check_range(content: str, start: int, end: int, old_text: str | None) -> None:
    if not (0 <= start <= end <= len(content)):
        raise RangeMismatchError(
            f"The range {start}..{end} lies outside the base version ({len(content)} characters)."
            " Recompute the edit against the current version."
        )
    if old_text is not None and content[start:end] != old_text:
        raise RangeMismatchError(
            "The text to replace does not match the base version at that range."
            " Recompute the edit against the current version."
        )


def _ensure_pending(proposal: Proposal) -> None:
    if proposal.status != "pending":
        raise DecidedError(
            f"Proposal {proposal.id} was already {proposal.status}. Reload the proposals."
        )


def _sibling_shift(
    conn: sqlite3.Connection, proposal: Proposal, latest_id: int | None
) -> int | None:
    """Offset shift for a part of a split whole edit whose siblings were accepted since.

    Allowed only when every version after the base, up to the latest, is the
    result of accepting a "whole"-scope proposal on the same base whose range
    does not overlap this one; anything else (a new run, a restore, another
    edit) makes the base stale. The shift is what the accepted siblings
    before this range added or removed.
    """
    if proposal.scope != "whole" or latest_id is None:
        return None
    base = select_version(conn, proposal.base_version_id)
    later = conn.execute(
        "SELECT id FROM versions WHERE session_id = ? AND version_no > ? ORDER BY version_no",
        (proposal.session_id, base.version_no),
    ).fetchall()
    shift = 0
    for (version_id,) in later:
        row = conn.execute(
            "SELECT * FROM proposals WHERE result_version_id = ?", (version_id,)
        ).fetchone()
        if row is None:
            return None
        sibling = row_to_proposal(row)
        if sibling.scope != "whole" or sibling.base_version_id != proposal.base_version_id:
            return None
        if sibling.char_start < proposal.char_end and proposal.char_start < sibling.char_end:
            return None
        if sibling.char_end <= proposal.char_start:
            shift += len(sibling.new_text) - (sibling.char_end - sibling.char_start)
    return shift


class ProposalsMixin(StoreBase):
    def propose_edit(
        self,
        session_id: int,
        base_version_id: int,
        char_start: int,
        char_end: int,
        new_text: str,
        *,
        old_text: str | None = None,
        scope: str = "section",
        target: str = "",
        summary: str = "",
        bibliography: str | None = None,
    ) -> Proposal:
        """Record a pending edit of base_version[char_start:char_end].

        `old_text` defaults to the base's text at the range; when given it must
        equal it (RangeMismatchError otherwise), which catches an edit computed
        against different content than the caller believes. `bibliography`: the
        base's .bib as the proposal leaves it (a new entry, a corrected one);
        None leaves it alone. An empty range with no new text and a bibliography
        is a change of the bibliography alone.
        """
        if scope not in PROPOSAL_SCOPES:
            raise ValueError(f"unknown proposal scope {scope!r}; use one of {PROPOSAL_SCOPES}")
        with self._pool.write() as conn:
            require_session(conn, session_id)
            base = select_version(conn, base_version_id)
            if base.session_id != session_id:
                raise NotFoundError(
                    f"Version {base_version_id} is not part of session {session_id}."
                    " Pick a version of this session."
                )
            _check_range(base.content, char_start, char_end, old_text)
            if old_text is None:
                old_text = base.content[char_start:char_end]
            bib_old = None if bibliography is None else (base.bibliography or "")
            cur = conn.execute(
                "INSERT INTO proposals (session_id, base_version_id, char_start, char_end,"
                " old_text, new_text, scope, target, summary, created_at, bib_old, bib_new)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    session_id,
                    base_version_id,
                    char_start,
                    char_end,
                    old_text,
                    new_text,
                    scope,
                    target,
                    summary,
                    now(),
                    bib_old,
                    bibliography,
                ),
            )
            return row_to_proposal(cur.fetchone())

    def get_proposal(self, proposal_id: int) -> Proposal:
        return _select(self._pool.get(), proposal_id)

    def list_proposals(self, session_id: int, *, status: str | None = None) -> list[Proposal]:
        """The session's proposals, oldest first, optionally only those with `status`."""
        with self._pool.read() as conn:
            require_session(conn, session_id)
            if status is None:
                rows = conn.execute(
                    "SELECT * FROM proposals WHERE session_id = ? ORDER BY id", (session_id,)
                ).fetchall()
            else:
                rows = conn.execute(
                    "SELECT * FROM proposals WHERE session_id = ? AND status = ? ORDER BY id",
                    (session_id, status),
                ).fetchall()
        return [row_to_proposal(row) for row in rows]

    def accept_proposal(self, proposal_id: int, *, run_id: int | None = None) -> Version:
        """Splice the proposal into its base and append the result as the latest version.

        Raises DecidedError if it was accepted or rejected before, StaleBaseError
        if its base is no longer the latest version. Check, splice, append and
        decide happen in one write transaction: of two concurrent accepts
        exactly one succeeds.

        One exception to "stale": the parts of one split whole-document edit
        (scope "whole", same base) are independent by construction (disjoint
        top-level sections), so after some of them were accepted the others
        still apply, shifted by what the accepted ones changed before them
        (see `_sibling_shift`). `run_id` links the new version to the run that
        will build its PDF.
        """
        with self._pool.write() as conn:
            proposal = _select(conn, proposal_id)
            _ensure_pending(proposal)
            latest_id = latest_version_id(conn, proposal.session_id)
            shift = 0
            base_id = proposal.base_version_id
            if latest_id != base_id:
                found = _sibling_shift(conn, proposal, latest_id)
                if found is None:
                    raise StaleBaseError(
                        f"Proposal {proposal.id} was made for an older version of the document."
                        " Ask for the edit again on the current version."
                    )
                shift, base_id = found, int(latest_id)  # type: ignore[arg-type]
            base = select_version(conn, base_id)
            start, end = proposal.char_start + shift, proposal.char_end + shift
            _check_range(base.content, start, end, proposal.old_text)
            bibliography = base.bibliography
            if proposal.bib_new is not None:
                if (base.bibliography or "") != proposal.bib_old:
                    raise StaleBaseError(
                        f"Proposal {proposal.id} was made for an older bibliography."
                        " Ask for the edit again on the current version."
                    )
                bibliography = proposal.bib_new
            version = insert_version(
                conn,
                proposal.session_id,
                splice(base.content, start, end, proposal.new_text),
                summary=proposal.summary or f"Accepted proposal {proposal.id}",
                parent_id=base.id,
                origin="accepted",
                run_id=run_id,
                bibliography=bibliography,
            )
            conn.execute(
                "UPDATE proposals SET status = 'accepted', decided_at = ?, result_version_id = ?"
                " WHERE id = ?",
                (now(), version.id, proposal.id),
            )
            return version

    def reject_proposal(self, proposal_id: int) -> Proposal:
        """Mark a pending proposal rejected; the version chain is not touched."""
        with self._pool.write() as conn:
            _ensure_pending(_select(conn, proposal_id))
            conn.execute(
                "UPDATE proposals SET status = 'rejected', decided_at = ? WHERE id = ?",
                (now(), proposal_id),
            )
            return _select(conn, proposal_id)
