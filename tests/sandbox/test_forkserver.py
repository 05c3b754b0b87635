"""The warm fork-server: no secrets in the zygote, children cannot touch it,
and any failure falls back to a cold spawn."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from labwright.sandbox import forkserver
from labwright.sandbox.forkserver import default_server, shutdown_default_server
from labwright.sandbox.runner import remove_work_dir, run_code

from .conftest import requires_confinement

pytestmark = [
    pytest.mark.smoke,
    requires_confinement,
    pytest.mark.skipif(not forkserver.supported(), reason="fork-server runs on Linux only"),
]

_PLOT = "plt.plot([1, 2, 3])\nplt.savefig(OUT)"


def _zygote_pid() -> int:
    server = default_server()
    assert server is not None and server._proc is not None
    return server._proc.pid


def test_zygote_environment_has_no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    shutdown_default_server()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-lw-zygote-canary")
    monkeypatch.setenv("PYTHONPATH", "/nonexistent/lw-canary-path")
    try:
        environ = Path(f"/proc/{_zygote_pid()}/environ").read_bytes()
        assert b"lw-zygote-canary" not in environ and b"lw-canary-path" not in environ
        assert b"MPLBACKEND=Agg" in environ  # it is the scrubbed environment
    finally:
        shutdown_default_server()


def test_child_cannot_kill_the_zygote(fork_server: None) -> None:
    pid = _zygote_pid()
    res = run_code(
        f"import os, signal\nos.kill({pid}, signal.SIGKILL)\nos.kill(os.getppid(), signal.SIGKILL)",
        data_root=None,
        policy=False,
        audit_hook=False,
        mode="fork",
    )
    remove_work_dir(res.work_dir)
    assert res.mode == "fork" and res.returncode != 0
    os.kill(pid, 0)  # still alive (raises if not)
    assert _zygote_pid() == pid


def test_zygote_restarts_after_dying(fork_server: None) -> None:
    server = default_server()
    assert server is not None and server._proc is not None
    server._proc.kill()
    server._proc.wait()
    res = run_code(_PLOT, data_root=None, mode="fork")
    remove_work_dir(res.work_dir)
    assert res.ok and res.mode == "fork"


def test_falls_back_to_cold_when_zygote_cannot_start(monkeypatch: pytest.MonkeyPatch) -> None:
    shutdown_default_server()
    monkeypatch.setattr(
        forkserver, "python_command", lambda script, env: [sys.executable, "-c", "pass"]
    )
    try:
        res = run_code(_PLOT, data_root=None, mode="auto")
        remove_work_dir(res.work_dir)
        assert res.ok and res.mode == "cold"
    finally:
        shutdown_default_server()
