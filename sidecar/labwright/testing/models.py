"""An in-process `ChatModel` double: a function over the messages, no socket.

The fake OpenAI-compatible server (fake_openai.py) is what proves the real
client works; this double is for tests about the pipeline's own logic (the
run loop, the plan, counting reads), where hundreds of runs must be cheap.
It satisfies the same protocol as `LLMClient`, usage records included.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from labwright.llm.client import ChatResult
from labwright.llm.errors import LLMCancelled, LLMError
from labwright.llm.model import JsonObject, Message, ToolSchema
from labwright.llm.providers import Endpoint, Tier, TierModels
from labwright.llm.toolcalls import ToolCall
from labwright.llm.usage import Usage, UsageRecord, UsageSink


@dataclass(frozen=True)
class Request:
    """What the function sees besides the messages."""

    tier: Tier
    step: str | None
    tools: bool


@dataclass(frozen=True)
class ToolTurn:
    """An answer that calls tools: (name, arguments) pairs."""

    calls: list[tuple[str, JsonObject]]


Answer = str | ToolTurn | LLMError
AnswerFn = Callable[[Sequence[Message], Request], Answer]


@dataclass
class FunctionModel:
    """`fn(messages, request)` answers each call: text, a ToolTurn, or an LLMError to raise."""

    fn: AnswerFn
    endpoint: Endpoint = field(
        default_factory=lambda: Endpoint("function", "http://function.invalid", TierModels("fn"))
    )
    calls: int = 0
    _sinks: list[UsageSink] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

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
        if cancel is not None and cancel.is_set():
            raise LLMCancelled("cancelled before the call")
        with self._lock:
            self.calls += 1
            number = self.calls
        answer = self.fn(list(messages), Request(tier=tier, step=step, tools=bool(tools)))
        if isinstance(answer, LLMError):
            raise answer  # not billed, as a provider error is not
        model = self.endpoint.models.for_tier(tier)
        usage = Usage(prompt_tokens=100, completion_tokens=10)
        self._record(UsageRecord(self.endpoint.provider, model, tier, step, usage, 0.0))
        if isinstance(answer, ToolTurn):
            import json

            calls = [
                ToolCall(f"call_{number}_{i}", name, json.dumps(args), args)
                for i, (name, args) in enumerate(answer.calls)
            ]
            return ChatResult("", calls, "tool_calls", model, tier, usage, 0.0)
        if stream and on_delta is not None:
            for start in range(0, len(answer), 64):
                on_delta(answer[start : start + 64])
        return ChatResult(answer, [], "stop", model, tier, usage, 0.0)

    def _record(self, record: UsageRecord) -> None:
        with self._lock:
            sinks = list(self._sinks)
        for sink in sinks:
            sink(record)

    @contextmanager
    def observe_usage(self, sink: UsageSink) -> Iterator[None]:
        with self._lock:
            self._sinks.append(sink)
        try:
            yield
        finally:
            with self._lock:
                self._sinks.remove(sink)

    def close(self) -> None:
        pass
