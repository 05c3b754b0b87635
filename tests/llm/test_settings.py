"""Settings persistence, tier fallback, keys (keychain and env), local server detection."""

from __future__ import annotations

import json

import pytest

from labwright.llm import (
    PRESETS,
    LLMSettings,
    client_from_settings,
    delete_api_key,
    detect_local_servers,
    get_api_key,
    load_settings,
    resolve_endpoint,
    save_settings,
    set_api_key,
)
from labwright.llm.settings import settings_path
from labwright.testing import FakeOpenAI, fake_openai


def test_defaults_when_nothing_saved() -> None:
    s = load_settings()
    assert s.provider == "deepseek" and s.local_detection is False


def test_settings_round_trip_without_keys() -> None:
    set_api_key("openai", "sk-secret-123")
    save_settings(LLMSettings(provider="openai", models={"main": "gpt-4.1", "bogus": "x"}))
    raw = settings_path().read_text(encoding="utf-8")
    assert "sk-secret-123" not in raw  # the effect: no key on disk
    assert json.loads(raw)["models"] == {"main": "gpt-4.1"}
    assert load_settings().provider == "openai"


def test_damaged_settings_file_gives_defaults() -> None:
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("{not json", encoding="utf-8")
    assert load_settings() == LLMSettings()


def test_no_key_means_no_endpoint_so_offline_writer_runs() -> None:
    assert resolve_endpoint(LLMSettings(provider="deepseek")) is None
    assert client_from_settings(LLMSettings()) is None


def test_env_fallback_and_keychain_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-from-env")
    assert get_api_key("deepseek") == "sk-from-env"
    set_api_key("deepseek", "sk-from-keychain")
    assert get_api_key("deepseek") == "sk-from-keychain"
    delete_api_key("deepseek")
    assert get_api_key("deepseek") == "sk-from-env"


def test_tiers_fall_back_to_main() -> None:
    set_api_key("deepseek", "sk-x")
    ep = resolve_endpoint(LLMSettings(provider="deepseek"))
    assert ep is not None
    assert ep.models.for_tier("cheap") == ep.models.for_tier("vision") == ep.models.main
    ep2 = resolve_endpoint(LLMSettings(provider="deepseek", models={"cheap": "deepseek-lite"}))
    assert ep2 is not None and ep2.models.for_tier("cheap") == "deepseek-lite"
    assert "sk-x" not in repr(ep)


def test_local_provider_needs_no_key_but_a_model() -> None:
    assert resolve_endpoint(LLMSettings(provider="ollama")) is None  # no model chosen yet
    ep = resolve_endpoint(LLMSettings(provider="ollama", models={"main": "qwen2.5:7b"}))
    assert ep is not None and ep.base_url.startswith("http://127.0.0.1:11434")


def test_offline_switch_wins() -> None:
    set_api_key("deepseek", "sk-x")
    assert resolve_endpoint(LLMSettings(offline=True)) is None


def test_every_preset_is_usable() -> None:
    for preset in PRESETS.values():
        if preset.id != "custom":
            assert preset.base_url.startswith(("https://", "http://127.0.0.1"))
        if preset.needs_key:
            assert preset.env_key and preset.models.get("main")


def test_detection_does_nothing_unless_enabled(fake_llm: FakeOpenAI) -> None:
    found = detect_local_servers(enabled=False, candidates={"ollama": fake_llm.base_url})
    assert found == [] and fake_llm.requests == []


def test_detection_finds_a_running_server_with_one_request(
    fake_llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI() as gone:
        dead = gone.netloc
    # A port with nothing listening; allowed through the guard for this test only.
    monkeypatch.setattr(fake_openai, "RUNNING", {fake_llm.netloc, dead})
    found = detect_local_servers(
        enabled=True, candidates={"lmstudio": fake_llm.base_url, "ollama": f"http://{dead}/v1"}
    )
    assert [(s.provider, s.models) for s in found] == [("lmstudio", fake_llm.models)]
    assert [(r.method, r.path) for r in fake_llm.requests] == [("GET", "/v1/models")]


def test_a_key_sent_with_settings_is_never_persisted() -> None:
    s = LLMSettings.model_validate({"provider": "openai", "api_key": "sk-leak-1", "models": {}})
    save_settings(s)
    assert "sk-leak-1" not in settings_path().read_text(encoding="utf-8")


def test_using_a_key_does_not_put_it_in_the_environment(fake_llm: FakeOpenAI) -> None:
    import os

    before = dict(os.environ)
    set_api_key("custom", "sk-env-leak-2")
    s = LLMSettings(provider="custom", base_url=fake_llm.base_url, models={"main": "fake-main"})
    client = client_from_settings(s)
    assert client is not None
    fake_llm.script("ok")
    assert client.chat([{"role": "user", "content": "hi"}]).content == "ok"
    # Sandboxed children inherit os.environ; the key must not be there.
    assert dict(os.environ) == before
    assert "sk-env-leak-2" not in " ".join(os.environ.values())
    assert fake_llm.chat_requests[0].headers["authorization"] == "Bearer sk-env-leak-2"
