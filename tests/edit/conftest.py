"""Fixtures for the edit tests: a real LLMClient on the fake OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from labwright.llm import LLMClient
from labwright.testing.fake_openai import FakeOpenAI
from labwright.testing.pytest_plugin import FAST_RETRY, fake_endpoint


@pytest.fixture
def llm_client(fake_llm: FakeOpenAI) -> Iterator[LLMClient]:
    with LLMClient(fake_endpoint(fake_llm), retry=FAST_RETRY, timeout=5.0) as client:
        yield client
