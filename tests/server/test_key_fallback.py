"""Keys where no system keychain exists, and key routes that never echo a key."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from labwright.llm import keys


@pytest.fixture
def no_keychain() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        yield
    finally:
        keyring.set_keyring(previous)


def test_without_a_keychain_the_key_goes_to_a_user_only_file(no_keychain: None) -> None:
    assert keys.key_storage() == "file"
    assert keys.set_api_key("openai", "sk-file-secret-1") == "file"
    path = keys.key_file()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert keys.get_api_key("openai") == "sk-file-secret-1"
    assert keys.has_api_key("openai")
    keys.delete_api_key("openai")
    assert keys.get_api_key("openai") is None
    assert "sk-file-secret-1" not in path.read_text(encoding="utf-8")


def test_a_widened_key_file_is_narrowed_again(no_keychain: None) -> None:
    keys.set_api_key("openai", "sk-file-secret-2")
    os.chmod(keys.key_file(), 0o644)
    assert keys.get_api_key("openai") == "sk-file-secret-2"
    assert stat.S_IMODE(os.stat(keys.key_file()).st_mode) == 0o600


def test_settings_route_stores_in_the_file_and_says_so(
    no_keychain: None, make_client: Any, auth: dict[str, str]
) -> None:
    _, client = make_client()
    r = client.put(
        "/api/settings/llm/keys/openai", json={"api_key": "sk-route-secret"}, headers=auth
    )
    assert r.status_code == 204, r.text
    body = client.get("/api/settings/llm", headers=auth)
    assert body.json()["key_storage"] == "file"
    assert "sk-route-secret" not in body.text
    assert {p["id"]: p["has_key"] for p in body.json()["providers"]}["openai"] is True


@pytest.mark.parametrize(
    "payload",
    [
        {"api_key": "sk-" + "x" * 5000},  # too long
        {"api_key": "sk-echo-secret", "extra": "sk-echo-secret"},  # unknown field
        {"key": "sk-echo-secret"},  # wrong field name
    ],
)
def test_a_422_never_echoes_the_key(
    make_client: Any, auth: dict[str, str], payload: dict[str, str]
) -> None:
    _, client = make_client()
    r = client.put("/api/settings/llm/keys/openai", json=payload, headers=auth)
    assert r.status_code == 422
    assert "sk-echo-secret" not in r.text and "xxxxxxxx" not in r.text
    assert isinstance(r.json()["detail"], str)


def test_connection_test_and_local_detection_with_the_fake_model(
    make_client: Any, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch, fake_llm: Any
) -> None:
    from labwright.llm import detect

    _, client = make_client()
    nothing = client.post("/api/settings/llm/test", headers=auth).json()
    assert nothing["ok"] is False and nothing["message"].endswith(".")
    monkeypatch.setattr(detect, "_default_candidates", lambda: {"ollama": fake_llm.base_url})
    settings = {
        "provider": "custom",
        "base_url": fake_llm.base_url,
        "models": {"main": "fake-main"},
    }
    client.put("/api/settings/llm", headers=auth, json=settings)
    assert client.get("/api/settings/llm/local", headers=auth).json() == []  # not asked: no probe
    client.put("/api/settings/llm", headers=auth, json={**settings, "local_detection": True})
    (found,) = client.get("/api/settings/llm/local", headers=auth).json()
    assert found["provider"] == "ollama" and "fake-main" in found["models"]
    fake_llm.script("OK")
    answer = client.post("/api/settings/llm/test", headers=auth).json()
    assert answer == {"ok": True, "model": "fake-main", "message": ""}
    assert len(fake_llm.chat_requests) == 1


def test_a_refused_connection_test_is_a_sentence_without_the_key(
    make_client: Any, auth: dict[str, str], fake_llm: Any
) -> None:
    from labwright.testing.fake_openai import HTTPStatus, Turn

    _, client = make_client()
    secret = "sk-conn-secret-4242"
    settings = {
        "provider": "custom",
        "base_url": fake_llm.base_url,
        "models": {"main": "fake-main"},
    }
    client.put("/api/settings/llm", headers=auth, json=settings)
    client.put("/api/settings/llm/keys/custom", headers=auth, json={"api_key": secret})
    fake_llm.script(Turn.failing(HTTPStatus(401, f"Incorrect API key provided: {secret}")))
    r = client.post("/api/settings/llm/test", headers=auth)
    assert r.status_code == 200
    assert r.json()["ok"] is False and r.json()["message"]
    assert secret not in r.text
