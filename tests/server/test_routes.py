"""Every route's behaviour, in process (the access rules are in test_security.py)."""

from __future__ import annotations

import io
import json
import os
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from labwright.store.artifacts import run_dir
from tests.server.conftest import CONTENT, MemoryKeyring, ScriptedPipeline, seed_world


def _wait_run(
    client: Any, auth: dict[str, str], run_id: int, timeout: float = 30
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}", headers=auth).json()
        if run["status"] not in ("queued", "running"):
            return run
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} did not end")


def test_health(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    body = client.get("/api/health", headers=auth).json()
    assert body["status"] == "ok" and body["version"]


def test_session_crud(make_client: Any, auth: dict[str, str], data_folder: Path) -> None:
    app, client = make_client()
    before = {p.name: p.read_bytes() for p in data_folder.iterdir()}
    created = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)})
    assert created.status_code == 201
    body = created.json()
    assert body["source_path"] == str(data_folder.resolve())
    assert body["title"] == data_folder.name
    assert {e["path"] for e in body["inventory"]} == {"data.csv", "notes.md"}
    assert all(len(e["sha256"]) == 64 for e in body["inventory"])
    sid = body["id"]
    listed = client.get("/api/sessions", headers=auth).json()
    assert [s["id"] for s in listed] == [sid] and listed[0]["file_count"] == 2
    assert client.get(f"/api/sessions/{sid}", headers=auth).json()["inventory"] == body["inventory"]
    session_dir = app.state.ctx.data.session_dir(sid)
    assert session_dir.is_dir()
    assert client.delete(f"/api/sessions/{sid}", headers=auth).status_code == 204
    assert client.get(f"/api/sessions/{sid}", headers=auth).status_code == 404
    assert not session_dir.exists()
    # The user's folder is only ever read.
    assert {p.name: p.read_bytes() for p in data_folder.iterdir()} == before


@pytest.mark.parametrize(
    "path", ["relative/folder", "/definitely/not/here", "FILE", "", "~nonexistent-user-x/data"]
)
def test_session_needs_an_existing_folder(
    make_client: Any, auth: dict[str, str], data_folder: Path, path: str
) -> None:
    app, client = make_client()
    if path == "FILE":
        path = str(data_folder / "data.csv")
    response = client.post("/api/sessions", headers=auth, json={"path": path})
    assert response.status_code == 422
    assert app.state.ctx.store.list_sessions() == []


def test_unknown_fields_and_ids(make_client: Any, auth: dict[str, str], data_folder: Path) -> None:
    _, client = make_client()
    extra = client.post("/api/sessions", headers=auth, json={"path": str(data_folder), "x": 1})
    assert extra.status_code == 422
    assert client.get("/api/sessions/0", headers=auth).status_code == 422
    assert client.get(f"/api/sessions/{2**70}", headers=auth).status_code == 422
    assert client.get("/api/sessions/999", headers=auth).status_code == 404


def test_run_lifecycle_and_events(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client(ScriptedPipeline(steps=3))
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    run = client.post(f"/api/sessions/{sid}/runs", headers=auth, json={"language": "en"})
    assert run.status_code == 200
    run_id = run.json()["id"]
    final = _wait_run(client, auth, run_id)
    assert final["status"] == "done" and final["finished_at"]
    events = client.get(f"/api/runs/{run_id}/events/list", headers=auth).json()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "done" and events[-1]["payload"]["version_no"] == 1
    assert client.get(f"/api/runs/{run_id}/events/list?after=3", headers=auth).json() == events[3:]
    assert [r["id"] for r in client.get(f"/api/sessions/{sid}/runs", headers=auth).json()] == [
        run_id
    ]
    # The SSE stream of an ended run replays everything and closes.
    with client.stream("GET", f"/api/runs/{run_id}/events", headers=auth) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        ids = [int(line[3:]) for line in stream.iter_lines() if line.startswith("id:")]
    assert ids == [e["seq"] for e in events]
    with client.stream(
        "GET", f"/api/runs/{run_id}/events", headers={**auth, "Last-Event-ID": "2"}
    ) as stream:
        ids = [int(line[3:]) for line in stream.iter_lines() if line.startswith("id:")]
    assert ids == [e["seq"] for e in events[2:]]
    bad = client.get(f"/api/runs/{run_id}/events", headers={**auth, "Last-Event-ID": "x"})
    assert bad.status_code == 422
    # The version carries the build's files.
    versions = client.get(f"/api/sessions/{sid}/versions", headers=auth).json()
    assert [(v["version_no"], v["origin"], v["has_pdf"]) for v in versions] == [
        (1, "generated", True)
    ]
    pdf = client.get(f"/api/sessions/{sid}/versions/1/pdf", headers=auth)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert app.state.ctx.store.get_run(run_id).status == "done"


def test_cancel_a_running_run(make_client: Any, auth: dict[str, str], data_folder: Path) -> None:
    import threading

    gate = threading.Event()
    pipeline = ScriptedPipeline(steps=50, gate=gate)
    app, client = make_client(pipeline)
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    run_id = client.post(f"/api/sessions/{sid}/runs", headers=auth).json()["id"]
    assert pipeline.started.wait(10)
    cancelled = client.post(f"/api/runs/{run_id}/cancel", headers=auth)
    assert cancelled.status_code == 200 and cancelled.json()["cancel_requested"]
    gate.set()
    final = _wait_run(client, auth, run_id)
    assert final["status"] == "cancelled"
    events = client.get(f"/api/runs/{run_id}/events/list", headers=auth).json()
    assert events[-1]["type"] == "done" and events[-1]["payload"]["ok"] is False
    assert sum(e["type"] == "done" for e in events) == 1
    # A cancel is the user's choice, not an error: the run ends as cancelled
    # with one sentence in its last event, once (issue 21).
    assert not [e for e in events if e["type"] == "error"]
    done = events[-1]["payload"]
    assert done["outcome"] == "cancelled" and done["text"]["key"] == "run.cancelled"
    assert done["message"].endswith(".") and done["message"].count("; ") == 1
    assert client.get(f"/api/sessions/{sid}/versions", headers=auth).json() == []
    again = client.post(f"/api/runs/{run_id}/cancel", headers=auth)
    assert again.status_code == 409


def test_failing_pipeline_marks_run_failed(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    _, client = make_client(ScriptedPipeline(steps=1, fail=True))
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    run_id = client.post(f"/api/sessions/{sid}/runs", headers=auth).json()["id"]
    final = _wait_run(client, auth, run_id)
    assert final["status"] == "failed"
    events = client.get(f"/api/runs/{run_id}/events/list", headers=auth).json()
    assert [e["type"] for e in events[-2:]] == ["error", "done"]
    # The exception's class stays in the log: the user reads one plain sentence.
    error = events[-2]["payload"]
    assert error["text"]["key"] == "run.crashed" and error["message"] == final["error"]
    assert "RuntimeError" not in json.dumps(events) and "scripted" not in json.dumps(events)
    assert events[-1]["payload"]["outcome"] == "failed"
    # A failed run frees the session for the next one.
    assert client.post(f"/api/sessions/{sid}/runs", headers=auth).status_code == 200


def test_delete_refused_while_running(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    import threading

    gate = threading.Event()
    pipeline = ScriptedPipeline(steps=3, gate=gate)
    app, client = make_client(pipeline)
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    run_id = client.post(f"/api/sessions/{sid}/runs", headers=auth).json()["id"]
    assert pipeline.started.wait(10)
    assert client.delete(f"/api/sessions/{sid}", headers=auth).status_code == 409
    assert app.state.ctx.data.session_dir(sid).is_dir()
    gate.set()
    _wait_run(client, auth, run_id)
    assert client.delete(f"/api/sessions/{sid}", headers=auth).status_code == 204


def test_versions_restore_is_a_fork(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    world = seed_world(app, data_folder)
    store = app.state.ctx.store
    v2 = store.add_version(world.session_id, CONTENT.replace("2.01", "9.99"), origin="manual")
    sid = world.session_id
    restored = client.post(f"/api/sessions/{sid}/versions/1/restore", headers=auth)
    assert restored.status_code == 201
    body = restored.json()
    assert body["version_no"] == v2.version_no + 1
    assert body["origin"] == "restored" and body["content"] == CONTENT
    assert body["has_pdf"]  # same bytes as v1, so v1's PDF stands for it
    listed = client.get(f"/api/sessions/{sid}/versions", headers=auth).json()
    assert [v["version_no"] for v in listed] == [1, 2, 3]
    assert [v["has_pdf"] for v in listed] == [True, False, True]
    assert (
        client.get(f"/api/sessions/{sid}/versions/2", headers=auth).json()["content"].count("9.99")
    )
    assert client.get(f"/api/sessions/{sid}/versions/2/pdf", headers=auth).status_code == 404
    assert client.get(f"/api/sessions/{sid}/versions/9", headers=auth).status_code == 404


def test_proposals_accept_reject_conflicts(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    world = seed_world(app, data_folder)
    store = app.state.ctx.store
    sid = world.session_id
    pending = client.get(f"/api/sessions/{sid}/proposals?status=pending", headers=auth).json()
    assert [p["id"] for p in pending] == [world.proposal_id]
    assert (
        client.get(f"/api/sessions/{sid}/proposals?status=bogus", headers=auth).status_code == 422
    )
    accepted = client.post(f"/api/proposals/{world.proposal_id}/accept", headers=auth)
    assert accepted.status_code == 200
    assert "2.02" in accepted.json()["content"] and accepted.json()["version_no"] == 2
    assert (
        client.post(f"/api/proposals/{world.proposal_id}/accept", headers=auth).status_code == 409
    )
    assert (
        client.post(f"/api/proposals/{world.proposal_id}/reject", headers=auth).status_code == 409
    )
    # A proposal against v1 is stale now that v2 exists.
    v1 = store.get_version_by_no(sid, 1)
    stale = store.propose_edit(sid, v1.id, 0, 0, "%")
    answer = client.post(f"/api/proposals/{stale.id}/accept", headers=auth)
    assert answer.status_code == 409 and answer.json()["detail"]
    assert [v.version_no for v in store.list_versions(sid)] == [1, 2]
    rejected = client.post(f"/api/proposals/{stale.id}/reject", headers=auth)
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    got = client.get(f"/api/proposals/{stale.id}", headers=auth).json()
    assert got["status"] == "rejected"


def test_figures_and_exports(make_client: Any, auth: dict[str, str], data_folder: Path) -> None:
    app, client = make_client()
    world = seed_world(app, data_folder)
    base = f"/api/sessions/{world.session_id}/versions/1"
    figures = client.get(f"{base}/figures", headers=auth).json()
    assert [f["name"] for f in figures] == ["fig1.png"]
    image = client.get(figures[0]["url"], headers=auth)
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")
    for name in ("..%2Fmain.tex", "%2E%2E", ".hidden", "fig1.png%2f..", "nope.png", "main.tex"):
        assert client.get(f"{base}/figures/{name}", headers=auth).status_code in (404, 422)
    pdf = client.get(f"{base}/export/pdf", headers=auth)
    assert pdf.headers["content-disposition"] == (
        f'attachment; filename="labwright-session{world.session_id}-v1.pdf"'
    )
    archive = client.get(f"{base}/export/zip", headers=auth)
    assert archive.status_code == 200
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zf:
        names = zf.namelist()
        assert names[0] == "main.tex" and zf.read("main.tex").decode() == CONTENT
        assert "figures/fig1.png" in names and "latexmkrc" in names
        assert all(not n.startswith(("/", "..")) for n in names)
    # An accepted edit gets its own build (its ancestor's figures, its own PDF once compiled).
    compile_run = client.post(f"/api/proposals/{world.proposal_id}/accept", headers=auth).json()
    v2 = client.get(f"/api/sessions/{world.session_id}/versions/2/export/zip", headers=auth)
    with zipfile.ZipFile(io.BytesIO(v2.content)) as zf:
        assert "2.02" in zf.read("main.tex").decode() and "figures/fig1.png" in zf.namelist()
    app.state.runs.join(120)
    v2_pdf = client.get(f"/api/sessions/{world.session_id}/versions/2/pdf", headers=auth)
    built = client.get(f"/api/runs/{compile_run['run_id']}", headers=auth).json()["status"]
    assert v2_pdf.status_code == (200 if built == "done" else 404)
    # Nothing was written by these GETs.
    exports = app.state.ctx.data.session_paths(world.session_id).exports
    assert list(exports.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs POSIX symlinks")
def test_symlinks_in_a_build_are_never_followed(
    make_client: Any, auth: dict[str, str], data_folder: Path, tmp_path: Path
) -> None:
    app, client = make_client()
    world = seed_world(app, data_folder)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG TOP-SECRET")
    build = run_dir(app.state.ctx.data, world.session_id, world.run_id)
    (build / "figures" / "fig1.png").unlink()
    os.symlink(secret, build / "figures" / "fig1.png")
    os.symlink(secret, build / "figures" / "leak.png")
    base = f"/api/sessions/{world.session_id}/versions/1"
    assert client.get(f"{base}/figures", headers=auth).json() == []
    assert client.get(f"{base}/figures/leak.png", headers=auth).status_code == 404
    archive = client.get(f"{base}/export/zip", headers=auth)
    assert archive.status_code == 409  # the document names a figure that is now a symlink
    assert b"TOP-SECRET" not in archive.content
    (build / "report.pdf").unlink()
    os.symlink(secret, build / "report.pdf")
    pdf = client.get(f"{base}/pdf", headers=auth)
    assert pdf.status_code == 404 and b"TOP-SECRET" not in pdf.content


def test_settings_keys_are_write_only(
    make_client: Any, auth: dict[str, str], memory_keyring: MemoryKeyring
) -> None:
    _, client = make_client()
    initial = client.get("/api/settings/llm", headers=auth).json()
    assert {p["id"] for p in initial["providers"]} >= {"deepseek", "openai", "ollama"}
    assert not any(p["has_key"] for p in initial["providers"])
    put = client.put(
        "/api/settings/llm/keys/openai", headers=auth, json={"api_key": "sk-very-secret-123"}
    )
    assert put.status_code == 204 and put.content == b""
    assert memory_keyring.store[("Labwright", "openai")] == "sk-very-secret-123"
    after = client.get("/api/settings/llm", headers=auth)
    assert "sk-very-secret" not in after.text
    assert {p["id"]: p["has_key"] for p in after.json()["providers"]}["openai"] is True
    schema = client.get("/api/openapi.json", headers=auth).text
    assert "sk-very-secret" not in schema
    saved = client.put(
        "/api/settings/llm",
        headers=auth,
        json={"provider": "openai", "models": {"main": "gpt-4.1-mini"}, "offline": True},
    )
    assert saved.status_code == 200
    assert saved.json()["provider"] == "openai" and saved.json()["models"] == {
        "main": "gpt-4.1-mini"
    }
    from labwright.llm.settings import settings_path

    assert "sk-very-secret" not in settings_path().read_text(encoding="utf-8")
    assert (
        client.put("/api/settings/llm", headers=auth, json={"provider": "nope"}).status_code == 404
    )
    assert (
        client.put("/api/settings/llm/keys/nope", headers=auth, json={"api_key": "k"}).status_code
        == 404
    )
    assert ("Labwright", "nope") not in memory_keyring.store
    assert client.delete("/api/settings/llm/keys/openai", headers=auth).status_code == 204
    assert ("Labwright", "openai") not in memory_keyring.store


def test_usage_per_run_and_session(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    world = seed_world(app, data_folder)
    store = app.state.ctx.store
    store.record_usage(
        world.session_id,
        model="m",
        prompt_tokens=100,
        cached_tokens=40,
        completion_tokens=10,
        cost=0.5,
        step="draft",
        run_id=world.run_id,
    )
    store.record_usage(
        world.session_id, model="m", prompt_tokens=5, completion_tokens=5, cost=0.25, step="edit"
    )
    run = client.get(f"/api/runs/{world.run_id}/usage", headers=auth).json()
    assert run["calls"] == 1 and run["cached_tokens"] == 40 and run["by_step"] == {"draft": 0.5}
    session = client.get(f"/api/sessions/{world.session_id}/usage", headers=auth).json()
    assert session["calls"] == 2 and session["cost"] == pytest.approx(0.75)
    assert client.get("/api/runs/999/usage", headers=auth).status_code == 404


def test_diagnostics_of_last_compile(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    empty = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()
    nothing = client.get(f"/api/sessions/{empty['id']}/diagnostics", headers=auth).json()
    assert nothing["run_id"] is None and nothing["messages"] == []
    world = seed_world(app, data_folder)
    diag = client.get(f"/api/sessions/{world.session_id}/diagnostics", headers=auth).json()
    assert diag["run_id"] == world.run_id and diag["compiled"] is True
    assert diag["error_count"] == 1 and diag["degraded"] is True
    assert diag["messages"] and all(m.endswith(".") for m in diag["messages"])
    assert not any("!" in m.split(".")[0] for m in diag["messages"])  # plain, not a raw log line


def test_openapi_is_complete(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    schema = client.get("/api/openapi.json", headers=auth).json()
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            assert op.get("responses"), (method, path)
            ok = [code for code in op["responses"] if code.startswith("2")]
            assert ok, (method, path)
            if method == "get" and "{" in path:
                assert "404" in op["responses"] or "422" in op["responses"], path
    assert "bearer" in json.dumps(schema["components"]["securitySchemes"]).lower()


def test_cancel_runs_this_process_does_not_own(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    import subprocess
    import sys

    from labwright.store import Store

    app, client = make_client()
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    # A run owned by another live store (say a CLI build): cancelling only raises its flag.
    with Store.open() as other:
        run = other.start_run(sid, kind="offline")
        answer = client.post(f"/api/runs/{run.id}/cancel", headers=auth).json()
        assert answer["status"] == "running" and answer["cancel_requested"] is True
        other.finish_run(run.id, "cancelled")
    # A run whose process died without closing anything: cancelling closes it as interrupted.
    code = (
        "import os\nfrom labwright.store import Store\n"
        f"run = Store.open().start_run({sid}, kind='offline')\n"
        "print(run.id, flush=True)\nos._exit(0)\n"
    )
    orphan = int(
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    )
    assert client.get(f"/api/runs/{orphan}", headers=auth).json()["status"] == "running"
    ended = client.post(f"/api/runs/{orphan}/cancel", headers=auth).json()
    assert ended["status"] == "interrupted"
    events = client.get(f"/api/runs/{orphan}/events/list", headers=auth).json()
    assert events[-1]["type"] == "done"
