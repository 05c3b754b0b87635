"""API keys: the OS keychain through `keyring`, a private file where there is
none, and environment variables for headless use.

Minimal Linux desktops, WSL and servers often have no keychain (keyring's
backend is then the "fail" one, or a chainer with no backend); refusing the
key there would mean a model can never be used. So a key the keychain refuses
goes to `keys.json` in the data directory, created 0600 inside a 0700
directory: readable by the user only, which is what a keychain-less system
offers for any secret (ssh keys, .netrc). The settings page says which store
is in use (`key_storage()`).

A key is never written to the settings file or the database, never logged,
and never placed in a sandboxed process's environment (the sandbox scrubs
its env; we keep keys out of os.environ ourselves and only read from it).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Literal

import keyring
from keyring.errors import KeyringError

from labwright.llm.errors import LLMConfigError
from labwright.llm.providers import PRESETS
from labwright.safety import open_regular

log = logging.getLogger(__name__)

SERVICE = "Labwright"
GENERIC_ENV = "LABWRIGHT_API_KEY"
KEY_FILE = "keys.json"
_KEYRING_ERRORS = (KeyringError, RuntimeError, OSError)


def key_file() -> Path:
    from labwright.config import data_dir

    return data_dir().root / KEY_FILE


def keychain_available() -> bool:
    """Whether keyring has a real backend (not the fail backend, not an empty chain)."""
    try:
        backend = keyring.get_keyring()
    except _KEYRING_ERRORS:
        return False
    module = type(backend).__module__
    if module.startswith("keyring.backends.fail") or module.startswith("keyring.backends.null"):
        return False
    backends = getattr(backend, "backends", None)
    return backends is None or len(backends) > 0


def key_storage() -> Literal["keychain", "file"]:
    return "keychain" if keychain_available() else "file"


def _read_file() -> dict[str, str]:
    path = key_file()
    opened = open_regular(path)  # never through a symlink, never a FIFO
    if opened is None:
        return {}
    fd, info = opened
    with os.fdopen(fd, encoding="utf-8") as handle:
        if os.name == "posix" and info.st_mode & 0o077:
            # Someone widened the permissions: narrow them again before trusting it.
            os.chmod(path, 0o600)
        try:
            data = json.load(handle)
        except ValueError:
            log.warning("the key file is not valid JSON; ignoring it")
            return {}
    return (
        {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(data, dict)
        else {}
    )


def _write_file(keys: dict[str, str]) -> None:
    path = key_file()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".keys.", suffix=".tmp")  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(keys, handle)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def get_api_key(provider: str) -> str | None:
    """Keychain first, then the key file, then the provider's env var, then LABWRIGHT_API_KEY."""
    try:
        stored = keyring.get_password(SERVICE, provider)
    except _KEYRING_ERRORS as exc:  # no backend on a headless box
        log.info("keychain unavailable (%s); trying the key file", type(exc).__name__)
        stored = None
    if stored:
        return stored
    stored = _read_file().get(provider)
    if stored:
        return stored
    preset = PRESETS.get(provider)
    for var in (preset.env_key if preset else None, GENERIC_ENV):
        if var and os.environ.get(var):
            return os.environ[var]
    return None


def set_api_key(provider: str, key: str) -> Literal["keychain", "file"]:
    """Store the key; returns where it went. Raises LLMConfigError when neither store takes it."""
    if keychain_available():
        try:
            keyring.set_password(SERVICE, provider, key)
        except _KEYRING_ERRORS as exc:
            log.info("keychain refused the key (%s); using the key file", type(exc).__name__)
        else:
            _forget_in_file(provider)  # one place per key: a stale file copy must not win later
            return "keychain"
    try:
        keys = _read_file()
        keys[provider] = key
        _write_file(keys)
    except OSError as exc:
        raise LLMConfigError(f"the key file could not be written: {type(exc).__name__}") from None
    return "file"


def _forget_in_file(provider: str) -> None:
    keys = _read_file()
    if provider in keys:
        del keys[provider]
        _write_file(keys)


def delete_api_key(provider: str) -> None:
    try:
        keyring.delete_password(SERVICE, provider)
    except _KEYRING_ERRORS:
        pass  # already absent, or no keychain: nothing stored, nothing to delete
    try:
        _forget_in_file(provider)
    except OSError:
        pass


def has_api_key(provider: str) -> bool:
    return bool(get_api_key(provider))
