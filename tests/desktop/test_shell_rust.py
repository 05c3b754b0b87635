"""The shell's Rust checks, so they count in the README's test command:
`cargo fmt --check`, `cargo clippy -D warnings` and `cargo test` (handshake
parsing, the start/stop sequence against real child processes, the rotating
log, the state the UI reads)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.desktop.frozen import ROOT

SHELL = ROOT / "src-tauri"
pytestmark = [
    # Cold builds (Tauri, PyInstaller, the TeX recording) run in these tests' fixtures.
    pytest.mark.timeout(3600),
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("cargo") is None, reason="needs Rust (cargo)"),
]


def _cargo(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    # Same features and profile as the app build, so these reuse its crates.
    return subprocess.run(
        ["cargo", *args], cwd=SHELL, env=env, capture_output=True, text=True, timeout=3000
    )


def test_cargo_fmt_check() -> None:
    done = _cargo("fmt", "--check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_cargo_clippy_denies_warnings() -> None:
    done = _cargo("clippy", "--release", "--locked", "--all-targets", "--", "-D", "warnings")
    assert done.returncode == 0, done.stderr[-6000:]


def test_cargo_test() -> None:
    done = _cargo("test", "--release", "--locked")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " 0 failed" in done.stdout and "test result: ok" in done.stdout


def test_shell_grants_the_page_only_what_the_contract_needs() -> None:
    import json

    cap = json.loads((SHELL / "capabilities" / "main-window.json").read_text(encoding="utf-8"))
    assert sorted(cap["permissions"]) == sorted(
        [
            "core:event:allow-listen",
            "core:event:allow-unlisten",
            "allow-sidecar-info",
            "allow-pick-folder",
            "allow-save-export",
        ]
    )
    conf = json.loads((SHELL / "tauri.conf.json").read_text(encoding="utf-8"))
    csp = conf["app"]["security"]["csp"]
    assert csp["default-src"] == "'self'" and csp["script-src"] == "'self'"
    assert "unsafe-eval" not in json.dumps(csp) and csp["object-src"] == "'none'"
    # The API is reached only on loopback, never a remote host.
    hosts = csp["connect-src"].split()
    assert all(
        h in ("'self'", "ipc:", "http://ipc.localhost") or h.startswith("http://127.0.0.1:")
        for h in hosts
    )
    assert conf["app"]["withGlobalTauri"] is False
