"""The browser upload route: a folder copied into a session-owned place, safely.

Every attack is checked for its effect as well as its status: after each
refused request, nothing exists outside the upload's own directory that was
not there before, and the refused name exists nowhere.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from labwright.server.routes.uploads import UploadLimits


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture
def env(make_client: Any, auth: dict[str, str], tmp_path: Path) -> Any:
    app, client = make_client()
    app.state.upload_limits = UploadLimits(max_total=64 * 1024, max_files=5, max_depth=4)
    return app, client, auth


def _new(client: TestClient, auth: dict[str, str], **body: Any) -> str:
    payload = {"name": "trip", "file_count": 2, "total_size": 10, **body}
    r = client.post("/api/uploads", json=payload, headers=auth)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _chunk(
    client: TestClient, auth: dict[str, str], uid: str, path: str, data: bytes, offset: int = 0
) -> Any:
    return client.post(
        f"/api/uploads/{uid}/chunks",
        json={"path": path, "offset": offset, "data": _b64(data)},
        headers=auth,
    )


def test_upload_makes_a_session_from_the_copy(env: Any) -> None:
    app, client, auth = env
    uid = _new(client, auth)
    assert _chunk(client, auth, uid, "data/a.csv", b"t,x\n").status_code == 200
    r = _chunk(client, auth, uid, "data/a.csv", b"1,2\n", offset=4)
    assert r.json() == {"path": "data/a.csv", "size": 8}
    assert _chunk(client, auth, uid, "./notes.md", b"# aim\n").json()["path"] == "notes.md"
    r = client.post(f"/api/uploads/{uid}/session", json={}, headers=auth)
    assert r.status_code == 201, r.text
    session = r.json()
    assert session["title"] == "trip"
    copy = Path(session["source_path"])
    assert copy.name == "trip"
    assert copy.is_relative_to(app.state.ctx.data.root / "uploads" / uid)
    assert (copy / "data" / "a.csv").read_bytes() == b"t,x\n1,2\n"
    assert {e["path"] for e in session["inventory"]} == {"data/a.csv", "notes.md"}
    # Sealed: no more files, no second session.
    assert _chunk(client, auth, uid, "late.csv", b"x").status_code == 409
    assert client.post(f"/api/uploads/{uid}/session", json={}, headers=auth).status_code == 409


BAD_NAMES = [
    ("../escape.csv", 422),
    ("data/../../escape.csv", 422),
    ("..", 422),
    ("/etc/escape.csv", 422),
    ("//server/share/escape.csv", 422),
    ("C:/escape.csv", 422),
    ("C:escape.csv", 422),
    ("data\\..\\escape.csv", 422),
    ("a/b/c/d/e/escape.csv", 422),  # deeper than max_depth=4
    ("bad\x00name.csv", 422),
    ("line\nbreak.csv", 422),
    ("x" * 300 + ".csv", 422),
    ("trailing-dot.", 422),
    ("", 422),
    ("./", 422),
]


@pytest.mark.parametrize(("name", "code"), BAD_NAMES)
def test_unsafe_names_are_refused_and_write_nothing(
    env: Any, tmp_path: Path, name: str, code: int
) -> None:
    app, client, auth = env
    data_root = app.state.ctx.data.root
    uid = _new(client, auth)
    before_data = _tree(data_root)
    before_tmp = _tree(tmp_path)
    r = _chunk(client, auth, uid, name, b"secret")
    assert r.status_code == code, r.text
    assert isinstance(r.json()["detail"], str) and r.json()["detail"].endswith(".")
    assert _tree(data_root) == before_data
    assert _tree(tmp_path) == before_tmp
    assert not Path("/etc/escape.csv").exists()


def test_a_symlink_in_the_copy_is_never_followed(env: Any, tmp_path: Path) -> None:
    app, client, auth = env
    uid = _new(client, auth)
    outside = tmp_path / "outside"
    outside.mkdir()
    copy = app.state.ctx.data.root / "uploads" / uid / "trip"
    os.symlink(outside, copy / "link")
    os.symlink(outside / "f.csv", copy / "f.csv")
    r = _chunk(client, auth, uid, "link/escape.csv", b"secret")
    assert r.status_code == 409, r.text
    r = _chunk(client, auth, uid, "f.csv", b"secret", offset=0)
    assert r.status_code == 409, r.text
    r = _chunk(client, auth, uid, "f.csv", b"secret", offset=6)
    assert r.status_code == 409, r.text
    assert list(outside.iterdir()) == []


def test_limits_on_size_count_and_chunk_order(env: Any) -> None:
    app, client, auth = env
    too_big = client.post(
        "/api/uploads", json={"file_count": 1, "total_size": 65 * 1024}, headers=auth
    )
    assert too_big.status_code == 413
    too_many = client.post("/api/uploads", json={"file_count": 6, "total_size": 1}, headers=auth)
    assert too_many.status_code == 422
    # Announced within the limits, but more arrives than was announced.
    uid = _new(client, auth)
    copy = app.state.ctx.data.root / "uploads" / uid / "trip"
    for i in range(5):
        assert _chunk(client, auth, uid, f"f{i}.csv", b"1").status_code == 200
    assert _chunk(client, auth, uid, "f5.csv", b"1").status_code == 422
    assert not (copy / "f5.csv").exists()
    big = b"x" * (48 * 1024)
    assert _chunk(client, auth, uid, "f0.csv", big, offset=1).status_code == 200
    assert _chunk(client, auth, uid, "f0.csv", big, offset=1 + len(big)).status_code == 413
    assert (copy / "f0.csv").stat().st_size == 1 + len(big)
    # A chunk at the wrong offset, a second start, and bad base64.
    assert _chunk(client, auth, uid, "f1.csv", b"1", offset=5).status_code == 409
    assert _chunk(client, auth, uid, "f1.csv", b"2", offset=0).status_code in (409, 422)
    assert (copy / "f1.csv").read_bytes() == b"1"
    bad = client.post(
        f"/api/uploads/{uid}/chunks",
        json={"path": "g.csv", "offset": 0, "data": "not base64!"},
        headers=auth,
    )
    assert bad.status_code == 422
    assert not (copy / "g.csv").exists()


def test_unknown_upload_and_empty_upload(env: Any) -> None:
    _, client, auth = env
    missing = "0" * 32
    assert _chunk(client, auth, missing, "a.csv", b"1").status_code == 404
    assert client.post("/api/uploads/not-hex/chunks", json={}, headers=auth).status_code == 422
    uid = _new(client, auth)
    assert client.post(f"/api/uploads/{uid}/session", json={}, headers=auth).status_code == 422
    assert client.delete(f"/api/uploads/{uid}", headers=auth).status_code == 204
    assert _chunk(client, auth, uid, "a.csv", b"1").status_code == 404


def test_an_upload_of_nothing_but_os_files_is_refused_at_the_drop_and_leaves_nothing(
    env: Any,
) -> None:
    """Issue 21: a folder holding only what a file manager leaves was uploaded,
    became a session, and its run said "The folder <data>/uploads/<hex>/… is
    empty": an internal path, a session of nothing. Now it is refused when the
    upload is finished, in the sentence a folder given by path gets."""
    app, client, auth = env
    uid = _new(client, auth, name="nothing here")
    for name in (".DS_Store", "Thumbs.db", "._a.csv"):
        assert _chunk(client, auth, uid, name, b"\0\0\0\1Bud1").status_code == 200
    answer = client.post(f"/api/uploads/{uid}/session", json={}, headers=auth)
    assert answer.status_code == 422
    body = answer.json()
    assert body["text"] == {"key": "folder.empty", "params": {"folder": "nothing here"}}
    assert body["detail"].startswith("The folder nothing here is empty;")
    assert "uploads" not in body["detail"]
    assert client.get("/api/sessions", headers=auth).json() == []
    assert not (app.state.ctx.data.root / "uploads" / uid).exists()


def test_folder_name_is_reduced_to_one_safe_part(env: Any) -> None:
    app, client, auth = env
    for name, expected in (
        ("../..", "upload"),
        ("a/b", "upload"),
        ("实验 1", "实验 1"),
        ("", "upload"),
    ):
        uid = _new(client, auth, name=name)
        root = app.state.ctx.data.root / "uploads" / uid
        assert [p.name for p in root.iterdir()] == [expected]
