"""Fixtures for store tests: a fresh store in a temporary data directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from labwright.store import Session, Store


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    opened = Store.open(home)
    yield opened
    opened.close()


@pytest.fixture
def session(store: Store, tmp_path: Path) -> Session:
    folder = tmp_path / "data"
    folder.mkdir()
    return store.create_session(folder, inventory=[{"name": "a.csv", "size": 3}], title="Pendulum")
