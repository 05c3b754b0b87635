"""Edits done by code, in English and Chinese; a missing target gets a sentence, never a guess."""

from __future__ import annotations

import pytest

from labwright.edit.deterministic import deterministic_edit
from labwright.edit.locate import floats
from tests.edit.docs import EN, ZH


def _apply(request: str, doc: str) -> str:
    outcome = deterministic_edit(request, doc)
    assert outcome is not None and len(outcome.changes) == 1, outcome
    return outcome.changes[0].apply(doc)


@pytest.mark.parametrize(
    ("request_", "doc", "old", "new"),
    [
        ("Rename section 2 to Theory.", EN, "\\section{Principle}", "\\section{Theory}"),
        (
            'Rename "Error analysis" to "Uncertainties"',
            EN,
            "\\section{Error analysis}",
            "\\section{Uncertainties}",
        ),
        (
            "Change the title of section 4.1 to Periods.",
            EN,
            "\\subsection{Period measurements}",
            "\\subsection{Periods}",
        ),
        ("把第6节改名为分析与讨论", ZH, "\\section{讨论}", "\\section{分析与讨论}"),
        (
            "将“误差分析”改名为“不确定度分析”。",
            ZH,
            "\\section{误差分析}",
            "\\section{不确定度分析}",
        ),
        (
            "Change the title to Measuring g & T",
            EN,
            "\\title{Simple pendulum and the local value of g}",
            "\\title{Measuring g \\& T}",
        ),
        (
            "把标题改为“单摆法测重力加速度”",
            ZH,
            "\\title{单摆测量重力加速度}",
            "\\title{单摆法测重力加速度}",
        ),
        (
            "Switch the report language to Chinese.",
            EN,
            "\\documentclass[en]",
            "\\documentclass[zh]",
        ),
        ("切换为英文", ZH, "\\documentclass[zh]", "\\documentclass[en]"),
        ("In Table 1, change ms to s.", EN, "Period (ms)", "Period (s)"),
        ("把表1中的“ms”改为“s”", ZH, "周期 (ms)", "周期 (s)"),
    ],
)
def test_deterministic_edits_change_exactly_the_named_text(
    request_: str, doc: str, old: str, new: str
) -> None:
    assert _apply(request_, doc) == doc.replace(old, new, 1)


@pytest.mark.parametrize(("request_", "doc"), [("Remove Figure 2.", EN), ("删除图2", ZH)])
def test_remove_figure(request_: str, doc: str) -> None:
    after = _apply(request_, doc)
    assert len(floats(after, "figure")) == 1 and "fig:fit" not in after.replace(
        "\\ref{fig:fit}", ""
    )
    assert len(after) < len(doc)


def test_unit_fix_leaves_the_caption_alone() -> None:
    doc = EN.replace("\\caption{Measured periods}", "\\caption{Measured periods (ms)}")
    after = _apply("In Table 1, change ms to s", doc)
    assert "\\caption{Measured periods (ms)}" in after and "Period (s)" in after


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ("Remove Figure 5.", "Figure 5"),
        ("In Table 3, change ms to s.", "Table 3"),
        ("In Table 1, change kg to g.", "kg"),
        ("Rename section 9 to Appendix.", "section 9"),
        ("Switch the report language to English.", "already"),
    ],
)
def test_missing_targets_get_one_sentence(request_: str, fragment: str) -> None:
    outcome = deterministic_edit(request_, EN)
    assert outcome is not None and not outcome.changes
    assert fragment in outcome.reply and outcome.reply.endswith(".")


@pytest.mark.parametrize(
    "request_",
    [
        "Make the discussion more specific.",
        "把讨论部分写得更具体。",
        "Fix the units in Table 2.",
        "Shorten the abstract.",
    ],
)
def test_other_requests_are_left_to_the_model(request_: str) -> None:
    assert deterministic_edit(request_, EN) is None


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [("删除图5", "图5"), ("把表3中的“ms”改为“s”", "表3"), ("把第9节改名为附录", "第9节")],
)
def test_chinese_requests_get_chinese_sentences(request_: str, fragment: str) -> None:
    outcome = deterministic_edit(request_, ZH)
    assert outcome is not None and not outcome.changes
    assert fragment in outcome.reply and outcome.reply.endswith("。")


def test_chinese_proposal_summary() -> None:
    outcome = deterministic_edit("把标题改为“单摆”", ZH)
    assert outcome is not None and outcome.changes[0].summary == "把标题改为“单摆”。"
