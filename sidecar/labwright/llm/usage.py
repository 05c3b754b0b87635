"""Token usage, prices and cost, with cache hits discounted.

The seed system once showed run costs several times too high because cached
prompt tokens were priced like fresh ones. Here every call's usage keeps the
cached share separately, and each call is priced at the prices of the model
that actually served it, so a run mixing the main and cheap tiers is correct.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from labwright.llm.knowledge import read_knowledge

PRICES_FILE = "prices.json"


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0  # part of prompt_tokens served from the provider's cache
    estimated: bool = False  # True when the provider reported nothing and we counted chars

    @property
    def uncached_prompt_tokens(self) -> int:
        return max(0, self.prompt_tokens - self.cached_prompt_tokens)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_prompt_tokens + other.cached_prompt_tokens,
            self.estimated or other.estimated,
        )


def _field(obj: Any, name: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None) or {}
        value = extra.get(name)
    return value


def usage_from_response(raw: Any) -> Usage | None:
    """Read an OpenAI-shaped `usage` object (pydantic model or dict).

    Cached tokens come from OpenAI's `prompt_tokens_details.cached_tokens` or
    DeepSeek's `prompt_cache_hit_tokens`, whichever is present.
    """
    if raw is None:
        return None
    prompt = int(_field(raw, "prompt_tokens") or 0)
    completion = int(_field(raw, "completion_tokens") or 0)
    cached = _field(_field(raw, "prompt_tokens_details"), "cached_tokens")
    if not cached:
        cached = _field(raw, "prompt_cache_hit_tokens")
    cached = min(prompt, int(cached or 0))
    return Usage(prompt, completion, cached)


@dataclass(frozen=True)
class ModelPrice:
    """USD per one million tokens."""

    input: float
    output: float
    cached_input: float | None = None  # None: the provider gives no cache discount

    def cost(self, usage: Usage) -> float:
        cached_rate = self.input if self.cached_input is None else self.cached_input
        return (
            usage.uncached_prompt_tokens * self.input
            + usage.cached_prompt_tokens * cached_rate
            + usage.completion_tokens * self.output
        ) / 1_000_000


@dataclass(frozen=True)
class PriceTable:
    models: dict[str, ModelPrice]
    free_providers: frozenset[str] = frozenset()
    currency: str = "USD"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PriceTable:
        models = {
            name.lower(): ModelPrice(
                input=float(p["input"]),
                output=float(p["output"]),
                cached_input=None if p.get("cached_input") is None else float(p["cached_input"]),
            )
            for name, p in data.get("models", {}).items()
        }
        return cls(
            models, frozenset(data.get("free_providers", [])), str(data.get("currency", "USD"))
        )

    @classmethod
    def load(cls) -> PriceTable:
        """knowledge/prices.json, or the user's overlay copy (read on every call)."""
        return cls.from_dict(json.loads(read_knowledge(PRICES_FILE)))

    def price_for(self, model: str) -> ModelPrice | None:
        """Exact id, else the longest known prefix ("gpt-4o-2024-08-06" -> "gpt-4o")."""
        key = model.lower()
        if key in self.models:
            return self.models[key]
        best = max((m for m in self.models if key.startswith(m)), key=len, default=None)
        return self.models[best] if best else None

    def cost(self, usage: Usage, model: str, provider: str = "") -> float | None:
        """Cost in `currency`; None when the model's price is unknown (never guessed as 0)."""
        if provider in self.free_providers:
            return 0.0
        price = self.price_for(model)
        return None if price is None else price.cost(usage)


@dataclass(frozen=True)
class UsageRecord:
    """One model call, as persisted by the store through a usage sink."""

    provider: str
    model: str
    tier: str
    step: str | None
    usage: Usage
    cost: float | None
    currency: str = "USD"
    prompt_hash: str | None = None
    at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("usage"))
        return data


UsageSink = Callable[[UsageRecord], None]


class UsageLedger:
    """In-memory totals per step and per session; also usable as a usage sink."""

    def __init__(self) -> None:
        self._records: list[UsageRecord] = []
        self._lock = threading.Lock()

    def __call__(self, record: UsageRecord) -> None:
        with self._lock:
            self._records.append(record)

    @property
    def records(self) -> list[UsageRecord]:
        with self._lock:
            return list(self._records)

    def total_cost(self) -> float | None:
        """Sum of known costs; None if any call had an unknown price."""
        costs = [r.cost for r in self.records]
        if any(c is None for c in costs):
            return None
        return sum(c for c in costs if c is not None)

    def total_usage(self) -> Usage:
        total = Usage()
        for r in self.records:
            total = total + r.usage
        return total

    def by_step(self) -> dict[str, tuple[Usage, float | None]]:
        out: dict[str, tuple[Usage, float | None]] = {}
        for r in self.records:
            key = r.step or "-"
            usage, cost = out.get(key, (Usage(), 0.0))
            new_cost = None if cost is None or r.cost is None else cost + r.cost
            out[key] = (usage + r.usage, new_cost)
        return out
