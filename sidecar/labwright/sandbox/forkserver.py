"""Parent side of the warm fork-server (POSIX only).

Starting Python and importing numpy/matplotlib costs about a second per figure;
the zygote pays it once. Any trouble with the zygote (it died, replied
garbage, hung) stops it and raises ForkServerError; the runner then falls back
to a cold spawn for that run, and the next run starts a new zygote.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .env import scrubbed_env
from .fontcache import seed_mplconfig
from .spawn import (
    NEW_SESSION,
    ProcessOutcome,
    creationflags,
    kill_tree,
    python_command,
    write_bootstrap,
)

_START_TIMEOUT = 120.0
_REPLY_GRACE = 15.0


class ForkServerError(RuntimeError):
    """The fork-server could not run the job; fall back to a cold spawn."""


class ForkServer:
    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir: Path | None = None
        self._lock = threading.Lock()
        self._buf = b""

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        with self._lock:
            self._start_locked()

    def _start_locked(self) -> None:
        if self.alive:
            return
        self._stop_locked()
        self._dir = Path(tempfile.mkdtemp(prefix="lw-zygote-")).resolve()
        seed_mplconfig(self._dir / ".mpl")
        env = scrubbed_env(self._dir)
        cmd = python_command(write_bootstrap(self._dir), env)
        log = open(self._dir / "zygote.log", "wb")  # noqa: SIM115 - owned by the process
        try:
            self._proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=str(self._dir),
                env=env,
                close_fds=True,
                start_new_session=NEW_SESSION,
                creationflags=creationflags(),
            )
        except OSError as exc:
            self._stop_locked()
            raise ForkServerError(f"zygote could not be started: {exc}") from exc
        finally:
            log.close()
        self._buf = b""
        try:
            reply = self._read_reply(time.monotonic() + _START_TIMEOUT)
        except (OSError, ValueError, ForkServerError) as exc:
            self._stop_locked()
            raise ForkServerError(f"zygote did not start: {exc}") from exc
        if not reply.get("ready"):
            self._stop_locked()
            raise ForkServerError(f"zygote did not start: {reply}")

    def run(self, job_path: Path, wall_seconds: float) -> ProcessOutcome:
        with self._lock:
            try:
                self._start_locked()
                assert self._proc is not None and self._proc.stdin is not None
                line = json.dumps({"job": str(job_path), "wall": wall_seconds}) + "\n"
                self._proc.stdin.write(line.encode())
                self._proc.stdin.flush()
                reply = self._read_reply(time.monotonic() + wall_seconds + _REPLY_GRACE)
            except (OSError, ValueError, ForkServerError) as exc:
                self._stop_locked()
                raise ForkServerError(str(exc)) from exc
            if "timed_out" not in reply:
                self._stop_locked()
                raise ForkServerError(f"unexpected zygote reply: {reply}")
            code = reply.get("returncode")
            return ProcessOutcome(code if isinstance(code, int) else None, bool(reply["timed_out"]))

    def _read_reply(self, deadline: float) -> dict[str, object]:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not sel.select(remaining):
                    raise ForkServerError("zygote did not answer in time")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise ForkServerError("zygote exited")
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ForkServerError("malformed zygote reply")
        return data

    def stop(self) -> None:
        with self._lock:
            self._stop_locked()

    def _stop_locked(self) -> None:
        if self._proc is not None:
            kill_tree(self._proc)
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    if stream:
                        stream.close()
                except OSError:
                    pass
            self._proc = None
        if self._dir is not None:
            try:
                shutil.rmtree(self._dir)
            except OSError as exc:
                print(f"labwright: could not remove the zygote folder: {exc}", file=sys.stderr)
            self._dir = None


_default: ForkServer | None = None
_default_failed = False
_default_lock = threading.Lock()


def supported() -> bool:
    # Linux only: on macOS, forking after numpy/Accelerate and Objective-C
    # runtimes are loaded is unsafe, so macOS (like Windows) cold-spawns.
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def default_server() -> ForkServer | None:
    """The shared fork-server, started on first use; None where unsupported or
    after it failed to start (callers then cold-spawn)."""
    global _default, _default_failed
    if not supported():
        return None
    with _default_lock:
        if _default is None and not _default_failed:
            server = ForkServer()
            try:
                server.start()
            except (OSError, ForkServerError) as exc:
                print(
                    f"labwright: fork-server unavailable ({exc}); using cold spawn", file=sys.stderr
                )
                _default_failed = True
                return None
            _default = server
            atexit.register(server.stop)
        return _default


def shutdown_default_server() -> None:
    global _default, _default_failed
    with _default_lock:
        if _default is not None:
            _default.stop()
        _default = None
        _default_failed = False
