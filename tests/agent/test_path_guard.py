import os
from pathlib import Path

import pytest

from labwright.agent.path_guard import PathEscape, resolve_inside


def test_paths_inside_resolve(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert resolve_inside(tmp_path, "sub") == (tmp_path / "sub").resolve()
    assert resolve_inside(tmp_path, "") == tmp_path.resolve()
    assert resolve_inside(tmp_path, None) == tmp_path.resolve()


@pytest.mark.parametrize("evil", ["../x", "sub/../../x", "/etc/passwd", "..", "sub/../../../etc"])
def test_escapes_are_refused(tmp_path: Path, evil: str) -> None:
    (tmp_path / "sub").mkdir()
    with pytest.raises(PathEscape):
        resolve_inside(tmp_path, evil)


def test_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret", encoding="utf-8")
    os.symlink(outside, root / "link.txt")
    with pytest.raises(PathEscape):
        resolve_inside(root, "link.txt")
