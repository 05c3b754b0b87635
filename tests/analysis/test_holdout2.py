"""The second, blind hold-out set (tests/holdout2) held to floors.

Every folder is generated from its seed, built offline without TeX (the
analysis and the writing; the compile adds nothing the scorer reads) and
scored as `benchmarks/analyst_eval.py --set holdout2` scores it. The floors
are the counts measured on 2026-12-05 when the set landed (the first run and
the review, docs/review/2026-12-05-holdout.md, were on 67beedd: 16, 24, 4):
they can only rise.
When a fix of a defect class lifts a count, raise its floor in the same
commit; never tune the analyst to these folders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.holdout2 import all_folders
from tests.labset import FolderScore, score

# Measured 2026-12-05 over main a3020eb (the analyst the set landed on);
# raised to 44/46 with numbered columns as the law's count (resonance tube),
# replicates numbered with Chinese measure words (第1瓶) and Cauchy's dispersion.
WITHIN_FLOOR = 46  # asked quantities within 3 SE of the truth, of 48
ANSWERED_FLOOR = 48  # requests answered (or said unanswerable), of 50
HARMFUL_CEILING = 0  # fits or summaries of a controlled column


def _build(folder_dir: Path, out_dir: Path) -> dict[str, object]:
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    events = list(build_offline(folder_dir, out_dir, tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, f"{folder_dir.name}: no report: {done}"
    record = json.loads((out_dir / "provenance.json").read_text(encoding="utf-8"))
    analysis = record.get("analysis", {})
    assert isinstance(analysis, dict)
    return analysis


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> list[FolderScore]:
    root = tmp_path_factory.mktemp("holdout2")
    out = []
    for folder in all_folders():
        record = _build(folder.write(root / "data"), root / "builds" / folder.name)
        out.append(score(folder, record))
    return out


def _table(scores: list[FolderScore]) -> str:
    lines = []
    for fs in scores:
        for t in fs.truths:
            mark = "within" if t.within else ("answered" if t.answered else "-")
            lines.append(f"{fs.folder.name} {t.truth.names[0]}: {mark} {t.note}")
        lines += [f"{fs.folder.name} harmful: {h}" for h in fs.harmful]
    return "\n".join(lines)


def test_the_set_is_what_it_claims() -> None:
    folders = all_folders()
    assert len(folders) == 28
    assert len({f.experiment for f in folders}) >= 22
    assert sum(f.lang == "zh" for f in folders) >= 9
    assert sum(any(not t.answerable for t in f.truths) for f in folders) == 2
    assert sum(len(f.truths) for f in folders) == 50


@pytest.mark.slow
def test_within_three_se_floor(scores: list[FolderScore]) -> None:
    within = sum(t.within for fs in scores for t in fs.truths if t.truth.answerable)
    assert within >= WITHIN_FLOOR, _table(scores)


@pytest.mark.slow
def test_answered_floor(scores: list[FolderScore]) -> None:
    answered = sum(t.answered for fs in scores for t in fs.truths)
    assert answered >= ANSWERED_FLOOR, _table(scores)


@pytest.mark.slow
def test_harmful_ceiling(scores: list[FolderScore]) -> None:
    harmful = sum(len(fs.harmful) for fs in scores)
    assert harmful <= HARMFUL_CEILING, _table(scores)
