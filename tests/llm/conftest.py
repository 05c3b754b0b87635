"""Fixtures for the LLM layer's tests.

`fake_llm` and the autouse `llm_isolation` guard come from
labwright.testing.pytest_plugin; tests/conftest.py registers them for every
test directory, and they are re-exported here so this directory also works
on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from labwright.llm import LLMClient, UsageLedger
from labwright.testing.fake_openai import FakeOpenAI
from labwright.testing.pytest_plugin import (  # noqa: F401 (fixtures)
    FAST_RETRY,
    fake_endpoint,
    fake_llm,
    llm_isolation,
)


@pytest.fixture
def ledger() -> UsageLedger:
    return UsageLedger()


@pytest.fixture
def make_client(
    fake_llm: FakeOpenAI,  # noqa: F811
    ledger: UsageLedger,
) -> Iterator[Callable[..., LLMClient]]:
    """Build clients against the fake server with fast retries and a 1 s read timeout."""
    made: list[LLMClient] = []

    def make(**kw: object) -> LLMClient:
        kw.setdefault("retry", FAST_RETRY)
        kw.setdefault("timeout", 1.0)
        kw.setdefault("usage_sink", ledger)
        client = LLMClient(fake_endpoint(fake_llm), **kw)  # type: ignore[arg-type]
        made.append(client)
        return client

    yield make
    for c in made:
        c.close()


@pytest.fixture
def client(make_client: Callable[..., LLMClient]) -> LLMClient:
    return make_client()
