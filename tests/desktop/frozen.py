"""Helpers for the desktop tests: freeze the sidecar once, start it the way
the Tauri shell does, and find processes it may have left behind."""

from __future__ import annotations

import json
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "build" / "sidecar" / "dist" / "labwright-sidecar"
EXE = BUNDLE / ("labwright-sidecar.exe" if sys.platform == "win32" else "labwright-sidecar")


def freeze() -> Path:
    """Build the onedir bundle unless it is newer than every input; its executable."""
    subprocess.run(
        ["bash", str(ROOT / "build_scripts" / "freeze.sh"), "--if-stale"],
        check=True,
        cwd=ROOT,
    )
    return EXE


def lines(stream: IO[bytes]) -> queue.Queue[bytes]:
    """Read a pipe in a thread, so a test can wait for a line with a timeout."""
    q: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        for line in iter(stream.readline, b""):
            q.put(line)
        q.put(b"")

    threading.Thread(target=pump, daemon=True).start()
    return q


@dataclass
class Started:
    proc: subprocess.Popen[bytes]
    token: str
    handshake: dict[str, object]
    stdout: queue.Queue[bytes]
    stderr: queue.Queue[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.handshake['port']}"


def start_like_the_shell(exe: Path, *, env: dict[str, str] | None = None) -> Started:
    """What src-tauri/src/sidecar.rs does: argv with our pid, token + newline on
    stdin (kept open), one JSON handshake line on stdout."""
    token = secrets.token_hex(32)
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", "0", "--parent-pid", str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=exe.parent,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(token.encode() + b"\n")
    proc.stdin.flush()
    out = lines(proc.stdout)
    err = lines(proc.stderr)
    first = out.get(timeout=120)
    assert first, "the sidecar exited before its handshake"
    return Started(proc, token, json.loads(first), out, err)


def _proc_dirs() -> list[Path]:
    return [p for p in Path("/proc").iterdir() if p.name.isdigit()]


def _alive(pid_dir: Path) -> bool:
    try:
        stat = (pid_dir / "stat").read_text()
    except OSError:
        return False
    return not stat.rsplit(")", 1)[1].split()[0] == "Z"


def leftovers(bundle: Path, home: Path) -> list[str]:
    """Live processes that belong to the sidecar: running an executable of the
    bundle (the server, plot workers, sandbox children, the TeX launcher), or
    working inside its data directory (XeTeX in a build dir)."""
    found = []
    bundle_s, home_s = str(bundle.resolve()), str(home.resolve())
    for d in _proc_dirs():
        if int(d.name) == os.getpid() or not _alive(d):
            continue
        try:
            exe = os.readlink(d / "exe")
        except OSError:
            exe = ""
        try:
            cwd = os.readlink(d / "cwd")
        except OSError:
            cwd = ""
        if exe.startswith(bundle_s) or cwd.startswith(home_s):
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{d.name}: {cmd.strip()} (cwd {cwd})")
    return found


def assert_nothing_left(bundle: Path, home: Path, within: float = 5.0) -> None:
    """No process of the sidecar outlives `within` seconds. A child killed by
    its parent-death signal is reaped asynchronously: for a few milliseconds
    after the sidecar is gone it may still be tearing down its memory (its
    cmdline already empty), so one immediate look would race it."""
    deadline = time.monotonic() + within
    while leftovers(bundle, home) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert leftovers(bundle, home) == []


def pid_alive(pid: int) -> bool:
    return _alive(Path(f"/proc/{pid}"))
