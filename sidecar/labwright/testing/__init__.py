"""Test doubles that cross real boundaries: a fake OpenAI-compatible HTTP server,
and (`worker_probe`) handlers that misbehave inside the real trusted worker.

The fake server's names are imported lazily: the trusted worker imports
`labwright.testing.worker_probe` after confining itself, and must not pull
in the LLM stack on the way.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module("labwright.testing.fake_openai"), name)
