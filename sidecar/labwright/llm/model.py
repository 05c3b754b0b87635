"""The model boundary: what the pipeline may ask of a chat model, typed.

Everything above `llm/` talks to a model through `ChatModel`, never through
`LLMClient` or `Any`: the real client satisfies it, and so does a test double
(a scripted queue of turns or a function over the messages) without a socket.
Messages and tool schemas are typed JSON, so a misspelt role or a tool schema
that is not an object is a type error, not a 400 from the provider at run time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Literal, NotRequired, Protocol, TypeAlias, TypedDict

from labwright.llm.providers import Endpoint, Tier

if TYPE_CHECKING:
    from labwright.llm.client import ChatResult
    from labwright.llm.usage import UsageSink

# JSON as it crosses the wire (tool arguments, tool schemas, response formats).
JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = "dict[str, JsonValue]"

Role = Literal["system", "user", "assistant", "tool"]


class ImageURL(TypedDict):
    url: str


class TextPart(TypedDict):
    type: Literal["text"]
    text: str


class ImagePart(TypedDict):
    type: Literal["image_url"]
    image_url: ImageURL


ContentPart = TextPart | ImagePart


class FunctionCallPart(TypedDict):
    name: str
    arguments: str  # the raw JSON text, as the model wrote it


class ToolCallPart(TypedDict):
    id: str
    type: Literal["function"]
    function: FunctionCallPart


class Message(TypedDict):
    """One chat message in the OpenAI shape (the only shape every provider accepts)."""

    role: Role
    content: str | list[ContentPart] | None
    tool_calls: NotRequired[list[ToolCallPart]]
    tool_call_id: NotRequired[str]


Messages = list[Message]


class FunctionSchema(TypedDict):
    name: str
    description: str
    parameters: JsonObject


class ToolSchema(TypedDict):
    type: Literal["function"]
    function: FunctionSchema


def text_of(message: Message) -> str:
    """The text of a message (parts other than text are left out)."""
    content = message["content"]
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content if part["type"] == "text")


class ChatModel(Protocol):
    """A chat model on three tiers, with streaming, tools, cancellation and usage.

    `chat` raises only `labwright.llm.errors.LLMError` subclasses (the
    pipeline's degradation depends on that); `LLMCancelled` when `cancel` is set.
    """

    @property
    def endpoint(self) -> Endpoint: ...

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
    ) -> ChatResult: ...

    def observe_usage(self, sink: UsageSink) -> AbstractContextManager[None]:
        """Also send each billed call's usage record to `sink` while the context is open."""
        ...

    def close(self) -> None: ...


def has_vision(model: ChatModel) -> bool:
    """Whether a vision tier was configured explicitly (a text-only main model fails on images)."""
    return bool(model.endpoint.models.vision)
