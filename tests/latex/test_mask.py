"""Equal-length masking of comments and verbatim-like regions."""

from __future__ import annotations

import pytest

from labwright.latex.mask import VERBATIM_ENVIRONMENTS, is_escaped, mask, mask_regions


def _visible(text: str) -> str:
    """The masked text with runs of blanks collapsed, for readable assertions."""
    return " ".join(mask(text).split())


def test_comment_is_blanked_to_end_of_line_and_newline_kept() -> None:
    text = "a % \\section{ghost}\nb"
    masked = mask(text)
    assert masked == "a " + " " * len("% \\section{ghost}") + "\nb"
    assert len(masked) == len(text)


def test_escaped_percent_is_not_a_comment() -> None:
    assert mask("50\\% of \\section{x}") == "50\\% of \\section{x}"


def test_percent_after_escaped_backslash_is_a_comment() -> None:
    # \\ is a line break; the % after it starts a comment.
    assert _visible("line\\\\% \\section{ghost}") == "line\\\\"


def test_three_backslashes_then_percent_is_escaped() -> None:
    text = "a\\\\\\%b"
    assert mask(text) == text


@pytest.mark.parametrize("env", VERBATIM_ENVIRONMENTS)
def test_verbatim_environments_are_blanked_whole(env: str) -> None:
    text = f"x\n\\begin{{{env}}}\n\\section{{ghost}} {{ % \n\\end{{{env}}}\ny"
    masked = mask(text)
    assert len(masked) == len(text)
    assert "section" not in masked and "begin" not in masked and "end" not in masked
    assert masked.startswith("x\n") and masked.endswith("\ny")
    assert masked.count("\n") == text.count("\n")


def test_environment_options_and_language_arguments_are_inside_the_region() -> None:
    text = "\\begin{lstlisting}[language=Python]\n#\\section{x}\n\\end{lstlisting}"
    assert mask(text).strip() == ""
    text = "\\begin{minted}{python}\nx = '\\section{x}'\n\\end{minted}"
    assert mask(text).strip() == ""


def test_verbatim_ends_only_at_its_own_end_tag() -> None:
    text = "\\begin{verbatim}\n\\end{itemize}\n\\section{ghost}\n\\end{verbatim}\\section{real}"
    assert _visible(text) == "\\section{real}"


def test_unterminated_environment_runs_to_end_and_is_reported() -> None:
    text = "ok\n\\begin{verbatim}\n\\section{ghost}\n"
    result = mask_regions(text)
    assert result.text.strip() == "ok"
    assert [r.kind for r in result.unterminated] == ["verbatim"]
    assert result.unterminated[0].end == len(text)


def test_begin_verbatim_inside_a_comment_does_not_open() -> None:
    text = "% \\begin{verbatim}\n\\section{real}\n"
    assert _visible(text) == "\\section{real}"
    assert mask_regions(text).unterminated == ()


def test_percent_inside_verb_is_not_a_comment() -> None:
    text = "\\verb|%| \\section{real}"
    assert _visible(text) == "\\section{real}"


@pytest.mark.parametrize(
    "inline",
    [
        "\\verb|\\section{x}|",
        "\\verb*|\\section{x}|",
        "\\verb+\\section{x}+",
        "\\lstinline|\\section{x}|",
        "\\lstinline[language=TeX]!\\section{x}!",
        "\\lstinline[breaklines=false]\n  |\\section{x}|",
        "\\lstinline{\\section{x}}",
        "\\mintinline{latex}{\\section{x}}",
        "\\mintinline{latex}|\\section{x}|",
    ],
)
def test_inline_verbatim_is_blanked(inline: str) -> None:
    text = f"a {inline} b"
    assert _visible(text) == "a b"
    assert all(r.terminated for r in mask_regions(text).regions)


def test_unclosed_verb_masks_to_end_of_line_only() -> None:
    text = "\\verb|abc\n\\section{real}"
    result = mask_regions(text)
    assert _visible(text) == "\\section{real}"
    assert [r.kind for r in result.unterminated] == ["inline"]


def test_line_break_followed_by_verb_word_is_not_verb() -> None:
    text = "a\\\\verb|b| % c"
    assert _visible(text) == "a\\\\verb|b|"


def test_verbatim_word_prefix_is_not_matched() -> None:
    # \verbatimfont is a different command; \begin{verbatimx} a different environment.
    text = "\\verbatimfont{x} \\begin{verbatimx} \\section{a} \\end{verbatimx}"
    assert mask(text) == text


def test_regions_report_offsets_in_the_original() -> None:
    text = "ab % c\nd \\verb|e| f"
    regions = mask_regions(text).regions
    assert [(r.kind, text[r.start : r.end]) for r in regions] == [
        ("comment", "% c"),
        ("inline", "\\verb|e|"),
    ]


def test_crlf_line_endings_keep_the_carriage_return_inside_the_comment() -> None:
    text = "a % x\r\n\\section{b}"
    masked = mask(text)
    assert len(masked) == len(text)
    assert masked.endswith("\n\\section{b}")


@pytest.mark.parametrize(
    "text", ["", "%", "\\", "\\verb", "\\verb|", "\\begin{verbatim}", "\\lstinline["]
)
def test_degenerate_inputs(text: str) -> None:
    assert len(mask(text)) == len(text)


@pytest.mark.parametrize(
    "text,pos,expected",
    [
        ("\\%", 1, True),
        ("\\\\%", 2, False),
        ("\\\\\\%", 3, True),
        ("%", 0, False),
        ("a%", 1, False),
    ],
)
def test_is_escaped(text: str, pos: int, expected: bool) -> None:
    assert is_escaped(text, pos) is expected
