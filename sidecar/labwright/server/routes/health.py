"""Liveness and version: what the shell polls after the handshake."""

from __future__ import annotations

from fastapi import APIRouter

from labwright import __version__
from labwright.server.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health)
def health() -> Health:
    return Health(version=__version__)
