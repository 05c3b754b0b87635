"""What one server instance is configured with (per launch, never persisted)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.agent.events import Event
from labwright.server.security import DEFAULT_MAX_BODY

# (content, summary, origin): how a pipeline hands an intermediate version to the store.
VersionSink = Callable[[str, str, str], object]


@dataclass(frozen=True)
class PipelineRequest:
    """The inputs of one run: the user's folder (read-only) and the run's output directory."""

    folder: Path
    out_dir: Path
    lang: str | None = None
    cancel: threading.Event | None = None  # set when the run should stop at the next step
    save_version: VersionSink | None = None


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
