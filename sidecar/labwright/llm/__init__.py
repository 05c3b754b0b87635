"""The LLM layer: providers and tiers, a robust client, usage and cost, prompts, context economy.

Everything the pipeline needs is importable from here. The names are loaded
on first use: importing `labwright.llm.errors` or `labwright.llm.model` (as
every run does) must not import `openai` and `httpx`, which cost an offline
build and the server's start-up about a second of CPU for nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from labwright.llm.client import ChatResult, LLMClient
    from labwright.llm.context import (
        document_outline,
        fold_history,
        is_numeric_row,
        material_digest,
        trim_for_revision,
    )
    from labwright.llm.detect import LocalServer, detect_local_servers
    from labwright.llm.errors import (
        LLMAuthError,
        LLMBadRequest,
        LLMCancelled,
        LLMConfigError,
        LLMConnectionError,
        LLMEmptyResponse,
        LLMError,
        LLMRateLimited,
        LLMServerError,
        LLMTimeout,
        MalformedToolArguments,
        ModelCallBlocked,
    )
    from labwright.llm.keys import delete_api_key, get_api_key, has_api_key, set_api_key
    from labwright.llm.model import ChatModel, JsonObject, Message, Messages, ToolSchema
    from labwright.llm.prompts import AssembledPrompt, build_messages, build_system, prompt_hash
    from labwright.llm.providers import PRESETS, TIERS, Endpoint, ProviderPreset, Tier, TierModels
    from labwright.llm.retry import RetryPolicy
    from labwright.llm.settings import LLMSettings, load_settings, resolve_endpoint, save_settings
    from labwright.llm.tokens import ESTIMATE_RULE, estimate_messages, estimate_tokens
    from labwright.llm.toolcalls import ToolCall
    from labwright.llm.usage import (
        ModelPrice,
        PriceTable,
        Usage,
        UsageLedger,
        UsageRecord,
        UsageSink,
    )

_EXPORTS = {
    "ChatResult": "labwright.llm.client",
    "LLMClient": "labwright.llm.client",
    "document_outline": "labwright.llm.context",
    "fold_history": "labwright.llm.context",
    "is_numeric_row": "labwright.llm.context",
    "material_digest": "labwright.llm.context",
    "trim_for_revision": "labwright.llm.context",
    "LocalServer": "labwright.llm.detect",
    "detect_local_servers": "labwright.llm.detect",
    "LLMAuthError": "labwright.llm.errors",
    "LLMBadRequest": "labwright.llm.errors",
    "LLMCancelled": "labwright.llm.errors",
    "LLMConfigError": "labwright.llm.errors",
    "LLMConnectionError": "labwright.llm.errors",
    "LLMEmptyResponse": "labwright.llm.errors",
    "LLMError": "labwright.llm.errors",
    "LLMRateLimited": "labwright.llm.errors",
    "LLMServerError": "labwright.llm.errors",
    "LLMTimeout": "labwright.llm.errors",
    "MalformedToolArguments": "labwright.llm.errors",
    "ModelCallBlocked": "labwright.llm.errors",
    "delete_api_key": "labwright.llm.keys",
    "get_api_key": "labwright.llm.keys",
    "has_api_key": "labwright.llm.keys",
    "set_api_key": "labwright.llm.keys",
    "ChatModel": "labwright.llm.model",
    "JsonObject": "labwright.llm.model",
    "Message": "labwright.llm.model",
    "Messages": "labwright.llm.model",
    "ToolSchema": "labwright.llm.model",
    "AssembledPrompt": "labwright.llm.prompts",
    "build_messages": "labwright.llm.prompts",
    "build_system": "labwright.llm.prompts",
    "prompt_hash": "labwright.llm.prompts",
    "PRESETS": "labwright.llm.providers",
    "TIERS": "labwright.llm.providers",
    "Endpoint": "labwright.llm.providers",
    "ProviderPreset": "labwright.llm.providers",
    "Tier": "labwright.llm.providers",
    "TierModels": "labwright.llm.providers",
    "RetryPolicy": "labwright.llm.retry",
    "LLMSettings": "labwright.llm.settings",
    "load_settings": "labwright.llm.settings",
    "resolve_endpoint": "labwright.llm.settings",
    "save_settings": "labwright.llm.settings",
    "ESTIMATE_RULE": "labwright.llm.tokens",
    "estimate_messages": "labwright.llm.tokens",
    "estimate_tokens": "labwright.llm.tokens",
    "ToolCall": "labwright.llm.toolcalls",
    "ModelPrice": "labwright.llm.usage",
    "PriceTable": "labwright.llm.usage",
    "Usage": "labwright.llm.usage",
    "UsageLedger": "labwright.llm.usage",
    "UsageRecord": "labwright.llm.usage",
    "UsageSink": "labwright.llm.usage",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)


def client_from_settings(
    settings: LLMSettings | None = None, *, usage_sink: UsageSink | None = None
) -> LLMClient | None:
    """A client for the configured provider, or None: then run the offline writer."""
    from labwright.llm.client import LLMClient
    from labwright.llm.retry import RetryPolicy
    from labwright.llm.settings import load_settings, resolve_endpoint

    s = settings or load_settings()
    endpoint = resolve_endpoint(s)
    if endpoint is None:
        return None
    return LLMClient(
        endpoint,
        timeout=s.timeout,
        retry=RetryPolicy(max_retries=s.max_retries),
        usage_sink=usage_sink,
    )


__all__ = [
    "AssembledPrompt",
    "build_messages",
    "build_system",
    "document_outline",
    "fold_history",
    "is_numeric_row",
    "material_digest",
    "prompt_hash",
    "trim_for_revision",
    "ESTIMATE_RULE",
    "PRESETS",
    "TIERS",
    "ChatResult",
    "Endpoint",
    "LLMAuthError",
    "LLMBadRequest",
    "LLMCancelled",
    "LLMClient",
    "LLMConfigError",
    "LLMConnectionError",
    "LLMEmptyResponse",
    "LLMError",
    "LLMRateLimited",
    "LLMServerError",
    "LLMSettings",
    "LLMTimeout",
    "LocalServer",
    "MalformedToolArguments",
    "Message",
    "Messages",
    "ChatModel",
    "JsonObject",
    "ToolSchema",
    "ModelCallBlocked",
    "ModelPrice",
    "PriceTable",
    "ProviderPreset",
    "RetryPolicy",
    "Tier",
    "TierModels",
    "ToolCall",
    "Usage",
    "UsageLedger",
    "UsageRecord",
    "UsageSink",
    "client_from_settings",
    "delete_api_key",
    "detect_local_servers",
    "estimate_messages",
    "estimate_tokens",
    "get_api_key",
    "has_api_key",
    "load_settings",
    "resolve_endpoint",
    "save_settings",
    "set_api_key",
]
