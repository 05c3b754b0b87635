"""The autouse guard: a model call to anything but a fake server fails the test, even on loopback."""

from __future__ import annotations

import httpx
import pytest

from labwright.llm import LLMClient, LLMError, RetryPolicy, get_api_key, set_api_key
from labwright.llm.errors import ModelCallBlocked
from labwright.testing import FakeOpenAI, fake_openai, pytest_plugin
from labwright.testing.pytest_plugin import fake_endpoint


def test_loopback_model_server_that_is_not_the_fake_is_blocked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeOpenAI() as local_ollama:
        local_ollama.script("should never be answered")
        # Pretend it is a real local server: not registered as a fake.
        monkeypatch.setattr(fake_openai, "RUNNING", set())
        client = LLMClient(fake_endpoint(local_ollama), retry=RetryPolicy(max_retries=0))
        with pytest.raises(ModelCallBlocked):
            client.chat([{"role": "user", "content": "hi"}])
        with pytest.raises(ModelCallBlocked):
            httpx.get(local_ollama.base_url + "/models")
        assert local_ollama.requests == []  # the effect: nothing reached the server
    assert not issubclass(ModelCallBlocked, LLMError)  # product code cannot swallow it
    pytest_plugin._BLOCKED.clear()  # this test expected the block; don't fail it at teardown


def test_non_model_loopback_requests_pass(fake_llm: FakeOpenAI) -> None:
    # The guard only looks at model API paths; other local HTTP traffic is untouched.
    resp = httpx.get(f"http://{fake_llm.netloc}/health")
    assert resp.status_code == 404


def test_keychain_is_in_memory_during_tests() -> None:
    set_api_key("deepseek", "sk-memory-only")
    assert get_api_key("deepseek") == "sk-memory-only"


def test_sidecar_routes_are_not_mistaken_for_model_calls() -> None:
    for path in ("/api/settings/llm/models", "/api/sessions/1/chat", "/health"):
        pytest_plugin._check(httpx.URL(f"http://127.0.0.1:9{path}"))  # does not raise
    with pytest.raises(ModelCallBlocked):
        pytest_plugin._check(httpx.URL("http://127.0.0.1:11434/api/chat"))
    pytest_plugin._BLOCKED.clear()
