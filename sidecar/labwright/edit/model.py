"""The model boundary of chat editing: one small adapter around whatever client is in use.

Every model call of this package goes through `EditModel.ask`, so moving to
the agent's typed `ChatModel` protocol (issue 12) is one edit here. The
adapter remembers each call's usage, so the service can report it as events
and record whether a decision cost tokens.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from labwright.agent.events import UsageRecorded

Messages = list[dict[str, Any]]


class EditModel(Protocol):
    def ask(self, messages: Messages, *, tier: str, step: str) -> str: ...

    def drain_usage(self) -> list[UsageRecorded]: ...


@dataclass
class ClientModel:
    """`LLMClient` (or anything with its `chat`) as an `EditModel`."""

    client: Any
    cancel: threading.Event | None = None
    _usage: list[UsageRecorded] = field(default_factory=list)

    def ask(self, messages: Messages, *, tier: str, step: str) -> str:
        result = self.client.chat(messages, tier=tier, step=step, cancel=self.cancel)
        u = result.usage
        self._usage.append(
            UsageRecorded(
                step=step,
                model=result.model,
                prompt_tokens=u.prompt_tokens,
                cached_tokens=u.cached_prompt_tokens,
                completion_tokens=u.completion_tokens,
                cost=result.cost,
            )
        )
        return str(result.content or "")

    def drain_usage(self) -> list[UsageRecorded]:
        out, self._usage = self._usage, []
        return out
