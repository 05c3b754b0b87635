"""`labwright serve`: run the API as the desktop shell's sidecar, or for a browser.

Sidecar mode (`--port 0`): the parent writes a random per-launch token as the
first line of our stdin, we bind 127.0.0.1 on a port the OS picks, and print
exactly one JSON handshake line on stdout once connections are accepted. After
that stdin stays open; end-of-file means the parent is gone (it crashed or was
killed without cleaning up), so running work is marked interrupted and the
process exits. `--parent-pid` adds a second watchdog for parents that keep the
pipe open while dying (e.g. a wedged shell).

The token never travels through argv or the environment (both are visible to
other local users via `ps` / `/proc`), and never appears in a log line.

The handshake is printed as soon as the socket listens, before FastAPI,
uvicorn and the pipeline are imported (a second or more in a frozen app):
the window can show itself at once, and a request that arrives early waits in
the socket's backlog until the app accepts it. On Linux the sidecar also asks
the kernel for SIGTERM when its parent dies (a parent-death signal), which
covers a shell killed with SIGKILL even before the stdin watcher runs.

Browser mode (`--open`): we make the token ourselves and open the browser at a
URL whose fragment carries it (`#token=...`): fragments are never sent to a
server, so it cannot end up in any request log.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from labwright import __version__
from labwright.messages import say

MIN_TOKEN_CHARS = 32  # 256 bits as hex is 64 chars, as url-safe base64 43; refuse anything weak.
_PARENT_POLL_SECONDS = 1.0


def _bind_loopback(port: int) -> socket.socket:
    """Bind 127.0.0.1 only; never 0.0.0.0, so no other machine can connect."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if sys.platform != "win32":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def read_token(fd: int) -> str | None:
    """The first line of `fd`, stripped; None when it is absent or too weak to trust.

    Read with os.read, byte by byte up to the newline, not through sys.stdin:
    a buffered reader would swallow what follows the line, and a daemon thread
    blocked inside a buffered reader aborts the interpreter at exit.
    """
    raw = bytearray()
    while len(raw) < 4096:
        chunk = os.read(fd, 1)
        if not chunk or chunk == b"\n":
            break
        raw += chunk
    token = raw.decode("ascii", errors="replace").strip()
    if len(token) < MIN_TOKEN_CHARS or not token.isprintable() or " " in token:
        return None
    return token


def _parent_alive(pid: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows CI only
        import ctypes

        synchronize, wait_timeout = 0x00100000, 0x00000102
        handle = ctypes.windll.kernel32.OpenProcess(synchronize, False, pid)
        if not handle:
            return False
        try:
            return ctypes.windll.kernel32.WaitForSingleObject(handle, 0) == wait_timeout
        finally:
            ctypes.windll.kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def die_with_parent() -> bool:
    """Linux: ask for SIGTERM when the parent process ends; True when armed.

    Armed only while the parent that started us is still there: if it died
    before the request (the kernel would then never signal), exit now.
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    parent = os.getppid()
    pr_set_pdeathsig = 1
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:
        os._exit(0)  # the parent went away between our start and the request
    return True


def kill_children() -> None:
    """Linux: SIGKILL every process whose parent we are (plot workers, sandbox
    children and TeX runs, which lead their own sessions). Called on the way
    out, after the runs were told to stop: a child that is busy (a plot worker
    importing matplotlib) would only notice our exit at its next read."""
    if not sys.platform.startswith("linux"):
        return  # Windows: the shell's job object; macOS: the children see EOF
    me = os.getpid()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == me:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass


class _Stopper:
    """Stop requests that may arrive before the server exists (during the
    imports after the handshake): remembered, then applied on attach."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reason: str | None = None
        self._target: Callable[[str], None] | None = None
        self.exit_if_unattached = False

    def request(self, reason: str) -> None:
        with self._lock:
            if self.reason is None:
                self.reason = reason
            target = self._target
            if target is None and self.exit_if_unattached:
                # Still importing: nothing runs yet that needs stopping, and
                # the parent is gone, so leave now rather than after the imports.
                kill_children()
                os._exit(0)
        if target is not None:
            target(reason)

    def attach(self, target: Callable[[str], None]) -> None:
        with self._lock:
            self._target = target
            reason = self.reason
        if reason is not None:
            target(reason)


def serve(
    *,
    port: int = 0,
    parent_pid: int | None = None,
    open_browser: bool = False,
    ui_dir: Path | None = None,
    stdin_fd: int | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run until the parent goes away (sidecar) or until interrupted (browser). Returns an exit code."""
    stdin = stdin_fd if stdin_fd is not None else sys.stdin.fileno()
    if not open_browser and stdin_fd is None:
        die_with_parent()  # a real sidecar process, not a test calling serve()
    if stdout is None:
        # The handshake owns stdout: one line, read by the shell. Anything else
        # printed by any library goes to stderr instead of corrupting it.
        stdout = sys.stdout
        sys.stdout = sys.stderr
    if open_browser:
        token = secrets.token_urlsafe(32)
    else:
        read = read_token(stdin)
        if read is None:
            print(
                "No access token arrived on stdin; start the sidecar from the Labwright window.",
                file=sys.stderr,
            )
            return 2
        token = read

    sock = _bind_loopback(port)
    bound_port = sock.getsockname()[1]
    stopper = _Stopper()
    stopper.exit_if_unattached = stdin_fd is None  # a real process, not a test calling serve()
    # The socket listens: connections made from now on wait in its backlog,
    # so the handshake can go out before the heavy imports below.
    handshake = {"port": bound_port, "version": __version__, "pid": os.getpid()}
    stdout.write(json.dumps(handshake) + "\n")
    stdout.flush()
    if not open_browser:
        threading.Thread(target=_watch_stdin, args=(stdin, stopper.request), daemon=True).start()
    if parent_pid is not None:
        threading.Thread(
            target=_watch_parent, args=(parent_pid, stopper.request), daemon=True
        ).start()

    import uvicorn

    from labwright.server.app import create_app
    from labwright.server.connections import GuardedH11Protocol
    from labwright.server.settings import ServerSettings

    settings = ServerSettings(
        token=token,
        port=bound_port,
        ui_dir=ui_dir if ui_dir is not None else (_default_ui_dir() if open_browser else None),
    )
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,  # request lines are not needed and must never carry secrets
        timeout_graceful_shutdown=2,
        lifespan="on",
        http=GuardedH11Protocol,  # header deadline + connection cap (server/connections.py)
    )
    server = uvicorn.Server(config)

    def stop(reason: str) -> None:
        app.state.runs.shutdown(reason)
        server.should_exit = True

    if open_browser:
        _open_browser(bound_port, token)
    try:
        stopper.attach(stop)
        if stopper.reason is None:
            import asyncio

            asyncio.run(server.serve(sockets=[sock]))
    finally:
        t_stop = time.monotonic()
        app.state.runs.shutdown(say("stop.sidecar_stopped"))
        app.state.ctx.store.close()
        sock.close()
    if stopper.exit_if_unattached:
        # A real sidecar whose work is stopped and whose store is closed:
        # leave without the interpreter's teardown of pandas, scipy and
        # matplotlib, which takes seconds on a busy machine while the shell
        # waits (and would kill us after its grace period). The exit handlers
        # (temporary directories, logging) still run.
        import atexit

        print(f"The sidecar stopped in {time.monotonic() - t_stop:.2f}s.", file=sys.stderr)
        sys.stderr.flush()
        atexit._run_exitfuncs()
        kill_children()
        os._exit(0)
    return 0


def _open_browser(port: int, token: str) -> None:
    import webbrowser

    url = f"http://127.0.0.1:{port}/#token={token}"
    print(f"Labwright is running at http://127.0.0.1:{port}/", file=sys.stderr)
    if not webbrowser.open(url):
        # No browser could be started (a headless machine, an SSH session):
        # the user's own terminal is then the only way in, as with Jupyter.
        # The token is still never logged or sent.
        print(f"Open this address in your browser: {url}", file=sys.stderr)


def _watch_stdin(fd: int, stop: Callable[[str], None]) -> None:
    """Block on stdin; EOF (or a read error) means the parent closed our pipe."""
    try:
        while os.read(fd, 4096):
            pass  # Bytes after the token are reserved; ignore them.
    except OSError:
        pass
    stop(say("stop.window_closed"))


def _watch_parent(pid: int, stop: Callable[[str], None]) -> None:
    while _parent_alive(pid):
        time.sleep(_PARENT_POLL_SECONDS)
    stop(say("stop.window_gone"))


def _default_ui_dir() -> Path | None:
    from labwright.resources import resource_root

    candidate = resource_root() / "ui" / "dist"
    return candidate if candidate.is_dir() else None
