"""Detect local OpenAI-compatible servers (Ollama, LM Studio) on their default ports.

One quick GET /v1/models per port, and only when the user enabled detection:
probing ports unasked is surprising on a shared machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from labwright.llm.providers import PRESETS


@dataclass(frozen=True)
class LocalServer:
    provider: str
    base_url: str
    models: tuple[str, ...]


def _default_candidates() -> dict[str, str]:
    return {p.id: p.base_url for p in PRESETS.values() if p.local}


def detect_local_servers(
    *, enabled: bool, candidates: Mapping[str, str] | None = None, timeout: float = 0.5
) -> list[LocalServer]:
    """Servers that answered /v1/models with a model list; [] when disabled."""
    if not enabled:
        return []
    found: list[LocalServer] = []
    for provider, base_url in (candidates or _default_candidates()).items():
        url = base_url.rstrip("/") + "/models"
        try:
            resp = httpx.get(url, timeout=timeout)
            resp.raise_for_status()
            data = resp.json().get("data", [])
        except (httpx.HTTPError, ValueError, AttributeError):
            continue  # nothing listening, or not an OpenAI-compatible server
        ids = tuple(str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id"))
        found.append(LocalServer(provider, base_url, ids))
    return found
