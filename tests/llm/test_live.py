"""Live round trip against a real provider: `pytest --run-live` with a key in the environment.

Keys are captured when this module is imported, because the autouse
`_isolated_home` fixture removes them from the environment of every test.
"""

from __future__ import annotations

import os

import pytest

from labwright.llm import PRESETS, Endpoint, LLMClient, TierModels, UsageLedger

_KEYS = {
    p.id: os.environ.get(p.env_key or "", "") for p in PRESETS.values() if p.needs_key and p.env_key
}
_AVAILABLE = [(pid, key) for pid, key in _KEYS.items() if key]


@pytest.mark.live
@pytest.mark.skipif(not _AVAILABLE, reason="no provider key in the environment")
def test_live_stream_reports_usage_and_cost() -> None:
    provider, key = _AVAILABLE[0]
    preset = PRESETS[provider]
    ledger = UsageLedger()
    endpoint = Endpoint(provider, preset.base_url, TierModels(main=preset.models["main"]), key)
    with LLMClient(endpoint, usage_sink=ledger, timeout=60) as client:
        result = client.chat(
            [{"role": "user", "content": "Reply with the single word: ready"}],
            stream=True,
            max_tokens=10,
            step="live",
        )
    assert result.content.strip()
    (record,) = ledger.records
    assert record.usage.prompt_tokens > 0 and not record.usage.estimated
    assert record.cost is not None and record.cost >= 0
