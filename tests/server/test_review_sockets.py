"""Review of issue 11, class 8: hostile sockets the owners' test does not
send -- unauthenticated request heads that promise a large body and never
send it (or trickle it), heads split byte by byte, pipelined heads, and a
404 under the static mount -- against a real `labwright serve` process."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from labwright.server.connections import MAX_CONNECTIONS

from .test_connections import _open_fds, _raise_fd_limit, sidecar  # noqa: F401

pytestmark = [pytest.mark.smoke, pytest.mark.slow]

HOLD = 600


def _authorized_ok(port: int, token: str) -> int:
    return httpx.get(
        f"http://127.0.0.1:{port}/api/health",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    ).status_code


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_slow_bodies_and_split_heads_do_not_lock_out_the_window(
    sidecar: tuple[int, str, int],  # noqa: F811
) -> None:
    port, token, pid = sidecar
    _raise_fd_limit(HOLD + 512)
    held: list[socket.socket] = []
    try:
        for i in range(HOLD):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
            except OSError:
                continue
            kind = i % 3
            if kind == 0:  # a body promised and never sent
                s.sendall(
                    b"POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{" % port
                )
            elif kind == 1:  # chunked, one byte now and then
                s.sendall(
                    b"POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n" % port
                )
            else:  # pipelined heads, the last one unfinished
                s.sendall(
                    b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n" * 4 + b"GET / HTTP/1.1\r\n"
                )
            held.append(s)
        assert len(held) > HOLD // 2
        assert _authorized_ok(port, token) == 200
        # Keep trickling for a while: the window must still get in.
        for s in held[1::3][:50]:
            try:
                s.sendall(b"1\r\n \r\n")
            except OSError:
                pass
        time.sleep(1.0)
        assert _authorized_ok(port, token) == 200
        assert _open_fds(pid) < MAX_CONNECTIONS + 100
    finally:
        for s in held:
            s.close()


def _closed(s: socket.socket, wait: float) -> bool:
    """Whether the peer closed `s` (an EOF or a reset), waiting at most `wait` seconds."""
    s.settimeout(wait)
    try:
        return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_a_head_sent_byte_by_byte_is_cut_at_the_deadline_not_kept(
    sidecar: tuple[int, str, int],  # noqa: F811
) -> None:
    """A slow-loris head that keeps sending one byte at a time must not keep
    resetting the header deadline (it counts from the connection opening).

    The deadline is the server's: it starts when the server accepts, which
    on a loaded machine can be many seconds after the handshake (the sidecar
    answers the handshake before its heavy imports, and connections wait in
    the backlog meanwhile). So the test does not time the server with its
    own clock. A control connection, opened just after the trickling one
    and sending nothing, is cut by the same deadline; the trickling one,
    accepted first, has the earlier deadline, so once the control is cut it
    must be cut too, however long the server took to get there.
    """
    port, token, _pid = sidecar
    trickle = socket.create_connection(("127.0.0.1", port), timeout=5)
    head = iter(b"GET /api/health HTTP/1.1\r\nX-Pad: " + b"a" * 7000)  # never completes
    trickle.sendall(bytes([next(head)]))
    control = socket.create_connection(("127.0.0.1", port), timeout=5)
    # Only a bound for the failure case (a deadline that never fires); far
    # beyond the 10 s deadline plus any start-up on a loaded machine.
    give_up = time.monotonic() + 180
    cut_while_sending = False
    try:
        while time.monotonic() < give_up and not _closed(control, 0.0001):
            byte = next(head, None)
            if byte is None:
                break  # the pad ran out: the head was kept for ~140 s or more
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                cut_while_sending = True
                break
            time.sleep(0.02)
        else:
            assert time.monotonic() < give_up, "even an idle connection was never cut"
        # The control is cut (or the trickle was): the trickle's earlier deadline has
        # passed and its close went out first. A short wait, well under the 10 s
        # deadline, so a deadline that each byte had pushed back cannot fire in it.
        assert cut_while_sending or _closed(trickle, 2.0), (
            "a trickled request head outlived the header deadline"
        )
    finally:
        trickle.close()
        control.close()
    assert _authorized_ok(port, token) == 200


def test_static_404_is_a_404(sidecar: tuple[int, str, int]) -> None:  # noqa: F811
    port, _token, _pid = sidecar
    for path in ("/assets/none-such.js", "/assets/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd"):
        r = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10)
        # 401 where the static mount is not served (no UI build): never a 500.
        assert r.status_code in (400, 401, 404), (path, r.status_code)
        assert "Traceback" not in r.text and "root:x:0" not in r.text
