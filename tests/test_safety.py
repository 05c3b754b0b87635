"""The one file-safety module: escapes and non-regular files are refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labwright.safety import (
    PathEscape,
    is_inside,
    is_regular_file,
    read_regular,
    read_regular_whole,
    real_inside,
    resolve_inside,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.txt").write_text("inside", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("SECRET", encoding="utf-8")
    os.symlink(tmp_path / "secret.txt", folder / "link.txt")
    return folder


def test_escapes_are_refused(root: Path) -> None:
    assert resolve_inside(root, "a.txt") == (root / "a.txt").resolve()
    for escape in ("../secret.txt", "link.txt", "/etc/passwd"):
        with pytest.raises(PathEscape):
            resolve_inside(root, escape)
    assert not is_inside(root / "link.txt", root)
    assert is_inside(root / "a.txt", root)
    real_root = os.path.realpath(root)
    assert not real_inside(os.path.realpath(root / "link.txt"), real_root)
    assert not real_inside(real_root + "-sibling", real_root)


def test_only_regular_files_are_read(root: Path) -> None:
    assert read_regular(root / "a.txt") == b"inside"
    assert read_regular(root / "link.txt") is None  # never through a symlink
    assert not is_regular_file(root / "link.txt")
    assert read_regular(root) is None
    fifo = root / "pipe"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        assert read_regular(fifo) is None  # and never blocks on a FIFO
    assert read_regular_whole(root / "a.txt", 3) is None  # longer than the limit
    assert read_regular(root / "a.txt", limit=3, tail=True) == b"ide"
