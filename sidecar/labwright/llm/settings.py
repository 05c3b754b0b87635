"""LLM settings, persisted as JSON in the per-user data dir (never any key)."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, field_validator

from labwright.llm.keys import get_api_key
from labwright.llm.knowledge import data_dir
from labwright.llm.providers import DEFAULT_PROVIDER, PRESETS, TIERS, Endpoint, TierModels

log = logging.getLogger(__name__)

SETTINGS_FILE = "llm_settings.json"


class LLMSettings(BaseModel):
    provider: str = DEFAULT_PROVIDER
    base_url: str | None = None  # overrides the preset's (required for "custom")
    models: dict[str, str] = Field(default_factory=dict)  # tier -> model id overrides
    timeout: float = 120.0  # seconds to wait for the next byte of an answer
    max_retries: int = 3
    local_detection: bool = False  # probe Ollama / LM Studio ports only when the user opts in
    offline: bool = False  # force the offline writer even when a provider is usable

    model_config = {"extra": "ignore"}

    @field_validator("models")
    @classmethod
    def _known_tiers(cls, value: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in value.items() if k in TIERS and v}


def settings_path() -> Path:
    return data_dir() / SETTINGS_FILE


def load_settings() -> LLMSettings:
    """Saved settings, or defaults when the file is missing or damaged."""
    path = settings_path()
    try:
        return LLMSettings.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return LLMSettings()
    except (OSError, ValueError, ValidationError) as exc:
        log.warning(
            "LLM settings at %s are unreadable (%s); using defaults", path, type(exc).__name__
        )
        return LLMSettings()


def save_settings(settings: LLMSettings) -> Path:
    """Atomic write, so a crash mid-save never leaves a half file."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".llm_settings.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(settings.model_dump_json(indent=2))
    os.replace(tmp, path)
    return path


def resolve_endpoint(settings: LLMSettings | None = None) -> Endpoint | None:
    """The endpoint to use, or None when no provider is usable (run the offline writer)."""
    s = settings or load_settings()
    if s.offline:
        return None
    preset = PRESETS.get(s.provider)
    if preset is None:
        log.warning("unknown provider %r in settings", s.provider)
        return None
    base_url = s.base_url or preset.base_url
    main = s.models.get("main") or preset.models.get("main")
    if not base_url or not main:
        return None
    key = get_api_key(s.provider) or ""
    if preset.needs_key and not key:
        return None
    models = TierModels(
        main=main,
        cheap=s.models.get("cheap") or preset.models.get("cheap"),
        vision=s.models.get("vision") or preset.models.get("vision"),
    )
    # Local servers accept any key, but the openai package insists on one.
    return Endpoint(s.provider, base_url, models, key or "not-needed", preset.stream_usage)
