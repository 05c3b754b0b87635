"""The second blind hold-out of real public data (tests/realdata_holdout2),
built offline as a user builds it (`build_offline`, no TeX) and scored
against the published or recomputed reference of each asked quantity.

The figures are floors: the counts `benchmarks/analyst_eval.py --set
realholdout2` measured when the set was written (2026-12-05, review
docs/review/2026-12-05-real-holdout2.md): 7 of 26 asked quantities within
3 SE, 7 of 26 requests answered, 1 harmful analysis (the rotenone folder's
number of insects tested fitted against the concentration). A change that
answers fewer, or fits more controlled columns, fails here. Raise the
floors, and lower the harmful ceiling, when the analyst improves; do not
tune the analyst to these folders (they are a hold-out).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.labset import FolderScore, score
from tests.realdata_holdout2 import realholdout2_folders

WITHIN_FLOOR = 22
ANSWERED_FLOOR = 22
HARMFUL_CEILING = 0


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> list[FolderScore]:
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    root = Path(tmp_path_factory.mktemp("realholdout2"))
    out = []
    for folder in realholdout2_folders():
        data = folder.write(root / "data")
        build = root / "builds" / folder.name
        events = list(build_offline(data, build, tex_available=False))
        assert isinstance(events[-1], Done), (folder.name, events[-1])
        record = json.loads((build / "provenance.json").read_text(encoding="utf-8"))
        out.append(score(folder, record.get("analysis", {})))
    return out


def test_set_is_what_the_review_read() -> None:
    folders = realholdout2_folders()
    assert len(folders) == 12
    assert sum(f.lang == "zh" for f in folders) == 5
    assert sum(len(f.truths) for f in folders) == 26


def test_asked_quantities_within_three_se_do_not_fall(scores: list[FolderScore]) -> None:
    within = sum(t.within for fs in scores for t in fs.truths if t.truth.answerable)
    assert within >= WITHIN_FLOOR, within


def test_requests_answered_do_not_fall(scores: list[FolderScore]) -> None:
    answered = sum(t.answered for fs in scores for t in fs.truths)
    assert answered >= ANSWERED_FLOOR, answered


def test_harmful_analyses_do_not_rise(scores: list[FolderScore]) -> None:
    harmful = [(fs.folder.name, h) for fs in scores for h in fs.harmful]
    assert len(harmful) <= HARMFUL_CEILING, harmful
    assert all(fs.unknown_columns == 0 for fs in scores)
