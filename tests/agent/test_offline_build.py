"""build_offline as a whole: events, the no-TeX path, bad inputs, read-only folder."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from labwright.agent.events import Done, Error, FigureMade, Milestone, Warning_
from labwright.agent.offline import build_offline, check_folder, plan_offline
from labwright.agent.offline.provenance import unsourced_numbers
from labwright.analysis.fits import MODELS
from labwright.latex.engine import resolve_engine

needs_tex = pytest.mark.skipif(
    not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
)


def _folder(root: Path, notes: str = "# Cooling\n\nAim: measure the cooling constant.\n") -> Path:
    folder = root / "cooling run"
    folder.mkdir()
    rng = np.random.default_rng(5)
    t = np.arange(0, 600, 20.0)
    temp = 60 * np.exp(-t / 300) + rng.normal(0, 0.2, t.size)
    lines = ["t (s),dT (K)"] + [f"{a:.0f},{b:.3f}" for a, b in zip(t, temp, strict=True)]
    (folder / "cooling_1.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "notes.md").write_text(notes, encoding="utf-8")
    return folder


def _hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_plan_is_fixed_before_the_run() -> None:
    assert [s.stage for s in plan_offline(tex_available=True)] == [
        "scan",
        "analyse",
        "figures",
        "draft",
        "compile",
    ]
    assert "compile" not in [s.stage for s in plan_offline(tex_available=False)]


def test_without_tex_the_source_is_written_and_numbers_are_sourced(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    before = _hashes(folder)
    out = tmp_path / "out"
    events = list(build_offline(folder, out, tex_available=False))
    milestones = [e for e in events if isinstance(e, Milestone)]
    assert [m.index for m in milestones] == [1, 2, 3, 4]
    assert {m.total for m in milestones} == {4}
    assert isinstance(events[0], Milestone)
    done = events[-1]
    assert isinstance(done, Done) and not done.ok and done.pdf_path is None
    assert done.tex_path is not None and Path(done.tex_path).is_file()
    assert any("No TeX engine" in p for p in done.problems)
    assert [e for e in events if isinstance(e, FigureMade)]
    assert not [e for e in events if isinstance(e, Warning_) and "provenance" in e.message]
    tex = Path(done.tex_path).read_text(encoding="utf-8")
    record = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    assert unsourced_numbers(tex, record, tuple(m.formula for m in MODELS.values())) == []
    # The notes ask for the cooling constant: Newton's law of cooling is
    # fitted and k is answered as asked (before the catalogue, a generic
    # exponential A e^{-x/tau} was fitted instead).
    asked = [a for a in record["analysis"]["answers"] if a["asked"]]
    assert [(a["model"], a["quantity"]) for a in asked] == [("newton_cooling", "k")]
    assert "law of cooling" in tex
    assert (out / "labwright-report.cls").is_file()
    assert _hashes(folder) == before


def test_lang_argument_overrides_the_notes(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    events = list(build_offline(folder, tmp_path / "out", lang="zh", tex_available=False))
    tex = Path(events[-1].tex_path).read_text(encoding="utf-8")  # type: ignore[union-attr, arg-type]
    assert "\\documentclass[zh]" in tex and "实验目的" in tex


@pytest.mark.parametrize("case", ["missing", "empty", "file", "unreadable"])
def test_bad_input_ends_with_one_error_and_no_output(tmp_path: Path, case: str) -> None:
    folder = tmp_path / "in"
    if case == "empty":
        folder.mkdir()
    elif case == "file":
        folder.write_text("x", encoding="utf-8")
    elif case == "unreadable":
        folder.mkdir()
        (folder / "data.csv").write_bytes(bytes(range(256)) * 8)
    out = tmp_path / "out"
    events = list(build_offline(folder, out, tex_available=False))
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1 and errors[0].message.endswith(".")
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path is None and not done.ok
    assert not out.exists()


def test_output_inside_the_data_folder_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    before = _hashes(folder)
    events = list(build_offline(folder, folder / "report", tex_available=False))
    assert isinstance(events[-1], Done) and events[-1].tex_path is None
    assert _hashes(folder) == before and not (folder / "report").exists()


def test_check_folder_sentences(tmp_path: Path) -> None:
    assert check_folder(tmp_path / "nope") is not None
    assert check_folder(_folder(tmp_path)) is None


@needs_tex
@pytest.mark.smoke
def test_compiles_to_a_clean_pdf(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    events = list(build_offline(folder, tmp_path / "out"))
    done = events[-1]
    assert isinstance(done, Done) and done.ok, done.problems
    assert done.pdf_path and Path(done.pdf_path).read_bytes()[:5] == b"%PDF-"


@needs_tex
@pytest.mark.smoke
def test_unreadable_files_are_listed_and_the_rest_still_builds(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "empty.csv").write_bytes(b"")
    (folder / "binary.csv").write_bytes(bytes(range(256)) * 4)
    (folder / "broken.mat").write_bytes(b"MATLAB 5.0 MAT-file" + b"\0" * 20)
    sub = folder / "run2"
    sub.mkdir()
    (sub / "more.tsv").write_text(
        "x (m)\ty (m)\n1\t2\n2\t4.1\n3\t5.9\n4\t8.2\n5\t9.9\n", encoding="utf-8"
    )
    before = _hashes(folder)
    events = list(build_offline(folder, tmp_path / "out"))
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done.problems
    tex = Path(done.tex_path).read_text(encoding="utf-8")  # type: ignore[arg-type]
    unread = tex.split("Files that were not read", 1)[1]
    for name in ("empty.csv", "binary.csv", "broken.mat"):
        assert f"\\lwfile{{{name}}}" in unread
    assert "\\lwfile{run2/more.tsv}" in tex
    assert len([e for e in events if isinstance(e, Warning_)]) >= 3
    assert _hashes(folder) == before


def test_large_photo_is_scaled_down_and_stays_a_jpeg(tmp_path: Path) -> None:
    from PIL import Image

    folder = _folder(tmp_path)
    Image.new("RGB", (4000, 3000), (30, 120, 200)).save(folder / "setup_photo.jpg", quality=70)
    events = list(build_offline(folder, tmp_path / "out", tex_available=False))
    made = [e for e in events if isinstance(e, FigureMade) and e.source == "setup_photo.jpg"]
    assert len(made) == 1 and made[0].path.endswith(".jpg")
    with Image.open(made[0].path) as img:
        assert img.format == "JPEG" and max(img.size) == 3000


def test_a_folder_whose_only_data_file_is_empty_says_so_once(tmp_path: Path) -> None:
    """Issue 21, point 7: a 0-byte CSV got "add CSV files" three times (a skip
    warning, an error, a problem) and a finished-looking run. Now: one error
    that names the file and why, with what to do; no skip warning beside it;
    no problem repeating it; the run failed, not finished."""
    folder = tmp_path / "only empty"
    folder.mkdir()
    (folder / "data.csv").write_bytes(b"")
    events = list(build_offline(folder, tmp_path / "out"))
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1
    assert errors[0].text is not None and errors[0].text.key == "folder.only_file_unusable"
    assert "data.csv" in errors[0].message and "empty" in errors[0].message
    assert errors[0].action_text is not None and errors[0].action_text.key == "action.fix_data_file"
    assert not [e for e in events if isinstance(e, Warning_)], "the file's skip is said twice"
    said = json.dumps([e.model_dump() for e in events], ensure_ascii=False)
    assert said.count(errors[0].message) == 1
    assert "Add data files" not in said and "add CSV" not in said
    done = events[-1]
    assert isinstance(done, Done) and not done.ok and done.outcome == "failed"
    assert done.problems == [] and done.pdf_path is None
