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
