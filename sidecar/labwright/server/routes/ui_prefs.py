"""The window's own choices (interface language, theme, report language), kept
by the engine so they survive a restart in browser mode.

In a browser the page's origin is `http://127.0.0.1:<port>` with a new port at
every `labwright serve --open`, so the browser's local storage (per origin)
forgot the language and the theme at each start. These are not secrets and
not settings of the pipeline: one small JSON file in the data directory.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, ValidationError

from labwright.server.context import Ctx
from labwright.server.routes.noecho import NoEchoRoute

router = APIRouter(prefix="/settings/ui", tags=["settings"], route_class=NoEchoRoute)

PREFS_FILE = "ui_prefs.json"


class UiPrefs(BaseModel):
    """Unset (null) means the window follows the system (language, theme) or detects (report)."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    lang: Literal["en", "zh"] | None = None
    theme: Literal["system", "light", "dark"] | None = None
    report_lang: Literal["auto", "en", "zh"] | None = None


def _path(root: Path) -> Path:
    return root / PREFS_FILE


def load_prefs(root: Path) -> UiPrefs:
    try:
        return UiPrefs.model_validate(json.loads(_path(root).read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return UiPrefs()  # missing or damaged: the window's defaults


def save_prefs(root: Path, prefs: UiPrefs) -> None:
    """Atomic, so a crash mid-save never leaves half a file."""
    root.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".ui_prefs.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(prefs.model_dump_json())
    os.replace(tmp, _path(root))


@router.get("", response_model=UiPrefs)
def get_ui_prefs(ctx: Ctx) -> UiPrefs:
    return load_prefs(ctx.data.root)


@router.put("", response_model=UiPrefs)
def put_ui_prefs(body: UiPrefs, ctx: Ctx) -> UiPrefs:
    """Replaces the fields given (a field left out keeps its saved value)."""
    merged = load_prefs(ctx.data.root).model_copy(update=body.model_dump(exclude_unset=True))
    save_prefs(ctx.data.root, merged)
    return merged
