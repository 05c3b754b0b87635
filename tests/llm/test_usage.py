"""Cost accounting: cache hits at the cached rate, runs mixing tiers priced per model."""

from __future__ import annotations

import json

import pytest

from labwright.llm import LLMClient, PriceTable, RetryPolicy, Usage, UsageLedger
from labwright.llm.knowledge import overlay_dir
from labwright.llm.usage import ModelPrice, usage_from_response
from labwright.testing import FakeOpenAI, Turn
from labwright.testing.pytest_plugin import fake_endpoint

PRICES = PriceTable.from_dict(
    {
        "models": {
            "fake-main": {"input": 1.0, "cached_input": 0.1, "output": 2.0},
            "fake-cheap": {"input": 0.2, "cached_input": 0.02, "output": 0.4},
        },
        "free_providers": ["ollama"],
    }
)
USER = [{"role": "user", "content": "go"}]


def test_cached_tokens_priced_at_cached_rate() -> None:
    price = ModelPrice(input=1.0, cached_input=0.1, output=2.0)
    usage = Usage(prompt_tokens=1_000_000, completion_tokens=0, cached_prompt_tokens=900_000)
    assert price.cost(usage) == pytest.approx(0.1 * 1.0 + 0.9 * 0.1)
    # Pricing every prompt token at the miss rate would overstate this call 5x.
    assert price.cost(Usage(1_000_000, 0, 0)) / price.cost(usage) == pytest.approx(1 / 0.19)


@pytest.mark.parametrize("shape", ["openai", "deepseek"])
def test_cache_hits_read_from_both_usage_shapes(fake_llm: FakeOpenAI, shape: str) -> None:
    ledger = UsageLedger()
    client = LLMClient(fake_endpoint(fake_llm), usage_sink=ledger, prices=PRICES)
    fake_llm.script(
        Turn(
            "x",
            prompt_tokens=10_000,
            completion_tokens=1_000,
            cached_tokens=8_000,
            usage_shape=shape,
        )  # type: ignore[arg-type]
    )
    result = client.chat(USER)
    assert result.usage.cached_prompt_tokens == 8_000
    expected = (2_000 * 1.0 + 8_000 * 0.1 + 1_000 * 2.0) / 1e6
    assert result.cost == pytest.approx(expected)
    assert ledger.total_cost() == pytest.approx(expected)


def test_streamed_usage_includes_cache_hits(fake_llm: FakeOpenAI) -> None:
    client = LLMClient(fake_endpoint(fake_llm), prices=PRICES)
    fake_llm.script(Turn("streamed", prompt_tokens=500, cached_tokens=400, usage_shape="deepseek"))
    assert client.chat(USER, stream=True).usage.cached_prompt_tokens == 400
    assert fake_llm.chat_requests[0].body["stream_options"] == {"include_usage": True}


def test_run_mixing_tiers_is_priced_per_model(fake_llm: FakeOpenAI) -> None:
    ledger = UsageLedger()
    client = LLMClient(
        fake_endpoint(fake_llm), usage_sink=ledger, prices=PRICES, retry=RetryPolicy(0)
    )
    fake_llm.script(
        Turn("explored", prompt_tokens=100_000, completion_tokens=10_000, cached_tokens=0),
        Turn("draft", prompt_tokens=100_000, completion_tokens=10_000, cached_tokens=0),
    )
    client.chat(USER, tier="cheap", step="explore")
    client.chat(USER, tier="main", step="draft")
    cheap = (100_000 * 0.2 + 10_000 * 0.4) / 1e6
    main = (100_000 * 1.0 + 10_000 * 2.0) / 1e6
    steps = ledger.by_step()
    assert steps["explore"][1] == pytest.approx(cheap)
    assert steps["draft"][1] == pytest.approx(main)
    assert ledger.total_cost() == pytest.approx(cheap + main)
    assert [r.model for r in ledger.records] == ["fake-cheap", "fake-main"]
    # A flat main-model rate would overprice this run.
    assert ledger.total_cost() < 2 * main


def test_unknown_model_cost_is_unknown_not_zero() -> None:
    assert PRICES.cost(Usage(1000, 10), "mystery-model") is None
    assert PRICES.cost(Usage(1000, 10), "llama3", provider="ollama") == 0.0
    ledger = UsageLedger()
    from labwright.llm import UsageRecord

    ledger(UsageRecord("x", "mystery", "main", "s", Usage(1, 1), None))
    assert ledger.total_cost() is None


def test_model_versions_match_price_prefix() -> None:
    table = PriceTable.load()
    assert table.price_for("gpt-4o-2024-08-06") == table.price_for("gpt-4o")
    assert table.price_for("gpt-4o-mini-2024-07-18") == table.price_for("gpt-4o-mini")


def test_builtin_price_table_is_sane() -> None:
    table = PriceTable.load()
    assert "deepseek-chat" in table.models
    for name, p in table.models.items():
        assert p.input > 0 and p.output > 0, name
        assert p.cached_input is None or p.cached_input <= p.input, name


def test_price_overlay_replaces_table_on_next_call() -> None:
    path = overlay_dir() / "prices.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"models": {"deepseek-chat": {"input": 9, "output": 9}}}), encoding="utf-8"
    )
    assert PriceTable.load().price_for("deepseek-chat") == ModelPrice(9, 9, None)
    path.write_text("", encoding="utf-8")  # empty overlay: built-in table again
    assert PriceTable.load().price_for("deepseek-chat").input < 9  # type: ignore[union-attr]


def test_usage_parsing_tolerates_missing_fields() -> None:
    assert usage_from_response(None) is None
    assert usage_from_response({"prompt_tokens": 5}) == Usage(5, 0, 0)
    # More cached than prompt tokens (a buggy server) is clamped.
    assert (
        usage_from_response({"prompt_tokens": 5, "prompt_cache_hit_tokens": 9}).cached_prompt_tokens
        == 5
    )  # type: ignore[union-attr]
