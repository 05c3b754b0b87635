"""The analyst on real data it was never tuned on, written blind (tests/realdata_holdout).

Floors at the counts of the review of 2026-12-05 (docs/review/2026-12-05-real-holdout.md):
a change that loses an answer fails here; a change that gains one should raise
the floor in the same commit. The offline build runs without TeX (the scores
come from the provenance record, not the PDF).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.labset.score import score
from tests.realdata_holdout import realholdout_folders

pytestmark = pytest.mark.slow

# today's counts: 25 asked quantities in 12 folders
WITHIN_FLOOR = 22
ANSWERED_FLOOR = 24
HARMFUL_CEILING = 0


def _build(folder_dir: Path, out_dir: Path) -> dict[str, object]:
    from labwright.agent.offline import build_offline

    list(build_offline(folder_dir, out_dir, tex_available=False))
    prov = out_dir / "provenance.json"
    return (
        json.loads(prov.read_text(encoding="utf-8")).get("analysis", {}) if prov.is_file() else {}
    )


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> list:
    root = tmp_path_factory.mktemp("realholdout")
    out = []
    for folder in realholdout_folders():
        data = folder.write(root / "data")
        out.append(score(folder, _build(data, root / "builds" / folder.name)))
    return out


def test_the_set_is_what_the_review_read() -> None:
    folders = realholdout_folders()
    assert len(folders) == 12
    assert sum(f.lang == "zh" for f in folders) >= 4
    assert sum(len(f.truths) for f in folders) == 25


def test_floors(scores: list) -> None:
    truths = [t for fs in scores for t in fs.truths]
    within = sum(t.within for t in truths if t.truth.answerable)
    answered = sum(t.answered for t in truths)
    harmful = sum(len(fs.harmful) for fs in scores)
    detail = "\n".join(
        f"{fs.folder.name}: {t.truth.names[0]} {t.note}" for fs in scores for t in fs.truths
    )
    assert within >= WITHIN_FLOOR, detail
    assert answered >= ANSWERED_FLOOR, detail
    assert harmful <= HARMFUL_CEILING, [h for fs in scores for h in fs.harmful]
