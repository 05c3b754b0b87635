"""The bibliography is part of a version: kept, restored, changed only by an accepted proposal."""

from __future__ import annotations

import sqlite3

import pytest

from labwright.store import CorruptVersionError, Session, StaleBaseError, Store

DOC = "\\begin{document}\nText.\n\\bibliography{refs}\n\\end{document}\n"
BIB = "@article{a, title={A}, year={2001}}\n"
ENTRY = "@article{b, title={B}, year={2002}}\n"


def test_a_version_holds_its_bibliography_and_restore_brings_it_back(
    store: Store, session: Session
) -> None:
    first = store.add_version(session.id, DOC, bibliography=BIB)
    store.add_version(session.id, DOC.replace("Text", "Other"), bibliography="")
    assert store.get_version(first.id).bibliography == BIB
    restored = store.restore_version(first.id)
    assert restored.bibliography == BIB and restored.content == DOC
    # a version made before bibliographies were versioned reads as None
    assert store.add_version(session.id, DOC).bibliography is None


def test_one_proposal_changes_the_text_and_the_bibliography(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC, bibliography=BIB)
    at = DOC.index("Text.") + len("Text")
    proposal = store.propose_edit(
        session.id, base.id, at, at, "~\\cite{b}", bibliography=BIB + "\n" + ENTRY, scope="section"
    )
    assert proposal.bib_old == BIB and proposal.bib_new == BIB + "\n" + ENTRY
    version = store.accept_proposal(proposal.id)
    assert "\\cite{b}" in version.content and version.bibliography == BIB + "\n" + ENTRY
    # a proposal that leaves the bibliography alone carries the base's forward
    other = store.propose_edit(session.id, version.id, 0, 0, "% note\n")
    assert store.accept_proposal(other.id).bibliography == BIB + "\n" + ENTRY


def test_a_bibliography_changed_since_makes_the_proposal_stale(
    store: Store, session: Session
) -> None:
    base = store.add_version(session.id, DOC, bibliography=BIB)
    proposal = store.propose_edit(
        session.id, base.id, 0, 0, "", bibliography=BIB + ENTRY, scope="bib"
    )
    # the chain moved on with another bibliography, then came back to the same text
    store.add_version(session.id, DOC, bibliography="")
    with pytest.raises(StaleBaseError):
        store.accept_proposal(proposal.id)
    assert store.latest_version(session.id).bibliography == ""  # type: ignore[union-attr]


def test_the_bibliography_of_a_version_and_of_a_proposal_is_final(
    store: Store, session: Session
) -> None:
    base = store.add_version(session.id, DOC, bibliography=BIB)
    proposal = store.propose_edit(session.id, base.id, 0, 0, "", bibliography=ENTRY, scope="bib")
    conn = store._pool.get()
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute("UPDATE versions SET bibliography = '' WHERE id = ?", (base.id,))
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute("UPDATE proposals SET bib_new = '' WHERE id = ?", (proposal.id,))
    assert store.get_version(base.id).bibliography == BIB
    assert store.get_proposal(proposal.id).bib_new == ENTRY


def test_a_damaged_bibliography_is_reported(store: Store, session: Session) -> None:
    base = store.add_version(session.id, DOC, bibliography=BIB)
    conn = store._pool.get()
    conn.execute("DROP TRIGGER versions_no_update")
    conn.execute("UPDATE versions SET bibliography = 'x' WHERE id = ?", (base.id,))
    with pytest.raises(CorruptVersionError):
        store.get_version(base.id)
