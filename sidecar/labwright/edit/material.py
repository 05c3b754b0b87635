"""The session's material digest for edit prompts, read from its folder once per folder state.

Same digest as the agent's (scan, read, per-file digest), so the first
message of a whole revision is the prefix a run already used. Reading is the
slow part; a change in the folder's listing (names, sizes, times) reads again.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)
_CACHE: dict[str, tuple[tuple[tuple[str, int, int], ...], str]] = {}
_LOCK = threading.Lock()


def _listing(folder: Path) -> tuple[tuple[str, int, int], ...]:
    out = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            out.append((os.path.join(root, name), st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def folder_digest(folder: Path) -> str:
    """The digest, or "" when the folder is gone or unreadable (edits then go without material)."""
    from labwright.agent.material import collect_material
    from labwright.ingest import read_folder, scan_folder
    from labwright.llm.context import material_digest

    if not folder.is_dir():
        return ""
    key = str(folder.resolve())
    listing = _listing(folder)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == listing:
            return cached[1]
    try:
        inventory = scan_folder(folder)
        material = collect_material(inventory, read_folder(folder, inventory))
        digest = material_digest(material.files)
    except Exception:  # an unreadable folder must not stop an edit
        log.exception("reading the material of %s failed", folder)
        return ""
    with _LOCK:
        _CACHE[key] = (listing, digest)
    return digest
