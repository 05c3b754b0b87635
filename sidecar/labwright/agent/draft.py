"""Drafting on the main tier: a whole document, streamed, retried on a broken contract.

The output must contain \\documentclass and \\end{document} and no tool-call
markup; otherwise the call is retried (at most three retries) with a sharper
instruction rather than patched. The accepted draft then goes through the
compile-safety sanitizer before anything else sees it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from labwright.agent.events import DraftChunk, Event, GateDecision
from labwright.agent.markup import RETRY_INSTRUCTION, draft_problems, extract_document
from labwright.agent.streaming import Finished, Restart, stream_deltas
from labwright.llm.model import ChatModel, Messages

if TYPE_CHECKING:
    from labwright.llm.client import ChatResult

MAX_RETRIES = 3


@dataclass
class DraftOutcome:
    text: str | None = None
    attempts: int = 0


def write_draft(
    client: ChatModel,
    messages: Messages,
    outcome: DraftOutcome,
    *,
    cancel: threading.Event | None = None,
    step: str = "draft",
) -> Iterator[Event]:
    """Yield chunks and gate decisions; the accepted document lands in `outcome.text`."""
    conversation = list(messages)
    for attempt in range(1 + MAX_RETRIES):
        outcome.attempts = attempt + 1
        chunks: list[str] = []
        result = None

        def call(
            on_delta: Callable[[str], None],
            on_restart: Callable[[], None],
            conv: Messages = conversation,
        ) -> ChatResult:
            return client.chat(
                conv,
                tier="main",
                stream=True,
                on_delta=on_delta,
                on_restart=on_restart,
                cancel=cancel,
                step=step,
            )

        for item in stream_deltas(call):
            if isinstance(item, Finished):
                result = item.value
            elif isinstance(item, Restart):
                chunks.clear()
            else:
                chunks.append(item)
                yield DraftChunk(text=item)
        text = (result.content if result is not None else "") or "".join(chunks)
        problems = draft_problems(text)
        if result is not None and result.tool_calls:
            # The client lifts tool-call markup out of the content; in a draft
            # (no tools offered) that markup is itself the contract breach.
            problems.append("the draft contains tool-call markup")
        yield GateDecision(gate="draft_contract", accepted=not problems, reasons=problems)
        if not problems:
            outcome.text = extract_document(text)
            return
        conversation = [
            *messages,
            {"role": "assistant", "content": text[:2000]},
            {
                "role": "user",
                "content": RETRY_INSTRUCTION + " Problems: " + "; ".join(problems) + ".",
            },
        ]
