"""The autouse network guard must refuse everything but loopback."""

import socket

import pytest

from tests.conftest import NetworkBlocked


def test_outbound_connection_is_refused() -> None:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(NetworkBlocked):
            s.connect(("93.184.216.34", 443))
    finally:
        s.close()


def test_resolving_a_public_host_is_refused() -> None:
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("api.deepseek.com", 443)


def test_loopback_is_allowed() -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        client.connect(server.getsockname())
    finally:
        client.close()
        server.close()
