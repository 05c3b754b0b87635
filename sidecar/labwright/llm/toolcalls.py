"""Tool-call parsing: native arguments, and tool calls some models write into the text.

Qwen/Hermes-style models sometimes emit `<tool_call>{...}</tool_call>` and
DeepSeek emits its own `<｜tool▁call▁begin｜>` markup as plain content instead
of structured tool calls. Left in the content, that markup would end up in
the user's report; recovered, the tool loop continues as intended.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from labwright.llm.errors import MalformedToolArguments
from labwright.llm.model import JsonObject, ToolCallPart


@dataclass
class ToolCall:
    id: str
    name: str
    raw_arguments: str
    arguments: JsonObject | None = None
    #: Set when the arguments are not a JSON object; its text can be sent back to the model.
    error: MalformedToolArguments | None = None
    from_markup: bool = False

    def as_message_part(self) -> ToolCallPart:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.raw_arguments},
        }

    def feedback(self) -> str:
        """Instructional text for the tool result when the call could not be parsed."""
        if self.error is None:
            return ""
        return (
            f"Your call to `{self.name}` had arguments that are not a JSON object "
            f"({self.error.detail}). Call the tool again with a valid JSON object."
        )


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def parse_arguments(raw: str) -> tuple[JsonObject | None, MalformedToolArguments | None]:
    """A JSON object, tolerating a code fence around it; otherwise an instructional error."""
    text = raw.strip() or "{}"
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, MalformedToolArguments(f"JSON error at char {exc.pos}: {exc.msg}")
    if not isinstance(value, dict):
        return None, MalformedToolArguments(f"expected an object, got {type(value).__name__}")
    return value, None


def make_call(call_id: str, name: str, raw: str, *, from_markup: bool = False) -> ToolCall:
    args, err = parse_arguments(raw)
    return ToolCall(call_id, name, raw, args, err, from_markup)


_HERMES = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.S)
_DS_BLOCK = re.compile(r"<｜tool▁calls▁begin｜>(.*?)(?:<｜tool▁calls▁end｜>|$)", re.S)
_DS_CALL = re.compile(
    r"<｜tool▁call▁begin｜>\s*(?:function)?\s*<｜tool▁sep｜>\s*([\w.\-]+)\s*(.*?)<｜tool▁call▁end｜>",
    re.S,
)


@dataclass
class MarkupResult:
    content: str
    calls: list[ToolCall] = field(default_factory=list)


def extract_markup_calls(content: str, *, id_prefix: str = "markup") -> MarkupResult:
    """Remove tool-call markup from `content`, returning recovered calls."""
    calls: list[ToolCall] = []

    def hermes(match: re.Match[str]) -> str:
        body = match.group(1)
        n = len(calls)
        try:
            obj = json.loads(body)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("name"), str):
            args = obj.get("arguments", obj.get("parameters", {}))
            raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
            calls.append(make_call(f"{id_prefix}_{n}", obj["name"], raw, from_markup=True))
        else:
            calls.append(make_call(f"{id_prefix}_{n}", "", body, from_markup=True))
            if calls[-1].error is None:
                calls[-1].error = MalformedToolArguments("tool call markup without a tool name")
        return ""

    def deepseek(match: re.Match[str]) -> str:
        for name, body in _DS_CALL.findall(match.group(1)):
            calls.append(make_call(f"{id_prefix}_{len(calls)}", name, body, from_markup=True))
        return ""

    text = _HERMES.sub(hermes, content)
    text = _DS_BLOCK.sub(deepseek, text)
    if not calls:
        return MarkupResult(content)
    return MarkupResult(text.strip(), calls)
