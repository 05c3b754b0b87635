"""The structure score must separate a good report from a bad one before it may gate."""

from pathlib import Path

import pytest

from labwright.verify.score import CHECKS, score_report

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def good() -> str:
    return (FIXTURES / "good_report.tex").read_text(encoding="utf-8")


@pytest.fixture
def bad() -> str:
    return (FIXTURES / "bad_report.tex").read_text(encoding="utf-8")


@pytest.fixture
def bib() -> str:
    return (FIXTURES / "refs.bib").read_text(encoding="utf-8")


def test_good_and_bad_reports_are_separated(good: str, bad: str, bib: str) -> None:
    good_score = score_report(good, bib).score
    bad_score = score_report(bad, bib).score
    assert good_score >= 0.75
    assert bad_score <= 0.35
    assert good_score - bad_score >= 0.4


def test_good_report_passes_every_check(good: str, bib: str) -> None:
    result = score_report(good, bib)
    assert result.failed() == []
    assert list(result.checks) == list(CHECKS)
    assert result.score == 1.0


def test_bad_report_fails_the_expected_checks(bad: str, bib: str) -> None:
    failed = set(score_report(bad, bib).failed())
    assert {"skeleton", "sections", "error_analysis", "citations_closed", "tables"} <= failed
    assert {"equations", "no_filler", "no_todo"} <= failed


def test_without_a_bib_the_citation_check_is_excluded_not_failed(good: str) -> None:
    result = score_report(good, None)
    assert "citations_closed" not in result.checks
    assert result.excluded == ["citations_closed"]
    assert result.score == 1.0


def test_adding_a_citation_before_the_bib_exists_does_not_lower_the_score(good: str) -> None:
    more = good.replace("\\section{Conclusion}", "\\section{Conclusion}\nSee \\cite{newkey}.")
    assert score_report(more, None).score == score_report(good, None).score


def test_commented_out_headings_do_not_count(good: str, bib: str) -> None:
    stripped = (
        good.replace("\\section{Method}", "% \\section{Method}")
        .replace("\\section{Results}", "%\\section{Results}")
        .replace("\\section{Error analysis}", "% \\section{Error analysis}")
    )
    result = score_report(stripped, bib)
    assert result.checks["sections"] is False


@pytest.mark.parametrize(
    "phrase",
    ["TODO", "lorem ipsum", "\\lipsum", "[insert data]", "待补充"],
)
def test_placeholders_fail_no_todo(good: str, bib: str, phrase: str) -> None:
    text = good.replace("\\section{Conclusion}", f"\\section{{Conclusion}}\n{phrase}")
    assert score_report(text, bib).checks["no_todo"] is False


def test_chinese_error_analysis_is_recognised() -> None:
    tex = "\\documentclass{ctexart}\\begin{document}\\section{误差分析}内容\\end{document}"
    assert score_report(tex).checks["error_analysis"] is True
