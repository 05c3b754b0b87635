"""The report language: one detector for the CLI, the server's runs and the drop screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.agent.offline.language import (
    detect_folder_language,
    detect_language,
    names_of,
)
from labwright.ingest.read import read_folder
from labwright.ingest.scan import scan_folder
from labwright.ingest.types import DocumentText

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _notes(text: str) -> list[DocumentText]:
    return [DocumentText("notes.md", text)]


def test_the_notes_decide_when_they_say_enough() -> None:
    zh = _notes("实验目的：用单摆测量重力加速度，并估计其不确定度。")
    found = detect_language(zh, ["period", "length"])
    assert (found.lang, found.basis) == ("zh", "notes")
    en = _notes("Aim: measure g with a pendulum and estimate its uncertainty from the repeats.")
    # English notes about a folder with Chinese file names stay English.
    assert detect_language(en, ["周期", "摆长", "数据"]).lang == "en"


def test_the_names_decide_when_the_notes_say_nothing() -> None:
    assert detect_language([], ["株高", "处理", "天数"]).lang == "zh"
    assert detect_language(_notes("g"), ["株高.csv"]).basis == "names"
    assert detect_language([], ["period_s", "length_m"]).lang == "en"
    assert detect_language([], []).basis == "default"


def test_a_chosen_language_wins() -> None:
    zh = _notes("实验目的：用单摆测量重力加速度，并估计其不确定度。")
    assert detect_language(zh, chosen="en").lang == "en"
    assert detect_language(zh, chosen="auto").lang == "zh"


def test_names_come_from_files_datasets_and_columns() -> None:
    folder = EXAMPLES / "plant-growth-zh"
    read = read_folder(folder)
    names = names_of([f.path for f in scan_folder(folder).files], read)
    assert any("株高" in n for n in names)
    assert {c.name for d in read.datasets for c in d.columns} <= set(names)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()))
def test_the_drop_screen_guess_agrees_with_the_run(example: str) -> None:
    """What the window shows at the drop is what the run will write in."""
    folder = EXAMPLES / example
    inventory = scan_folder(folder)
    read = read_folder(folder, inventory)
    run = detect_language(read.documents, names_of([f.path for f in inventory.files], read))
    assert detect_folder_language(folder, inventory) == run


def test_a_folder_of_chinese_tables_without_notes_is_chinese(tmp_path: Path) -> None:
    folder = tmp_path / "数据"
    folder.mkdir()
    (folder / "测量.csv").write_text("时间,温度\n1,20.1\n2,20.5\n3,21.0\n", encoding="utf-8")
    assert detect_folder_language(folder, scan_folder(folder)) == detect_language(
        [], ["测量", "时间", "温度"]
    )
    assert detect_folder_language(folder, scan_folder(folder)).lang == "zh"
