"""Which pipeline a server run uses: the settings' model when usable, else the offline writer.

The decision itself is `labwright.agent.choose.choose_pipeline`, shared with
the CLI; this module only resolves the endpoint from the settings and adapts
the choice to the server's `Pipeline` callable.
"""

from __future__ import annotations

from collections.abc import Iterator

from labwright.agent.choose import Mode, NoModelError, PipelineChoice
from labwright.agent.choose import choose_pipeline as _choose
from labwright.agent.events import Event
from labwright.server.settings import Pipeline, PipelineRequest

__all__ = ["Mode", "NoModelError", "choose_pipeline", "default_pipeline"]


def default_pipeline(request: PipelineRequest) -> Iterator[Event]:
    """The offline writer: figures, tables and a factual draft without any model."""
    return PipelineChoice("offline").run(request)


def choose_pipeline(mode: Mode) -> tuple[Pipeline, str]:
    """(pipeline, run kind) for `mode`. Raises NoModelError for "llm" without a usable model."""
    endpoint = None
    if mode != "offline":
        from labwright.llm.settings import resolve_endpoint

        endpoint = resolve_endpoint()
    choice = _choose(mode, endpoint)
    return choice.run, choice.kind
