"""Backoff and Retry-After parsing."""

from __future__ import annotations

import email.utils
import random

from labwright.llm.retry import RetryPolicy, parse_retry_after


def test_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "7"}) == 7.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after-ms": "250", "Retry-After": "9"}) == 0.25
    now = 1_800_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert parse_retry_after({"Retry-After": date}, now=now) == 30.0
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after({"Retry-After": "-5"}) == 0.0


def test_backoff_grows_is_capped_and_jittered() -> None:
    policy = RetryPolicy(base=1.0, cap=8.0, jitter=0.25, rng=random.Random(1))
    for attempt, nominal in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
        samples = {policy.backoff(attempt) for _ in range(20)}
        assert all(nominal * 0.75 <= s <= nominal * 1.25 for s in samples)
        assert len(samples) > 1  # jittered, not lockstep


def test_retry_after_is_never_shortened() -> None:
    policy = RetryPolicy(base=0.5, rng=random.Random(2))
    assert all(policy.delay(1, 3.0) >= 3.0 for _ in range(50))
