"""A fake OpenAI-compatible HTTP server for tests and benchmarks.

A real server on 127.0.0.1 in a background thread, so the real `openai`
client crosses a real socket: streaming (chunked SSE), tool calls, usage with
cached tokens in OpenAI's and DeepSeek's shapes, `/v1/models`, and faults
(429 with Retry-After, 5xx, a hang past the client's timeout, a stream cut
mid-way, a dropped connection). It is driven by a queue of scripted turns or
by a callback over the received messages, and records every request.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from labwright.llm.tokens import estimate_messages, estimate_tokens

# netlocs ("127.0.0.1:PORT") of fake servers running in this process; the
# test guard lets model calls through only to these.
RUNNING: set[str] = set()

# -- faults -------------------------------------------------------------------


@dataclass(frozen=True)
class RateLimit:
    retry_after: str | None = "0"  # header value; None sends no header


@dataclass(frozen=True)
class ServerError:
    status: int = 500


@dataclass(frozen=True)
class HTTPStatus:
    """Any other status, e.g. 400 or 401, with an OpenAI-shaped error body."""

    status: int
    message: str = "fake error"


@dataclass(frozen=True)
class Hang:
    seconds: float = 5.0  # longer than the client's timeout in the test


@dataclass(frozen=True)
class CutStream:
    after_chunks: int = 2  # streaming: drop after this many chunks; non-streaming: no response


@dataclass(frozen=True)
class Drop:
    """Close the connection without sending any response."""


Fault = RateLimit | ServerError | HTTPStatus | Hang | CutStream | Drop


@dataclass
class Turn:
    """One scripted answer. `tool_calls` items: {"name", "arguments" (str or dict), "id"?}."""

    content: str = ""
    tool_calls: list[dict[str, Any]] | None = None
    fault: Fault | None = None
    cached_tokens: int | None = None  # None: simulated prefix cache (if enabled) or 0
    usage_shape: Literal["openai", "deepseek", "none"] = "openai"
    prompt_tokens: int | None = None  # None: estimated from the request
    completion_tokens: int | None = None
    finish_reason: str | None = None
    model: str | None = None
    chunk_chars: int = 16
    chunk_delay: float = 0.0  # seconds between streamed chunks (for cancellation tests)

    @classmethod
    def text(cls, content: str, **kw: Any) -> Turn:
        return cls(content=content, **kw)

    @classmethod
    def tool(cls, name: str, arguments: str | dict[str, Any], **kw: Any) -> Turn:
        return cls(tool_calls=[{"name": name, "arguments": arguments}], **kw)

    @classmethod
    def failing(cls, fault: Fault) -> Turn:
        return cls(fault=fault)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    size: int  # bytes of the request body
    at: float = field(default_factory=time.time)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    def prompt_chars(self) -> int:
        return sum(
            len(m.get("content") or "") for m in self.messages if isinstance(m.get("content"), str)
        )

    def prompt_tokens(self) -> int:
        return estimate_messages(self.messages)


Handler = Callable[[list[dict[str, Any]], RecordedRequest], "Turn | str"]


class FakeOpenAI:
    """Start with `with FakeOpenAI() as fake:`; point a client at `fake.base_url`."""

    def __init__(
        self,
        *,
        models: tuple[str, ...] = ("fake-main", "fake-cheap", "fake-vision"),
        simulate_prefix_cache: bool = False,
    ) -> None:
        self.models = models
        self.simulate_prefix_cache = simulate_prefix_cache
        self.requests: list[RecordedRequest] = []
        self.unscripted = 0  # chat requests that found no scripted turn
        self._turns: deque[Turn] = deque()
        self._handler: Handler | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._ids = itertools.count(1)
        self._prefixes: list[str] = []

    # -- lifecycle ------------------------------------------------------------

    def start(self) -> FakeOpenAI:
        fake = self

        class _Handler(_RequestHandler):
            owner = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-openai", daemon=True
        )
        self._thread.start()
        RUNNING.add(self.netloc)
        return self

    def stop(self) -> None:
        self._stop.set()  # releases hanging handlers
        if self._server is not None:
            RUNNING.discard(self.netloc)
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def netloc(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        if isinstance(host, bytes):
            host = host.decode()
        return f"{host}:{port}"

    @property
    def base_url(self) -> str:
        return f"http://{self.netloc}/v1"

    # -- scripting ------------------------------------------------------------

    def script(self, *turns: Turn | str) -> FakeOpenAI:
        with self._lock:
            self._turns.extend(Turn(content=t) if isinstance(t, str) else t for t in turns)
        return self

    def on_messages(self, handler: Handler | None) -> FakeOpenAI:
        """Answer with `handler(messages, request)` whenever the script queue is empty."""
        self._handler = handler
        return self

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def reset(self) -> None:
        with self._lock:
            self._turns.clear()
            self.requests.clear()
            self._prefixes.clear()
            self.unscripted = 0
        self._handler = None

    # -- internals used by the handler ---------------------------------------

    def _next_turn(self, req: RecordedRequest) -> Turn | None:
        with self._lock:
            if self._turns:
                return self._turns.popleft()
        if self._handler is not None:
            answer = self._handler(req.messages, req)
            return Turn(content=answer) if isinstance(answer, str) else answer
        with self._lock:
            self.unscripted += 1
        return None

    def _cached_tokens(self, req: RecordedRequest) -> int:
        """Simulate automatic prefix caching: the longest prefix shared with an earlier request,
        counted in whole 64-token blocks, like DeepSeek's disk cache."""
        text = "".join(f"{m.get('role')}\x00{m.get('content') or ''}\x01" for m in req.messages)
        with self._lock:
            best = 0
            for prev in self._prefixes:
                n = 0
                limit = min(len(prev), len(text))
                while n < limit and prev[n] == text[n]:
                    n += 1
                best = max(best, n)
            self._prefixes.append(text)
        return estimate_tokens(text[:best]) // 64 * 64

    def _new_id(self) -> str:
        return f"chatcmpl-fake{next(self._ids)}"


class _RequestHandler(BaseHTTPRequestHandler):
    owner: FakeOpenAI
    protocol_version = "HTTP/1.1"  # chunked streams, so a cut is detectable by the client

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    # -- routing --------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        self._record(b"")
        if self.path.rstrip("/").endswith("/models"):
            data = [{"id": m, "object": "model", "owned_by": "fake"} for m in self.owner.models]
            self._json(200, {"object": "list", "data": data})
        else:
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        req = self._record(raw)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        turn = self.owner._next_turn(req)
        if turn is None:
            self._json(
                400,
                {
                    "error": {
                        "message": "fake_openai: no scripted turn left",
                        "type": "fake_exhausted",
                    }
                },
            )
            return
        if turn.fault is not None and self._fault(turn.fault, req):
            return
        if req.stream:
            self._stream(turn, req)
        else:
            self._json(200, self._completion(turn, req))

    def _record(self, raw: bytes) -> RecordedRequest:
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        req = RecordedRequest(
            self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, len(raw)
        )
        with self.owner._lock:
            self.owner.requests.append(req)
        return req

    # -- faults ---------------------------------------------------------------

    def _fault(self, fault: Fault, req: RecordedRequest) -> bool:
        """Apply a fault; True when the response is fully handled by it."""
        if isinstance(fault, RateLimit):
            headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
            self._json(429, {"error": {"message": "rate limited", "type": "rate_limit"}}, headers)
            return True
        if isinstance(fault, ServerError):
            self._json(
                fault.status, {"error": {"message": "upstream failure", "type": "server_error"}}
            )
            return True
        if isinstance(fault, HTTPStatus):
            self._json(
                fault.status, {"error": {"message": fault.message, "type": "invalid_request_error"}}
            )
            return True
        if isinstance(fault, Hang):
            self.owner._stop.wait(fault.seconds)
            self._drop()
            return True
        if isinstance(fault, Drop) or (isinstance(fault, CutStream) and not req.stream):
            self._drop()
            return True
        return False  # CutStream on a streaming request is handled inside _stream

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # -- answers --------------------------------------------------------------

    def _usage(self, turn: Turn, req: RecordedRequest) -> dict[str, Any] | None:
        if turn.usage_shape == "none":
            return None
        prompt = turn.prompt_tokens if turn.prompt_tokens is not None else req.prompt_tokens()
        args = "".join(_args_text(c.get("arguments", "")) for c in turn.tool_calls or [])
        completion = (
            turn.completion_tokens
            if turn.completion_tokens is not None
            else estimate_tokens(turn.content + args)
        )
        if turn.cached_tokens is not None:
            cached = turn.cached_tokens
        elif self.owner.simulate_prefix_cache:
            cached = self.owner._cached_tokens(req)
        else:
            cached = 0
        cached = min(cached, prompt)
        usage: dict[str, Any] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        if turn.usage_shape == "deepseek":
            usage["prompt_cache_hit_tokens"] = cached
            usage["prompt_cache_miss_tokens"] = prompt - cached
        else:
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        return usage

    def _tool_calls(self, turn: Turn) -> list[dict[str, Any]]:
        return [
            {
                "id": c.get("id") or f"call_{i}",
                "type": "function",
                "function": {"name": c["name"], "arguments": _args_text(c.get("arguments", ""))},
            }
            for i, c in enumerate(turn.tool_calls or [])
        ]

    def _completion(self, turn: Turn, req: RecordedRequest) -> dict[str, Any]:
        calls = self._tool_calls(turn)
        message: dict[str, Any] = {"role": "assistant", "content": turn.content}
        if calls:
            message["tool_calls"] = calls
        body: dict[str, Any] = {
            "id": self.owner._new_id(),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": turn.model or req.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": turn.finish_reason or ("tool_calls" if calls else "stop"),
                }
            ],
        }
        usage = self._usage(turn, req)
        if usage is not None:
            body["usage"] = usage
        return body

    def _stream(self, turn: Turn, req: RecordedRequest) -> None:
        cid, model, created = self.owner._new_id(), turn.model or req.model, int(time.time())

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }

        events: list[dict[str, Any]] = [chunk({"role": "assistant", "content": ""})]
        text = turn.content
        for i in range(0, len(text), max(1, turn.chunk_chars)):
            events.append(chunk({"content": text[i : i + turn.chunk_chars]}))
        calls = self._tool_calls(turn)
        for idx, call in enumerate(calls):
            head = {"index": idx, "id": call["id"], "type": "function"}
            head["function"] = {"name": call["function"]["name"], "arguments": ""}
            events.append(chunk({"tool_calls": [head]}))
            args = call["function"]["arguments"]
            for i in range(0, len(args), 10):
                part = {"index": idx, "function": {"arguments": args[i : i + 10]}}
                events.append(chunk({"tool_calls": [part]}))
        events.append(chunk({}, turn.finish_reason or ("tool_calls" if calls else "stop")))
        usage = self._usage(turn, req)
        include = bool((req.body.get("stream_options") or {}).get("include_usage"))
        if usage is not None and include:
            events.append(
                {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [],
                    "usage": usage,
                }
            )

        cut = turn.fault.after_chunks if isinstance(turn.fault, CutStream) else None
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for n, event in enumerate(events):
                if cut is not None and n >= cut:
                    self.wfile.flush()
                    self._drop()  # no terminating chunk: the client sees an incomplete body
                    return
                self._write_chunk(f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode())
                if turn.chunk_delay:
                    if self.owner._stop.wait(turn.chunk_delay):
                        return
            self._write_chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away (cancelled); nothing to do

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _json(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def _args_text(arguments: str | dict[str, Any]) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
