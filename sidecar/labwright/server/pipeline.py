"""Which pipeline a run uses: the LLM agent when a model is usable, else the offline writer.

Heavy modules are imported lazily so that starting the server (and its
handshake) does not wait for matplotlib, pandas, scipy or openai to load; the
first run pays that once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from labwright.agent.events import Event
from labwright.llm.providers import Endpoint
from labwright.server.settings import Pipeline, PipelineRequest

Mode = Literal["auto", "offline", "llm"]


class NoModelError(Exception):
    """An LLM run was asked for, but no provider is usable (message: one sentence)."""


def default_pipeline(request: PipelineRequest) -> Iterator[Event]:
    """The offline writer: figures, tables and a factual draft without any model."""
    from labwright.agent.offline import build_offline

    return build_offline(request.folder, request.out_dir, lang=request.lang)


def agent_pipeline(endpoint: Endpoint) -> Pipeline:
    """The LLM agent on `endpoint`; it saves each accepted draft through the request's sink."""

    def run(request: PipelineRequest) -> Iterator[Event]:
        from labwright.agent.pipeline import AgentOptions, run_agent
        from labwright.llm.client import LLMClient

        with LLMClient(endpoint) as client:
            yield from run_agent(
                request.folder,
                request.out_dir,
                client,
                AgentOptions(lang=request.lang),
                cancel=request.cancel,
                save_version=request.save_version,
            )

    return run


def choose_pipeline(mode: Mode) -> tuple[Pipeline, str]:
    """(pipeline, run kind) for `mode`. "auto" falls back to offline without a usable model."""
    if mode == "offline":
        return default_pipeline, "offline"
    from labwright.llm.settings import resolve_endpoint

    endpoint = resolve_endpoint()
    if endpoint is None:
        if mode == "llm":
            raise NoModelError(
                "No usable language model is configured; add a provider and key in Settings, "
                "or start an offline run."
            )
        return default_pipeline, "offline"
    return agent_pipeline(endpoint), "llm"
