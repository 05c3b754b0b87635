"""The analyst's example folders build to clean PDFs in which every number is
accounted for in provenance.json, and they are reproducible from the script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.agent.offline.provenance import unsourced_numbers
from labwright.analysis.fits import MODELS
from labwright.latex.engine import resolve_engine

ROOT = Path(__file__).resolve().parents[2] / "examples"
NEW = (
    "station-series", "sea-surface", "alloy-hardness", "reactor-yield", "resistor-repeats",
    "decay-runs", "plant-growth-zh",
)  # fmt: skip

needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX")


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("name", NEW)
def test_builds_clean_with_every_number_sourced(name: str, tmp_path: Path) -> None:
    events = list(build_offline(ROOT / name, tmp_path / "out"))
    done = events[-1]
    assert isinstance(done, Done) and done.ok, done.problems if isinstance(done, Done) else done
    tex = (tmp_path / "out" / "main.tex").read_text(encoding="utf-8")
    record = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    assert unsourced_numbers(tex, record, tuple(m.formula for m in MODELS.values())) == []
    assert "\\includegraphics" in tex
    assert ("\\documentclass[zh]" in tex) == name.endswith("-zh")


def test_new_examples_are_reproducible(tmp_path: Path) -> None:
    shutil.copy(ROOT / "_generate.py", tmp_path / "_generate.py")
    subprocess.run([sys.executable, str(tmp_path / "_generate.py")], check=True, timeout=300)
    for name in NEW:
        committed = sorted(
            p.relative_to(ROOT / name) for p in (ROOT / name).rglob("*") if p.is_file()
        )
        fresh = sorted(
            p.relative_to(tmp_path / name) for p in (tmp_path / name).rglob("*") if p.is_file()
        )
        assert committed == fresh, name
        for rel in committed:
            assert (ROOT / name / rel).read_bytes() == (tmp_path / name / rel).read_bytes(), rel
        size = sum(p.stat().st_size for p in (ROOT / name).rglob("*") if p.is_file())
        assert size < 200_000, (name, size)
