"""Print the sidecar's OpenAPI document as JSON, without starting a server.

The UI's TypeScript types are generated from this (scripts/gen-api.mjs). The
run events' payload is the pipeline's own event union in that document, so the
UI's event types are generated too, never hand-written.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def document() -> dict[str, Any]:
    from labwright.server.app import openapi_schema

    return openapi_schema()


if __name__ == "__main__":
    json.dump(document(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
