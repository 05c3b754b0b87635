"""Test doubles that cross real boundaries: a fake OpenAI-compatible HTTP server."""

from labwright.testing.fake_openai import (
    CutStream,
    Drop,
    FakeOpenAI,
    Hang,
    HTTPStatus,
    RateLimit,
    RecordedRequest,
    ServerError,
    Turn,
)

__all__ = [
    "CutStream",
    "Drop",
    "FakeOpenAI",
    "HTTPStatus",
    "Hang",
    "RateLimit",
    "RecordedRequest",
    "ServerError",
    "Turn",
]
