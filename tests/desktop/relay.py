"""A loopback TCP relay between the real window's webview and its sidecar,
which a test can cut and restore: the desktop counterpart of ui/e2e/proxy.mjs.

The shell gives the webview this relay's address when
`LABWRIGHT_WEBVIEW_RELAY=127.0.0.1:<port>` is set (src-tauri/src/relay.rs),
and logs the sidecar's own address, which the test then hands to `forward_to`
(the sidecar picks its port at start, after the relay must already listen).

`cut()` closes every open connection at once (the page sees its event stream
break mid-run) and closes each new one as soon as it is accepted, until
`restore()`: a real loss of the connection, not an emulation of one.

Bytes are relayed as they are, except the Host header of each request, which
names the sidecar's port: the sidecar refuses any other Host (it is what
defeats DNS rebinding, server/security.py), as proxy.mjs rewrites it too.
Requests are read one at a time (HTTP/1.1 keep-alive, bodies by
Content-Length or chunked), so each one's Host is found."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_HEAD_END = b"\r\n\r\n"
_MAX_HEAD = 64 * 1024


class _Closed(Exception):
    """The other side closed, or the relay was cut."""


class _Reader:
    """Buffered reads from one socket, for parsing request heads and bodies."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""

    def _more(self) -> None:
        try:
            chunk = self.sock.recv(65536)
        except OSError as e:
            raise _Closed from e
        if not chunk:
            raise _Closed
        self.buf += chunk

    def until(self, marker: bytes, limit: int) -> bytes:
        while marker not in self.buf:
            if len(self.buf) > limit:
                raise _Closed
            self._more()
        at = self.buf.index(marker) + len(marker)
        out, self.buf = self.buf[:at], self.buf[at:]
        return out

    def exactly(self, n: int) -> Iterator[bytes]:
        while n > 0:
            if not self.buf:
                self._more()
            out, self.buf = self.buf[:n], self.buf[n:]
            n -= len(out)
            yield out


def _rewrite_host(head: bytes, host: bytes) -> tuple[bytes, int | None, bool]:
    """The head with its Host set to `host`; its Content-Length and whether
    its body is chunked."""
    lines = head[: -len(_HEAD_END)].split(b"\r\n")
    length: int | None = None
    chunked = False
    out = [lines[0]]
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        key = name.strip().lower()
        if key == b"host":
            line = b"Host: " + host
        elif key == b"content-length":
            length = int(value.strip())
        elif key == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
        out.append(line)
    return b"\r\n".join(out) + _HEAD_END, length, chunked


class Relay:
    """Listens on 127.0.0.1 at once; forwards once `forward_to` names the target."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._target: int | None = None
        self._target_known = threading.Event()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._down = False
        self._closing = False
        self.connections = 0  # accepted while up: a test can see the page used the relay
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def forward_to(self, port: int) -> None:
        self._target = port
        self._target_known.set()

    def cut(self) -> None:
        with self._lock:
            self._down = True
            doomed = list(self._open)
            self._open.clear()
        for s in doomed:
            _shut(s)

    def restore(self) -> None:
        with self._lock:
            self._down = False

    def close(self) -> None:
        self._closing = True
        self.cut()
        _shut(self._listener)
        self._thread.join(timeout=5)

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._down:
                    _shut(client)
                    continue
                self._open.add(client)
                self.connections += 1
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        # The webview connects only after the shell said "ready", which the
        # test reads before it learns the target; the wait is a safety net.
        if not self._target_known.wait(timeout=60) or self._target is None:
            self._forget(client)
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self._target), timeout=10)
        except OSError:
            self._forget(client)
            return
        upstream.settimeout(None)
        with self._lock:
            if self._down:
                self._forget(client, upstream)
                return
            self._open.add(upstream)
        host = f"127.0.0.1:{self._target}".encode()
        back = threading.Thread(target=self._pipe, args=(upstream, client), daemon=True)
        back.start()
        reader = _Reader(client)
        try:
            while True:
                head, length, chunked = _rewrite_host(reader.until(_HEAD_END, _MAX_HEAD), host)
                upstream.sendall(head)
                if chunked:
                    self._relay_chunks(reader, upstream)
                elif length:
                    for part in reader.exactly(length):
                        upstream.sendall(part)
        except (_Closed, OSError, ValueError):
            pass
        finally:
            self._forget(client, upstream)

    @staticmethod
    def _relay_chunks(reader: _Reader, upstream: socket.socket) -> None:
        while True:
            size_line = reader.until(b"\r\n", 1024)
            upstream.sendall(size_line)
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:  # the last chunk; then trailers up to an empty line
                while True:
                    line = reader.until(b"\r\n", _MAX_HEAD)
                    upstream.sendall(line)
                    if line == b"\r\n":
                        return
            for part in reader.exactly(size + 2):  # the chunk and its CRLF
                upstream.sendall(part)

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            self._forget(source, sink)

    def _forget(self, *socks: socket.socket) -> None:
        with self._lock:
            for s in socks:
                self._open.discard(s)
        for s in socks:
            _shut(s)


def _shut(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()


@contextmanager
def relay() -> Iterator[Relay]:
    r = Relay()
    try:
        yield r
    finally:
        r.close()
