"""The trust record over HTTP: numbers keep their sources through accepted edits.

A real offline build (the writer tags every number it prints), then edits
through the chat route, each accepted into a new version: what the route
answers for each version is what the window's trust panel shows.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX"),
]


def _wait(client: Any, auth: dict[str, str], run_id: int, limit: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}", headers=auth).json()
        if run["status"] not in ("queued", "running"):
            return run
        time.sleep(0.05)
    raise AssertionError("the run did not end")


def _accept_chat(client: Any, auth: dict[str, str], sid: int, message: str) -> dict[str, Any]:
    run = client.post(f"/api/sessions/{sid}/chat", headers=auth, json={"message": message}).json()
    _wait(client, auth, run["id"])
    events = client.get(f"/api/runs/{run['id']}/events/list", headers=auth).json()
    proposal = next(e for e in events if e["type"] == "proposal")["payload"]["proposal_id"]
    accepted = client.post(f"/api/proposals/{proposal}/accept", headers=auth)
    assert accepted.status_code == 200, accepted.text
    compiled = _wait(client, auth, accepted.json()["run_id"])
    assert compiled["status"] == "done", compiled
    return dict(accepted.json())


def _prov(client: Any, auth: dict[str, str], sid: int, no: int) -> dict[str, Any]:
    answer = client.get(f"/api/sessions/{sid}/versions/{no}/provenance", headers=auth)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _sources(prov: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {
        n["id"]: (n["printed"], n["value"], n["computation"], n["file"], n["column"], n["status"])
        for n in prov["numbers"]
    }


def _pdf_dests(client: Any, auth: dict[str, str], sid: int, no: int) -> set[str]:
    import io

    from pypdf import PdfReader

    pdf = client.get(f"/api/sessions/{sid}/versions/{no}/pdf", headers=auth)
    assert pdf.status_code == 200
    found = set()
    for page in PdfReader(io.BytesIO(pdf.content)).pages:
        for ref in page.get("/Annots") or []:
            action = ref.get_object().get("/A") or {}
            dest = action.get("/D")
            if isinstance(dest, str) and dest.startswith("lwnum."):
                found.add(dest.removeprefix("lwnum."))
    return found


def test_numbers_keep_their_sources_through_edits(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    run = client.post(f"/api/sessions/{sid}/runs", headers=auth, json={}).json()
    assert _wait(client, auth, run["id"])["status"] in ("done", "failed")
    first = _prov(client, auth, sid, 1)
    assert first["recorded"] and first["by"] == "tags" and first["record_version"] == 1
    assert first["unsourced"] == []
    sources = _sources(first)
    assert sources and all(s[-1] == "traced" for s in sources.values())
    assert _pdf_dests(client, auth, sid, 1) == set(sources)

    # A rename touches no number: every number keeps its source.
    renamed = _accept_chat(client, auth, sid, "Rename section 2 to Theory.")
    second = _prov(client, auth, sid, renamed["version_no"])
    # The accepted version's build holds a copy of the record it came from.
    assert second["recorded"] and second["by"] == "tags"
    assert second["record_version"] == renamed["version_no"]
    assert _sources(second) == sources and second["unsourced"] == []
    assert _pdf_dests(client, auth, sid, renamed["version_no"]) == set(sources)

    # A changed number (a table cell rewritten) loses its source, visibly;
    # every other number keeps its own.
    content = renamed["content"]
    table = content[content.index("\\begin{tabular}") : content.index("\\end{tabular}")]
    cells = re.findall(r"\\lwnum\{([0-9a-f-]+)\}\{(\d+\.\d+)\}", table)
    assert cells
    old = cells[0][1]
    changed = {i for i, printed in cells if printed == old}  # every cell printing it changes
    new = old[:-1] + str((int(old[-1]) + 5) % 10)
    edited = _accept_chat(client, auth, sid, f'In table 1 change "{old}" to "{new}".')
    third = _prov(client, auth, sid, edited["version_no"])
    states = _sources(third)
    assert new in third["unsourced"]
    assert all(states[i][-1] == "not_traced" for i in changed if i in states)
    kept = {k: v for k, v in sources.items() if k not in changed}
    assert {k: v for k, v in states.items() if k in kept} == kept

    # A restore is traced like the version it copies.
    restored = client.post(f"/api/sessions/{sid}/versions/1/restore", headers=auth)
    assert restored.status_code == 201, restored.text
    fourth = _prov(client, auth, sid, restored.json()["version_no"])
    assert _sources(fourth) == sources and fourth["unsourced"] == []
    assert fourth["record_version"] == 1  # no build of its own: the record of the copied version


def test_a_version_without_any_record_says_so(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid = client.post("/api/sessions", headers=auth, json={"path": str(data_folder)}).json()["id"]
    app.state.ctx.store.add_version(sid, "\\begin{document}g = 9.81\\end{document}")
    prov = _prov(client, auth, sid, 1)
    assert prov["recorded"] is False and prov["by"] == "none" and prov["numbers"] == []
