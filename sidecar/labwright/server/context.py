"""The per-app objects routes need, reached through one FastAPI dependency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from labwright.config import DataDir
from labwright.server.live import LiveHub
from labwright.server.runs import RunManager
from labwright.server.settings import ServerSettings
from labwright.store import Store


@dataclass
class AppContext:
    settings: ServerSettings
    data: DataDir
    store: Store
    hub: LiveHub
    runs: RunManager


def _context(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


Ctx = Annotated[AppContext, Depends(_context)]
