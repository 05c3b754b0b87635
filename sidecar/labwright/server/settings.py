"""What one server instance is configured with (per launch, never persisted)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.agent.choose import RunRequest
from labwright.agent.events import Event
from labwright.server.security import DEFAULT_MAX_BODY

# The inputs of one run (folder, output directory, language, cancel, version sink).
PipelineRequest = RunRequest

# A pipeline is anything that turns a request into a stream of events; the
# default is the offline writer. Tests may pass a scripted one to exercise the
# server's own concurrency without waiting for TeX.
Pipeline = Callable[[PipelineRequest], Iterator[Event]]


@dataclass
class ServerSettings:
    token: str = field(repr=False)  # repr=False: a settings object must never print the token
    port: int
    home: Path | None = None  # the per-user data directory; None: LABWRIGHT_HOME / platformdirs
    ui_dir: Path | None = None  # built UI to serve in browser mode
    max_body: int = DEFAULT_MAX_BODY
    pipeline: Pipeline | None = None
    sse_ping_seconds: float = 15.0
