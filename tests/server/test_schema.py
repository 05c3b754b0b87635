"""Property-based requests over the whole OpenAPI schema, with the token: never a 5xx.

schemathesis generates bodies, path and query values from the schema the app
publishes (so this also checks the schema is usable). The server is real
(uvicorn on a loopback socket) and holds a seeded session, run, version and
proposal, so some requests reach real records rather than only 404s. Bounded
to a few examples per operation to keep the suite quick.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from labwright.server.app import create_app, openapi_schema
from labwright.server.settings import ServerSettings
from tests.server.conftest import ScriptedPipeline, free_loopback_socket, seed_world

_TOKEN = secrets.token_urlsafe(32)
schema = schemathesis.openapi.from_dict(openapi_schema())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("schema-home")
    folder = tmp_path_factory.mktemp("schema-data")
    (folder / "data.csv").write_text("t,x\n0,1\n1,2\n", encoding="utf-8")
    sock = free_loopback_socket()
    port = sock.getsockname()[1]
    app = create_app(
        ServerSettings(token=_TOKEN, port=port, home=home, pipeline=ScriptedPipeline(steps=1))
    )
    seed_world(app, folder)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    app.state.runs.shutdown("the test ended")
    server.should_exit = True
    thread.join(10)
    app.state.runs.join(5)
    app.state.ctx.store.close()


@schema.parametrize()
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors(case: Any, server: str) -> None:
    # The schema documents the bearer scheme, so schemathesis fills in a made-up
    # token of its own; replace it with the real one.
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {_TOKEN}"}
    response = case.call(base_url=server, timeout=20)
    case.validate_response(response, checks=[not_a_server_error])
    # The token and Host are right, so access control must never be what answered.
    assert response.status_code not in (401, 403), response.text
