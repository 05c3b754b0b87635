"""Citation-check settings, persisted as JSON in the per-user data dir.

`network` off means: no request ever leaves the machine for a reference; the
cache still answers what it knows. The contact address puts requests in the
indexes' polite pools (Crossref and OpenAlex both ask for a `mailto`).
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, field_validator

from labwright.config import data_dir

log = logging.getLogger(__name__)

SETTINGS_FILE = "citation_settings.json"
CROSSREF_URL = "https://api.crossref.org"
OPENALEX_URL = "https://api.openalex.org"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class CitationSettings(BaseModel):
    network: bool = True
    contact_email: str = ""
    cache_days: float = 30.0
    #: OpenAlex's free API key (openalex.org/settings/api): without one its daily
    #: budget allows only a handful of searches.
    openalex_api_key: str = ""
    crossref_url: str = CROSSREF_URL
    openalex_url: str = OPENALEX_URL

    model_config = {"extra": "ignore"}

    @field_validator("contact_email")
    @classmethod
    def _email(cls, value: str) -> str:
        value = value.strip()
        if value and not _EMAIL.match(value):
            raise ValueError("the contact address is not an e-mail address")
        return value

    @field_validator("crossref_url", "openalex_url")
    @classmethod
    def _https(cls, value: str) -> str:
        # The indexes are reached over HTTPS only; plain HTTP is for a
        # server on this machine (the tests' fake index).
        parts = urlsplit(value.strip())
        local = parts.hostname in _LOOPBACK
        if parts.scheme != "https" and not (parts.scheme == "http" and local):
            raise ValueError("an index address must start with https://")
        return value.strip().rstrip("/")

    @field_validator("cache_days")
    @classmethod
    def _days(cls, value: float) -> float:
        return min(max(value, 0.0), 365.0)


def settings_path() -> Path:
    return data_dir().root / SETTINGS_FILE


def load_citation_settings() -> CitationSettings:
    path = settings_path()
    try:
        return CitationSettings.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return CitationSettings()
    except (OSError, ValueError) as exc:
        log.warning("citation settings at %s are unreadable (%s); using defaults", path, exc)
        return CitationSettings()


def save_citation_settings(settings: CitationSettings) -> Path:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".citation_settings.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(settings.model_dump_json(indent=2))
    os.replace(tmp, path)
    return path
