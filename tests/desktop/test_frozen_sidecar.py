"""The frozen sidecar (PyInstaller onedir), started as the Tauri shell starts it.

Handshake; a folder built to a PDF through the API (offline writer: plot
worker via self-dispatch, XeLaTeX through the confined launcher); a figure
drawn by model code in the sandbox (the real agent against the fake
OpenAI-compatible server); exit within 5 s of stdin closing, and within 5 s
of the parent being killed with SIGKILL, leaving no process behind.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from labwright.testing.fake_openai import FakeOpenAI, Turn
from tests.agent.conftest import ScriptedLab
from tests.desktop.frozen import BUNDLE, assert_nothing_left, lines, pid_alive, start_like_the_shell

pytestmark = [
    # Cold builds (Tauri, PyInstaller, the TeX recording) run in these tests' fixtures.
    pytest.mark.timeout(3600),
    pytest.mark.smoke,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX"),
]

FIGURE_CODE = """
import numpy as np
import matplotlib.pyplot as plt
data = np.genfromtxt(srcpath('periods.csv'), delimiter=',', skip_header=1)
plt.plot(data[:, 0], data[:, 3], 'o')
plt.xlabel('L (m)')
plt.ylabel('T^2 (s^2)')
plt.savefig(OUT)
"""


def _wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.05)
    return not pid_alive(pid)


def _wait_run(client: httpx.Client, run_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 280
    while time.monotonic() < deadline:
        run: dict[str, Any] = client.get(f"/api/runs/{run_id}").json()
        if run["status"] not in ("queued", "running"):
            return run
        time.sleep(0.2)
    raise AssertionError("the run did not end")


def test_frozen_sidecar_builds_draws_and_exits_on_eof(
    frozen_exe: Path, examples_dir: Path, tmp_path: Path, _isolated_home: Path, fake_llm: FakeOpenAI
) -> None:
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    lab = ScriptedLab()
    explore = [
        Turn.tool("list_dir", {"path": "."}),
        Turn.tool("make_figure", {"name": "period", "code": FIGURE_CODE, "source": "periods.csv"}),
        Turn.tool("finish_exploration", {"experiment": "simple pendulum", "goal": "measure g"}),
    ]
    lab.overrides["explore"] = lambda messages, n: explore[min(n, len(explore) - 1)]
    fake_llm.on_messages(lab.answer)

    started = start_like_the_shell(frozen_exe)
    child = started.proc
    assert started.handshake["pid"] == child.pid
    assert started.token.encode() not in Path(f"/proc/{child.pid}/cmdline").read_bytes()
    auth = {"Authorization": f"Bearer {started.token}"}
    try:
        with httpx.Client(base_url=started.base, headers=auth, timeout=300) as client:
            assert client.get("/api/health").json()["status"] == "ok"
            # Offline: the folder to a PDF.
            sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
            run = client.post(f"/api/sessions/{sid}/runs", json={"mode": "offline"})
            assert run.status_code == 200, run.text
            final = _wait_run(client, run.json()["id"])
            assert final["status"] == "done", final
            versions = client.get(f"/api/sessions/{sid}/versions").json()
            pdf = client.get(f"/api/sessions/{sid}/versions/{versions[-1]['version_no']}/pdf")
            assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
            from pypdf import PdfReader

            assert len(PdfReader(io.BytesIO(pdf.content)).pages) >= 1

            # With a model: its figure code runs in the sandbox, in a child
            # that is the frozen executable re-launched for one script.
            saved = client.put(
                "/api/settings/llm",
                json={
                    "provider": "custom",
                    "base_url": fake_llm.base_url,
                    "models": {"main": "fake-main", "cheap": "fake-cheap"},
                },
            )
            assert saved.status_code == 200, saved.text
            run = client.post(f"/api/sessions/{sid}/runs", json={"mode": "llm"})
            assert run.status_code == 200, run.text
            final = _wait_run(client, run.json()["id"])
            assert final["status"] == "done", final
            tool_results = [
                m.get("content") or ""
                for r in fake_llm.requests
                for m in r.body.get("messages", [])
                if m.get("role") == "tool"
            ]
            assert any("Saved figure 'period'" in t for t in tool_results), tool_results
            last = client.get(f"/api/sessions/{sid}/versions").json()[-1]["version_no"]
            figures = client.get(f"/api/sessions/{sid}/versions/{last}/figures").json()
            assert any("period" in f["name"] for f in figures), figures

        assert child.stdin is not None
        t0 = time.monotonic()
        child.stdin.close()  # the window closed
        child.wait(timeout=5)
        assert time.monotonic() - t0 < 5
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert_nothing_left(BUNDLE, _isolated_home)
    stderr = b"".join(iter(lambda: started.stderr.get(timeout=5), b""))
    assert started.token.encode() not in stderr
    assert started.stdout.get(timeout=5) == b"", "stdout carries only the handshake"


def test_frozen_sidecar_dies_with_its_killed_parent(
    frozen_exe: Path, examples_dir: Path, tmp_path: Path, _isolated_home: Path
) -> None:
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    standin = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("shell_standin.py")), str(frozen_exe)],
        stdout=subprocess.PIPE,
        env={**os.environ},
    )
    try:
        assert standin.stdout is not None
        report = json.loads(lines(standin.stdout).get(timeout=120))
        pid = int(report["handshake"]["pid"])
        base = f"http://127.0.0.1:{report['handshake']['port']}"
        auth = {"Authorization": f"Bearer {report['token']}"}
        with httpx.Client(base_url=base, headers=auth, timeout=120) as client:
            sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
            run_id = client.post(f"/api/sessions/{sid}/runs", json={"mode": "offline"}).json()["id"]
            # Kill the "shell" while the build has children at work.
            deadline = time.monotonic() + 60
            while client.get(f"/api/runs/{run_id}").json()["status"] == "queued":
                assert time.monotonic() < deadline
                time.sleep(0.05)
        t0 = time.monotonic()
        os.kill(standin.pid, signal.SIGKILL)
        standin.wait()
        assert _wait_gone(pid, 5.0), "the sidecar outlived its killed parent by 5 s"
        assert time.monotonic() - t0 < 5.5
    finally:
        if standin.poll() is None:
            standin.kill()
            standin.wait()
    assert_nothing_left(BUNDLE, _isolated_home)
