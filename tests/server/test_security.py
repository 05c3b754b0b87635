"""Access control: the matrix over every route, plus the guard's edge cases.

Each denied request is also checked for its effect: the store, the keychain
and the settings file are compared before and after, so a route that answered
401 but acted anyway would fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from labwright.server.security import TAURI_ORIGINS
from tests.server.conftest import BASE, PORT, MemoryKeyring, ScriptedPipeline, World, seed_world

FOREIGN_HOSTS = (
    f"localhost.evil.com:{PORT}",
    f"127.0.0.1.nip.io:{PORT}",
    f"0.0.0.0:{PORT}",
    "127.0.0.1:1",  # right name, wrong port
    "127.0.0.1",  # no port
    "evil.com",
)
FOREIGN_ORIGINS = (
    "null",
    "http://evil.com",
    f"http://localhost.evil.com:{PORT}",
    f"http://127.0.0.1:{PORT + 1}",
    f"https://127.0.0.1:{PORT}",
    "tauri://evil",
)

BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/sessions"): "FOLDER",
    ("POST", "/api/sessions/{session_id}/runs"): {},
    ("PATCH", "/api/sessions/{session_id}"): {"language": "zh"},
    ("POST", "/api/sessions/{session_id}/chat"): {"message": "Rename section 1 to Findings."},
    ("PUT", "/api/settings/llm"): {"provider": "openai", "models": {"main": "gpt-4.1"}},
    ("PUT", "/api/settings/llm/keys/{provider}"): {"api_key": "sk-matrix-secret"},
    ("PUT", "/api/settings/ui"): {"lang": "zh"},
    ("PUT", "/api/settings/citations"): {"network": False},
    ("POST", "/api/uploads"): {"file_count": 1, "total_size": 3},
    ("POST", "/api/uploads/{upload_id}/chunks"): {
        "path": "more/x.csv",
        "offset": 0,
        "data": "YSxi",
    },
    ("POST", "/api/uploads/{upload_id}/session"): {},
}


def api_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every operation, read from the generated OpenAPI schema (so none can be forgotten)."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method in sorted(operations):
            found.append((method.upper(), path))
    return found


def _routes() -> list[tuple[str, str]]:
    from labwright.server.app import build_api

    return [*api_routes(build_api()), ("GET", "/api/openapi.json")]


ROUTES = _routes()


def snapshot(app: FastAPI, keys: MemoryKeyring) -> Any:
    store = app.state.ctx.store
    sessions = store.list_sessions()
    state: list[Any] = [[(s.id, s.title) for s in sessions], dict(keys.store)]
    for s in sessions:
        state.append([(v.version_no, v.sha256) for v in store.list_versions(s.id)])
        state.append([(p.id, p.status) for p in store.list_proposals(s.id)])
        state.append(
            [(r.id, r.status, len(store.events_after(r.id))) for r in store.list_runs(s.id)]
        )
    from labwright.llm.settings import settings_path

    path = settings_path()
    state.append(path.read_text(encoding="utf-8") if path.exists() else None)
    sessions_dir = app.state.ctx.data.sessions_dir
    state.append(sorted(str(p.relative_to(sessions_dir)) for p in sessions_dir.rglob("*")))
    uploads = app.state.ctx.data.root / "uploads"
    state.append(sorted(str(p.relative_to(uploads)) for p in uploads.rglob("*")))
    return state


def _url(path: str, world: World) -> str:
    params = world.params()
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), path)


def _call(
    client: TestClient, method: str, path: str, world: World, folder: Path, headers: dict[str, str]
) -> Any:
    body = BODIES.get((method, path))
    if body == "FOLDER":
        body = {"path": str(folder)}
    kwargs: dict[str, Any] = {"headers": headers}
    if body is not None:
        kwargs["content"] = json.dumps(body)
        kwargs["headers"] = {**headers, "Content-Type": "application/json"}
    return client.request(method, _url(path, world), **kwargs)


def test_matrix_covers_every_route() -> None:
    paths = {path for _, path in ROUTES}
    # The product's surface (issue 8): if one disappears, this fails loudly.
    for needed in (
        "/api/health",
        "/api/sessions",
        "/api/sessions/{session_id}",
        "/api/sessions/{session_id}/runs",
        "/api/runs/{run_id}/cancel",
        "/api/runs/{run_id}/events",
        "/api/sessions/{session_id}/versions/{version_no}/restore",
        "/api/proposals/{proposal_id}/accept",
        "/api/proposals/{proposal_id}/reject",
        "/api/sessions/{session_id}/versions/{version_no}/pdf",
        "/api/sessions/{session_id}/versions/{version_no}/figures/{name}",
        "/api/sessions/{session_id}/versions/{version_no}/export/zip",
        "/api/sessions/{session_id}/versions/{version_no}/export/compendium",
        "/api/settings/llm/keys/{provider}",
        "/api/sessions/{session_id}/usage",
        "/api/runs/{run_id}/usage",
        "/api/sessions/{session_id}/diagnostics",
    ):
        assert needed in paths
    assert len(ROUTES) >= 27


@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[f"{m} {p}" for m, p in ROUTES])
def test_access_matrix(
    method: str,
    path: str,
    make_client: Any,
    auth: dict[str, str],
    data_folder: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    app, client = make_client(ScriptedPipeline(steps=1))
    world = seed_world(app, data_folder)
    if path == "/api/runs/{run_id}/cancel":
        # Cancelling needs an active run; one nobody works on (e.g. left by another process).
        store = app.state.ctx.store
        other = store.create_session(str(data_folder))
        world.run_id = store.start_run(other.id, kind="offline").id
    if path.endswith("/export/compendium"):
        # The compendium recomputes a version's number record: the seeded build gets one.
        from labwright.agent.offline.compendium import report_record
        from labwright.store.artifacts import PROVENANCE_JSON, run_dir

        build = run_dir(app.state.ctx.data, world.session_id, world.run_id)
        record = json.dumps(report_record(data_folder))
        (build / PROVENANCE_JSON).write_text(record, encoding="utf-8")
    before = snapshot(app, memory_keyring)

    def denied(headers: dict[str, str], status: int) -> None:
        response = _call(client, method, path, world, data_folder, headers)
        assert response.status_code == status, (headers, response.text)
        assert "sk-matrix-secret" not in response.text

    denied({}, 401)
    denied({"Authorization": "Bearer " + "x" * 43}, 401)
    denied({"Authorization": auth["Authorization"].lower()}, 401)  # token is case-sensitive
    denied({"Authorization": auth["Authorization"].replace("Bearer ", "Basic ")}, 401)
    denied({"Cookie": f"token={auth['Authorization'][7:]}"}, 401)
    for host in FOREIGN_HOSTS:
        denied({**auth, "Host": host}, 403)
    for origin in FOREIGN_ORIGINS:
        denied({**auth, "Origin": origin}, 403)
    assert snapshot(app, memory_keyring) == before, "a denied request changed state"

    ok = _call(client, method, path, world, data_folder, auth)
    assert 200 <= ok.status_code < 300, ok.text
    if method == "GET":  # no GET changes state: rows, keychain, settings and files
        assert snapshot(app, memory_keyring) == before, "a GET changed state"
    for origin in (f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}", *TAURI_ORIGINS):
        if method == "GET":
            again = _call(client, method, path, world, data_folder, {**auth, "Origin": origin})
            assert 200 <= again.status_code < 300, (origin, again.text)


def test_query_string_token_is_not_accepted(make_client: Any, token: str) -> None:
    _, client = make_client()
    assert client.get(f"/api/health?token={token}").status_code == 401
    assert client.get(f"/api/health?access_token={token}").status_code == 401


def test_other_hosts_with_right_port(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    for host in (f"localhost:{PORT}", f"[::1]:{PORT}", f"LOCALHOST:{PORT}"):
        assert client.get("/api/health", headers={**auth, "Host": host}).status_code == 200
    assert client.get("/api/health", headers={**auth, "Host": f"[::2]:{PORT}"}).status_code == 403


def test_cors_never_wildcard_nor_reflects(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    ok = client.get("/api/health", headers={**auth, "Origin": "tauri://localhost"})
    assert ok.headers["access-control-allow-origin"] == "tauri://localhost"
    assert "access-control-allow-credentials" not in ok.headers
    same = client.get("/api/health", headers={**auth, "Origin": f"http://127.0.0.1:{PORT}"})
    assert "access-control-allow-origin" not in same.headers  # same origin needs no CORS
    evil = client.get("/api/health", headers={**auth, "Origin": "http://evil.com"})
    assert evil.status_code == 403
    assert evil.headers.get("access-control-allow-origin") is None


def test_preflight(make_client: Any) -> None:
    _, client = make_client()
    pre = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    ok = client.options("/api/sessions", headers={**pre, "Origin": "http://tauri.localhost"})
    assert ok.status_code == 204
    assert ok.headers["access-control-allow-origin"] == "http://tauri.localhost"
    assert "authorization" in ok.headers["access-control-allow-headers"]
    bad = client.options("/api/sessions", headers={**pre, "Origin": "https://evil.com"})
    assert bad.status_code == 403
    assert "access-control-allow-origin" not in bad.headers
    rebound = client.options(
        "/api/sessions", headers={**pre, "Origin": "http://tauri.localhost", "Host": "evil.com"}
    )
    assert rebound.status_code == 403


def test_body_must_be_json_and_small(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    form = client.post(
        "/api/sessions",
        headers={**auth, "Content-Type": "application/x-www-form-urlencoded"},
        content=f"path={data_folder}",
    )
    assert form.status_code == 415
    text = client.post(
        "/api/sessions",
        headers={**auth, "Content-Type": "text/plain"},
        content=json.dumps({"path": str(data_folder)}),
    )
    assert text.status_code == 415
    huge = client.post(
        "/api/sessions",
        headers={**auth, "Content-Type": "application/json"},
        content=json.dumps({"path": str(data_folder), "title": "x" * (2 << 20)}),
    )
    assert huge.status_code == 413

    def chunks() -> Any:  # no Content-Length: the guard must count streamed bytes
        yield b'{"path": "' + str(data_folder).encode() + b'", "title": "'
        for _ in range(40):
            yield b"y" * 65536
        yield b'"}'

    streamed = client.post(
        "/api/sessions", headers={**auth, "Content-Type": "application/json"}, content=chunks()
    )
    assert streamed.status_code == 413
    assert app.state.ctx.store.list_sessions() == []


def test_docs_pages_are_disabled(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(path, headers=auth).status_code == 404
    assert client.get("/api/openapi.json").status_code == 401
    assert client.get("/api/openapi.json", headers=auth).status_code == 200


def test_duplicate_host_header_is_refused(make_client: Any, auth: dict[str, str]) -> None:
    from labwright.server.security import AccessPolicy, _headers

    scope = {"headers": [(b"host", f"127.0.0.1:{PORT}".encode()), (b"host", b"evil.com")]}
    policy = AccessPolicy(token="t" * 43, port=PORT)
    assert not policy.host_ok(_headers(scope).get("host"))


def test_static_ui_is_public_but_api_is_not(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    ui = tmp_path / "dist"
    ui.mkdir()
    (ui / "index.html").write_text("<!doctype html><title>Labwright</title>", encoding="utf-8")
    _, client = make_client(ui_dir=ui)
    page = client.get("/")
    assert page.status_code == 200 and "Labwright" in page.text
    assert client.get("/api/sessions").status_code == 401
    assert client.get("/api/sessions/").status_code == 401
    assert client.get("/", headers={"Host": "evil.com"}).status_code == 403
    assert (
        client.post("/", headers={"Content-Type": "application/json"}, content="{}").status_code
        == 401
    )
    # A missing UI file is a plain 404 (it was a 500 with a traceback).
    missing = client.get("/assets/nothing-here.js")
    assert missing.status_code == 404 and "Traceback" not in missing.text


def test_base_url_is_loopback() -> None:
    assert BASE.startswith("http://127.0.0.1:")


def test_websocket_upgrades_are_refused(make_client: Any, auth: dict[str, str]) -> None:
    from starlette.websockets import WebSocketDisconnect

    _, client = make_client()
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/api/health", headers=auth):
            pass


def test_token_is_not_in_the_repr_of_settings_or_policy(token: str) -> None:
    """Objects holding the token may end up in a log line or a traceback's locals."""
    from labwright.server.security import AccessPolicy
    from labwright.server.settings import ServerSettings

    assert token not in repr(AccessPolicy(token=token, port=PORT))
    assert token not in repr(ServerSettings(token=token, port=PORT))
