"""The default pipeline of a run: the offline writer (no LLM).

Imported lazily so that starting the server (and its handshake) does not wait
for matplotlib, pandas and scipy to load; the first run pays that once.
"""

from __future__ import annotations

from collections.abc import Iterator

from labwright.agent.events import Event
from labwright.server.settings import PipelineRequest


def default_pipeline(request: PipelineRequest) -> Iterator[Event]:
    from labwright.agent.offline import build_offline

    return build_offline(request.folder, request.out_dir, lang=request.lang)
