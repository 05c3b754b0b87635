"""The one client every model call goes through.

Built on the official `openai` package (its own retries switched off, see
retry.py). What it adds: tiers, streaming with cancellation between chunks,
retries on 429/5xx/timeouts/dropped connections and nothing else, tool-call
parsing (including markup written into the content), typed errors, and one
usage record per attempt that the provider billed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2
import openai

from labwright.llm.errors import (
    LLMAuthError,
    LLMBadRequest,
    LLMCancelled,
    LLMConnectionError,
    LLMEmptyResponse,
    LLMError,
    LLMRateLimited,
    LLMServerError,
    LLMTimeout,
)
from labwright.llm.model import JsonObject, Message, ToolSchema
from labwright.llm.providers import Endpoint, Tier
from labwright.llm.retry import RetryPolicy, parse_retry_after
from labwright.llm.tokens import estimate_messages, estimate_tokens
from labwright.llm.toolcalls import ToolCall, extract_markup_calls, make_call
from labwright.llm.usage import PriceTable, Usage, UsageRecord, UsageSink, usage_from_response

log = logging.getLogger(__name__)


@dataclass
class ChatResult:
    content: str
    tool_calls: list[ToolCall]
    finish_reason: str | None
    model: str
    tier: str
    usage: Usage  # of the successful attempt; failed billed attempts are in the sink too
    cost: float | None
    attempts: int = 1
    warnings: list[str] = field(default_factory=list)

    def as_message(self) -> Message:
        """The assistant message to append to the conversation for the next turn."""
        msg: Message = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            msg["tool_calls"] = [c.as_message_part() for c in self.tool_calls]
        return msg


class LLMClient:
    """Chat with one provider. Thread-safe: the pipeline may call it from worker threads."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        timeout: float = 120.0,
        connect_timeout: float = 10.0,
        retry: RetryPolicy | None = None,
        usage_sink: UsageSink | None = None,
        prices: PriceTable | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.retry = retry or RetryPolicy()
        self.usage_sink = usage_sink
        # Observers added for the length of a run (observe_usage), besides the sink.
        self._observers: list[UsageSink] = []
        self._observers_lock = threading.Lock()
        self._prices = prices
        self._openai = openai.OpenAI(
            api_key=endpoint.api_key or "not-needed",
            base_url=endpoint.base_url,
            timeout=openai.Timeout(timeout, connect=min(connect_timeout, timeout)),
            max_retries=0,
        )

    # -- public ---------------------------------------------------------------

    def model_for(self, tier: Tier) -> str:
        return self.endpoint.models.for_tier(tier)

    def close(self) -> None:
        self._openai.close()

    @contextmanager
    def observe_usage(self, sink: UsageSink) -> Iterator[None]:
        """Also hand every usage record to `sink` while the context is open."""
        with self._observers_lock:
            self._observers.append(sink)
        try:
            yield
        finally:
            with self._observers_lock:
                self._observers.remove(sink)

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def chat(
        self,
        messages: Sequence[Message],
        *,
        tier: Tier = "main",
        tools: Sequence[ToolSchema] | None = None,
        tool_choice: str | JsonObject | None = None,
        stream: bool = False,
        on_delta: Callable[[str], None] | None = None,
        on_restart: Callable[[], None] | None = None,
        cancel: threading.Event | None = None,
        step: str | None = None,
        prompt_hash: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        response_format: JsonObject | None = None,
    ) -> ChatResult:
        """One chat completion, retried on transient failures.

        `on_delta` receives text as it streams. If a stream is cut and
        retried, `on_restart` is called first so the caller can clear what it
        showed. `cancel` is checked before each attempt, between chunks and
        during backoff sleeps; when set, LLMCancelled is raised. Raises only
        LLMError subclasses.
        """
        model = self.model_for(tier)
        kwargs: dict[str, Any] = {"model": model, "messages": list(messages)}
        if tools:
            kwargs["tools"] = list(tools)
            if tool_choice is not None:
                kwargs["tool_choice"] = tool_choice
        if temperature is not None:
            kwargs["temperature"] = temperature
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if response_format is not None:
            kwargs["response_format"] = response_format

        attempt = 0
        while True:
            attempt += 1
            _check_cancel(cancel)
            emitted = [False]
            try:
                if stream:
                    result = self._stream_once(kwargs, tier, on_delta, cancel, emitted)
                else:
                    result = self._create_cancellable(
                        kwargs,
                        tier,
                        cancel,
                        lambda late: self._record(
                            late.model, tier, step, prompt_hash, late.usage, late
                        ),
                    )
                result.attempts = attempt
                self._record(result.model, tier, step, prompt_hash, result.usage, result)
                return result
            except _BilledEmpty as empty:
                self._record(model, tier, step, prompt_hash, empty.usage, None)
                error: LLMError = LLMEmptyResponse("no content and no tool calls")
            except LLMCancelled:
                raise
            except LLMError as exc:
                error = _redacted(exc, self.endpoint.api_key)
            if cancel is not None and cancel.is_set():
                raise LLMCancelled("cancelled while handling a failed attempt") from error
            if not error.retryable or attempt > self.retry.max_retries:
                log.warning("model call failed after %d attempt(s): %s", attempt, error.detail)
                raise error
            retry_after = getattr(error, "retry_after", None)
            if retry_after is not None and retry_after > self.retry.max_retry_after:
                raise error
            delay = self.retry.delay(attempt, retry_after)
            log.info("retrying model call in %.2fs after %s", delay, type(error).__name__)
            if emitted[0] and on_restart is not None:
                on_restart()
            if cancel is not None:
                if cancel.wait(delay):
                    raise LLMCancelled("cancelled during backoff") from error
            else:
                threading.Event().wait(delay)

    async def achat(self, messages: Sequence[Message], **kwargs: Any) -> ChatResult:
        """`chat` for asyncio callers: runs in a worker thread; cancelling the
        awaiting task sets the cancel event, so the call stops at its next
        boundary (between chunks, in backoff, or while waiting for an answer)."""
        cancel = kwargs.pop("cancel", None) or threading.Event()
        try:
            return await asyncio.to_thread(self.chat, messages, cancel=cancel, **kwargs)
        except asyncio.CancelledError:
            cancel.set()
            raise

    # -- one attempt ----------------------------------------------------------

    def _create_cancellable(
        self,
        kwargs: dict[str, Any],
        tier: str,
        cancel: threading.Event | None,
        record_late: Callable[[ChatResult], None],
    ) -> ChatResult:
        """A non-streaming call that returns at once when `cancel` is set.

        A blocking HTTP read cannot be interrupted from another thread, so the
        call runs in a worker and we stop waiting for it; a cancelled user must
        not wait for the timeout. If the abandoned answer still arrives, its
        usage is recorded anyway, because the provider bills it.
        """
        if cancel is None:
            return self._create_once(kwargs, tier)
        box: dict[str, Any] = {}
        done, abandoned = threading.Event(), threading.Event()
        lock = threading.Lock()

        def work() -> None:
            try:
                box["result"] = self._create_once(kwargs, tier)
            except BaseException as exc:  # handed to the waiting thread below
                box["error"] = exc
            with lock:
                done.set()
                late = abandoned.is_set()
            if late and "result" in box:
                record_late(box["result"])

        threading.Thread(target=work, name="llm-call", daemon=True).start()
        while not done.wait(0.05):
            if cancel.is_set():
                with lock:
                    if not done.is_set():
                        abandoned.set()
                        raise LLMCancelled("cancelled while waiting for the answer")
        if "error" in box:
            raise box["error"]
        result: ChatResult = box["result"]
        return result

    def _create_once(self, kwargs: dict[str, Any], tier: str) -> ChatResult:
        with _mapped_errors():
            resp = self._openai.chat.completions.create(**kwargs)
        if not getattr(resp, "choices", None):
            raise LLMServerError("response without choices")
        # The openai package does not validate a 200 body, so a compatible
        # server's odd answer (no message, a number as content, a usage field
        # that is not a number) must become a typed error here, not a crash.
        try:
            choice = resp.choices[0]
            msg = choice.message
            content = _text(msg.content)
            calls = [
                make_call(tc.id or f"call_{i}", tc.function.name or "", tc.function.arguments or "")
                for i, tc in enumerate(msg.tool_calls or [])
                if getattr(tc, "function", None) is not None
            ]
            usage = usage_from_response(resp.usage)
            finish, model = choice.finish_reason, resp.model or kwargs["model"]
        except (AttributeError, TypeError, ValueError) as exc:
            raise LLMServerError(f"malformed answer ({type(exc).__name__})") from None
        if usage is None:
            usage = self._estimate(kwargs, content, calls)
        return self._finish(content, calls, finish, model, tier, usage, bool(kwargs.get("tools")))

    def _stream_once(
        self,
        kwargs: dict[str, Any],
        tier: str,
        on_delta: Callable[[str], None] | None,
        cancel: threading.Event | None,
        emitted: list[bool],
    ) -> ChatResult:
        extra: dict[str, Any] = {"stream": True}
        if self.endpoint.stream_usage:
            extra["stream_options"] = {"include_usage": True}
        parts: list[str] = []
        pending: dict[int, dict[str, str]] = {}
        finish: str | None = None
        usage: Usage | None = None
        model = kwargs["model"]
        with _mapped_errors():
            stream = self._openai.chat.completions.create(**kwargs, **extra)
            try:
                for chunk in _iter(stream):
                    if cancel is not None and cancel.is_set():
                        raise LLMCancelled("cancelled mid-stream")
                    if getattr(chunk, "usage", None):
                        usage = _stream_usage(chunk.usage)
                    model = getattr(chunk, "model", None) or model
                    for choice in chunk.choices or []:
                        delta = choice.delta
                        if delta is not None and delta.content:
                            text = _text(delta.content)
                            parts.append(text)
                            if on_delta is not None:
                                emitted[0] = True
                                on_delta(text)
                        for tc in (delta.tool_calls if delta is not None else None) or []:
                            slot = pending.setdefault(tc.index, {"id": "", "name": "", "args": ""})
                            slot["id"] = tc.id or slot["id"]
                            if tc.function is not None:
                                slot["name"] += tc.function.name or ""
                                slot["args"] += tc.function.arguments or ""
                        if choice.finish_reason:
                            finish = choice.finish_reason
            finally:
                with suppress(Exception):
                    stream.close()
        if finish is None:
            raise LLMConnectionError("the stream ended before the answer was complete")
        content = "".join(parts)
        calls = [
            make_call(slot["id"] or f"call_{i}", slot["name"], slot["args"])
            for i, slot in sorted(pending.items())
        ]
        if usage is None:
            usage = self._estimate(kwargs, content, calls)
        return self._finish(content, calls, finish, model, tier, usage, bool(kwargs.get("tools")))

    def _finish(
        self,
        content: str,
        calls: list[ToolCall],
        finish: str | None,
        model: str,
        tier: str,
        usage: Usage,
        tools_offered: bool,
    ) -> ChatResult:
        warnings: list[str] = []
        # Only a call that offered tools can have meant one: elsewhere (a draft)
        # markup in the text is left for the caller's output contract to reject.
        markup = extract_markup_calls(content) if tools_offered else None
        if markup is not None and markup.calls:
            warnings.append("recovered tool calls written into the content")
            content = markup.content
            if not calls:
                calls = markup.calls
        if not content.strip() and not calls:
            raise _BilledEmpty(usage)
        return ChatResult(content, calls, finish, model, tier, usage, None, warnings=warnings)

    # -- accounting -----------------------------------------------------------

    def _estimate(self, kwargs: dict[str, Any], content: str, calls: list[ToolCall]) -> Usage:
        out = estimate_tokens(content) + sum(estimate_tokens(c.raw_arguments) for c in calls)
        return Usage(estimate_messages(kwargs["messages"]), out, 0, estimated=True)

    def _record(
        self,
        model: str,
        tier: str,
        step: str | None,
        prompt_hash: str | None,
        usage: Usage,
        result: ChatResult | None,
    ) -> None:
        prices = self._prices or _load_prices()
        cost = prices.cost(usage, model, self.endpoint.provider) if prices else None
        if result is not None:
            result.cost = cost
        with self._observers_lock:
            sinks = [*([self.usage_sink] if self.usage_sink is not None else []), *self._observers]
        if not sinks:
            return
        record = UsageRecord(
            self.endpoint.provider,
            model,
            tier,
            step,
            usage,
            cost,
            prices.currency if prices else "USD",
            prompt_hash,
        )
        for sink in sinks:
            try:
                sink(record)
            except Exception:  # a broken sink must not lose the user's answer
                log.exception("usage sink failed")


class _BilledEmpty(Exception):
    def __init__(self, usage: Usage) -> None:
        super().__init__("empty answer")
        self.usage = usage


def _load_prices() -> PriceTable | None:
    try:
        return PriceTable.load()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("price table unreadable (%s); costs will show as unknown", exc)
        return None


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise LLMCancelled("cancelled before the request was sent")


def _iter(stream: Any) -> Iterator[Any]:
    yield from stream


class _mapped_errors:
    """Translate openai / transport exceptions into the typed LLMError family."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> Literal[False]:
        if exc is None or isinstance(exc, LLMError):
            return False
        mapped = _map_exception(exc)
        if mapped is None:
            return False
        raise mapped from exc


def _map_exception(exc: BaseException) -> LLMError | None:
    if isinstance(exc, openai.APITimeoutError):
        return LLMTimeout("request timed out")
    if isinstance(exc, openai.APIConnectionError):
        return LLMConnectionError(type(exc.__cause__ or exc).__name__)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        detail = f"HTTP {status}: {_short(exc.message)}"
        if status == 429:
            headers = dict(exc.response.headers) if exc.response is not None else {}
            return LLMRateLimited(detail, retry_after=parse_retry_after(headers))
        if status in (401, 403):
            return LLMAuthError(detail, status=status)
        if status == 408:
            return LLMTimeout(detail, status=status)
        if status >= 500:
            return LLMServerError(detail, status=status)
        return LLMBadRequest(detail, status=status)
    if isinstance(exc, openai.APIError):  # an error event inside a stream
        return LLMServerError(_short(str(exc)))
    if isinstance(exc, httpx2.TimeoutException):
        return LLMTimeout(type(exc).__name__)
    if isinstance(exc, (httpx2.TransportError, httpx2.StreamError)):
        return LLMConnectionError(type(exc).__name__)
    if isinstance(exc, json.JSONDecodeError):
        return LLMServerError("the provider sent a malformed stream chunk")
    if isinstance(exc, openai.OpenAIError):
        return LLMError(_short(str(exc)))
    return None


def _text(value: Any) -> str:
    """Message content as text; anything but a string or None is a malformed answer."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise LLMServerError(f"malformed answer (content is {type(value).__name__}, not text)")
    return value


def _stream_usage(raw: Any) -> Usage | None:
    try:
        return usage_from_response(raw)
    except (AttributeError, TypeError, ValueError) as exc:
        raise LLMServerError(f"malformed usage in the stream ({type(exc).__name__})") from None


# Real keys are long; redacting a short placeholder key would shred ordinary words.
_MIN_SECRET_CHARS = 8


def _redacted(error: LLMError, secret: str) -> LLMError:
    """Remove the API key from an error before it reaches a log, an event or the DB.

    Some OpenAI-compatible servers and proxies echo the key they rejected in
    the 401 body ("Incorrect API key provided: sk-..."), and `detail` carries
    that body. The chained openai exception holds it too, so it is dropped
    from the traceback when it does.
    """
    if len(secret) < _MIN_SECRET_CHARS:  # a placeholder such as "x" would shred the text
        return error
    if secret in error.detail:
        error.detail = error.detail.replace(secret, "[redacted]")
        error.args = (error.detail,)
    for linked in (error.__cause__, error.__context__):
        if linked is not None and secret in repr(linked) + str(linked):
            error.__cause__ = None
            error.__suppress_context__ = True
            break
    return error


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
