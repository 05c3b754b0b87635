"""strip_fragment and check_fragment."""

from __future__ import annotations

import pytest

from labwright.latex.fragment import check_fragment, strip_fragment

SECTION = "\\section{Results}\nWe found $g = 9.81$.\n"


@pytest.mark.parametrize(
    "wrapped",
    [
        f"```latex\n{SECTION}```",
        f"```tex\n{SECTION}```\n",
        f"~~~\n{SECTION}~~~",
        f"Here is the revised section:\n\n```latex\n{SECTION}```\nLet me know if you need more.",
        f"````\n{SECTION}````",
    ],
)
def test_markdown_fences_are_removed(wrapped: str) -> None:
    assert strip_fragment(wrapped) == SECTION


def test_unclosed_fence_runs_to_the_end() -> None:
    assert strip_fragment(f"```latex\n{SECTION}") == SECTION


def test_longest_fenced_block_is_taken() -> None:
    text = f"Add this to the preamble:\n```latex\n\\usepackage{{siunitx}}\n```\nThen:\n```latex\n{SECTION}```"
    assert strip_fragment(text) == SECTION


def test_a_clean_fragment_is_unchanged_but_for_trailing_space() -> None:
    assert strip_fragment(SECTION) == SECTION
    assert strip_fragment(SECTION + "\n\n  ") == SECTION
    assert strip_fragment("   ") == ""


def test_whole_document_is_cut_from_first_heading_to_end_document() -> None:
    doc = (
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n\\maketitle\n"
        f"{SECTION}\\subsection{{Detail}}\nMore.\n\\end{{document}}\n"
    )
    assert strip_fragment(doc) == f"{SECTION}\\subsection{{Detail}}\nMore.\n"


def test_whole_document_without_headings_gives_its_body() -> None:
    doc = "\\documentclass{article}\n\\begin{document}\nOnly text.\n\\end{document}"
    assert strip_fragment(doc) == "Only text.\n"


def test_fenced_whole_document_is_both_unfenced_and_cut() -> None:
    doc = f"```latex\n\\documentclass{{article}}\n\\begin{{document}}\n{SECTION}\\end{{document}}\n```"
    assert strip_fragment(doc) == SECTION


def test_heading_in_a_comment_of_the_preamble_is_not_the_cut_point() -> None:
    doc = (
        "\\documentclass{article}\n% \\section{Old}\n\\begin{document}\n"
        f"{SECTION}\\end{{document}}\n"
    )
    assert strip_fragment(doc) == SECTION


def test_healthy_fragment_passes() -> None:
    text = (
        "\\section{Results}\n\\begin{table}[h]\n\\centering\n\\begin{tabular}{cc}\n"
        "a & b \\\\\n\\end{tabular}\n\\caption{Data \\{raw\\}}\n\\end{table}\n"
        "% a comment with { and \\begin{itemize}\n\\verb|}|\n"
        "\\begin{verbatim}\n{ \\end{figure}\n\\end{verbatim}\n"
    )
    check = check_fragment(text)
    assert check.ok, check.problems


@pytest.mark.parametrize("text", ["", "  \n\t"])
def test_empty_fragment_fails(text: str) -> None:
    check = check_fragment(text)
    assert not check.ok and "empty" in check.problems[0]


@pytest.mark.parametrize(
    "text,needle",
    [
        ("\\section{A}\n{unclosed", "open"),
        ("\\section{A}\nstray}", "closing brace"),
        ("\\section{A}\n\\begin{itemize}\n\\item x\n", "never closed"),
        ("\\section{A}\n\\end{itemize}\n", "no matching"),
        ("\\section{A}\n\\begin{figure}\\begin{center}\\end{figure}", "never closed"),
        ("\\documentclass{article}\n\\section{A}", "\\documentclass"),
        ("\\section{A}\n\\end{document}", "\\end{document}"),
        ("\\section{A}\n\\begin{verbatim}\nx\n", "verbatim"),
        ("\\section{A}\n\\verb|x\n", "\\verb"),
    ],
)
def test_each_problem_is_reported_as_an_instruction(text: str, needle: str) -> None:
    check = check_fragment(text)
    assert not check.ok
    joined = " ".join(check.problems)
    assert needle in joined
    for problem in check.problems:
        # One sentence saying what is wrong plus what to do.
        assert problem.endswith(".") and ";" in problem


@pytest.mark.parametrize(
    "text",
    [
        "\\section{A}\n\\end{document}\n",
        "\\begin{document}\n\\section{A}\nx\n",
        "\\begin{document}\n\\section{A}\nx\n\\end{document}\n",
    ],
)
def test_document_markers_never_get_contradictory_advice(text: str) -> None:
    """The only advice for \\begin/\\end{document} is to leave them out, never to add the other."""
    problems = check_fragment(text).problems
    assert problems
    assert all("return only the section" in p for p in problems), problems
    assert len(problems) == ("\\begin{document}" in text) + ("\\end{document}" in text)


def test_escaped_braces_are_ignored() -> None:
    assert check_fragment("\\section{A}\n\\{ \\} \\}").ok


def test_double_backslash_before_brace_is_a_real_brace() -> None:
    assert not check_fragment("\\section{A}\nline\\\\{").ok


def test_documentclass_in_a_comment_is_fine() -> None:
    assert check_fragment("\\section{A}\n% \\documentclass{article} \\end{document}\n").ok


def test_brace_counts_are_reported() -> None:
    problems = check_fragment("\\section{A}\n{{x").problems
    assert any("2 brace(s) open" in p for p in problems)


def test_a_section_showing_an_example_document_is_not_cut() -> None:
    # A listing environment masking does not know (KOMA-Script's lstcode).
    section = (
        "\\section{Usage}\nExample:\n\\begin{lstcode}\n\\documentclass{scrbook}\n"
        "\\begin{document}\n\\chapter{X}\n\\end{document}\n\\end{lstcode}\n"
    )
    assert strip_fragment(section) == section


def test_line_break_before_begin_is_not_an_environment() -> None:
    assert check_fragment("\\section{A}\nx\\\\begin{itemize}\n").ok
    # Three backslashes: a line break, then a real \begin.
    assert not check_fragment("\\section{A}\nx\\\\\\begin{itemize}\n").ok


def test_many_unbalanced_environments_are_summarised() -> None:
    text = "\\section{A}\n" + "\\begin{a}" * 2000 + "\\end{b}" * 2000
    problems = check_fragment(text).problems
    assert len(problems) == 6
    assert problems[-1].startswith("3995 more environment(s)")


def test_backticks_inside_latex_verbatim_are_not_a_fence() -> None:
    section = "\\section{Markdown}\n\\begin{verbatim}\n```python\nprint(1)\n```\n\\end{verbatim}\n"
    assert strip_fragment(section) == section
    assert strip_fragment(f"```latex\n{section}```") == section
