"""Retry policy: exponential backoff with jitter, honouring Retry-After.

The `openai` package has its own retry loop; we switch it off (max_retries=0)
and use this one because ours must also cover a stream cut mid-way, must stop
at once when the user cancels, and must be fast in tests (`base` is
configurable, so tests run with a few milliseconds of backoff).
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    base: float = 1.0  # seconds before the first retry
    cap: float = 30.0  # no single backoff sleep is longer than this
    jitter: float = 0.25  # +/- fraction of the delay, so clients do not retry in lockstep
    max_retry_after: float = 120.0  # a Retry-After above this is treated as "give up"
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def backoff(self, attempt: int) -> float:
        """Sleep before retry number `attempt` (1-based) when the server gave no hint."""
        delay = min(self.cap, self.base * (2 ** (attempt - 1)))
        spread = delay * self.jitter
        jittered: float = delay + self.rng.uniform(-spread, spread)
        return max(0.0, jittered)

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Honour the server's Retry-After when it gave one; else back off."""
        if retry_after is not None:
            # A small positive jitter only: never retry earlier than we were told.
            return retry_after + self.rng.uniform(0, self.base * self.jitter)
        return self.backoff(attempt)


def parse_retry_after(
    headers: Mapping[str, str] | None, *, now: float | None = None
) -> float | None:
    """Seconds to wait from `retry-after-ms` or `Retry-After` (seconds or HTTP date)."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    ms = lowered.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)
