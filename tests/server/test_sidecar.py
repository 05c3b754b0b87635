"""The sidecar's pieces that need no child process: token reading and parent liveness."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from labwright.server.sidecar import MIN_TOKEN_CHARS, _parent_alive, read_token


def _pipe_with(data: bytes) -> int:
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    return read_end


def test_reads_exactly_the_first_line() -> None:
    token = secrets.token_hex(32)
    fd = _pipe_with(token.encode() + b"\nrest of the stream\n")
    try:
        assert read_token(fd) == token
        # Nothing after the newline was consumed: the watchdog sees it (and then EOF).
        assert os.read(fd, 100) == b"rest of the stream\n"
        assert os.read(fd, 100) == b""
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n",
        b"short\n",
        b"x" * (MIN_TOKEN_CHARS - 1) + b"\n",
        b"a b" * 20 + b"\n",
        b"\x00" * 40,
    ],
)
def test_refuses_missing_or_weak_tokens(data: bytes) -> None:
    fd = _pipe_with(data)
    try:
        assert read_token(fd) is None
    finally:
        os.close(fd)


def test_token_without_newline_at_eof_is_accepted() -> None:
    token = secrets.token_urlsafe(32)
    fd = _pipe_with(token.encode())
    try:
        assert read_token(fd) == token
    finally:
        os.close(fd)


def test_parent_alive() -> None:
    assert _parent_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not _parent_alive(child.pid)
