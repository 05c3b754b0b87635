"""Pytest fixtures for anything that talks to a model.

tests/conftest.py imports `fake_llm` and `llm_isolation` from here, so every
test directory can use the fake server and every test is guarded:

* `llm_isolation` (autouse): any HTTP request to a model API path
  (/chat/completions, /models, ...) whose host is not a fake server started
  in this process fails the test with ModelCallBlocked, even on loopback,
  where the socket guard would let a local Ollama through. It also swaps the
  OS keychain for an in-memory one, so no test reads or writes real keys.
* `fake_llm`: a started FakeOpenAI server, stopped after the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import keyring.core
import pytest

from labwright.llm.errors import ModelCallBlocked
from labwright.llm.providers import Endpoint, TierModels
from labwright.llm.retry import RetryPolicy
from labwright.testing import fake_openai
from labwright.testing.fake_openai import FakeOpenAI
from labwright.testing.memory_keyring import MemoryKeyring

# Suffixes of model-API paths (OpenAI-compatible and Ollama's native API). Kept
# specific, so the sidecar's own routes (e.g. /api/settings/llm/...) pass.
_MODEL_PATHS = (
    "/chat/completions",
    "/v1/completions",
    "/v1/embeddings",
    "/v1/responses",
    "/v1/models",
    "/api/chat",
    "/api/generate",
    "/api/tags",
)


# Blocked calls of the running test; checked at teardown so a call swallowed by
# code that degrades gracefully still fails the test.
_BLOCKED: list[str] = []


#: The scholarly indexes the citation check asks; tests use fake_scholar instead.
_SCHOLAR_HOSTS = ("api.crossref.org", "api.openalex.org")


def _check(url: Any) -> None:
    if str(url.host) in _SCHOLAR_HOSTS:
        message = f"test tried the real index {url.host}; use labwright.testing.fake_scholar"
        _BLOCKED.append(message)
        raise ModelCallBlocked(message)
    path = str(url.path).rstrip("/")
    if any(path.endswith(p) for p in _MODEL_PATHS):
        netloc = f"{url.host}:{url.port}" if url.port else str(url.host)
        if netloc not in fake_openai.RUNNING:
            message = f"test tried a real model call to {url.scheme}://{netloc}{path}; use fake_llm"
            _BLOCKED.append(message)
            raise ModelCallBlocked(message)


def _guard_sync(original: Any) -> Any:
    def handle_request(self: Any, request: Any) -> Any:
        _check(request.url)
        return original(self, request)

    return handle_request


def _guard_async(original: Any) -> Any:
    async def handle_async_request(self: Any, request: Any) -> Any:
        _check(request.url)
        return await original(self, request)

    return handle_async_request


@pytest.fixture(autouse=True)
def llm_isolation(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    live = "live" in request.keywords and request.config.getoption("--run-live", default=False)
    if not live:
        for mod in (httpx, httpx2):
            monkeypatch.setattr(
                mod.HTTPTransport, "handle_request", _guard_sync(mod.HTTPTransport.handle_request)
            )
            monkeypatch.setattr(
                mod.AsyncHTTPTransport,
                "handle_async_request",
                _guard_async(mod.AsyncHTTPTransport.handle_async_request),
            )
        # Set the backend directly: keyring.get_keyring() would first probe the real
        # OS keychain (D-Bus on Linux), which is slow and touches user state.
        monkeypatch.setattr(keyring.core, "_keyring_backend", MemoryKeyring())
        _BLOCKED.clear()
        yield
        if _BLOCKED:
            blocked = list(_BLOCKED)
            _BLOCKED.clear()
            pytest.fail(f"outbound model call blocked: {blocked[0]}", pytrace=False)
        return
    yield


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def fake_endpoint(fake: FakeOpenAI, *, provider: str = "fake", **models: str) -> Endpoint:
    """An Endpoint for `fake` with tiers fake-main / fake-cheap / fake-vision unless given."""
    tiers = TierModels(
        main=models.get("main", "fake-main"),
        cheap=models.get("cheap", "fake-cheap"),
        vision=models.get("vision", "fake-vision"),
    )
    return Endpoint(provider, fake.base_url, tiers, api_key="sk-test-not-a-real-key")


FAST_RETRY = RetryPolicy(max_retries=2, base=0.01, cap=0.05, max_retry_after=5.0)
