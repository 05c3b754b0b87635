"""tests/desktop/relay.py against a real HTTP server on loopback: requests
arrive with the target's Host (keep-alive, bodies by length and chunked), a
cut breaks an open stream and refuses new connections, a restore lets them in."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.desktop.relay import Relay, relay


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/stream":  # an endless event stream, as a run's events are
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"data: tick\n\n")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                return
        self._answer(f"{self.path} {self.headers['Host']}".encode())

    def do_POST(self) -> None:
        if self.headers.get("Transfer-Encoding") == "chunked":
            body = b""
            while size := int(self.rfile.readline().strip(), 16):
                body += self.rfile.read(size)
                self.rfile.readline()
            self.rfile.readline()
        else:
            body = self.rfile.read(int(self.headers["Content-Length"]))
        self._answer(body + b" " + self.headers["Host"].encode())


@pytest.fixture
def target() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def linked(target: int) -> Iterator[tuple[Relay, int]]:
    with relay() as r:
        r.forward_to(target)
        yield r, target


def test_requests_reach_the_target_with_its_host(linked: tuple[Relay, int]) -> None:
    r, port = linked
    conn = http.client.HTTPConnection("127.0.0.1", r.port, timeout=10)
    conn.request("GET", "/a")
    assert conn.getresponse().read() == f"/a 127.0.0.1:{port}".encode()
    # The same connection (keep-alive): the second request's Host is rewritten too.
    conn.request("POST", "/b", body=b'{"x": 1}', headers={"Content-Type": "application/json"})
    assert conn.getresponse().read() == f'{{"x": 1}} 127.0.0.1:{port}'.encode()
    conn.request("POST", "/c", body=iter([b"ab", b"cde"]), encode_chunked=True)
    assert conn.getresponse().read() == f"abcde 127.0.0.1:{port}".encode()
    conn.request("GET", "/d")
    assert conn.getresponse().read() == f"/d 127.0.0.1:{port}".encode()
    conn.close()
    assert r.connections == 1


def test_a_cut_breaks_the_stream_and_refuses_until_restored(linked: tuple[Relay, int]) -> None:
    r, port = linked
    conn = http.client.HTTPConnection("127.0.0.1", r.port, timeout=10)
    conn.request("GET", "/stream")
    stream = conn.getresponse()
    assert stream.readline() == b"data: tick\n"
    r.cut()
    ended = False
    deadline = time.monotonic() + 5
    try:
        while time.monotonic() < deadline:  # what was in flight, then the end
            if not stream.readline():
                ended = True
                break
    except (ConnectionError, http.client.HTTPException):
        ended = True
    assert ended, "the stream went on after the cut"
    # A new connection is accepted and closed at once while cut.
    with socket.create_connection(("127.0.0.1", r.port), timeout=5) as s:
        s.sendall(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        s.settimeout(5)
        try:
            assert s.recv(100) == b""
        except ConnectionResetError:
            pass
    r.restore()
    again = http.client.HTTPConnection("127.0.0.1", r.port, timeout=10)
    again.request("GET", "/back")
    assert again.getresponse().read() == f"/back 127.0.0.1:{port}".encode()
    again.close()
