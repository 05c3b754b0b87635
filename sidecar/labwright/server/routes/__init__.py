"""The API's routers, registered explicitly (order matters only for documentation)."""

from __future__ import annotations

from fastapi import APIRouter

from labwright.server.routes import (
    chat,
    diagnostics,
    files,
    health,
    proposals,
    runs,
    sessions,
    settings,
    usage,
    versions,
)

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    sessions.router,
    runs.router,
    versions.router,
    proposals.router,
    chat.router,
    files.router,
    settings.router,
    usage.router,
    diagnostics.router,
)
