"""The sectionizer: nodes, spans, anchors, keys, pseudo-nodes, degradation."""

from __future__ import annotations

import pytest

from labwright.latex.sectionizer import sectionize, title_slug

PRE = "\\documentclass{article}\n\\begin{document}\n"
END = "\\end{document}\n"


def _doc(body: str) -> str:
    return PRE + body + END


def _texts(doc: str) -> list[str]:
    return [n.text(doc) for n in sectionize(doc).nodes]


def test_levels_anchors_keys_parents_and_spans() -> None:
    doc = _doc(
        "\\section{Introduction}\nIntro.\n\n"
        "\\section{Method}\nM.\n\\subsection{Setup}\nS.\n\\subsubsection{Clock}\nC.\n"
        "\\subsection{Procedure}\nP.\n\n"
        "\\section{Error Analysis}\nE.\n"
    )
    result = sectionize(doc)
    assert result.editable and result.reason == ""
    assert [(n.anchor, n.key, n.level, n.parent) for n in result.nodes] == [
        ("n0", "L1:Introduction", 1, None),
        ("n1", "L1:Method", 1, None),
        ("n2", "L2:Setup", 2, "n1"),
        ("n3", "L3:Clock", 3, "n2"),
        ("n4", "L2:Procedure", 2, "n1"),
        ("n5", "L1:ErrorAnalysis", 1, None),
    ]
    texts = _texts(doc)
    assert texts[0] == "\\section{Introduction}\nIntro.\n\n"
    # A parent takes its children with it; a child ends at its next sibling.
    assert texts[1] == (
        "\\section{Method}\nM.\n\\subsection{Setup}\nS.\n\\subsubsection{Clock}\nC.\n"
        "\\subsection{Procedure}\nP.\n\n"
    )
    assert texts[2] == "\\subsection{Setup}\nS.\n\\subsubsection{Clock}\nC.\n"
    assert texts[3] == "\\subsubsection{Clock}\nC.\n"
    # The last node ends right before \end{document}.
    assert texts[5] == "\\section{Error Analysis}\nE.\n"
    assert result.nodes[5].char_end == doc.index("\\end{document}")
    assert result.top_level == 1
    assert [n.anchor for n in result.top_nodes] == ["n0", "n1", "n5"]


def test_heading_end_is_after_the_title() -> None:
    doc = _doc("\\section*[S]{Long {x}}\nBody\n")
    node = sectionize(doc).nodes[0]
    assert doc[node.char_start : node.heading_end] == "\\section*[S]{Long {x}}"


def test_starred_headings() -> None:
    doc = _doc("\\section*{Acknowledgements}\nThanks.\n\\section{Next}\n")
    nodes = sectionize(doc).nodes
    assert nodes[0].starred and not nodes[1].starred
    assert nodes[0].title == "Acknowledgements"
    assert nodes[0].text(doc) == "\\section*{Acknowledgements}\nThanks.\n"


def test_defect_optional_argument_heading_is_its_own_node() -> None:
    """Seed defect 1: \\section[short]{long} was missed and merged into its predecessor."""
    doc = _doc("\\section{Theory}\nT.\n\\section[Results]{Results of the pendulum run}\nR.\n")
    result = sectionize(doc)
    assert len(result.nodes) == 2
    theory, results = result.nodes
    assert theory.text(doc) == "\\section{Theory}\nT.\n"  # not swallowing the next section
    assert results.title == "Results of the pendulum run"
    assert results.short_title == "Results"
    assert results.key == "L1:Resultsofthependulumrun"


def test_optional_argument_with_brackets_and_braces_inside() -> None:
    doc = _doc("\\section[{a]b} c]{Long}\nX\n\\subsection*[S]\n  {Sub}\nY\n")
    nodes = sectionize(doc).nodes
    assert [(n.short_title, n.title) for n in nodes] == [("{a]b} c", "Long"), ("S", "Sub")]


@pytest.mark.parametrize(
    "ghost",
    [
        "% \\section{Ghost}\n",
        "text % old: \\section{Ghost}\n",
        "\\begin{verbatim}\n\\section{Ghost}\n\\end{verbatim}\n",
        "\\begin{lstlisting}[language=TeX]\n\\section{Ghost}\n\\end{lstlisting}\n",
        "\\begin{minted}{latex}\n\\section{Ghost}\n\\end{minted}\n",
        "\\begin{comment}\n\\section{Ghost}\n\\end{comment}\n",
        "\\begin{Verbatim}\n\\subsection{Ghost}\n\\end{Verbatim}\n",
        "Use \\verb|\\section{Ghost}| for headings.\n",
        "Use \\lstinline{\\section{Ghost}} for headings.\n",
        "A line break\\\\section{Ghost} is text.\n",
    ],
)
def test_defect_headings_in_comments_or_verbatim_are_not_nodes(ghost: str) -> None:
    """Seed defect 2: such headings produced ghost nodes and corrupted splices."""
    doc = _doc("\\section{Real}\nBefore.\n" + ghost + "After.\n\\section{Next}\nN.\n")
    result = sectionize(doc)
    assert [n.title for n in result.nodes] == ["Real", "Next"]
    # The first span runs over the ghost to the next real heading.
    assert result.nodes[0].text(doc) == "\\section{Real}\nBefore.\n" + ghost + "After.\n"


def test_titles_with_nested_braces_and_math() -> None:
    doc = _doc("\\section{Fit of $g = \\frac{4\\pi^2 L}{T^{2}}$ and {\\bf bold}}\nX\n")
    node = sectionize(doc).nodes[0]
    assert node.title == "Fit of $g = \\frac{4\\pi^2 L}{T^{2}}$ and {\\bf bold}"
    assert node.heading_end == doc.index("\nX")


def test_escaped_braces_in_titles() -> None:
    doc = _doc("\\section{Sets \\{a\\} and \\}}\nX\n")
    node = sectionize(doc).nodes[0]
    assert node.title == "Sets \\{a\\} and \\}"


def test_non_ascii_titles_and_keys() -> None:
    doc = _doc("\\section{误差分析}\n内容。\n\\section{Über die Messung}\nX\n")
    nodes = sectionize(doc).nodes
    assert [n.title for n in nodes] == ["误差分析", "Über die Messung"]
    assert [n.key for n in nodes] == ["L1:误差分析", "L1:ÜberdieMessung"]


def test_repeated_titles_get_ordinal_suffixes_per_level() -> None:
    doc = _doc(
        "\\section{Results}\n\\subsection{Results}\n\\section{Results}\n\\section{Discussion}\n"
        "\\section{Results}\n"
    )
    keys = [n.key for n in sectionize(doc).nodes]
    assert keys == ["L1:Results", "L2:Results", "L1:Results#2", "L1:Discussion", "L1:Results#3"]


def test_key_slug_drops_punctuation_but_keeps_command_names() -> None:
    assert title_slug("Error Analysis") == "ErrorAnalysis"
    assert title_slug("Fit of $\\alpha$") != title_slug("Fit of $\\beta$")
    assert title_slug("$=$") == "Untitled"
    assert title_slug("3.1 Results & Discussion") == "31ResultsDiscussion"


def test_chapter_and_paragraph_levels() -> None:
    doc = _doc(
        "\\chapter{One}\n\\section{A}\n\\paragraph{P}\nx\n\\subparagraph{Q}\ny\n\\chapter{Two}\nz\n"
    )
    result = sectionize(doc)
    assert [(n.command, n.level, n.parent) for n in result.nodes] == [
        ("chapter", 0, None),
        ("section", 1, "n0"),
        ("paragraph", 4, "n1"),
        ("subparagraph", 5, "n2"),
        ("chapter", 0, None),
    ]
    assert result.top_level == 0
    assert result.nodes[0].text(doc).endswith("y\n")
    assert result.nodes[0].key == "L0:One"


def test_skipped_levels_nest_under_the_nearest_shallower_heading() -> None:
    doc = _doc("\\section{A}\n\\subsubsection{Deep}\nx\n\\subsection{B}\ny\n")
    nodes = sectionize(doc).nodes
    assert [n.parent for n in nodes] == [None, "n0", "n0"]
    assert nodes[1].text(doc) == "\\subsubsection{Deep}\nx\n"


@pytest.mark.parametrize(
    "tail",
    [
        "\\begin{thebibliography}{9}\n\\bibitem{a} A.\n\\end{thebibliography}\n",
        "\\bibliographystyle{plain}\n\\bibliography{refs}\n",
        "\\bibliography{refs}\n",
        "\\printbibliography\n",
    ],
)
def test_last_node_ends_at_the_bibliography(tail: str) -> None:
    doc = _doc("\\section{A}\nx\n\\section{Last}\nEnd text.\n\n" + tail)
    last = sectionize(doc).nodes[-1]
    assert last.text(doc) == "\\section{Last}\nEnd text.\n\n"


def test_appendix_switch_ends_every_open_node() -> None:
    doc = _doc(
        "\\section{Conclusion}\nDone.\n\\subsection{Outlook}\nMore.\n\\appendix\n\\section{Raw data}\nT.\n"
    )
    nodes = sectionize(doc).nodes
    assert nodes[0].text(doc) == "\\section{Conclusion}\nDone.\n\\subsection{Outlook}\nMore.\n"
    assert nodes[1].text(doc) == "\\subsection{Outlook}\nMore.\n"
    assert nodes[2].text(doc) == "\\section{Raw data}\nT.\n"
    assert [n.anchor for n in nodes] == ["n0", "n1", "n2"]


def test_terminator_inside_a_title_does_not_cut_the_node() -> None:
    doc = _doc("\\section{On \\appendix{} usage}\nBody.\n")
    node = sectionize(doc).nodes[0]
    assert node.text(doc) == "\\section{On \\appendix{} usage}\nBody.\n"


def test_headings_in_the_preamble_are_ignored() -> None:
    doc = (
        "\\documentclass{article}\n\\newcommand{\\intro}{\\section{Intro}}\n"
        "\\begin{document}\n\\section{Real}\nx\n\\end{document}\n"
    )
    assert [n.title for n in sectionize(doc).nodes] == ["Real"]


def test_headings_after_end_document_are_ignored() -> None:
    doc = _doc("\\section{A}\n") + "\\section{After the end}\n"
    assert [n.title for n in sectionize(doc).nodes] == ["A"]


def test_a_fragment_without_preamble_is_parsed_whole() -> None:
    text = "\\section{Only}\nBody\n\\subsection{Sub}\n"
    result = sectionize(text)
    assert [n.title for n in result.nodes] == ["Only", "Sub"]
    assert result.nodes[0].char_end == len(text)


def test_example_document_in_an_unknown_listing_does_not_hide_the_real_headings() -> None:
    # Seen in the KOMA-Script manual's chapter files.
    text = (
        "\\chapter{Real}\nText\n\\begin{lstcode}\n\\documentclass{scrbook}\n\\begin{document}\n"
        "\\end{document}\n\\end{lstcode}\n\\section{Also real}\n"
    )
    assert [n.title for n in sectionize(text).nodes] == ["Real", "Also real"]


def test_space_and_one_newline_between_command_and_title() -> None:
    doc = _doc("\\section {Spaced}\n\\section*\n{Newline}\n")
    assert [n.title for n in sectionize(doc).nodes] == ["Spaced", "Newline"]


def test_commands_that_only_start_like_headings_are_not_headings() -> None:
    doc = _doc("\\sectionmark{x}\\subsectionname{y}\\paragraphfont{z}\\section{Real}\n")
    assert [n.title for n in sectionize(doc).nodes] == ["Real"]


def test_malformed_headings_are_skipped_without_raising() -> None:
    doc = _doc("\\section{Good}\nx\n\\section\n\n{blank line}\n\\section[unclosed{Bad}\n")
    result = sectionize(doc)
    assert [n.title for n in result.nodes] == ["Good"]


def test_unclosed_title_brace_does_not_scan_the_whole_document() -> None:
    doc = _doc("\\section{Broken\n" + "x " * 10_000 + "\n\\section{Fine}\ny\n")
    assert [n.title for n in sectionize(doc).nodes] == ["Fine"]


def test_abstract_environment_and_keywords_command_pseudo_nodes() -> None:
    doc = _doc(
        "\\begin{abstract}\nWe measured g.\n\\end{abstract}\n\\keywords{pendulum, gravity}\n"
        "\\section{Intro}\nx\n"
    )
    result = sectionize(doc)
    assert [(n.kind, n.anchor, n.key, n.level) for n in result.pseudo_nodes] == [
        ("abstract", "abstract", "abstract", None),
        ("keywords", "keywords", "keywords", None),
    ]
    abstract, keywords = result.pseudo_nodes
    assert abstract.text(doc) == "\\begin{abstract}\nWe measured g.\n\\end{abstract}"
    assert abstract.command == "begin{abstract}"
    assert keywords.text(doc) == "\\keywords{pendulum, gravity}"
    # Pseudo-nodes never shift the positional anchors of headings.
    assert [n.anchor for n in result.nodes] == ["n0"]
    assert result.by_anchor("abstract") is abstract


def test_abstract_and_keyword_commands_in_the_preamble() -> None:
    doc = (
        "\\documentclass{ctexart}\n\\abstract{本文测量了重力加速度。}\n\\keyword{单摆}\n"
        "\\begin{document}\n\\section{引言}\nx\n\\end{document}\n"
    )
    result = sectionize(doc)
    assert [(n.kind, n.command, n.text(doc)) for n in result.pseudo_nodes] == [
        ("abstract", "abstract", "\\abstract{本文测量了重力加速度。}"),
        ("keywords", "keyword", "\\keyword{单摆}"),
    ]


def test_abstract_in_a_comment_or_a_bare_switch_is_not_a_pseudo_node() -> None:
    doc = _doc("% \\begin{abstract}x\\end{abstract}\n\\renewcommand\\abstract\n\\section{A}\n")
    assert sectionize(doc).pseudo_nodes == ()


def test_only_an_abstract_is_still_editable() -> None:
    doc = _doc("\\begin{abstract}\nA.\n\\end{abstract}\nJust prose.\n")
    result = sectionize(doc)
    assert result.editable and result.nodes == () and len(result.pseudo_nodes) == 1


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Just a paragraph of prose without any structure.",
        _doc("No headings here.\n"),
        "\\documentclass{article}\n\\section{In preamble only}\n",
        "% \\section{commented}\n",
    ],
)
def test_not_editable_by_section_is_a_result_not_an_exception(text: str) -> None:
    result = sectionize(text)
    assert not result.editable
    assert result.nodes == ()
    assert result.reason.endswith(".") and "whole" in result.reason


def test_non_text_input_is_not_editable() -> None:
    result = sectionize(None)  # type: ignore[arg-type]
    assert not result.editable and result.reason


def test_reparsing_gives_the_same_result() -> None:
    doc = _doc("\\section{A}\n\\subsection{B}\n\\section{A}\n")
    assert sectionize(doc) == sectionize(doc)


@pytest.mark.parametrize(
    "definition",
    [
        "\\providecommand\\keywords{\\textbf{Keywords:}}\n",
        "\\renewcommand*{\\abstract}{x}\n",
        "\\let\\keywords\\relax\n",
        "\\newcommand{\\keywords}[1]{#1}\n",
    ],
)
def test_defining_abstract_or_keywords_is_not_a_pseudo_node(definition: str) -> None:
    doc = (
        "\\documentclass{article}\n"
        + definition
        + "\\begin{document}\n\\keywords{a, b}\n\\end{document}\n"
    )
    result = sectionize(doc)
    assert [n.text(doc) for n in result.pseudo_nodes] == ["\\keywords{a, b}"]


def test_part_ends_the_previous_chapter_without_being_a_node() -> None:
    doc = _doc("\\part{One}\n\\chapter{A}\nx\n\\part{Two}\n\\chapter{B}\ny\n")
    nodes = sectionize(doc).nodes
    assert [n.title for n in nodes] == ["A", "B"]
    assert nodes[0].text(doc) == "\\chapter{A}\nx\n"


def test_partial_derivative_is_not_a_part() -> None:
    doc = _doc("\\section{A}\n$\\partial_t u$ and \\appendixname\nmore\n\\section{B}\n")
    assert (
        sectionize(doc).nodes[0].text(doc)
        == "\\section{A}\n$\\partial_t u$ and \\appendixname\nmore\n"
    )


def test_blank_line_inside_a_title_is_a_broken_heading() -> None:
    # LaTeX stops with "Paragraph ended before \@sect was complete".
    doc = _doc("\\section{Broken\n\nstill broken}\nx\n\\section{Fine}\n")
    assert [n.title for n in sectionize(doc).nodes] == ["Fine"]


def test_abstract_argument_may_hold_paragraphs() -> None:
    doc = "\\abstract{First paragraph.\n\nSecond paragraph.}\n\\section{A}\n"
    (abstract,) = sectionize(doc).pseudo_nodes
    assert abstract.text(doc) == "\\abstract{First paragraph.\n\nSecond paragraph.}"


@pytest.mark.parametrize(
    "unit",
    [
        "\\section{",
        "\\section{ab\\x ",
        "\\subsection{{{{",
        "\\section[{",
        "\\begin{abstract}",
        "\\abstract{x\\y ",
        "\\keywords{",
    ],
)
def test_pathological_unclosed_headings_parse_to_nothing(unit: str) -> None:
    # benchmarks/sectionizer.py times this case; here only the result is checked.
    text = unit * (100_000 // len(unit)) + "\n\\section{Real}\n"
    result = sectionize(text)
    assert [n.title for n in result.nodes] == ["Real"]
    assert result.pseudo_nodes == ()
