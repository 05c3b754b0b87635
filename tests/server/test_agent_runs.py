"""A run with a model: the server picks the LLM agent from the saved settings.

The real agent and the real `openai` client talk to the project's fake
OpenAI-compatible server over a socket (no network); the scripted lab from the
agent tests answers each task. Asserted by properties: the run ends done,
its drafts became versions, exactly the last one owns the PDF, and the usage
the agent reported is totalled per run and per session.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from labwright.testing.fake_openai import FakeOpenAI
from tests.agent.conftest import ScriptedLab

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX"),
]


def _wait(client: Any, auth: dict[str, str], run_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}", headers=auth).json()
        if run["status"] not in ("queued", "running"):
            return run
        time.sleep(0.1)
    raise AssertionError("the run did not end")


def test_llm_mode_needs_a_configured_model(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()  # no fixed pipeline: the real choice is made
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    client.put("/api/settings/llm", headers=auth, json={"provider": "deepseek"})
    refused = client.post(f"/api/sessions/{sid}/runs", headers=auth, json={"mode": "llm"})
    assert refused.status_code == 409 and "Settings" in refused.json()["detail"]
    assert app.state.ctx.store.list_runs(sid) == []


def test_auto_mode_runs_the_agent_when_a_model_is_configured(
    make_client: Any,
    auth: dict[str, str],
    fake_llm: FakeOpenAI,
    examples_dir: Path,
    tmp_path: Path,
) -> None:
    fake_llm.on_messages(ScriptedLab().answer)
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    app, client = make_client()
    saved = client.put(
        "/api/settings/llm",
        headers=auth,
        json={
            "provider": "custom",
            "base_url": fake_llm.base_url,
            "models": {"main": "fake-main", "cheap": "fake-cheap"},
        },
    )
    assert saved.status_code == 200
    sid = client.post("/api/sessions", headers=auth, json={"path": str(folder)}).json()["id"]
    started = client.post(f"/api/sessions/{sid}/runs", headers=auth, json={})
    assert started.status_code == 200 and started.json()["kind"] == "llm"
    run_id = started.json()["id"]
    final = _wait(client, auth, run_id)
    assert final["status"] == "done", final
    events = client.get(f"/api/runs/{run_id}/events/list", headers=auth).json()
    assert events[-1]["type"] == "done" and sum(e["type"] == "done" for e in events) == 1
    versions = client.get(f"/api/sessions/{sid}/versions", headers=auth).json()
    assert versions and all(v["run_id"] == run_id for v in versions)
    assert events[-1]["payload"]["version_no"] == versions[-1]["version_no"]
    own = [v["version_no"] for v in versions if v["has_pdf"]]
    # Only the final text owns the PDF (an earlier draft with identical text may share it).
    assert versions[-1]["version_no"] in own
    pdf = client.get(f"/api/sessions/{sid}/versions/{versions[-1]['version_no']}/pdf", headers=auth)
    assert pdf.content.startswith(b"%PDF")
    run_usage = client.get(f"/api/runs/{run_id}/usage", headers=auth).json()
    reported = [e for e in events if e["type"] == "usage"]
    assert run_usage["calls"] == len(reported) > 0
    session_usage = client.get(f"/api/sessions/{sid}/usage", headers=auth).json()
    assert session_usage["calls"] == run_usage["calls"]
    assert session_usage["prompt_tokens"] == sum(e["payload"]["prompt_tokens"] for e in reported)
