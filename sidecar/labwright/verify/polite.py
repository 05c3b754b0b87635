"""HTTP to one scholarly index, the way its documentation asks to be used.

* Polite pool: a ``mailto`` parameter and a User-Agent naming it.
* Rate limits: a token bucket sized from the index's own
  ``x-rate-limit-limit`` / ``x-rate-limit-interval`` headers (Crossref sends
  them on every answer, for the kind of request it answered: single records
  and lists are limited apart, so each kind has its bucket), and a cap on
  requests in flight (Crossref's polite pool allows three at once, its public
  pool one).
* ``Retry-After`` on 429/503: the whole service waits that long (seconds or
  an HTTP date), when it fits the caller's deadline; otherwise the request is
  given up, never waited out past the build's budget.
* Timeouts on connect and read; 5xx and dropped connections are retried
  twice with backoff; a refused or unroutable connection opens the circuit
  for the rest of the run, so an offline machine pays for one attempt, not
  one per reference.
"""

from __future__ import annotations

import email.utils
import logging
import random
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import httpx

from labwright import __version__

log = logging.getLogger(__name__)

_RETRY_STATUS = frozenset({500, 502, 503, 504})
_MAX_RETRIES = 2


class Unavailable(Exception):
    """The index gave no usable answer (message: why, in a few words)."""


@dataclass(frozen=True)
class ServiceLimits:
    concurrency: int
    #: Requests per `interval_s` until the service says otherwise.
    rate: float
    interval_s: float = 1.0
    #: List requests (searches, filters) per `interval_s`, where the service limits
    #: them apart from single records (Crossref); 0: the same bucket as singles.
    list_rate: float = 0.0
    connect_timeout_s: float = 2.0
    read_timeout_s: float = 6.0


class _Bucket:
    """At most `limit` requests in any window of `interval` (a sliding window, not a
    token bucket: a full bucket plus its refill would send twice the limit within
    one interval). A small margin absorbs the network's jitter between our send
    and the service's count."""

    MARGIN = 1.10

    def __init__(self, limit: float, interval_s: float) -> None:
        self.limit, self.interval_s = max(limit, 1.0), max(interval_s, 0.001)
        self.sent: deque[float] = deque()
        self.lock = threading.Lock()

    def reset(self, limit: float, interval_s: float) -> None:
        with self.lock:
            self.limit, self.interval_s = max(limit, 1.0), max(interval_s, 0.001)

    def try_take(self) -> float:
        """0.0: a request may be sent now (and is counted); else the seconds until one may."""
        with self.lock:
            now = time.monotonic()
            window = self.interval_s * self.MARGIN
            while self.sent and now - self.sent[0] >= window:
                self.sent.popleft()
            if len(self.sent) < int(self.limit):
                self.sent.append(now)
                return 0.0
            return max(1e-3, self.sent[0] + window - now)

    def take(self, deadline: float) -> bool:
        while True:
            wait = self.try_take()
            if not wait:
                return True
            if time.monotonic() + wait > deadline:
                return False
            time.sleep(wait)


class Service:
    """One index (Crossref or OpenAlex) at one base URL; shared by the resolver's threads."""

    def __init__(
        self,
        name: str,
        base_url: str,
        limits: ServiceLimits,
        *,
        contact: str = "",
        transport: httpx.BaseTransport | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        #: Sent with every request (OpenAlex's api_key).
        self.params = dict(params or {})
        self.base_url = base_url.rstrip("/")
        self.limits = limits
        self.contact = contact
        agent = f"Labwright/{__version__} (citation check"
        agent += f"; mailto:{contact})" if contact else ")"
        self._client = httpx.Client(
            headers={"User-Agent": agent, "Accept": "application/json"},
            timeout=httpx.Timeout(limits.read_timeout_s, connect=limits.connect_timeout_s),
            limits=httpx.Limits(
                max_connections=limits.concurrency, max_keepalive_connections=limits.concurrency
            ),
            follow_redirects=True,
            transport=transport,
        )
        self._slots = threading.BoundedSemaphore(limits.concurrency)
        self._bucket = _Bucket(limits.rate, limits.interval_s)
        self._list_bucket = (
            _Bucket(limits.list_rate, limits.interval_s) if limits.list_rate else self._bucket
        )
        self._pause_until = 0.0
        self._lock = threading.Lock()
        #: Set when a connection could not be made: no further request this run.
        self.down: str = ""
        self.requests = 0
        self._in_flight = 0

    @property
    def free(self) -> int:
        """Slots not in use now (a router's hint; the semaphore is the limit)."""
        if self.down:
            return -1
        with self._lock:
            return self.limits.concurrency - self._in_flight

    @property
    def list_rate(self) -> float:
        """List requests a second it allows now (a router's measure of capacity)."""
        bucket = self._list_bucket
        return bucket.limit / bucket.interval_s

    def close(self) -> None:
        self._client.close()

    def get(
        self, path: str, params: dict[str, str], *, deadline: float, kind: str = "single"
    ) -> Any | None:
        """The JSON answer; None for "no such record" (404). Raises Unavailable.

        `kind`: "single" (one record by its id) or "list" (a search or filter),
        which some services limit separately."""
        if self.down:
            raise Unavailable(self.down)
        query = {**self.params, **params}
        if self.contact:
            query["mailto"] = self.contact
        bucket = self._list_bucket if kind == "list" else self._bucket
        for attempt in range(_MAX_RETRIES + 1):
            response = self._send(path, query, deadline, bucket)
            status = response.status_code
            if status == 200:
                try:
                    return response.json()
                except ValueError as error:
                    raise Unavailable(f"{self.name} sent an unreadable answer") from error
            if status == 404:
                return None
            if status in (429, 503):
                wait = _retry_after(response.headers.get("retry-after"))
                wait = 1.0 if wait is None else wait
                if time.monotonic() + wait >= deadline or attempt == _MAX_RETRIES:
                    raise Unavailable(f"{self.name} asked to slow down (HTTP {status})")
                with self._lock:
                    self._pause_until = max(self._pause_until, time.monotonic() + wait)
                continue
            if status in _RETRY_STATUS and attempt < _MAX_RETRIES:
                self._backoff(attempt, deadline)
                continue
            raise Unavailable(f"{self.name} answered HTTP {status}")
        raise Unavailable(f"{self.name} did not answer")  # pragma: no cover - loop returns

    def _send(
        self, path: str, query: dict[str, str], deadline: float, bucket: _Bucket
    ) -> httpx.Response:
        for attempt in range(_MAX_RETRIES + 1):
            self._wait_pause(deadline)
            self._acquire(bucket, deadline)
            with self._lock:
                self._in_flight += 1
            try:
                if self.down:  # another thread found the index unreachable while this one waited
                    raise Unavailable(self.down)
                remaining = max(0.05, deadline - time.monotonic())
                timeout = httpx.Timeout(
                    min(self.limits.read_timeout_s, remaining),
                    connect=min(self.limits.connect_timeout_s, remaining),
                )
                self.requests += 1
                response = self._client.get(self.base_url + path, params=query, timeout=timeout)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as error:
                # No route, refused, no DNS: the machine is offline for this index.
                self.down = f"{self.name} could not be reached"
                log.info("%s: %s", self.down, error)
                raise Unavailable(self.down) from error
            except (httpx.ReadTimeout, httpx.RemoteProtocolError, httpx.ReadError) as error:
                if attempt == _MAX_RETRIES or deadline - time.monotonic() < 0.2:
                    raise Unavailable(f"{self.name} did not answer in time") from error
                self._backoff(attempt, deadline)
                continue
            except httpx.HTTPError as error:
                raise Unavailable(f"{self.name} failed ({type(error).__name__})") from error
            finally:
                with self._lock:
                    self._in_flight -= 1
                self._slots.release()
            self._learn_limits(response, bucket)
            return response
        raise Unavailable(f"{self.name} did not answer")  # pragma: no cover

    def _acquire(self, bucket: _Bucket, deadline: float) -> None:
        """A slot in flight and room in the kind's rate window, both at once. A
        request waiting for its window gives its slot back meanwhile: a list
        waiting for Crossref's next second must not hold up single records,
        which have a window of their own."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0.05 or not self._slots.acquire(timeout=remaining):
                raise Unavailable(f"{self.name} did not answer in time")
            wait = bucket.try_take()
            if not wait:
                return
            self._slots.release()
            if time.monotonic() + wait > deadline:
                raise Unavailable(f"{self.name} did not answer in time")
            time.sleep(wait)

    def _wait_pause(self, deadline: float) -> None:
        with self._lock:
            until = self._pause_until
        wait = until - time.monotonic()
        if wait > 0:
            if time.monotonic() + wait >= deadline:
                raise Unavailable(f"{self.name} asked to slow down")
            time.sleep(wait)

    def _backoff(self, attempt: int, deadline: float) -> None:
        wait = min(
            0.2 * 2**attempt * (1 + random.random() / 2),
            max(0.0, deadline - time.monotonic() - 0.1),
        )
        if wait > 0:
            time.sleep(wait)

    def _learn_limits(self, response: httpx.Response, bucket: _Bucket) -> None:
        limit = response.headers.get("x-rate-limit-limit")
        interval = response.headers.get("x-rate-limit-interval")
        if not limit:
            return
        try:
            seconds = float(interval.rstrip("s")) if interval else 1.0
            bucket.reset(float(limit), seconds)
        except ValueError:
            return


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
