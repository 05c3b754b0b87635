"""Chat editing over HTTP: a turn is a run whose events carry the reply and the proposals;
accepting makes a new version and a compile run builds its PDF."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from labwright.testing.fake_openai import FakeOpenAI
from tests.edit.docs import EN, ZH


def _wait(client: Any, auth: dict[str, str], run_id: int, limit: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}", headers=auth).json()
        if run["status"] not in ("queued", "running"):
            return run
        time.sleep(0.05)
    raise AssertionError("the run did not end")


def _session(app: Any, client: Any, auth: dict[str, str], folder: Path, content: str = EN) -> int:
    sid = client.post("/api/sessions", headers=auth, json={"path": str(folder)}).json()["id"]
    app.state.ctx.store.add_version(sid, content, summary="first draft")
    return int(sid)


def _chat(
    client: Any, auth: dict[str, str], sid: int, message: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    started = client.post(f"/api/sessions/{sid}/chat", headers=auth, json={"message": message})
    assert started.status_code == 200, started.text
    run = started.json()
    assert run["kind"] == "chat"
    final = _wait(client, auth, run["id"])
    events = client.get(f"/api/runs/{run['id']}/events/list", headers=auth).json()
    return final, events


def test_offline_turn_streams_reply_and_proposal_as_run_events(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = _session(app, client, auth, data_folder)
    final, events = _chat(client, auth, sid, "Rename section 2 to Theory.")
    assert final["status"] == "done"
    types = [e["type"] for e in events]
    assert types == ["route", "proposal", "reply", "done"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    proposal_id = events[1]["payload"]["proposal_id"]
    pending = client.get(f"/api/sessions/{sid}/proposals?status=pending", headers=auth).json()
    assert [p["id"] for p in pending] == [proposal_id]
    assert pending[0]["new_text"] == "Theory"
    messages = client.get(f"/api/sessions/{sid}/messages", headers=auth).json()
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[1]["proposal_id"] == proposal_id
    # Resumable like a run: the events after seq 2, and the SSE stream after Last-Event-ID.
    rest = client.get(f"/api/runs/{final['id']}/events/list?after=2", headers=auth).json()
    assert [e["type"] for e in rest] == ["reply", "done"]
    with client.stream(
        "GET", f"/api/runs/{final['id']}/events", headers={**auth, "Last-Event-ID": "3"}
    ) as stream:
        body = "".join(stream.iter_text())
    assert "event: done" in body and "event: reply" not in body


def test_offline_request_that_needs_a_model_gets_a_sentence(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = _session(app, client, auth, data_folder)
    final, events = _chat(client, auth, sid, "Make the discussion more specific.")
    reply = next(e for e in events if e["type"] == "reply")["payload"]["text"]
    assert "model" in reply and final["status"] == "failed"
    assert client.get(f"/api/sessions/{sid}/proposals", headers=auth).json() == []


def test_empty_message_and_unknown_session(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = _session(app, client, auth, data_folder)
    assert (
        client.post(f"/api/sessions/{sid}/chat", headers=auth, json={"message": "   "}).status_code
        == 422
    )
    assert (
        client.post(f"/api/sessions/{sid}/chat", headers=auth, json={"message": ""}).status_code
        == 422
    )
    assert (
        client.post("/api/sessions/999/chat", headers=auth, json={"message": "x"}).status_code
        == 404
    )


def test_scoped_edit_with_the_fake_model_and_usage_recorded(
    make_client: Any, auth: dict[str, str], data_folder: Path, fake_llm: FakeOpenAI
) -> None:
    app, client = make_client()
    client.put(
        "/api/settings/llm",
        headers=auth,
        json={
            "provider": "custom",
            "base_url": fake_llm.base_url,
            "models": {"main": "fake-main", "cheap": "fake-cheap"},
        },
    )
    sid = _session(app, client, auth, data_folder, ZH)
    fake_llm.script("\\section{讨论}\n测量值比参考值低 0.2\\%，在两倍标准不确定度内一致。\n")
    final, events = _chat(client, auth, sid, "把讨论部分写得更具体。")
    assert final["status"] == "done", final
    route = next(e for e in events if e["type"] == "route")["payload"]
    assert route["target"] == "n7" and route["used_tokens"] is False
    (proposal,) = client.get(f"/api/sessions/{sid}/proposals", headers=auth).json()
    assert proposal["scope"] == "section" and "0.2" in proposal["new_text"]
    usage = client.get(f"/api/runs/{final['id']}/usage", headers=auth)
    assert usage.status_code == 200 and "edit" in usage.text, usage.text


def test_accept_conflicts_and_reject_changes_nothing(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    store = app.state.ctx.store
    sid = _session(app, client, auth, data_folder)
    _, events = _chat(client, auth, sid, "Rename section 2 to Theory.")
    first = next(e for e in events if e["type"] == "proposal")["payload"]["proposal_id"]
    _, events = _chat(client, auth, sid, "Change the title to Measuring g.")
    second = next(e for e in events if e["type"] == "proposal")["payload"]["proposal_id"]
    rejected = client.post(f"/api/proposals/{second}/reject", headers=auth)
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    assert [v.version_no for v in store.list_versions(sid)] == [1]
    assert client.post(f"/api/proposals/{second}/accept", headers=auth).status_code == 409
    accepted = client.post(f"/api/proposals/{first}/accept", headers=auth)
    assert accepted.status_code == 200 and accepted.json()["version_no"] == 2
    assert "\\section{Theory}" in accepted.json()["content"]
    _wait(client, auth, accepted.json()["run_id"], 240)
    # A proposal made on version 1 is stale now.
    v1 = store.get_version_by_no(sid, 1)
    stale = store.propose_edit(sid, v1.id, 0, 0, "%")
    answer = client.post(f"/api/proposals/{stale.id}/accept", headers=auth)
    assert answer.status_code == 409 and "older version" in answer.json()["detail"]
    assert [v.version_no for v in store.list_versions(sid)] == [1, 2]
    runs = [r["kind"] for r in client.get(f"/api/sessions/{sid}/runs", headers=auth).json()]
    assert runs.count("compile") == 1


@pytest.mark.smoke
@pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX")
def test_accepting_builds_a_pdf_for_the_new_version(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = _session(app, client, auth, data_folder)
    _, events = _chat(client, auth, sid, "Remove Figure 2.")
    pid = next(e for e in events if e["type"] == "proposal")["payload"]["proposal_id"]
    accepted = client.post(f"/api/proposals/{pid}/accept", headers=auth).json()
    run = _wait(client, auth, accepted["run_id"], 240)
    assert run["status"] == "done", run
    done = client.get(f"/api/runs/{run['id']}/events/list", headers=auth).json()[-1]
    assert done["type"] == "done" and done["payload"]["version_no"] == 2
    versions = client.get(f"/api/sessions/{sid}/versions", headers=auth).json()
    assert [v["has_pdf"] for v in versions] == [False, True]
    pdf = client.get(f"/api/sessions/{sid}/versions/2/pdf", headers=auth)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


@pytest.mark.smoke
@pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX")
def test_an_accepted_fragment_cannot_run_commands_or_read_files(
    make_client: Any, auth: dict[str, str], data_folder: Path, tmp_path: Path
) -> None:
    """Model text reaches XeLaTeX only through the sanitizer and the paranoid compile."""
    app, client = make_client()
    store = app.state.ctx.store
    sid = _session(app, client, auth, data_folder)
    marker = tmp_path / "pwned"
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    base = store.latest_version(sid)
    start = base.content.index("To measure the local")
    hostile = (
        f"\\immediate\\write18{{touch {marker}}}\\input{{{secret}}}"
        f"\\openout5={tmp_path}/written.tex \\write5{{x}}\\closeout5 "
    )
    proposal = store.propose_edit(sid, base.id, start, start, hostile)
    accepted = client.post(f"/api/proposals/{proposal.id}/accept", headers=auth).json()
    _wait(client, auth, accepted["run_id"], 240)
    assert not marker.exists()
    assert not (tmp_path / "written.tex").exists()
    build = app.state.ctx.data.session_paths(sid).builds / f"run-{accepted['run_id']}"
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in build.glob("*.log")]
    assert all("TOP-SECRET-CONTENT" not in t for t in texts)
    pdf = client.get(f"/api/sessions/{sid}/versions/2/pdf", headers=auth)
    assert pdf.status_code != 200 or b"TOP-SECRET-CONTENT" not in pdf.content
