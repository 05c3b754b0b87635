"""The FastAPI app factory: routes under /api, all behind the access guard.

`create_app(settings)` builds one app for one launch (one token, one port).
Interactive docs (/docs, /redoc) are off: they would need to load scripts from
a CDN and cannot send the bearer header on their own. The OpenAPI schema is at
/api/openapi.json, behind the token like every other route.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from labwright import __version__
from labwright.config import data_dir
from labwright.messages import as_json, say
from labwright.server.context import AppContext
from labwright.server.live import LiveHub
from labwright.server.routes import ROUTERS
from labwright.server.runs import RunManager
from labwright.server.security import (
    API_PREFIX,
    AccessGuard,
    AccessPolicy,
    ASGIApp,
    Receive,
    Scope,
    Send,
)
from labwright.server.settings import ServerSettings
from labwright.store import Store
from labwright.store.errors import ConflictError, NotFoundError, StoreError

# Documents the bearer scheme in the OpenAPI schema (the guard does the checking;
# auto_error=False so this never answers on its own).
_bearer = HTTPBearer(auto_error=False, description="The per-launch token.")


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    ctx: AppContext | None = getattr(app.state, "ctx", None)
    if ctx is not None:
        ctx.runs.shutdown(say("stop.sidecar_stopped"))
        ctx.store.close()


def build_api() -> FastAPI:
    """The routes and their schema, without state: no store is opened, no port is bound."""
    app = FastAPI(
        title="Labwright sidecar",
        version=__version__,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        lifespan=_lifespan,
        dependencies=[Depends(_bearer)],
    )
    for router in ROUTERS:
        app.include_router(router, prefix=API_PREFIX)
    _install_error_handlers(app)
    return app


def openapi_schema() -> dict[str, Any]:
    """The API's OpenAPI document (for generating the UI's TypeScript types)."""
    return build_api().openapi()


def create_app(settings: ServerSettings) -> FastAPI:
    """One app for one launch: its token, its port, the user's store, the access guard."""
    app = build_api()
    data = data_dir(settings.home)
    store = Store.open(data)
    hub = LiveHub()
    runs = RunManager(store, data, hub, settings.pipeline)
    app.state.ctx = AppContext(settings=settings, data=data, store=store, hub=hub, runs=runs)
    app.state.runs = runs

    public_app: ASGIApp | None = None
    if settings.ui_dir is not None and settings.ui_dir.is_dir():
        public_app = _static_ui(settings.ui_dir)
    policy = AccessPolicy(
        token=settings.token,
        port=settings.port,
        max_body=settings.max_body,
        public_ui=public_app is not None,
    )
    app.add_middleware(AccessGuard, policy=policy, public_app=public_app)
    return app


def _static_ui(directory: Path) -> ASGIApp:
    """The built UI's files. StaticFiles raises its 404/405 as an exception, which
    outside the API app's handlers would surface as a 500: answer it here."""
    static = StaticFiles(directory=directory, html=True, follow_symlink=False)

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await static(scope, receive, cast(Any, send))
        except StarletteHTTPException as exc:
            reply = JSONResponse({"detail": "This page does not exist."}, exc.status_code)
            await reply(scope, receive, cast(Any, send))

    return serve


def error_body(sentence: str) -> dict[str, Any]:
    """An error answer: the English sentence and its catalogue key (labwright.messages)."""
    return {"detail": str(sentence), "text": as_json(sentence)}


def _install_error_handlers(app: FastAPI) -> None:
    """Store errors carry a user-facing sentence already; map them to their status.
    Every error answer carries the sentence's key too, so the window translates it."""

    async def not_found(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(error_body(str(exc)), status_code=404)

    async def conflict(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(error_body(str(exc)), status_code=409)

    async def invalid(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(error_body(str(exc)), status_code=422)

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if not isinstance(exc.detail, str):
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        return JSONResponse(error_body(exc.detail), exc.status_code, headers=exc.headers)

    app.add_exception_handler(StarletteHTTPException, http_error)

    app.add_exception_handler(NotFoundError, not_found)
    app.add_exception_handler(ConflictError, conflict)
    app.add_exception_handler(StoreError, invalid)
