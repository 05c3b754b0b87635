"""API keys: the OS keychain through `keyring`, environment variables for headless use.

A key is never written to the settings file or the database, never logged,
and never placed in a sandboxed process's environment (the sandbox scrubs
its env; we keep keys out of os.environ ourselves and only read from it).
"""

from __future__ import annotations

import logging
import os

import keyring
from keyring.errors import KeyringError

from labwright.llm.errors import LLMConfigError
from labwright.llm.providers import PRESETS

log = logging.getLogger(__name__)

SERVICE = "Labwright"
GENERIC_ENV = "LABWRIGHT_API_KEY"


def get_api_key(provider: str) -> str | None:
    """Keychain first, then the provider's env var, then LABWRIGHT_API_KEY."""
    try:
        stored = keyring.get_password(SERVICE, provider)
    except (KeyringError, RuntimeError, OSError) as exc:  # no backend on a headless box
        log.info(
            "keychain unavailable (%s); falling back to environment variables", type(exc).__name__
        )
        stored = None
    if stored:
        return stored
    preset = PRESETS.get(provider)
    for var in (preset.env_key if preset else None, GENERIC_ENV):
        if var and os.environ.get(var):
            return os.environ[var]
    return None


def set_api_key(provider: str, key: str) -> None:
    try:
        keyring.set_password(SERVICE, provider, key)
    except (KeyringError, RuntimeError, OSError) as exc:
        raise LLMConfigError(f"keychain refused the key: {type(exc).__name__}") from None


def delete_api_key(provider: str) -> None:
    try:
        keyring.delete_password(SERVICE, provider)
    except (KeyringError, RuntimeError, OSError):
        pass  # already absent, or no keychain: nothing stored, nothing to delete


def has_api_key(provider: str) -> bool:
    return bool(get_api_key(provider))
