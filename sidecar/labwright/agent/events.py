"""The one event union that a run yields.

The pipeline (offline writer or LLM agent) yields these; the CLI prints them,
the store persists them as run events, the server streams them as SSE. Each
is a small pydantic model tagged by `type`, so the UI's TypeScript types can
be generated from `event_json_schema()` instead of being written twice.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter


class _Event(BaseModel):
    # Every field is required in the schema (defaults included), so generated
    # TypeScript types say a field is always there in what the API sends.
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


class Milestone(_Event):
    """A planned stage starts. `index` runs 1..total; total is known before the first."""

    type: Literal["milestone"] = "milestone"
    index: int
    total: int
    stage: str
    label: str = ""


class Step(_Event):
    """Progress inside a stage (free text for the log, not a milestone)."""

    type: Literal["step"] = "step"
    stage: str
    message: str


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


class Warning_(_Event):
    type: Literal["warning"] = "warning"
    message: str


class Error(_Event):
    type: Literal["error"] = "error"
    message: str
    action: str = ""


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


class Done(_Event):
    """The run ended. `ok` is False when the report was produced with problems."""

    type: Literal["done"] = "done"
    ok: bool
    pdf_path: str | None = None
    tex_path: str | None = None
    version_no: int | None = None
    problems: list[str] = Field(default_factory=list)


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
