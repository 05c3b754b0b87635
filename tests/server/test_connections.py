"""Idle and slow sockets cannot lock the window out of its own sidecar.

An attack run held 1,100 idle unauthenticated sockets open and an authorized
request then failed. These tests hold 2,000 (some sending half a request head)
against a real `labwright serve` process and a real uvicorn server, and check
the effect: the authorized request succeeds, the server holds no more than its
cap of connections, and a silent socket is closed by the header deadline.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from labwright.server.connections import MAX_CONNECTIONS, GuardedH11Protocol

pytestmark = [pytest.mark.smoke, pytest.mark.slow]

IDLE_SOCKETS = 2000


def _raise_fd_limit(need: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            pytest.fail(f"this test needs {need} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


@pytest.fixture
def sidecar(_isolated_home: Path) -> Iterator[tuple[int, str, int]]:
    token = secrets.token_hex(32)
    child = subprocess.Popen(
        [sys.executable, "-m", "labwright", "serve", "--port", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(token.encode() + b"\n")
    child.stdin.flush()
    port = int(json.loads(child.stdout.readline())["port"])
    try:
        yield port, token, child.pid
    finally:
        child.stdin.close()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_two_thousand_idle_sockets_do_not_lock_out_the_window(
    sidecar: tuple[int, str, int],
) -> None:
    port, token, pid = sidecar
    _raise_fd_limit(IDLE_SOCKETS + 512)
    held: list[socket.socket] = []
    try:
        for i in range(IDLE_SOCKETS):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
            except OSError:
                continue  # the backlog was full for a moment; the next one gets in
            if i % 3 == 0:  # a slow-loris head that never ends
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        assert len(held) > IDLE_SOCKETS // 2
        response = httpx.get(
            f"http://127.0.0.1:{port}/api/health",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert response.status_code == 200
        # The effect, not only the answer: the server did not keep them all.
        assert _open_fds(pid) < MAX_CONNECTIONS + 100
    finally:
        for s in held:
            s.close()


class _QuickDeadline(GuardedH11Protocol):
    header_timeout = 0.5
    max_connections = 8


@pytest.fixture
def quick_server() -> Iterator[int]:
    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        assert scope["type"] == "http"
        await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
        await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, http=_QuickDeadline, log_level="error", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    while not server.started:
        threading.Event().wait(0.02)
    yield port
    server.should_exit = True
    thread.join(10)
    sock.close()


def _closed_by_server(s: socket.socket, wait: float) -> bool:
    s.settimeout(wait)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_silent_socket_is_closed_at_the_header_deadline(quick_server: int) -> None:
    silent = socket.create_connection(("127.0.0.1", quick_server))
    slow = socket.create_connection(("127.0.0.1", quick_server))
    slow.sendall(b"GET / HTTP/1.1\r\n")
    assert _closed_by_server(silent, wait=20)
    assert _closed_by_server(slow, wait=20)


def test_a_full_server_drops_the_oldest_idle_socket_not_a_new_request(quick_server: int) -> None:
    first = socket.create_connection(("127.0.0.1", quick_server))
    others = [socket.create_connection(("127.0.0.1", quick_server)) for _ in range(12)]
    assert _closed_by_server(first, wait=20)
    # Twelve over a cap of eight in one burst: the oldest five are gone, not
    # the same one closed five times.
    assert sum(_closed_by_server(s, wait=0.5) for s in others[:4]) == 4
    assert httpx.get(f"http://127.0.0.1:{quick_server}/", timeout=20).text == "ok"
    for s in [first, *others]:
        s.close()
