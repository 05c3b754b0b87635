import pytest

from labwright.agent.markup import draft_problems, extract_document

GOOD = "\\documentclass{article}\\begin{document}x\\end{document}"


def test_a_clean_document_has_no_problems() -> None:
    assert draft_problems(GOOD) == []


@pytest.mark.parametrize(
    "markup",
    [
        '<tool_call>{"name": "read_file"}</tool_call>',
        '<｜DSML｜invoke name="x">',
        '{"tool_calls": []}',
    ],
)
def test_tool_markup_is_detected(markup: str) -> None:
    assert "the draft contains tool-call markup" in draft_problems(GOOD.replace("x", markup))


def test_missing_skeleton_is_detected() -> None:
    assert len(draft_problems("\\section{A} text")) == 2


def test_extract_document_drops_chatter() -> None:
    assert extract_document("Sure!\n```latex\n" + GOOD + "\n```") == GOOD + "\n"
