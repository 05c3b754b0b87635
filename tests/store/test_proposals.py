"""Proposals: pending until decided; accept splices into the base and appends a version."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labwright.store import (
    ConflictError,
    DecidedError,
    NotFoundError,
    RangeMismatchError,
    Session,
    StaleBaseError,
    Store,
)

DOC = "\\documentclass{article}\n\\begin{document}\n\\section{Method}\nOld method.\n\\section{Results}\nR.\n\\end{document}\n"


def _range(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


def test_accept_splices_only_the_range(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    start, end = _range(DOC, "Old method.")
    p = store.propose_edit(
        session.id, base.id, start, end, "New method, in detail.", summary="Rewrite method"
    )
    assert (p.status, p.old_text, p.scope) == ("pending", "Old method.", "section")
    assert store.list_versions(session.id)[-1].id == base.id  # nothing lands before accept

    v = store.accept_proposal(p.id)
    assert v.content == DOC[:start] + "New method, in detail." + DOC[end:]
    assert (v.version_no, v.parent_id, v.origin, v.change_summary) == (
        2,
        base.id,
        "accepted",
        "Rewrite method",
    )
    decided = store.get_proposal(p.id)
    assert decided.status == "accepted"
    assert decided.result_version_id == v.id
    assert decided.decided_at is not None
    assert store.get_version(base.id).content == DOC


def test_whole_document_proposal(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    p = store.propose_edit(session.id, base.id, 0, len(DOC), "replaced", scope="whole")
    assert store.accept_proposal(p.id).content == "replaced"


def test_reject_leaves_versions_untouched(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    p = store.propose_edit(session.id, base.id, 0, 5, "XXXXX")
    rejected = store.reject_proposal(p.id)
    assert rejected.status == "rejected" and rejected.decided_at is not None
    assert [v.id for v in store.list_versions(session.id)] == [base.id]


@pytest.mark.parametrize("first", ["accept", "reject"])
@pytest.mark.parametrize("second", ["accept", "reject"])
def test_a_decision_is_final(store: Store, session: Session, first: str, second: str) -> None:
    base = store.add_version(session.id, DOC)
    p = store.propose_edit(session.id, base.id, 0, 1, "%")
    getattr(store, f"{first}_proposal")(p.id)
    versions_before = store.list_versions(session.id)
    with pytest.raises(DecidedError) as err:
        getattr(store, f"{second}_proposal")(p.id)
    assert not isinstance(err.value, StaleBaseError)
    assert isinstance(err.value, ConflictError)
    assert store.get_proposal(p.id).status == {"accept": "accepted", "reject": "rejected"}[first]
    assert store.list_versions(session.id) == versions_before


def test_stale_base_is_refused(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    p = store.propose_edit(session.id, base.id, *_range(DOC, "R."), "Results.")
    newer = store.add_version(session.id, DOC + "% manual edit\n", origin="manual")
    with pytest.raises(StaleBaseError) as err:
        store.accept_proposal(p.id)
    assert not isinstance(err.value, DecidedError)
    assert store.get_proposal(p.id).status == "pending"
    assert store.latest_version(session.id) == newer
    # A stale proposal can still be rejected.
    assert store.reject_proposal(p.id).status == "rejected"


def test_accepting_one_makes_siblings_stale(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    p1 = store.propose_edit(session.id, base.id, *_range(DOC, "Old method."), "M1")
    p2 = store.propose_edit(session.id, base.id, *_range(DOC, "R."), "R2")
    store.accept_proposal(p1.id)
    with pytest.raises(StaleBaseError):
        store.accept_proposal(p2.id)


def test_old_text_must_match_the_range(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    start, end = _range(DOC, "Old method.")
    with pytest.raises(RangeMismatchError):
        store.propose_edit(session.id, base.id, start, end, "x", old_text="Something else")
    for bad in ((-1, 3), (5, 2), (0, len(DOC) + 1)):
        with pytest.raises(RangeMismatchError):
            store.propose_edit(session.id, base.id, *bad, "x")
    assert store.list_proposals(session.id) == []
    ok = store.propose_edit(session.id, base.id, start, end, "x", old_text="Old method.")
    assert ok.old_text == "Old method."


def test_base_must_belong_to_the_session(store: Store, session: Session, tmp_path) -> None:  # type: ignore[no-untyped-def]
    other = store.create_session(tmp_path)
    foreign = store.add_version(other.id, DOC)
    with pytest.raises(NotFoundError):
        store.propose_edit(session.id, foreign.id, 0, 1, "x")
    with pytest.raises(ValueError):
        store.propose_edit(other.id, foreign.id, 0, 1, "x", scope="everything")


def test_list_proposals_by_status(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    a = store.propose_edit(session.id, base.id, 0, 1, "a")
    b = store.propose_edit(session.id, base.id, 1, 2, "b", scope="bib")
    store.reject_proposal(a.id)
    assert [p.id for p in store.list_proposals(session.id)] == [a.id, b.id]
    assert [p.id for p in store.list_proposals(session.id, status="pending")] == [b.id]
    assert [p.id for p in store.list_proposals(session.id, status="rejected")] == [a.id]


def test_database_refuses_to_reopen_a_decision(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC)
    p = store.propose_edit(session.id, base.id, 0, 1, "x")
    store.reject_proposal(p.id)
    raw = sqlite3.connect(store.db_path)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            raw.execute("UPDATE proposals SET status = 'pending' WHERE id = ?", (p.id,))
    finally:
        raw.close()
    assert store.get_proposal(p.id).status == "rejected"


def test_missing_proposal(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.accept_proposal(12345)
    with pytest.raises(NotFoundError):
        store.reject_proposal(12345)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    content=st.text(max_size=300),
    bounds=st.tuples(st.integers(0, 300), st.integers(0, 300)),
    new_text=st.text(max_size=50),
)
def test_accept_keeps_every_character_outside_the_range(
    store: Store, session: Session, content: str, bounds: tuple[int, int], new_text: str
) -> None:
    start, end = sorted(min(b, len(content)) for b in bounds)
    base = store.add_version(session.id, content)
    p = store.propose_edit(session.id, base.id, start, end, new_text)
    result = store.accept_proposal(p.id).content
    assert result[:start] == content[:start]
    assert result[len(result) - (len(content) - end) :] == content[end:]
    assert result[start : start + len(new_text)] == new_text
    assert len(result) == len(content) - (end - start) + len(new_text)


def test_closed_store_refuses_calls(home) -> None:  # type: ignore[no-untyped-def]
    s = Store.open(home)
    s.close()
    with pytest.raises(RuntimeError):
        s.list_sessions()
