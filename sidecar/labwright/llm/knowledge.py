"""Read knowledge files with the user's overlay taking precedence.

A file at `<data dir>/overlay/<rel>` (or `<data dir>/overlay/<basename>`)
replaces `knowledge/<rel>` by name. The overlay is read on every call, on
purpose: swapping a knowledge pack must take effect on the next model call
without a restart. An empty or unreadable overlay file falls back to the
built-in one, so a broken pack can never wipe out a layer.
"""

from __future__ import annotations

import logging
from pathlib import Path

from labwright import config
from labwright.resources import knowledge_path

log = logging.getLogger(__name__)


def data_dir() -> Path:
    """The per-user data directory, as the store resolves it (labwright.config)."""
    return config.data_dir(create=False).root


def overlay_dir() -> Path:
    return config.data_dir(create=False).overlay_dir


def _read_nonempty(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        if path.exists():
            log.warning("overlay file %s is unreadable (%s); using the built-in one", path, exc)
        return None
    return text if text.strip() else None


def overlay_text(rel: str) -> str | None:
    """The overlay's version of knowledge/<rel>, or None when absent/empty/unreadable."""
    base = overlay_dir()
    for candidate in (base / rel, base / Path(rel).name):
        if candidate.is_file():
            text = _read_nonempty(candidate)
            if text is not None:
                return text
    return None


def read_knowledge(rel: str) -> str:
    """Text of knowledge/<rel>, overlay first. Raises FileNotFoundError if neither exists."""
    text = overlay_text(rel)
    if text is not None:
        return text
    return knowledge_path(*Path(rel).parts).read_text(encoding="utf-8")


def builtin_knowledge(rel: str) -> str:
    """The bundled file only, ignoring the overlay (for golden tests and diffs)."""
    return knowledge_path(*Path(rel).parts).read_text(encoding="utf-8")
