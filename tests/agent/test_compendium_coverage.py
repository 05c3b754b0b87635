"""The compendium's coverage as a floor (issue 23): for every example folder
and both languages, the exported script states at least as many of the
report's traced numbers as it did when the floor was taken, prints every
one of them "ok", lists no more of them as not recomputed, and redraws at
least the figures it redrew then, with the report's plotted data.

The floor is tests/agent/compendium_floor.json, written by
`benchmarks/compendium_coverage.py --run --floor tests/agent/compendium_floor.json`
after a change that recomputes more (raise it; never lower it to make a
test pass). Counts, not ledger ids: an id is a hash of the entry, and work
that changes what the report prints would move every id without any loss.
The fresh-venv round trip with the notebook is tests/test_compendium_roundtrip.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.agent.offline.compendium import SCRIPT, export_compendium

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FLOOR = json.loads((Path(__file__).with_name("compendium_floor.json")).read_text("utf-8"))
FOLDERS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_"))
#: A line of the script's comparison: "<printed>  <value> ok  <computation> [<id>]".
_SAID = re.compile(r"\s(ok|DIFFERS)\s\s.*\[([0-9a-f]{10}(?:-[0-9]+)?)\]\s*$")


def test_every_example_has_a_floor() -> None:
    assert sorted(FLOOR) == FOLDERS
    assert all(sorted(FLOOR[name]) == ["en", "zh"] for name in FOLDERS)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", FOLDERS)
def test_the_compendium_keeps_its_coverage(name: str, lang: str, tmp_path: Path) -> None:
    floor = FLOOR[name][lang]
    comp, _ = export_compendium(EXAMPLES / name, tmp_path / "out", lang=lang)
    shutil.move(str(tmp_path / "out"), str(tmp_path / "moved"))
    done = subprocess.run(
        [sys.executable, SCRIPT],
        cwd=tmp_path / "moved",
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg",
             "HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = {m.group(2): m.group(1) for m in map(_SAID.search, done.stdout.splitlines()) if m}
    assert {i: said.get(i) for i in comp.lines} == dict.fromkeys(comp.lines, "ok")
    assert len(comp.lines) >= floor["numbers"]
    missing = [f"{printed}: {what}" for _i, printed, what, _why in comp.not_recomputed]
    assert len(missing) <= floor["not_recomputed"], missing
    redrawn = {k for k, problems in comp.figures.items() if not problems}
    assert set(floor["figures"]) <= redrawn, {k: comp.figures.get(k) for k in floor["figures"]}
