"""The one file-safety module: escapes and non-regular files are refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labwright.safety import (
    PathEscape,
    WriteRefused,
    append_below,
    is_inside,
    is_plain_below,
    is_real_dir,
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


def test_real_dirs_and_plain_paths(root: Path, tmp_path: Path) -> None:
    (root / "figures").mkdir()
    os.symlink(root / "figures", root / "alias")  # a link that stays inside
    os.symlink(tmp_path, root / "out")
    assert is_real_dir(root / "figures")
    assert not is_real_dir(root / "alias") and not is_real_dir(root / "a.txt")
    assert not is_real_dir(root / "missing")
    assert is_plain_below(root / "figures" / "f.pdf", root)
    assert is_plain_below(root / "a.txt", root)
    # A link on the way is refused even when it points inside the root.
    assert not is_plain_below(root / "alias" / "f.pdf", root)
    assert not is_plain_below(root / "out" / "secret.txt", root)
    assert not is_plain_below(tmp_path / "secret.txt", root)


def test_append_below_writes_in_order(root: Path) -> None:
    parts = ("run1", "deep", "data.csv")
    assert append_below(root, parts, 0, b"x,y\n") == 4
    assert append_below(root, parts, 4, b"1,2\n") == 8
    assert (root / "run1" / "deep" / "data.csv").read_bytes() == b"x,y\n1,2\n"
    for offset, reason in ((0, "exists"), (3, "out_of_order")):
        with pytest.raises(WriteRefused) as refused:
            append_below(root, parts, offset, b"zz")
        assert refused.value.reason == reason
    with pytest.raises(WriteRefused) as refused:
        append_below(root, ("run1", "late.csv"), 5, b"zz")
    assert refused.value.reason == "no_start"
    assert not (root / "run1" / "late.csv").exists()
    assert (root / "run1" / "deep" / "data.csv").read_bytes() == b"x,y\n1,2\n"


def test_append_below_never_follows_a_link(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "sub")
    with pytest.raises(WriteRefused) as refused:
        append_below(root, ("sub", "x.csv"), 0, b"data")
    assert refused.value.reason == "link_on_way"
    with pytest.raises(WriteRefused) as refused:
        append_below(root, ("link.txt",), 0, b"data")
    assert refused.value.reason == "exists"  # O_EXCL: the link's name is taken
    with pytest.raises(WriteRefused) as refused:
        append_below(root, ("link.txt",), 6, b"data")
    assert refused.value.reason == "link_at_name"
    assert list(outside.iterdir()) == []
    assert (tmp_path / "secret.txt").read_text(encoding="utf-8") == "SECRET"
