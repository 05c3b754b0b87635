"""Work folders are removed, and a folder that cannot be removed is reported."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from labwright.sandbox.runner import WorkDirNotRemoved, remove_work_dir


def test_removes_a_nested_folder(tmp_path: Path) -> None:
    work = tmp_path / "w"
    (work / "a" / "b").mkdir(parents=True)
    (work / "a" / "b" / "f.txt").write_text("x", encoding="utf-8")
    os.symlink("/etc/passwd", work / "link")
    remove_work_dir(work)
    assert not work.exists()
    assert Path("/etc/passwd").exists()  # the link, not its target, was removed


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("chattr") is None, reason="needs root and chattr"
)
def test_an_immutable_file_is_reported_not_ignored(tmp_path: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    stuck = work / "stuck"
    stuck.write_text("x", encoding="utf-8")
    if subprocess.run(["chattr", "+i", str(stuck)], check=False).returncode != 0:
        pytest.skip("this file system has no immutable flag")
    try:
        with pytest.raises(WorkDirNotRemoved) as info:
            remove_work_dir(work)
        assert "stuck" in str(info.value)
    finally:
        subprocess.run(["chattr", "-i", str(stuck)], check=False)
    remove_work_dir(work)
    assert not work.exists()


def _chain(top: Path, depth: int) -> None:
    """`depth` nested folders under `top`, made by descriptor (the path is
    longer than PATH_MAX), with a file at the bottom."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    finally:
        os.close(fd)


def test_removes_a_tree_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    """A job's 5,000 nested folders (shutil.rmtree raised RecursionError on
    Python 3.11 and left them on the host)."""
    work = tmp_path / "w"
    work.mkdir()
    _chain(work, 5000)
    try:
        remove_work_dir(work)
        assert not work.exists()
    finally:
        # Never leave the chain in pytest's temp root: its own clean-up recurses.
        subprocess.run(["rm", "-rf", str(work)], check=False)


def test_links_inside_are_removed_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "keep.txt").write_text("keep", encoding="utf-8")
    work = tmp_path / "w"
    (work / "a" / "b").mkdir(parents=True)
    os.symlink(outside, work / "a" / "b" / "dirlink")
    os.symlink(outside / "sub" / "keep.txt", work / "a" / "filelink")
    os.mkfifo(work / "a" / "fifo")
    remove_work_dir(work)
    assert not work.exists()
    assert (outside / "sub" / "keep.txt").read_text(encoding="utf-8") == "keep"


def test_a_link_in_place_of_the_folder_is_removed_alone(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("keep", encoding="utf-8")
    work = tmp_path / "w"
    os.symlink(target, work)
    remove_work_dir(work)
    assert not os.path.lexists(work)
    assert (target / "keep.txt").exists()
