"""The report language through the API: "auto" by default, shown at drop time, changeable."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labwright.agent.events import Event
from labwright.server.settings import PipelineRequest

from .conftest import ScriptedPipeline


class Recording(ScriptedPipeline):
    """The scripted pipeline, remembering the language each run was asked for."""

    def __init__(self) -> None:
        super().__init__(steps=1)
        self.langs: list[str | None] = []

    def __call__(self, request: PipelineRequest) -> Iterator[Event]:
        self.langs.append(request.lang)
        yield from super().__call__(request)


def _chinese_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "植物生长"
    folder.mkdir()
    (folder / "株高.csv").write_text("天数,株高\n1,2.0\n2,2.6\n3,3.1\n", encoding="utf-8")
    (folder / "说明.md").write_text(
        "# 实验说明\n\n实验目的：比较三种光照条件下幼苗株高的差异，并检验差异是否显著。\n",
        encoding="utf-8",
    )
    return folder


def _run_and_wait(client: Any, auth: dict[str, str], sid: int, body: dict[str, str] | None) -> None:
    run = client.post(f"/api/sessions/{sid}/runs", headers=auth, json=body).json()
    deadline = time.monotonic() + 30
    while client.get(f"/api/runs/{run['id']}", headers=auth).json()["status"] in (
        "queued",
        "running",
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_session_is_auto_and_says_what_auto_decides(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    _, client = make_client(Recording())
    folder = _chinese_folder(tmp_path)
    session = client.post("/api/sessions", headers=auth, json={"path": str(folder)}).json()
    assert session["language"] == "auto"
    shown = client.get(f"/api/sessions/{session['id']}/language", headers=auth).json()
    assert shown == {"setting": "auto", "detected": "zh", "basis": "notes", "language": "zh"}


def test_the_language_is_changed_on_the_session_and_used_by_its_runs(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    pipeline = Recording()
    _, client = make_client(pipeline)
    sid = client.post(
        "/api/sessions", headers=auth, json={"path": str(_chinese_folder(tmp_path))}
    ).json()["id"]
    _run_and_wait(client, auth, sid, None)  # auto: the pipeline detects
    changed = client.patch(f"/api/sessions/{sid}", headers=auth, json={"language": "en"})
    assert changed.status_code == 200 and changed.json()["language"] == "en"
    shown = client.get(f"/api/sessions/{sid}/language", headers=auth).json()
    assert shown == {"setting": "en", "detected": "zh", "basis": "chosen", "language": "en"}
    _run_and_wait(client, auth, sid, {"language": "auto"})  # the session's choice
    _run_and_wait(client, auth, sid, {"language": "zh"})  # the run's own choice wins
    assert pipeline.langs == [None, "en", "zh"]
    assert (
        client.patch(f"/api/sessions/{sid}", headers=auth, json={"language": "fr"}).status_code
        == 422
    )


def test_an_empty_folder_is_refused_at_the_drop_with_one_sentence(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    _, client = make_client(Recording())
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".DS_Store").write_bytes(b"junk")  # what a file manager leaves is not data
    answer = client.post("/api/sessions", headers=auth, json={"path": str(empty)})
    assert answer.status_code == 422
    body = answer.json()
    assert body["text"] == {"key": "folder.empty", "params": {"folder": "empty"}}
    assert body["detail"].startswith("The folder empty is empty;")
    assert client.get("/api/sessions", headers=auth).json() == []


def test_error_answers_carry_the_key_of_their_sentence(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    _, client = make_client(Recording())
    answer = client.post("/api/sessions", headers=auth, json={"path": str(tmp_path / "nope")})
    assert answer.status_code == 422 and answer.json()["text"]["key"] == "api.folder_missing"
    missing = client.get("/api/sessions/99", headers=auth)
    assert missing.status_code == 404 and missing.json()["text"]["key"] == "plain"
