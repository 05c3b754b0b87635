"""An unknown's readings written in the notes are read back on the calibration line."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.noted_unknowns import noted_unknowns
from labwright.analysis.request_rules.text import read_notes
from labwright.ingest.types import DocumentText

from .tables import folder as notes_folder
from .tables import table


@pytest.mark.parametrize(
    ("text", "label", "values"),
    [
        (
            "未知样平行测定三次，吸光度为 0.498、0.503、0.499，求未知样的含量。",
            "未知样",
            (0.498, 0.503, 0.499),
        ),
        ("The unknown read 0.412, 0.409 and 0.415.", "unknown", (0.412, 0.409, 0.415)),
        ("Sample X gave 0.377.", "Sample X", (0.377,)),
        ("The unknown was diluted 10 mL to 100 mL.", None, None),  # volumes, not readings
    ],
)
def test_readings_of_an_unknown_in_the_notes(text: str, label: str | None, values) -> None:
    found = noted_unknowns(read_notes([DocumentText("notes.md", text)]))
    if label is None:
        assert found == []
    else:
        assert [(n.label, n.values) for n in found] == [(label, values)]


def test_the_noted_unknown_is_read_back_with_its_standard_error() -> None:
    x = np.array([0.1, 0.3, 0.5, 0.6, 0.7, 0.9])
    y = 0.005 + 0.876 * x + np.array([0.002, -0.001, 0.0, 0.001, -0.002, 0.001])
    folder = notes_folder(
        "标准曲线：A = a + b·V。\n1. 求标准曲线的斜率 b 及其标准误；\n"
        "2. 未知样平行测定三次，吸光度为 0.498、0.503、0.499，求未知样的量（mL）及其标准误。",
        table("std.txt", {"V (mL)": x, "A": y}),
    )
    req = read_request(folder, catalogue())
    assert [n.label for n in req.noted_unknowns] == ["未知样"]
    answers = analyse_folder(folder, req).record()["answers"]
    x0 = next(a for a in answers if a["label"] == "未知样")
    truth = (np.mean([0.498, 0.503, 0.499]) - 0.005) / 0.876
    assert abs(x0["value"] - truth) < 3 * x0["se"]


def test_samples_side_by_side_are_one_unknown_each() -> None:
    """A sheet of unknowns "样品1 | 样品2" holds one sample per column and its
    replicate readings per row; it is read back, never calibrated itself."""
    x = np.array([0.0, 1, 2, 4, 6, 8, 10])
    y = 0.004 + 0.198 * x + np.array([0.002, -0.001, 0.0, 0.001, -0.002, 0.001, 0.0])
    standards = table("fe.xlsx", {"Fe浓度 (mg/L)": x, "吸光度 A": y}, sheet="标准溶液")
    unknowns = table(
        "fe.xlsx", {"样品1": [0.62, 0.616, 0.619], "样品2": [1.124, 1.119, 1.122]}, sheet="待测样"
    )
    folder = notes_folder(
        "测定系列标准溶液的吸光度，绘制标准曲线（朗伯-比尔定律 A = εbc），再测定两份水样，"
        "各平行测定三次（工作表“待测样”）。求两份水样中铁的含量（mg/L）。",
        standards,
        unknowns,
        source="notes.txt",
    )
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    answers = fa.record()["answers"]
    got = {a["label"]: a["value"] for a in answers if a["quantity"] == "x0"}
    assert set(got) == {"样品1", "样品2"}
    assert got["样品1"] == pytest.approx((np.mean([0.62, 0.616, 0.619]) - 0.004) / 0.198, rel=0.01)
    assert [a.kind for a in fa.analyses] == ["calibration"]
