"""Project-wide test fixtures.

The network guard is autouse: any connection to an address that is not on this
machine's loopback fails the test loudly, so no test can reach a real model
provider or the internet by accident. Tests marked `live` opt out, and run only
with `--run-live`.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

# LLM fixtures for every test dir: fake_llm, and the autouse guard against real model calls.
from labwright.testing.pytest_plugin import fake_llm, llm_isolation  # noqa: F401

# A skipped smoke layer fails the README's test command (see tests/_layers.py).
from tests._layers import pytest_runtest_makereport  # noqa: F401

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


class NetworkBlocked(AssertionError):
    """Raised when a test tries to leave the machine."""


def _is_local(address: object) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    if isinstance(address, tuple) and address:
        host = address[0]
        if isinstance(host, bytes):
            host = host.decode()
        if host in ("localhost", ""):
            return True
        try:
            return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
        except ValueError:
            return False
    return False


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_local(address):
        raise NetworkBlocked(f"test tried to connect to {address!r}; only loopback is allowed")
    return _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_local(address):
        raise NetworkBlocked(f"test tried to connect to {address!r}; only loopback is allowed")
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


def _guarded_getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    if host not in (None, "localhost") and not _is_local((host,)):
        raise NetworkBlocked(f"test tried to resolve {host!r}; only loopback is allowed")
    return _real_getaddrinfo(host, *args, **kwargs)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-live", action="store_true", default=False, help="run tests against real providers"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-live"):
        return
    skip_live = pytest.mark.skip(reason="live test: pass --run-live and set provider keys")
    for item in items:
        if "live" in item.keywords:
            item.add_marker(skip_live)


@pytest.fixture(autouse=True)
def _block_network(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    if "live" in request.keywords and request.config.getoption("--run-live"):
        yield
        return
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", _guarded_getaddrinfo)
    yield


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own per-user data directory, never the real one."""
    home = tmp_path_factory.mktemp("labwright-home")
    monkeypatch.setenv("LABWRIGHT_HOME", str(home))
    # No test looks references up in the real Crossref or OpenAlex: checks are
    # off, as a user can set them; the resolver's tests use the fake indexes.
    (home / "citation_settings.json").write_text('{"network": false}', encoding="utf-8")
    # Keys from the developer's shell must never reach code under test.
    for var in ("LABWRIGHT_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY", "DASHSCOPE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture
def examples_dir(repo_root: Path) -> Path:
    return repo_root / "examples"
