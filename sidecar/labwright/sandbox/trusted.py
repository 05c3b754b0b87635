"""The backend's side of the trusted worker: one confined process per data folder.

Our own drawing code (the offline writer's figures and fits) and the decoding
of user images run in `trusted_worker`, started through the same spawn path,
scrubbed environment, confinement, audit hook and frozen self-dispatch as
model code (`spawn.python_command`). What differs from a model-code run: no
AST policy (we wrote the code), one process serves many requests, and it is
started early so that its matplotlib import overlaps the caller's work.

Nothing the worker says is trusted: replies are size-capped JSON lines read
under a watchdog, files it leaves are read without following links and
checked by the caller, and requests are handed over through an inbox the
worker can read but not write. A worker that dies or hangs costs the current
request one sentence; the next request starts a fresh worker.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labwright.safety import read_regular

from .confine import confinement_available
from .env import scrubbed_env
from .limits import Limits
from .runner import new_work_dir, read_roots_for, remove_work_dir
from .spawn import NEW_SESSION, bootstrap_text, creationflags, kill_tree, python_command

#: One worker serves a whole build: CPU for every figure and fit of a large
#: folder, the same memory ceiling as a model-code run.
TRUSTED_LIMITS = Limits(cpu_seconds=900, wall_seconds=120.0)
#: Longest reply line accepted (a thumbnail is ~100 kB of base64).
MAX_LINE = 8 * 1024 * 1024
#: A worker nobody talks to exits on its own (a folder read without a build).
IDLE_SECONDS = 300.0
#: Pooled workers nobody holds beyond this many are stopped, oldest first (a
#: server reading many folders must not keep a process per folder).
MAX_POOLED = 2
PROBE_TIMEOUT = 30.0

_BOOTSTRAP = "from labwright.sandbox.trusted_worker import main\nmain({config!r})\n"


class WorkerError(RuntimeError):
    """The worker died, hung, or broke the protocol; the message is one sentence."""


class TrustedWorker:
    """One confined worker process and its request/reply protocol."""

    def __init__(
        self,
        data_root: str | os.PathLike[str] | None,
        *,
        limits: Limits = TRUSTED_LIMITS,
        idle_seconds: float | None = IDLE_SECONDS,
    ) -> None:
        self.data_root = str(Path(data_root).resolve()) if data_root is not None else None
        self.limits = limits
        self.work = new_work_dir()
        # Requests go through a folder the worker may read but not write: it
        # cannot plant a link there that would redirect our next write.
        self.inbox = Path(tempfile.mkdtemp(prefix="lw-inbox-")).resolve()
        available, _ = confinement_available()
        read_roots = read_roots_for(self.data_root, [str(self.inbox)])
        config = {
            "work_dir": str(self.work),
            "data_root": self.data_root,
            "read_roots": read_roots,
            "limits": limits.to_dict(),
            "confine": available,
            "idle_seconds": idle_seconds,
        }
        config_path = self.inbox / "worker.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        script = self.inbox / "run_worker.py"
        script.write_text(
            bootstrap_text(_BOOTSTRAP.format(config=str(config_path))), encoding="utf-8"
        )
        from .fontcache import seed_mplconfig

        seed_mplconfig(self.work / ".mpl", build=False)
        env = scrubbed_env(self.work)
        self._stderr_path = self.inbox / "stderr.txt"
        self._lock = threading.Lock()
        self._ready = False
        self._closed = False
        self.confined = "none"
        self.users = 0  # builds holding it (see `take`)
        with open(self._stderr_path, "wb") as err:
            self._proc = subprocess.Popen(
                python_command(script, env),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                cwd=str(self.work),
                env=env,
                close_fds=True,
                start_new_session=NEW_SESSION,
                creationflags=creationflags(),
            )

    # -- plumbing -------------------------------------------------------------------
    def _readline(self, timeout: float) -> dict[str, Any]:
        """One reply line within `timeout` seconds, or WorkerError (the
        watchdog kills a hung worker, which ends the stream)."""
        stdout = self._proc.stdout
        assert stdout is not None
        timer = threading.Timer(timeout, self.kill)
        timer.start()
        try:
            line = stdout.readline(MAX_LINE)
        finally:
            timer.cancel()
        if not line:
            self.kill()
            raise WorkerError(self._ended("the plotting process stopped"))
        if not line.endswith(b"\n"):
            self.kill()
            raise WorkerError("the plotting process sent a reply that is too long")
        try:
            message = json.loads(line)
        except ValueError:
            self.kill()
            raise WorkerError("the plotting process sent a reply that is not JSON") from None
        if not isinstance(message, dict):
            self.kill()
            raise WorkerError("the plotting process sent a malformed reply")
        return message

    def _ended(self, what: str) -> str:
        code = self._proc.poll()
        if code is not None and code < 0:
            return f"{what} (it was killed by signal {-code})"
        return what

    def _wait_ready(self, timeout: float) -> None:
        if self._ready:
            return
        message = self._readline(timeout)
        if "fatal" in message or not message.get("ready"):
            self.kill()
            raise WorkerError(str(message.get("fatal", "the plotting process could not start")))
        self.confined = str(message.get("confined", "none"))
        self._ready = True

    def request(
        self, op: str, payload: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> Iterator[dict[str, Any]]:
        """Send one request and yield its reply lines (without the end line).

        Raises WorkerError when the worker dies, hangs past `timeout` seconds
        for one line, or breaks the protocol; a handler's own exception comes
        back as a reply {"error": text}.
        """
        wait = self.limits.wall_seconds if timeout is None else timeout
        with self._lock:
            if self._closed or not self.alive:
                raise WorkerError(self._ended("the plotting process is not running"))
            self._wait_ready(max(wait, 60.0))
            stdin = self._proc.stdin
            assert stdin is not None
            try:
                stdin.write(json.dumps({**(payload or {}), "op": op}).encode("utf-8") + b"\n")
                stdin.flush()
            except OSError:
                self.kill()
                raise WorkerError(self._ended("the plotting process stopped")) from None
            finished = False
            try:
                while True:
                    message = self._readline(wait)
                    if message.get("end"):
                        finished = True
                        return
                    yield message
            finally:
                if not finished and self.alive:
                    # The caller stopped listening early: read up to this
                    # request's end line, or the next request would get its
                    # leftovers as replies.
                    self._drain(wait)

    def _drain(self, wait: float) -> None:
        try:
            while not self._readline(wait).get("end"):
                pass
        except WorkerError:
            pass  # it died or broke the protocol: it is killed, the next request says so

    def inbox_path(self, suffix: str) -> Path:
        """A fresh file name in the inbox (the worker can read it, not write it)."""
        return self.inbox / f"{secrets.token_hex(8)}{suffix}"

    def take_output(self, name: str, limit: int) -> bytes | None:
        """Bytes of a file the worker wrote into its directory, read without
        following links (None when it is missing, not a regular file, empty or
        over `limit`); the file is removed."""
        if os.path.basename(name) != name or name.startswith("."):
            return None
        path = self.work / name
        data = read_regular(path, limit=limit + 1)
        try:
            path.unlink()
        except OSError:
            pass
        if not data or len(data) > limit:
            return None
        return data

    def last_error(self, fallback: str) -> str:
        data = read_regular(self._stderr_path, limit=16 * 1024, tail=True)
        text = data.decode("utf-8", "replace").strip() if data else ""
        return text.splitlines()[-1] if text else fallback

    # -- life cycle -----------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def kill(self) -> None:
        if self._proc.poll() is not None:
            return  # reaped: its process-group id may already belong to someone else
        kill_tree(self._proc)  # type: ignore[arg-type]
        try:
            self._proc.wait(timeout=5)  # reaped: `alive` is False from here on
        except subprocess.TimeoutExpired:
            pass

    def release(self) -> None:
        """No more requests: the worker exits now, without us waiting for it,
        so its shutdown overlaps whatever the caller does next."""
        stdin = self._proc.stdin
        if stdin is not None and not stdin.closed:
            try:
                stdin.close()
            except OSError:
                pass

    def close(self) -> None:
        """Let it leave (stdin closed), kill what remains, remove its folders."""
        if self._closed:
            return
        self._closed = True
        self.release()
        try:
            self._proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass
        self.kill()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        from .fontcache import harvest

        harvest(self.work / ".mpl")
        remove_work_dir(self.work)
        shutil.rmtree(self.inbox, ignore_errors=True)

    def __enter__(self) -> TrustedWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- one worker per data folder, shared by reading and drawing -----------------------

_pool_lock = threading.Lock()
_pool: dict[str | None, TrustedWorker] = {}


def _key(data_root: str | os.PathLike[str] | None) -> str | None:
    return str(Path(data_root).resolve()) if data_root is not None else None


def _pooled(key: str | None) -> tuple[TrustedWorker, list[TrustedWorker]]:
    """The live pooled worker for `key` (started when missing) and the idle
    workers evicted to keep the pool small; call with the lock held."""
    stale: list[TrustedWorker] = []
    worker = _pool.pop(key, None)
    if worker is not None and not worker.alive:
        stale.append(worker)
        worker = None
    if worker is None:
        idle = [k for k, w in _pool.items() if w.users <= 0]
        while idle and len(_pool) >= MAX_POOLED:
            stale.append(_pool.pop(idle.pop(0)))
        worker = TrustedWorker(key)
    _pool[key] = worker  # re-inserted: the dict order is the use order
    return worker, stale


def shared_worker(data_root: str | os.PathLike[str] | None) -> TrustedWorker:
    """The pooled worker for this folder (started now when there is none):
    reading the folder's images and then drawing its figures use one process."""
    with _pool_lock:
        worker, stale = _pooled(_key(data_root))
    for old in stale:
        old.close()
    return worker


def prestart(data_root: str | os.PathLike[str] | None) -> None:
    """Start the folder's worker now, before the caller's heavy imports."""
    shared_worker(data_root)


def take(data_root: str | os.PathLike[str] | None) -> TrustedWorker:
    """The folder's worker for a build (started now when there is none); it
    stays pooled, so the build's own folder read uses it too. Hand it back
    with `give_back`, which stops it when no other build uses it."""
    with _pool_lock:
        worker, stale = _pooled(_key(data_root))
        worker.users += 1
    for old in stale:
        old.close()
    return worker


def give_back(worker: TrustedWorker) -> None:
    with _pool_lock:
        worker.users -= 1
        last = worker.users <= 0
        if last and _pool.get(worker.data_root) is worker:
            del _pool[worker.data_root]
    if last:
        worker.close()


def discard(data_root: str | os.PathLike[str] | None = None, *, all_folders: bool = False) -> None:
    """Stop pooled workers nobody took over (one folder's, or all of them)."""
    with _pool_lock:
        keys = list(_pool) if all_folders else [_key(data_root)]
        workers = [_pool.pop(k) for k in keys if k in _pool]
    for worker in workers:
        worker.close()


atexit.register(discard, all_folders=True)
