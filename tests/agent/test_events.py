"""The event union's JSON Schema is a contract: the UI generates its types from it."""

from __future__ import annotations

import json
from pathlib import Path

from labwright.agent.events import (
    EVENT_TYPES,
    Done,
    ToolCall,
    event_from_dict,
    event_json_schema,
    event_to_dict,
)

GOLDEN = Path(__file__).parent / "golden" / "events.schema.json"


def test_event_schema_matches_the_golden_file() -> None:
    pinned = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert event_json_schema() == pinned, (
        "The event schema changed. If on purpose, regenerate it with "
        "`python -m labwright.agent.events > tests/agent/golden/events.schema.json` "
        "and regenerate the UI's types."
    )


def test_every_event_type_is_in_the_union_and_round_trips() -> None:
    schema = event_json_schema()
    tags = set(schema["discriminator"]["mapping"])
    assert tags == {t.model_fields["type"].default for t in EVENT_TYPES}
    for event in (
        Done(ok=True),
        ToolCall(name="list_dir", arguments={"path": ".", "n": [1, None]}),
    ):
        assert event_from_dict(event_to_dict(event)) == event


def test_every_field_is_required_in_what_the_api_sends() -> None:
    """Defaults are filled in on the wire, so generated types need no `?`."""
    for name, definition in event_json_schema()["$defs"].items():
        if name == "JsonValue":
            continue
        assert set(definition["required"]) == set(definition["properties"]), name
