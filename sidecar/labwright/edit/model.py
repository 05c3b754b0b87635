"""The model boundary of chat editing: one small adapter around whatever client is in use.

Every model call of this package goes through `EditModel.ask`, which wraps the
typed `ChatModel` boundary (llm/model.py): the real client or a test double.
The adapter remembers each call's usage, so the service can report it as
events and record whether a decision cost tokens.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Protocol

from labwright.agent.events import UsageRecorded
from labwright.llm.model import ChatModel, Messages
from labwright.llm.providers import Tier


class EditModel(Protocol):
    def ask(self, messages: Messages, *, tier: Tier, step: str) -> str: ...

    def drain_usage(self) -> list[UsageRecorded]: ...


@dataclass
class ClientModel:
    """A `ChatModel` (the real `LLMClient` or a double) as an `EditModel`."""

    client: ChatModel
    cancel: threading.Event | None = None
    _usage: list[UsageRecorded] = field(default_factory=list)

    def ask(self, messages: Messages, *, tier: Tier, step: str) -> str:
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
