"""Chat messages and usage accounting."""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.store import NotFoundError, Session, Store, UsageTotals


def test_messages_in_order_with_links(store: Store, session: Session) -> None:
    v = store.add_version(session.id, "doc")
    p = store.propose_edit(session.id, v.id, 0, 1, "D")
    m1 = store.add_message(session.id, "user", "make it shorter", version_id=v.id)
    m2 = store.add_message(session.id, "assistant", "here is a proposal", proposal_id=p.id)
    m3 = store.add_message(session.id, "user", "thanks")
    assert store.list_messages(session.id) == [m1, m2, m3]
    assert store.list_messages(session.id, last=2) == [m2, m3]
    assert (m1.version_id, m2.proposal_id) == (v.id, p.id)


def test_message_validation(store: Store, session: Session, tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        store.add_message(session.id, "tool", "x")
    other = store.create_session(tmp_path)
    foreign = store.add_version(other.id, "x")
    with pytest.raises(NotFoundError):
        store.add_message(session.id, "user", "x", version_id=foreign.id)
    with pytest.raises(NotFoundError):
        store.add_message(999, "user", "x")
    assert store.list_messages(session.id) == []


def test_usage_totals_per_step_run_and_session(store: Store, session: Session) -> None:
    r1 = store.start_run(session.id)
    calls = [
        ("explore", "cheap", 1000, 800, 50, 0.001),
        ("explore", "cheap", 1200, 1000, 40, 0.001),
        ("draft", "main", 5000, 0, 3000, 0.02),
    ]
    for step, model, p, c, o, cost in calls:
        store.record_usage(
            session.id,
            run_id=r1.id,
            step=step,
            model=model,
            prompt_tokens=p,
            cached_tokens=c,
            completion_tokens=o,
            cost=cost,
        )
    store.finish_run(r1.id, "done")
    r2 = store.start_run(session.id)
    store.record_usage(
        session.id,
        run_id=r2.id,
        step="draft",
        model="main",
        prompt_tokens=10,
        completion_tokens=1,
        cost=0.5,
    )
    store.record_usage(
        session.id,
        step="chat_edit",
        model="main",
        prompt_tokens=7,
        cached_tokens=7,
        completion_tokens=3,
        cost=0.25,
    )

    by_step = store.usage_by_step(run_id=r1.id)
    assert list(by_step) == ["explore", "draft"]
    assert by_step["explore"] == UsageTotals(
        calls=2,
        prompt_tokens=2200,
        cached_tokens=1800,
        completion_tokens=90,
        cost=pytest.approx(0.002),
    )
    run_total = store.usage_totals(run_id=r1.id)
    assert (run_total.calls, run_total.prompt_tokens, run_total.completion_tokens) == (
        3,
        7200,
        3090,
    )
    session_total = store.usage_totals(session_id=session.id)
    assert session_total.calls == 5
    assert session_total.cached_tokens == 1807
    assert session_total.cost == pytest.approx(0.022 + 0.5 + 0.25)
    assert set(store.usage_by_step(session_id=session.id)) == {"explore", "draft", "chat_edit"}
    assert [u.model for u in store.list_usage(run_id=r2.id)] == ["main"]
    assert store.usage_totals(run_id=9999) == UsageTotals()


def test_usage_validation(store: Store, session: Session, tmp_path: Path) -> None:
    base = {"model": "m", "prompt_tokens": 10, "completion_tokens": 1, "cost": 0.0}
    with pytest.raises(ValueError):
        store.record_usage(session.id, **{**base, "cached_tokens": 11})
    with pytest.raises(ValueError):
        store.record_usage(session.id, **{**base, "cost": -1.0})
    other = store.create_session(tmp_path)
    foreign_run = store.start_run(other.id)
    with pytest.raises(NotFoundError):
        store.record_usage(session.id, run_id=foreign_run.id, **base)
    with pytest.raises(ValueError):
        store.usage_totals()
    assert store.list_usage(session_id=session.id) == []


def test_unknown_cost_is_kept_apart_from_zero(tmp_path: Path) -> None:
    """A model missing from the price table must not make totals look cheaper."""
    from labwright.store import Store

    store = Store.open(tmp_path / "home")
    try:
        session = store.create_session(str(tmp_path))
        store.record_usage(
            session.id, model="priced", prompt_tokens=10, completion_tokens=5, cost=0.25
        )
        row = store.record_usage(
            session.id, model="local", prompt_tokens=10, completion_tokens=5, cost=None
        )
        assert row.priced is False and row.cost == 0.0
        totals = store.usage_totals(session_id=session.id)
        assert (totals.calls, totals.cost, totals.unpriced_calls) == (2, 0.25, 1)
    finally:
        store.close()
