"""Locating section numbers, floats, metadata blocks and the bibliography by code."""

from __future__ import annotations

from labwright.edit.locate import (
    bibliography_block,
    document_language,
    float_span,
    floats,
    innermost_node,
    language_option_span,
    metadata_block,
    outline_lines,
    section_numbers,
)
from labwright.latex.sectionizer import sectionize
from tests.edit.docs import EN, ZH


def test_section_numbers_follow_latex_and_skip_starred_headings() -> None:
    numbers = {k: n.anchor for k, n in section_numbers(sectionize(EN)).items()}
    assert numbers["1"] == "n0" and numbers["4.1"] == "n4" and numbers["4.2"] == "n5"
    assert numbers["7"] == "n8"
    starred = EN.replace("\\section{Principle}", "\\section*{Principle}")
    numbers = {k: n.anchor for k, n in section_numbers(sectionize(starred)).items()}
    assert numbers["2"] == "n2" and "7" not in numbers


def test_floats_are_numbered_by_caption_and_resolve_to_their_subsection() -> None:
    assert len(floats(EN, "table")) == 2 and len(floats(ZH, "figure")) == 2
    span = float_span(EN, "table", 2)
    assert span is not None and "Fit results" in span.text(EN)
    node = innermost_node(sectionize(EN), span.start)
    assert node is not None and node.anchor == "n5"
    assert float_span(EN, "table", 3) is None
    uncaptioned = EN.replace("\\caption{Measured periods}", "")
    assert len(floats(uncaptioned, "table")) == 1


def test_metadata_blocks_include_our_templates_reportabstract() -> None:
    abstract = metadata_block(EN, "abstract")
    assert abstract is not None and abstract.text(EN).startswith("\\reportabstract{")
    assert abstract.text(EN).endswith("m/s$^2$.}")
    title = metadata_block(ZH, "title")
    assert title is not None and title.text(ZH) == "\\title{单摆测量重力加速度}"
    assert (
        metadata_block(
            EN.replace("\\keywords{pendulum, gravitational acceleration, period}\n", ""), "keywords"
        )
        is None
    )
    defined = "\\providecommand{\\keywords}[1]{}\n" + EN
    kw = metadata_block(defined, "keywords")
    assert kw is not None and "pendulum" in kw.text(defined)


def test_bibliography_block_ends_before_end_document() -> None:
    block = bibliography_block(ZH)
    assert block is not None
    assert block.text(ZH).startswith("\\begin{thebibliography}")
    assert ZH[block.end :] == "\\end{document}\n"
    assert (
        bibliography_block(EN.replace("\\bibliographystyle{plain}\n\\bibliography{refs}\n", ""))
        is None
    )


def test_language_and_outline() -> None:
    assert document_language(EN) == "en" and document_language(ZH) == "zh"
    span = language_option_span(EN)
    assert span is not None and span.text(EN) == "en"
    lines = outline_lines(EN)
    assert "n5:   4.2 Fit of $g$" in lines and "bibliography: (bibliography)" in lines


def test_a_hand_written_keyword_line_is_a_block_with_its_own_gate() -> None:
    from labwright.edit.model_edits import _block_problems
    from tests.edit.docs import EN_HAND

    span = metadata_block(EN_HAND, "keywords")
    assert span is not None and span.form == "line"
    assert span.text(EN_HAND).startswith("\\noindent\\textbf{Keywords:} pendulum")
    assert (
        _block_problems("\\noindent\\textbf{Keywords:} pendulum, damping", span, "keywords") == []
    )
    assert _block_problems("pendulum, damping", span, "keywords")  # the label is gone
