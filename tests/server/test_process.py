"""The sidecar as a real child process: token on stdin, handshake, a real offline run, exit on EOF.

This is what the desktop shell does. It needs a TeX engine for the PDF; without
one the test is skipped (the rest of the suite does not need TeX).
"""

from __future__ import annotations

import io
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import IO, Any

import httpx
import pytest

pytestmark = [pytest.mark.smoke, pytest.mark.slow]


def _lines(stream: IO[bytes]) -> queue.Queue[bytes]:
    """Read a pipe in a thread so the test can wait for a line with a timeout."""
    q: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        for line in iter(stream.readline, b""):
            q.put(line)
        q.put(b"")

    threading.Thread(target=pump, daemon=True).start()
    return q


def _follow(
    client: httpx.Client, run_id: int, stop_after: str | None = None
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    with client.stream("GET", f"/api/runs/{run_id}/events") as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data:"):
                events.append(json.loads(line[5:]))
                if stop_after is not None and events[-1]["type"] == stop_after:
                    break
    return events


def _start_sidecar(token: str) -> tuple[subprocess.Popen[bytes], int, queue.Queue[bytes]]:
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "labwright",
            "serve",
            "--port",
            "0",
            "--parent-pid",
            str(os.getpid()),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(token.encode() + b"\n")
    child.stdin.flush()
    out = _lines(child.stdout)
    handshake = json.loads(out.get(timeout=60))
    assert set(handshake) >= {"port", "version"}
    return child, int(handshake["port"]), out


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX for the PDF")
def test_sidecar_process_end_to_end(examples_dir: Path, _isolated_home: Path) -> None:
    token = secrets.token_hex(32)  # 256 bits
    child, port, stdout = _start_sidecar(token)
    try:
        # The token is in neither argv nor the environment (Linux shows both in /proc).
        proc = Path(f"/proc/{child.pid}")
        if proc.is_dir():
            assert token.encode() not in (proc / "cmdline").read_bytes()
            assert token.encode() not in (proc / "environ").read_bytes()
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=120) as anonymous:
            assert anonymous.get("/api/health").status_code == 401
        client = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=300
        )
        with client:
            assert client.get("/api/health").json()["status"] == "ok"
            folder = examples_dir / "pendulum"
            before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
            sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
            run = client.post(f"/api/sessions/{sid}/runs", json={})
            assert run.status_code == 200
            run_id = run.json()["id"]
            events = _follow(client, run_id)
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert events[-1]["type"] == "done"
            milestones = [e["payload"] for e in events if e["type"] == "milestone"]
            assert milestones and all(m["total"] == milestones[0]["total"] for m in milestones)
            assert client.get(f"/api/runs/{run_id}").json()["status"] == "done"
            version_no = events[-1]["payload"]["version_no"]
            assert version_no == 1

            pdf = client.get(f"/api/sessions/{sid}/versions/{version_no}/export/pdf")
            assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
            from pypdf import PdfReader

            assert len(PdfReader(io.BytesIO(pdf.content)).pages) >= 1
            archive = client.get(f"/api/sessions/{sid}/versions/{version_no}/export/zip")
            assert archive.status_code == 200
            with zipfile.ZipFile(io.BytesIO(archive.content)) as zf:
                names = zf.namelist()
                assert "main.tex" in names and "latexmkrc" in names
                assert any(n.startswith("figures/") for n in names)
                assert zf.testzip() is None

            # A second run, interrupted by the parent going away.
            second = client.post(f"/api/sessions/{sid}/runs", json={}).json()["id"]
            _follow(client, second, stop_after="milestone")
        assert child.stdin is not None
        child.stdin.close()  # the shell is gone
        child.wait(timeout=5)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.stderr is not None
    log = child.stderr.read()
    assert token.encode() not in log
    # Nothing else was ever printed on stdout after the one handshake line.
    assert stdout.get(timeout=5) == b""
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before

    from labwright.store import Store

    with Store.open() as store:
        assert store.get_run(run_id).status == "done"
        # The offline build takes seconds (figures, XeLaTeX); it was cut at its first milestone.
        assert store.get_run(second).status == "interrupted"
        tail = store.events_after(second)
        assert tail[-1].type == "done" and tail[-1].payload["ok"] is False
        assert sum(e.type == "done" for e in tail) == 1


def test_sidecar_refuses_a_missing_or_weak_token() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "labwright", "serve", "--port", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = child.communicate(b"short\n", timeout=60)
    assert child.returncode == 2
    assert out == b""  # no handshake, no port
    assert b"token" in err


def test_sidecar_exits_when_the_parent_pid_dies(_isolated_home: Path) -> None:
    """--parent-pid: the watchdog notices a dead parent even while stdin stays open."""
    token = secrets.token_urlsafe(32)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "labwright",
            "serve",
            "--port",
            "0",
            "--parent-pid",
            str(sleeper.pid),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(token.encode() + b"\n")
        child.stdin.flush()
        assert json.loads(_lines(child.stdout).get(timeout=60))["port"] > 0
        sleeper.kill()
        sleeper.wait()
        child.wait(timeout=15)  # stdin is still open: only the watchdog can end it
        assert child.returncode == 0
    finally:
        for p in (child, sleeper):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_browser_mode_opens_a_url_with_the_token_in_the_fragment(
    tmp_path: Path, _isolated_home: Path
) -> None:
    """`serve --open`: the token is made here, travels only in the URL fragment, and works."""
    ui = tmp_path / "dist"
    ui.mkdir()
    (ui / "index.html").write_text("<!doctype html><title>Labwright UI</title>", encoding="utf-8")
    opened = tmp_path / "opened.txt"
    recorder = tmp_path / "browser.py"
    recorder.write_text(
        "import sys, pathlib\n"
        f"pathlib.Path({str(opened)!r}).write_text(sys.argv[1], encoding='utf-8')\n",
        encoding="utf-8",
    )
    # webbrowser runs $BROWSER with the URL: a recorder stands in for the user's browser.
    env = {**os.environ, "BROWSER": f"{sys.executable} {recorder} %s"}
    child = subprocess.Popen(
        [sys.executable, "-m", "labwright", "serve", "--open", "--ui-dir", str(ui)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert child.stdout is not None
        port = json.loads(_lines(child.stdout).get(timeout=60))["port"]
        deadline = 60.0
        import time

        start = time.monotonic()
        # The recorder creates the file before it writes the URL: wait for the URL itself.
        url = ""
        while "#token=" not in url and time.monotonic() - start < deadline:
            time.sleep(0.05)
            url = opened.read_text(encoding="utf-8") if opened.exists() else ""
        assert url.startswith(f"http://127.0.0.1:{port}/#token=")
        token = url.split("#token=", 1)[1]
        assert len(token) >= 43
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            page = client.get("/")
            assert page.status_code == 200 and "Labwright UI" in page.text
            assert client.get("/api/health").status_code == 401
            ok = client.get("/api/health", headers={"Authorization": f"Bearer {token}"})
            assert ok.status_code == 200
        child.terminate()
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.stderr is not None
    assert token.encode() not in child.stderr.read()


def test_browser_mode_without_a_browser_prints_the_address_to_open(
    tmp_path: Path, _isolated_home: Path
) -> None:
    """With no browser to start, the terminal shows the URL with its token, once."""
    env = {**os.environ, "BROWSER": "false"}  # a browser command that fails
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "labwright", "serve", "--open"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stderr is not None
        port = json.loads(_lines(child.stdout).get(timeout=60))["port"]
        line = ""
        for line in child.stderr:
            if "Open this address" in line:
                break
        url = line.split("Open this address in your browser: ", 1)[1].strip()
        assert url.startswith(f"http://127.0.0.1:{port}/#token=")
        token = url.split("#token=", 1)[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            ok = client.get("/api/health", headers={"Authorization": f"Bearer {token}"})
            assert ok.status_code == 200
    finally:
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
