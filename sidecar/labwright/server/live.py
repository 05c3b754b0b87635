"""Wake-ups from run worker threads to the asyncio SSE streams that follow them.

The store is the single source of truth for events: a stream always reads
"events after the last seq I sent" from it. This module only says *when* to
look again, so a wake-up that arrives early, late or twice can never make a
client miss or repeat an event; it can only cost one extra query.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


class _Waiter:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()

    def wake(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self.event.set)
        except RuntimeError:  # the loop closed (server shutting down)
            pass

    async def wait(self, seconds: float) -> None:
        """Return on a wake-up or after `seconds` (then the caller re-reads anyway)."""
        try:
            async with asyncio.timeout(seconds):
                await self.event.wait()
        except TimeoutError:
            pass
        self.event.clear()


class LiveHub:
    """Per-run sets of waiters; `notify(run_id)` is safe to call from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[int, set[_Waiter]] = defaultdict(set)

    @contextmanager
    def subscribe(self, run_id: int) -> Iterator[_Waiter]:
        """Register before reading the store, so an append between read and wait still wakes us."""
        waiter = _Waiter(asyncio.get_running_loop())
        with self._lock:
            self._waiters[run_id].add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                waiters = self._waiters.get(run_id)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._waiters[run_id]

    def notify(self, run_id: int) -> None:
        with self._lock:
            waiters = list(self._waiters.get(run_id, ()))
        for waiter in waiters:
            waiter.wake()

    def notify_all(self) -> None:
        with self._lock:
            waiters = [w for ws in self._waiters.values() for w in ws]
        for waiter in waiters:
            waiter.wake()
