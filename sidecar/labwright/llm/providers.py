"""Provider presets and model tiers.

Every provider speaks the OpenAI chat-completions protocol at some base_url,
so a preset is only data. Registered explicitly in `PRESETS` (not entry
points) because PyInstaller does not carry entry-point metadata reliably.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Tier = Literal["main", "cheap", "vision"]
TIERS: tuple[Tier, ...] = ("main", "cheap", "vision")


@dataclass(frozen=True)
class ProviderPreset:
    id: str
    label: str
    base_url: str
    models: dict[str, str]  # tier -> default model id; missing tiers fall back to main
    env_key: str | None  # environment variable holding the key for headless use
    local: bool = False  # a server on this machine; needs no key, costs nothing
    needs_key: bool = True
    # Some servers reject stream_options; when False we estimate streamed usage.
    stream_usage: bool = True


PRESETS: dict[str, ProviderPreset] = {
    p.id: p
    for p in (
        ProviderPreset(
            "deepseek",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            {"main": "deepseek-chat"},
            "DEEPSEEK_API_KEY",
        ),
        ProviderPreset(
            "openai",
            "OpenAI",
            "https://api.openai.com/v1",
            {"main": "gpt-4.1", "cheap": "gpt-4.1-mini", "vision": "gpt-4.1"},
            "OPENAI_API_KEY",
        ),
        ProviderPreset(
            "qwen",
            "Qwen (DashScope, OpenAI-compatible mode)",
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
            {"main": "qwen-plus", "cheap": "qwen-turbo", "vision": "qwen-vl-plus"},
            "DASHSCOPE_API_KEY",
        ),
        ProviderPreset(
            "ollama",
            "Ollama (local)",
            "http://127.0.0.1:11434/v1",
            {},
            None,
            local=True,
            needs_key=False,
        ),
        ProviderPreset(
            "lmstudio",
            "LM Studio (local)",
            "http://127.0.0.1:1234/v1",
            {},
            None,
            local=True,
            needs_key=False,
        ),
        ProviderPreset(
            "custom",
            "Other OpenAI-compatible server",
            "",
            {},
            "LABWRIGHT_API_KEY",
            needs_key=False,
        ),
    )
}

DEFAULT_PROVIDER = "deepseek"


@dataclass(frozen=True)
class TierModels:
    """Model per tier; an unset cheap or vision tier is served by main."""

    main: str
    cheap: str | None = None
    vision: str | None = None

    def for_tier(self, tier: Tier) -> str:
        value = getattr(self, tier, None)
        return value or self.main


@dataclass(frozen=True)
class Endpoint:
    """Everything the client needs to talk to one provider. `api_key` stays in memory only."""

    provider: str
    base_url: str
    models: TierModels
    api_key: str = field(default="", repr=False)  # repr=False: never lands in a log line
    stream_usage: bool = True
