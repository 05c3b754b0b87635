"""Exploration: the model reads an unknown folder with tools, on the cheap tier.

Two defences hold independently: a budget of 20 model turns, and the loop
breaker (third identical call: one wrap-up nudge per run; fifth: exploration
ends and drafting starts from what was read). A turn with no tool call gets
one reminder; a second such turn ends exploration.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from labwright.agent.events import Event, Step, ToolCall, Warning_
from labwright.agent.explore_tools import ExploreTools
from labwright.agent.loop_breaker import NUDGE_MESSAGE, LoopBreaker
from labwright.llm.model import ChatModel, Message
from labwright.messages import say

MAX_TOOL_ITERATIONS = 20
REMINDER = (
    "Keep exploring with the tools, or call finish_exploration with the experiment, "
    "the goal and the key findings."
)
BREAK_MESSAGE = say("llm.explore_loop")


def explore(
    client: ChatModel,
    tools: ExploreTools,
    messages: list[Message],
    *,
    cancel: threading.Event | None = None,
    max_iterations: int = MAX_TOOL_ITERATIONS,
) -> Iterator[Event]:
    """Run the tool loop, appending to `messages`; results land in `tools.exploration`."""
    breaker = LoopBreaker()
    box = tools.toolbox()
    schemas = box.schemas()
    reminded = False
    for _ in range(max_iterations):
        if cancel is not None and cancel.is_set():
            return
        result = client.chat(messages, tier="cheap", tools=schemas, cancel=cancel, step="explore")
        messages.append(result.as_message())
        if not result.tool_calls:
            if reminded:
                yield Step(stage="explore", message=say("llm.explore_stopped"))
                return
            reminded = True
            messages.append({"role": "user", "content": REMINDER})
            continue
        stop = False
        nudge = False
        for call in result.tool_calls:
            if call.arguments is None:
                output = call.feedback()
            else:
                verdict = breaker.observe(call.name, call.arguments)
                outcome = box.call(call.name, call.arguments)
                output = outcome.output
                if outcome.bug is not None:
                    yield Warning_(message=outcome.bug)
                nudge = nudge or verdict == "nudge"
                stop = stop or verdict == "stop"
            yield ToolCall(
                name=call.name,
                arguments=call.arguments or {},
                result_preview=output[:200],
            )
            messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
        if tools.exploration.finished:
            summary = json.dumps(tools.exploration.summary, ensure_ascii=False)[:300]
            yield Step(stage="explore", message=say("llm.explore_done", summary=summary))
            return
        if stop:
            tools.exploration.broke_loop = True
            yield Warning_(message=BREAK_MESSAGE)
            return
        if nudge:
            messages.append({"role": "user", "content": NUDGE_MESSAGE})
    yield Step(stage="explore", message=say("llm.explore_budget"))
