"""Exploration tools: every bad input is a tool result, never an exception."""

import os
from pathlib import Path

import numpy as np
import pytest

from labwright.agent.explore_tools import READ_CHARS, ExploreTools, parse_arguments


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    root.mkdir()
    (root / "notes.md").write_text("Aim: measure g.\n", encoding="utf-8")
    (root / "long.txt").write_text(
        "".join(f"line {i} " + "x" * 60 + "\n" for i in range(400)), encoding="utf-8"
    )
    (root / "sub").mkdir()
    np.save(root / "sub" / "values.npy", np.arange(5.0))
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    os.symlink(secret, root / "link.txt")
    return root


def test_list_dir_shows_files_and_flags_outside_links(folder: Path) -> None:
    out = ExploreTools(folder).call("list_dir", {"path": "."})
    assert "notes.md" in out and "sub/" in out
    assert "link.txt (link to outside the folder; not readable)" in out


@pytest.mark.parametrize(
    "path", ["../secret.txt", "/etc/passwd", "link.txt", "sub/../../secret.txt"]
)
def test_escapes_become_tool_results(folder: Path, path: str) -> None:
    out = ExploreTools(folder).call("read_file", {"path": path})
    assert "outside the data folder" in out
    assert "TOP-SECRET" not in out and "root:" not in out


def test_long_files_are_clipped_with_a_continuation_line(folder: Path) -> None:
    tools = ExploreTools(folder)
    first = tools.call("read_file", {"path": "long.txt"})
    assert len(first) < READ_CHARS + 200
    assert "[truncated: continue with read_file(path='long.txt', offset=" in first
    offset = int(first.rsplit("offset=", 1)[1].rstrip(")]"))
    second = tools.call("read_file", {"path": "long.txt", "offset": offset})
    assert second.startswith(f"line {offset} ")


def test_binary_data_is_read_through_the_readers(folder: Path) -> None:
    out = ExploreTools(folder).call("read_file", {"path": "sub/values.npy"})
    assert "0.0, 1.0, 2.0, 3.0, 4.0" in out


def test_missing_file_unknown_tool_and_bad_arguments(folder: Path) -> None:
    tools = ExploreTools(folder)
    assert "does not exist" in tools.call("read_file", {"path": "nope.csv"})
    assert "no tool named" in tools.call("rm_rf", {})
    assert "not right" in tools.call("read_file", {"wrong": 1})


def test_read_image_without_vision_gives_metadata(folder: Path) -> None:
    from PIL import Image

    Image.new("RGB", (32, 16)).save(folder / "photo.png")
    out = ExploreTools(folder).call("read_image", {"path": "photo.png"})
    assert "32x16" in out and "No vision model" in out


def test_make_figure_without_a_sandbox_and_finish(folder: Path) -> None:
    tools = ExploreTools(folder)
    assert "cannot be drawn" in tools.call("make_figure", {"name": "a", "code": "x=1"})
    tools.call("finish_exploration", {"experiment": "e", "goal": "g", "key_findings": ["k"]})
    assert tools.exploration.finished and tools.exploration.summary["goal"] == "g"


def test_parse_arguments() -> None:
    assert parse_arguments('{"a": 1}') == {"a": 1}
    assert isinstance(parse_arguments("{not json"), str)
    assert isinstance(parse_arguments("[1]"), str)
