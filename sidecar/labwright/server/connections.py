"""Connection limits for the sidecar's HTTP server.

Any local process can open sockets to our port without knowing the token. An
attack run held 1,100 idle sockets open and an authorized request from the
window then failed: uvicorn waits forever for the first request's headers and
never caps connections, so the idle sockets used up the process's descriptors.
Two rules close that, both enforced before any byte reaches the app:

- **Header deadline**: a connection must deliver a complete request head
  within `HEADER_TIMEOUT` seconds of opening (or of going idle between
  keep-alive requests), or it is closed. This also stops slow-loris clients.
- **Connection cap**: past `MAX_CONNECTIONS`, opening one more closes the
  connection that has been idle the longest (no request in progress). The
  window's own requests arrive with their headers at once, so they are never
  the oldest idle one; a busy connection is never dropped for a new one.

uvicorn's own `limit_concurrency` does not help: it answers 503 to every new
request once the idle sockets fill the quota, which is the outage itself.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
MAX_CONNECTIONS = 256


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and an idle-first connection cap."""

    header_timeout: ClassVar[float] = HEADER_TIMEOUT
    max_connections: ClassVar[int] = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._idle_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._go_idle()
        if len(self.connections) > self.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.idle:
            self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._go_idle()

    @property
    def idle(self) -> bool:
        """No request is being received or answered on this connection."""
        return self.cycle is None or self.cycle.response_complete

    def _go_idle(self) -> None:
        self._idle_since = self.loop.time()
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._header_deadline)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_deadline(self) -> None:
        self._header_timer = None
        if self.idle and not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        # A connection closed a moment ago stays in the set until the loop
        # runs its connection_lost; during a burst of accepts it must not be
        # "evicted" again in place of a live one.
        idle = [
            c
            for c in self.connections
            if c is not self
            and isinstance(c, GuardedH11Protocol)
            and c.idle
            and not c.transport.is_closing()
        ]
        if not idle:
            # Every other connection is serving a request: refuse this one
            # rather than cut someone's answer short.
            self.transport.close()
            return
        oldest = min(idle, key=lambda c: c._idle_since)
        oldest.transport.close()
