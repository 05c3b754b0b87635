"""A paired comparison: the mean of the paired differences, ordered as the notes ask."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import DocumentText, ReadResult
from tests.analysis.request.tables import table

HEATED = [244, 255, 253, 254, 251, 269, 248, 252, 292]
ROOM = [225, 247, 249, 253, 245, 259, 242, 255, 286]


def _answers(notes: str, columns: dict[str, list[float]]) -> tuple[list[dict], list[str]]:
    folder = ReadResult(
        datasets=[table("bands.csv", {"pair": list(range(1, 10)), **columns})],
        documents=[DocumentText("notes.md", notes)],
    )
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    return fa.record()["answers"], [a.kind for a in fa.analyses]


@pytest.mark.parametrize(
    ("notes", "sign"),
    [
        ("用配对 t 检验比较两组：求“加热 − 室温”伸长量之差的平均值及其标准误差。", 1),
        ("Paired design: report the mean of room minus heated, with its standard error.", -1),
    ],
)
def test_the_mean_paired_difference_follows_the_notes_order(notes: str, sign: int) -> None:
    answers, kinds = _answers(notes, {"加热组伸长 (mm)": HEATED, "室温组伸长 (mm)": ROOM})
    assert kinds == ["paired"]
    [d] = [a for a in answers if a["quantity"] == "mean_diff"]
    diff = np.subtract(HEATED, ROOM)
    assert d["value"] == pytest.approx(sign * diff.mean())
    assert d["se"] == pytest.approx(diff.std(ddof=1) / np.sqrt(diff.size))
    assert d["unit"] == "mm"
    assert d["symbol"] == "d̄"  # the record names it by its usual symbol


def test_the_t_test_is_scipys_paired_one() -> None:
    from labwright.analysis.paired import compare_pairs
    from labwright.ingest.types import Column, Provenance

    a = Column("a", np.array(ROOM, dtype=float), Provenance("f"))
    b = Column("b", np.array(HEATED, dtype=float), Provenance("f"))
    r = compare_pairs(a, b, "mm")
    assert r is not None
    ref = stats.ttest_rel(HEATED, ROOM)
    assert (r.t, r.p, r.df) == pytest.approx((ref.statistic, ref.pvalue, 8))


def test_two_columns_without_the_word_paired_are_not_paired() -> None:
    _, kinds = _answers("Compare the two groups.", {"heated (mm)": HEATED, "room (mm)": ROOM})
    assert "paired" not in kinds
