"""Where Labwright's own resource files live, in a checkout and in a frozen bundle.

Every lookup of knowledge/ (templates, prompts, price tables) goes through
`resource_root()` so that packaging with PyInstaller needs no code change: a
frozen app unpacks its data next to the executable and exposes that directory
as `sys._MEIPASS`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_ENV_OVERRIDE = "LABWRIGHT_RESOURCES"


def resource_root() -> Path:
    """The directory that holds `knowledge/` (and, when bundled, `tinytex/`)."""
    override = os.environ.get(_ENV_OVERRIDE)
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    # Source checkout or editable install: sidecar/labwright/resources.py -> repo root.
    here = Path(__file__).resolve().parent
    for candidate in (here.parent.parent, here):
        if (candidate / "knowledge").is_dir():
            return candidate
    # A regular (non-editable) wheel ships knowledge/ inside the package.
    return here


def knowledge_path(*parts: str) -> Path:
    """Path of a file under knowledge/, e.g. knowledge_path("templates", "lab_en.tex")."""
    return resource_root().joinpath("knowledge", *parts)


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))
