"""The one event union that a run yields.

The pipeline (offline writer or LLM agent) yields these; the CLI prints them,
the store persists them as run events, the server streams them as SSE. Each
is a small pydantic model tagged by `type`, so the UI's TypeScript types can
be generated from `event_json_schema()` instead of being written twice.

Every sentence an event carries travels twice: as English text (`message`,
`label`, `action`, `problems`: what the CLI prints) and as a catalogue key
with parameters (`text`, `action_text`, `problem_texts`: what the window
translates, labwright.messages). The key is filled in from the sentence
itself when it is a `labwright.messages.Message`; any other text gets the key
`plain` (shown as it is). Exception class names never appear in either.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, model_validator

from labwright.messages import Message, key_of


class Text(BaseModel):
    """A catalogued sentence: its key and parameters (a parameter may be a sentence too)."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    key: str
    params: dict[str, str | int | float | Text] = Field(default_factory=dict)

    @classmethod
    def of(cls, sentence: str) -> Text:
        key, params = key_of(sentence)
        return cls(
            key=key,
            params={k: cls.of(v) if isinstance(v, Message) else v for k, v in params.items()},
        )


def _filled() -> Text:
    """The default of a `text` field, never seen: a before-validator fills the
    field from its sentence (the default only satisfies the type checker)."""
    return Text(key="plain", params={"text": ""})


def _text_from(data: Any, source: str, target: str) -> Any:
    """Fill `target` from the sentence in `source` unless it was given (before validation)."""
    if isinstance(data, dict) and target not in data and isinstance(data.get(source), str):
        data = {**data, target: Text.of(data[source])}
    return data


class _Event(BaseModel):
    # Every field is required in the schema (defaults included), so generated
    # TypeScript types say a field is always there in what the API sends.
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


class Milestone(_Event):
    """A planned stage starts (or is passed over: `skipped`). `index` runs
    1..total; total is known before the first. `text` is the stage's name
    (`stage.*` keys), without the "skipped" the English label adds."""

    type: Literal["milestone"] = "milestone"
    index: int
    total: int
    stage: str
    label: str = ""
    skipped: bool = False
    text: Text = Field(default_factory=_filled)

    @model_validator(mode="before")
    @classmethod
    def _keyed(cls, data: Any) -> Any:
        return _text_from(data, "label", "text")


class Step(_Event):
    """Progress inside a stage (a line of the log, not a milestone)."""

    type: Literal["step"] = "step"
    stage: str
    message: str
    text: Text = Field(default_factory=_filled)

    @model_validator(mode="before")
    @classmethod
    def _keyed(cls, data: Any) -> Any:
        return _text_from(data, "message", "text")


class ToolCall(_Event):
    type: Literal["tool_call"] = "tool_call"
    name: str
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    result_preview: str = ""


class FigureMade(_Event):
    type: Literal["figure"] = "figure"
    name: str
    path: str
    source: str = ""


class DraftChunk(_Event):
    type: Literal["draft_chunk"] = "draft_chunk"
    text: str


class GateDecision(_Event):
    """A deterministic gate accepted or refused a model output, with its reasons."""

    type: Literal["gate"] = "gate"
    gate: str
    accepted: bool
    reasons: list[str] = Field(default_factory=list)


class UsageRecorded(_Event):
    type: Literal["usage"] = "usage"
    step: str
    model: str
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    cost: float | None  # None: the model is not in the price table, so the cost is unknown


#: Where a message's action leads in the window ("" = nowhere; "settings" =
#: the model provider's settings, e.g. after the provider could not be reached).
Link = Literal["", "settings"]


class Warning_(_Event):
    type: Literal["warning"] = "warning"
    message: str
    text: Text = Field(default_factory=_filled)
    link: Link = ""

    @model_validator(mode="before")
    @classmethod
    def _keyed(cls, data: Any) -> Any:
        return _text_from(data, "message", "text")


class Error(_Event):
    type: Literal["error"] = "error"
    message: str
    action: str = ""
    text: Text = Field(default_factory=_filled)
    action_text: Text | None = None
    link: Link = ""

    @model_validator(mode="before")
    @classmethod
    def _keyed(cls, data: Any) -> Any:
        data = _text_from(data, "message", "text")
        if isinstance(data, dict) and data.get("action") and "action_text" not in data:
            data = {**data, "action_text": Text.of(data["action"])}
        return data


class Routed(_Event):
    """A chat edit's target: which part of the report, decided by which rule, at what cost."""

    type: Literal["route"] = "route"
    target: str  # an anchor (n3), abstract, keywords, title, bibliography or whole; "" if none
    label: str = ""
    by: str  # the rule that decided (a signal class, "model", "deterministic", "none")
    used_tokens: bool


class Reply(_Event):
    """The assistant's answer to a chat message: one or two plain sentences."""

    type: Literal["reply"] = "reply"
    text: str


class ProposalMade(_Event):
    """A pending proposal was recorded; fetch it by id to show its diff."""

    type: Literal["proposal"] = "proposal"
    proposal_id: int
    scope: str
    target: str
    summary: str


#: How a run ended: a report without problems; a report with problems (listed
#: in `problems`); no report (an `error` event before says why); stopped by
#: the user; stopped by the app closing.
Outcome = Literal["finished", "problems", "failed", "cancelled", "interrupted"]


class Done(_Event):
    """The run ended. `ok` is True only for `outcome == "finished"`.

    `problems` lists what is wrong with a report that was made; a run that made
    none has said why in its one `error` event, so `problems` does not repeat it.
    `message`/`text` is the one sentence of a run that ended without an error
    event to say so (cancelled, interrupted), else empty.
    """

    type: Literal["done"] = "done"
    ok: bool
    outcome: Outcome = "finished"  # derived from `ok`/`tex_path` when not given (_keyed)
    pdf_path: str | None = None
    tex_path: str | None = None
    version_no: int | None = None
    problems: list[str] = Field(default_factory=list)
    problem_texts: list[Text] = Field(default_factory=list)
    message: str = ""
    text: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _keyed(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "outcome" not in data:  # rows stored before outcomes existed, and ok=True shorthand
            data["outcome"] = _outcome_of(data)
        if "problem_texts" not in data:
            data["problem_texts"] = [Text.of(p) for p in data.get("problems") or []]
        if data.get("message") and "text" not in data:
            data["text"] = Text.of(data["message"])
        return data


def _outcome_of(data: dict[str, Any]) -> Outcome:
    if data.get("ok"):
        return "finished"
    problems = data.get("problems") or []
    if problems == ["cancelled"]:
        return "cancelled"
    return "problems" if data.get("tex_path") else "failed"


Event = Annotated[
    Milestone
    | Step
    | ToolCall
    | FigureMade
    | DraftChunk
    | GateDecision
    | UsageRecorded
    | Warning_
    | Error
    | Routed
    | Reply
    | ProposalMade
    | Done,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_to_dict(event: _Event) -> dict[str, Any]:
    return event.model_dump(mode="json")


def event_from_dict(data: dict[str, Any]) -> Event:
    return _ADAPTER.validate_python(data)


EVENT_TYPES: tuple[type[_Event], ...] = (
    Milestone,
    Step,
    ToolCall,
    FigureMade,
    DraftChunk,
    GateDecision,
    UsageRecorded,
    Warning_,
    Error,
    Routed,
    Reply,
    ProposalMade,
    Done,
)


def event_json_schema() -> dict[str, Any]:
    """The JSON Schema of `Event` as the API sends it (pinned by a golden test)."""
    return _ADAPTER.json_schema(mode="serialization")


if __name__ == "__main__":  # regenerate the golden: python -m labwright.agent.events > FILE
    json.dump(event_json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
