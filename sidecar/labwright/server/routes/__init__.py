"""The API's routers, registered explicitly (order matters only for documentation)."""

from __future__ import annotations

from fastapi import APIRouter

from labwright.server.routes import (
    chat,
    citation_fixes,
    citation_settings,
    diagnostics,
    files,
    health,
    proposals,
    provenance,
    runfiles,
    runs,
    sessions,
    settings,
    ui_prefs,
    uploads,
    usage,
    versions,
)

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    sessions.router,
    runs.router,
    versions.router,
    proposals.router,
    citation_fixes.router,
    chat.router,
    files.router,
    provenance.router,
    runfiles.router,
    uploads.router,
    settings.router,
    citation_settings.router,
    ui_prefs.router,
    usage.router,
    diagnostics.router,
)
