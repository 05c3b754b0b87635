"""Access control for the sidecar's loopback API, as one pure ASGI middleware.

A server on 127.0.0.1 is reachable by every web page the user visits (DNS
rebinding, cross-site "simple" requests, `http://0.0.0.0`) and by every local
process. So every request, including the OpenAPI schema, passes four checks
before any route runs, in this order:

1. Host names the loopback interface on our own port (403 otherwise). This is
   what defeats DNS rebinding: a rebound page still sends its own host name.
2. Origin, when present, is our own origin or one of the Tauri origins; the
   literal `null` (sandboxed iframes, file://) is refused (403).
3. `Authorization: Bearer <token>` matches the per-launch token, compared in
   constant time (401 otherwise). Cookies and query strings are never read,
   so the token cannot leak through a URL or be replayed by the browser.
4. Request bodies are JSON and at most `max_body` bytes (415 / 413).

It is middleware rather than a FastAPI dependency so nothing can be mounted
beside it by mistake: static files, the schema and 404s are all behind it.
Only the built UI's files (public code, no data) are served without a token in
browser mode, because a browser navigation cannot carry a header.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TAURI_ORIGINS = ("tauri://localhost", "http://tauri.localhost", "https://tauri.localhost")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
API_PREFIX = "/api"
DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: the largest legitimate body is a settings or edit payload.
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_ALLOWED_HEADERS = "authorization, content-type, last-event-id"
_ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE"


@dataclass
class AccessPolicy:
    """What the guard accepts. `port` may be set after binding (port 0 → OS choice)."""

    token: str = field(repr=False)  # a policy in a log line or traceback must not show it
    port: int
    max_body: int = DEFAULT_MAX_BODY
    # Everything outside API_PREFIX is the built UI, served without a token by
    # `public_app` (browser mode): a navigation cannot carry a header, and the
    # UI's files are public code with no user data. Such requests never reach
    # the API app, whatever their path looks like.
    public_ui: bool = False

    def allowed_hosts(self) -> frozenset[str]:
        return frozenset(f"{name}:{self.port}" for name in LOOPBACK_NAMES)

    def own_origins(self) -> frozenset[str]:
        return frozenset(f"http://{name}:{self.port}" for name in LOOPBACK_NAMES)

    def allowed_origins(self) -> frozenset[str]:
        return self.own_origins() | frozenset(TAURI_ORIGINS)

    def host_ok(self, host: str | None) -> bool:
        return host is not None and host.lower() in self.allowed_hosts()

    def origin_ok(self, origin: str | None) -> bool:
        # Absent Origin: a non-browser client or a same-origin GET; the token
        # still has to match. Present: exact match against the allow-list.
        return origin is None or origin.lower() in self.allowed_origins()

    def token_ok(self, authorization: str | None) -> bool:
        if not authorization or not self.token:
            return False
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(value.strip().encode(), self.token.encode())

    def is_public(self, method: str, path: str) -> bool:
        return (
            self.public_ui
            and method in ("GET", "HEAD")
            and not (path == API_PREFIX or path.startswith(API_PREFIX + "/"))
        )


def _headers(scope: Scope) -> dict[str, str]:
    """Header map; a header sent twice counts as absent-or-invalid for our checks."""
    seen: dict[str, str] = {}
    duplicated: set[str] = set()
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        if name in seen:
            duplicated.add(name)
        seen[name] = raw_value.decode("latin-1")
    for name in duplicated & {"host", "origin", "authorization"}:
        seen[name] = "\x00duplicate"
    return seen


def _cors_headers(origin: str | None, policy: AccessPolicy) -> list[tuple[bytes, bytes]]:
    """CORS headers for an allowed cross origin only; never `*`, never an echo of anything else."""
    headers = [(b"vary", b"Origin")]
    if origin is not None and origin.lower() in TAURI_ORIGINS:
        headers.append((b"access-control-allow-origin", origin.lower().encode()))
        headers.append((b"access-control-expose-headers", b"content-disposition"))
    return headers


async def _reply(
    send: Send, status: int, detail: str, extra: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class AccessGuard:
    """ASGI middleware enforcing `AccessPolicy` on every HTTP request."""

    def __init__(
        self, app: ASGIApp, policy: AccessPolicy, public_app: ASGIApp | None = None
    ) -> None:
        self.app = app
        self.policy = policy
        self.public_app = public_app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            # No websockets: nothing in the API needs them, so refuse the upgrade.
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        policy = self.policy
        headers = _headers(scope)
        origin = headers.get("origin")

        if not policy.host_ok(headers.get("host")):
            await _reply(
                send, 403, "This address is not allowed; open Labwright from its own window."
            )
            return
        if not policy.origin_ok(origin):
            await _reply(
                send, 403, "Requests from this page are not allowed; use Labwright's own window."
            )
            return

        method = scope["method"].upper()
        cors = _cors_headers(origin, policy)
        if method == "OPTIONS" and "access-control-request-method" in headers:
            # A CORS preflight never carries credentials; the origin was checked above.
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [
                        *cors,
                        (b"access-control-allow-methods", _ALLOWED_METHODS.encode()),
                        (b"access-control-allow-headers", _ALLOWED_HEADERS.encode()),
                        (b"access-control-max-age", b"600"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return

        if self.public_app is not None and policy.is_public(method, scope.get("path", "")):
            await self.public_app(scope, receive, self._with_cors(send, cors))
            return
        if not policy.token_ok(headers.get("authorization")):
            await _reply(
                send,
                401,
                "The access token is missing or wrong; restart Labwright from its window.",
                [(b"www-authenticate", b"Bearer"), *cors],
            )
            return

        has_body = "transfer-encoding" in headers or headers.get("content-length", "0") not in (
            "0",
            "",
        )
        if has_body:
            try:
                declared = int(headers.get("content-length", "0") or 0)
            except ValueError:
                await _reply(
                    send, 400, "The request length is not a number; send valid JSON.", cors
                )
                return
            if declared > policy.max_body:
                await _reply(send, 413, "The request is too large; send a smaller body.", cors)
                return
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if method in _BODY_METHODS and media != "application/json":
                await _reply(
                    send, 415, "Only JSON bodies are accepted; send application/json.", cors
                )
                return

        if has_body:
            body = await self._read_body(receive, policy.max_body)
            if body is None:
                await _reply(send, 413, "The request is too large; send a smaller body.", cors)
                return
            receive = self._replay(body, receive)
        await self.app(scope, receive, self._with_cors(send, cors))

    @staticmethod
    async def _read_body(receive: Receive, limit: int) -> bytes | None:
        """Buffer the body, counting streamed bytes: Content-Length can be absent or lie."""
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    @staticmethod
    def _replay(body: bytes, receive: Receive) -> Receive:
        sent = False

        async def wrapped() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return wrapped

    @staticmethod
    def _with_cors(send: Send, cors: list[tuple[bytes, bytes]]) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *cors]
            await send(message)

        return wrapped
