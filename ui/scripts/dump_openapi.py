"""Print the sidecar's OpenAPI document as JSON, without starting a server.

The UI's TypeScript types are generated from this (scripts/gen-api.mjs). The
run-event union is added under components.schemas.RunEvent when the API does
not carry it yet, so the UI's event types are generated too, never hand-written.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def document() -> dict[str, Any]:
    from pydantic import TypeAdapter

    from labwright.agent.events import Event
    from labwright.server.app import openapi_schema

    doc = openapi_schema()
    schemas: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
    if "RunEvent" not in schemas:
        # Serialization mode: fields with defaults are always present on the wire.
        events = TypeAdapter(Event).json_schema(mode="serialization")
        defs = events.pop("$defs", {})
        for name, schema in defs.items():
            schemas.setdefault(name, schema)
        text = json.dumps(events).replace("#/$defs/", "#/components/schemas/")
        schemas["RunEvent"] = json.loads(text)
    text = json.dumps(schemas).replace("#/$defs/", "#/components/schemas/")
    doc["components"]["schemas"] = json.loads(text)
    return doc


if __name__ == "__main__":
    json.dump(document(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
