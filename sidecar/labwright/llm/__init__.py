"""The LLM layer: providers and tiers, a robust client, usage and cost, prompts, context economy.

Everything the pipeline needs is importable from here.
"""

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


def client_from_settings(
    settings: LLMSettings | None = None, *, usage_sink: UsageSink | None = None
) -> LLMClient | None:
    """A client for the configured provider, or None: then run the offline writer."""
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
