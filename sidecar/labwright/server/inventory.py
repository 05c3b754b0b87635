"""The inventory a session records when it is created: what is in the folder.

Uses the ingest scanner when it is available (names, sizes, hashes, buckets,
symlinks listed but never followed). The folder is only read, never written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def scan_inventory(folder: Path) -> list[dict[str, Any]]:
    from labwright.ingest.scan import scan_folder

    inventory = scan_folder(folder)
    return [_entry(item) for item in inventory.files]


def _entry(item: Any) -> dict[str, Any]:
    return {
        "path": str(getattr(item, "relpath", getattr(item, "path", ""))),
        "size": getattr(item, "size", None),
        "sha256": getattr(item, "sha256", None),
        "bucket": getattr(item, "bucket", None),
        "note": "a link to a place outside the folder; not read"
        if getattr(item, "symlink_outside", False)
        else None,
    }
