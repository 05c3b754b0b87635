"""Can the model provider be reached: one connection, a short wait, one reason.

A run with a provider that cannot be reached used to try each model stage in
turn, each with its retries and its 10-second connect timeout, and said the
same warning for every stage: ~7x an offline run. A run now asks this once,
before its first model call (while it imports what it needs), and when the
answer is "no" it is written offline at once with one sentence that says why
(agent/choose.py).

Only the connection is asked about: any HTTP answer (even 401 or 404) or an
answer that is slow to come means the provider is there, and the model
stages' own errors say the rest. The request goes through httpx like the
client's (the same proxy settings from the environment), to `<base>/models`,
which sends nothing to a model and costs nothing.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable

import httpx

from labwright.llm.providers import Endpoint
from labwright.messages import Message, say

#: How long a connection may take before the provider counts as unreachable.
#: A provider that answers at all connects well within it (a TCP and TLS
#: handshake is tens to a few hundred milliseconds); waiting longer would cost
#: every offline fallback that much (the goal: at most 1.2x an offline run,
#: benchmarks/unreachable_provider.py).
CONNECT_TIMEOUT_S = 1.0

Get = Callable[[str, httpx.Timeout], object]


def _get(url: str, timeout: httpx.Timeout) -> object:
    with httpx.Client(timeout=timeout, follow_redirects=False) as client:
        return client.get(url)


def _reason(exc: BaseException) -> Message:
    """The short reason of a failed connection, as the user reads it."""
    if isinstance(exc, httpx.ConnectTimeout):
        return say("llm.no_answer", seconds=f"{CONNECT_TIMEOUT_S:g}")
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError):
            if cause.errno == errno.ECONNREFUSED:
                return say("llm.refused")
            if cause.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
                return say("llm.no_route")
        cause = cause.__cause__ or cause.__context__
    text = str(exc).lower()
    if "refused" in text:
        return say("llm.refused")
    if "name or service not known" in text or "nodename" in text or "getaddrinfo" in text:
        return say("llm.unknown_host")
    if "ssl" in text or "certificate" in text or "tls" in text:
        return say("llm.tls")
    return say("llm.no_route")


def unreachable(endpoint: Endpoint, *, get: Get = _get) -> Message | None:
    """Why `endpoint` cannot be reached, or None when it answered (anything)."""
    url = endpoint.base_url.rstrip("/") + "/models"
    timeout = httpx.Timeout(CONNECT_TIMEOUT_S, connect=CONNECT_TIMEOUT_S)
    try:
        get(url, timeout)
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as exc:
        return _reason(exc)
    except httpx.HTTPError:
        return None  # connected; slow or odd answers are the model stages' business
    return None


class Probe:
    """`unreachable(endpoint)` asked in a thread, so a run can do its imports meanwhile."""

    def __init__(self, endpoint: Endpoint, *, get: Get = _get) -> None:
        self._answer: Message | None = None
        self._thread = threading.Thread(
            target=self._ask, args=(endpoint, get), name="provider-probe", daemon=True
        )
        self._thread.start()

    def _ask(self, endpoint: Endpoint, get: Get) -> None:
        self._answer = unreachable(endpoint, get=get)

    @property
    def answered(self) -> bool:
        """The answer is in (`result` would not wait)."""
        return not self._thread.is_alive()

    def result(self) -> Message | None:
        """Why the provider cannot be reached, or None (waits for the answer)."""
        self._thread.join()
        return self._answer
