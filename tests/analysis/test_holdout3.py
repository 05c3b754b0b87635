"""The third blind hold-out set (tests/holdout3) held to floors.

Every folder is generated from its seed, built offline without TeX (the
analysis and the writing; the compile adds nothing the scorer reads) and
scored as `benchmarks/analyst_eval.py --set holdout3` scores it. The floors
are the counts measured on 2026-12-05 when the set landed (review:
docs/review/2026-12-05-holdout3.md); they can only rise. When a fix of a
defect class lifts a count, raise the floor in the same commit; never tune
the analyst to these folders.

The within floor counts only informative answers: within 3 SE *and* with a
standard error smaller than the truth itself. The shared scorer also counts
an answer whose SE is 10^9 times its value (a failed fit printed as a
result, zhengqiya-jingtai's two), so analyst_eval prints two more; a fix
that rightly withholds such a fit must not fail this test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.holdout3 import all_folders
from tests.labset import FolderScore, score
from tests.labset.score import TruthScore

# Measured 2026-12-05 on main 36e4c64 (offline, with and without TeX alike;
# analyst_eval printed 25/48 within, 33/50 answered, 2 harmful); raised to
# 40/46 with numbered columns as the law's count, qualified symbols (x左),
# units objects in JSON and the natural length of a spring.
WITHIN_FLOOR = 44  # informative asked quantities within 3 SE of the truth, of 48
ANSWERED_FLOOR = 50  # requests answered (or said to be unanswerable), of 50
HARMFUL_CEILING = 0  # fits whose response is a set-point column


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
    root = tmp_path_factory.mktemp("holdout3")
    return [
        score(folder, _build(folder.write(root / "data"), root / "builds" / folder.name))
        for folder in all_folders()
    ]


def _informative_within(t: TruthScore) -> bool:
    return t.within and t.se is not None and t.se < abs(t.truth.value)


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
    # regenerating a folder gives the same bytes (the truths stay the data's)
    again = {f.name: f.files for f in all_folders()}
    assert all(again[f.name] == f.files for f in folders)


@pytest.mark.slow
def test_within_three_se_floor(scores: list[FolderScore]) -> None:
    within = sum(_informative_within(t) for fs in scores for t in fs.truths if t.truth.answerable)
    assert within >= WITHIN_FLOOR, _table(scores)


@pytest.mark.slow
def test_answered_floor(scores: list[FolderScore]) -> None:
    answered = sum(t.answered for fs in scores for t in fs.truths)
    assert answered >= ANSWERED_FLOOR, _table(scores)


@pytest.mark.slow
def test_harmful_ceiling(scores: list[FolderScore]) -> None:
    harmful = sum(len(fs.harmful) for fs in scores)
    assert harmful <= HARMFUL_CEILING, _table(scores)
    assert all(fs.unknown_columns == 0 for fs in scores), _table(scores)
