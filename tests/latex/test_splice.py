"""splice, the conservation rule and the gated apply_fragment path."""

from __future__ import annotations

import pytest

from labwright.latex.sectionizer import sectionize
from labwright.latex.splice import apply_fragment, check_conservation, splice

DOC = (
    "\\documentclass{article}\n\\begin{document}\n"
    "\\begin{abstract}\nOld abstract.\n\\end{abstract}\n"
    "\\section{Intro}\nHello.\n\n"
    "\\section{Method}\nWe measured.\n\\subsection{Setup}\nA pendulum.\n\n"
    "\\section{Results}\nNumbers.\n\n"
    "\\section{Conclusion}\nDone.\n"
    "\\end{document}\n"
)


def _node(doc: str, title: str):  # type: ignore[no-untyped-def]
    return next(n for n in sectionize(doc).nodes if n.title == title)


def _skeleton(doc: str) -> list[tuple[str, str, int | None]]:
    return [(n.anchor, n.key, n.level) for n in sectionize(doc).nodes]


def test_splice_replaces_only_the_range() -> None:
    assert splice("abcdef", 2, 4, "XYZ") == "abXYZef"
    assert splice("abcdef", 3, 3, "+") == "abc+def"
    assert splice("abcdef", 0, 6, "") == ""


@pytest.mark.parametrize("start,end", [(-1, 2), (3, 2), (0, 7), (7, 7)])
def test_splice_rejects_ranges_outside_the_document(start: int, end: int) -> None:
    with pytest.raises(ValueError):
        splice("abcdef", start, end, "x")


def test_apply_fragment_changes_only_the_section() -> None:
    node = _node(DOC, "Results")
    fragment = "\\section{Results}\nWe found $g = 9.81\\,\\mathrm{m/s^2}$.\n"
    result = apply_fragment(DOC, node, fragment)
    assert result.ok, result.problems
    out = result.content
    assert out[: node.char_start] == DOC[: node.char_start]
    tail = DOC[node.char_end :]
    assert out.endswith(tail)
    assert out[node.char_start : len(out) - len(tail)] == (
        "\\section{Results}\nWe found $g = 9.81\\,\\mathrm{m/s^2}$.\n\n"
    )
    assert _skeleton(out) == _skeleton(DOC)


def test_apply_fragment_strips_fences_and_keeps_the_spans_trailing_blank_line() -> None:
    node = _node(DOC, "Intro")
    result = apply_fragment(DOC, node, "```latex\n\\section{Intro}\nHi there.\n```")
    assert result.ok
    assert "\\section{Intro}\nHi there.\n\n\\section{Method}" in result.content


def test_splicing_a_nodes_own_text_is_identity() -> None:
    for node in sectionize(DOC).all_nodes():
        result = apply_fragment(DOC, node, node.text(DOC))
        assert result.ok and result.content == DOC, node.anchor


def test_defect_fragment_adding_a_section_is_refused() -> None:
    """Seed defect 3: a fragment with an extra section shifted every later anchor.

    Shown both ways: what the raw splice would do, and that the gate refuses it.
    """
    node = _node(DOC, "Method")
    helpful = (
        "\\section{Method}\nWe measured.\n\\subsection{Setup}\nA pendulum.\n\n"
        "\\section{Apparatus}\nA stopwatch.\n\n"
    )
    raw = splice(DOC, node.char_start, node.char_end, helpful)
    before = {n.anchor: n.title for n in sectionize(DOC).nodes}
    after = {n.anchor: n.title for n in sectionize(raw).nodes}
    assert before["n3"] == "Results" and after["n3"] != "Results"  # the drift

    result = apply_fragment(DOC, node, helpful)
    assert not result.ok
    assert result.content is DOC  # refused: the document is untouched
    assert "heading" in result.problems[0]


def test_fragment_dropping_its_heading_is_refused() -> None:
    node = _node(DOC, "Results")
    result = apply_fragment(DOC, node, "We found nothing.\n")
    assert not result.ok and result.content == DOC


def test_skeleton_mode_refuses_an_added_subsection_top_mode_allows_it() -> None:
    node = _node(DOC, "Results")
    fragment = "\\section{Results}\nNumbers.\n\\subsection{Uncertainty}\n5 %.\n"
    assert not apply_fragment(DOC, node, fragment).ok
    result = apply_fragment(DOC, node, fragment, mode="top")
    assert result.ok
    # Top mode keeps the top-level sections' order and count.
    tops = [n.title for n in sectionize(result.content).top_nodes]
    assert tops == ["Intro", "Method", "Results", "Conclusion"]


def test_top_mode_still_refuses_a_subsection_promoted_to_a_section() -> None:
    node = _node(DOC, "Setup")
    assert not apply_fragment(DOC, node, "\\section{Setup}\nx\n", mode="top").ok
    assert apply_fragment(DOC, node, "\\subsection{Setup}\ny\n", mode="top").ok


@pytest.mark.parametrize(
    "old,new,mode,ok",
    [
        ("\\section{A}\nx", "\\section{A}\ny", "skeleton", True),
        ("\\section{A}\nx", "\\section{B}\ny", "skeleton", True),  # renaming keeps the anchors
        ("\\section{A}\nx", "\\section{A}\n\\section{B}", "skeleton", False),
        ("\\section{A}\nx", "\\section*[a]{A}\ny", "skeleton", True),
        ("\\section{A}\\subsection{B}", "\\section{A}\\subsection{B}\\subsection{C}", "top", True),
        ("\\section{A}", "\\section{A}\\section{B}", "top", False),
        (
            "\\section{A}",
            "% \\section{B}\n\\section{A}",
            "skeleton",
            True,
        ),  # a comment is no heading
        ("plain", "\\section{X}", "skeleton", False),
        ("plain", "\\section{X}", "top", False),
    ],
)
def test_check_conservation(old: str, new: str, mode: str, ok: bool) -> None:
    assert check_conservation(old, new, mode=mode).ok is ok  # type: ignore[arg-type]


def test_unhealthy_fragment_is_refused_with_instructions() -> None:
    node = _node(DOC, "Results")
    result = apply_fragment(DOC, node, "\\section{Results}\n\\begin{itemize}\n\\item x\n")
    assert not result.ok and result.content == DOC
    assert any("itemize" in p for p in result.problems)


def test_trailing_comment_cannot_swallow_the_next_heading() -> None:
    doc = "\\section{A}\nx\\section{B}\ny\n"  # no whitespace between the spans
    node = _node(doc, "A")
    result = apply_fragment(doc, node, "\\section{A}\nnew % note")
    assert not result.ok and result.content == doc
    assert "after it" in result.problems[0]


def test_trailing_comment_is_safe_when_the_span_ends_with_a_newline() -> None:
    node = _node(DOC, "Intro")
    result = apply_fragment(DOC, node, "\\section{Intro}\nHi. % note")
    assert result.ok
    assert [n.title for n in sectionize(result.content).nodes] == [
        n.title for n in sectionize(DOC).nodes
    ]


def test_abstract_fragment_must_keep_its_form() -> None:
    abstract = sectionize(DOC).pseudo_nodes[0]
    ok = apply_fragment(DOC, abstract, "\\begin{abstract}\nNew abstract.\n\\end{abstract}")
    assert ok.ok
    assert "\\begin{abstract}\nNew abstract.\n\\end{abstract}\n\\section{Intro}" in ok.content
    bare = apply_fragment(DOC, abstract, "New abstract without the environment.")
    assert not bare.ok and bare.content == DOC
    assert "\\begin{abstract}" in bare.problems[0]
    sneaky = apply_fragment(
        DOC, abstract, "\\begin{abstract}\nA\n\\end{abstract}\n\\section{New}\n"
    )
    assert not sneaky.ok


@pytest.mark.parametrize("change", ["Numbers. " * 200, "N."])
def test_stale_node_from_another_version_is_refused(change: str) -> None:
    """Offsets from another version (outside, or inside but shifted) never splice."""
    other = DOC.replace("Numbers.", change)
    node = _node(other, "Conclusion")
    result = apply_fragment(DOC, node, "\\section{Conclusion}\nx\n")
    assert not result.ok and result.content == DOC
    assert "this version" in result.problems[0]


def test_conservation_messages_name_the_levels() -> None:
    c = check_conservation("\\section{A}\\subsection{B}", "\\section{A}\\section{B}")
    assert not c.ok
    assert "section, section" in c.reason and "section, subsection" in c.reason
    assert c.old_levels == (1, 2) and c.new_levels == (1, 1)


@pytest.mark.parametrize(
    "fragment",
    [
        "Here is the revised section:\n\\section{Results}\nBetter.\n",
        "\\clearpage\n\\section{Results}\nBetter.\n",
        "\\subsection{Results}\nBetter.\n\\section{Results}\n",
    ],
)
def test_fragment_must_start_with_the_sections_own_heading(fragment: str) -> None:
    node = _node(DOC, "Results")
    result = apply_fragment(DOC, node, fragment, mode="top")
    assert not result.ok and result.content == DOC
    assert "begin with the heading \\section" in result.problems[0]


def test_leading_comment_before_the_heading_is_refused() -> None:
    """It would land in the previous section's span and change that section's text."""
    node = _node(DOC, "Results")
    result = apply_fragment(DOC, node, "% revised\n\\section{Results}\nBetter.\n")
    assert not result.ok and result.content == DOC


def test_leading_blank_lines_and_spaces_are_dropped() -> None:
    node = _node(DOC, "Results")
    result = apply_fragment(DOC, node, "\n\n   \\section{Results}\nBetter.\n")
    assert result.ok
    assert _node(result.content, "Method").text(result.content) == _node(DOC, "Method").text(DOC)


def test_section_fragment_may_not_add_an_abstract() -> None:
    node = _node(DOC, "Results")
    fragment = "\\section{Results}\n\\begin{abstract}\nX\n\\end{abstract}\nBetter.\n"
    result = apply_fragment(DOC, node, fragment)
    assert not result.ok and result.content == DOC
    assert "abstract" in result.problems[0]


def test_abstract_fragment_with_extra_text_is_refused() -> None:
    abstract = sectionize(DOC).pseudo_nodes[0]
    result = apply_fragment(DOC, abstract, "Sure!\n\\begin{abstract}\nNew.\n\\end{abstract}\n")
    assert not result.ok and result.content == DOC
