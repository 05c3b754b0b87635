"""Resolving a reference to a node: key, anchor, exact title, longest contained title."""

from __future__ import annotations

import pytest

from labwright.latex.resolve import resolve
from labwright.latex.sectionizer import sectionize

DOC = (
    "\\documentclass{article}\n\\begin{document}\n"
    "\\begin{abstract}\nA.\n\\end{abstract}\n\\keywords{x}\n"
    "\\section{Introduction}\n"
    "\\section{Results}\n"
    "\\section{Results and Discussion}\n"
    "\\subsection[Errors]{Error Analysis}\n"
    "\\section{Method}\n"
    "\\section{Method}\n"
    "\\section{误差分析}\n"
    "\\end{document}\n"
)
S = sectionize(DOC)


def _anchor(reference: str) -> str | None:
    node = resolve(S, reference).node
    return node.anchor if node else None


def test_content_key_first() -> None:
    r = resolve(S, "L1:ResultsandDiscussion")
    assert (r.node and r.node.anchor, r.by) == ("n2", "key")


def test_key_with_ordinal_suffix_picks_the_repeat() -> None:
    assert _anchor("L1:Method#2") == "n5"
    assert _anchor("L1:Method") == "n4"


def test_key_beats_an_anchor_shaped_title() -> None:
    doc = "\\section{n1}\n\\section{Other}\n"
    s = sectionize(doc)
    # "n1" is the positional anchor of "Other"; as a key it means nothing,
    # so the anchor wins over the title that happens to read "n1".
    r = resolve(s, "n1")
    assert r.node is not None and r.node.title == "Other" and r.by == "anchor"
    assert resolve(s, "L1:n1").node.title == "n1"  # type: ignore[union-attr]


def test_positional_anchor() -> None:
    r = resolve(S, "n3")
    assert (r.node and r.node.title, r.by) == ("Error Analysis", "anchor")


def test_unknown_anchor_resolves_to_nothing() -> None:
    assert resolve(S, "n99").node is None


def test_key_is_matched_case_insensitively_after_exact() -> None:
    assert _anchor("l1:introduction") == "n0"


def test_exact_title_case_and_space_insensitive() -> None:
    r = resolve(S, "  results   AND discussion ")
    assert (r.node and r.node.anchor, r.by) == ("n2", "title")


def test_short_title_is_a_title() -> None:
    assert _anchor("Errors") == "n3"


def test_longest_contained_title_wins() -> None:
    """'Results' must not take a request meant for 'Results and Discussion'."""
    r = resolve(S, "Please tighten the results and discussion section, it rambles.")
    assert (r.node and r.node.anchor, r.by) == ("n2", "contained")
    r = resolve(S, "the results section has a typo")
    assert (r.node and r.node.anchor, r.by) == ("n1", "contained")


def test_containment_respects_word_boundaries() -> None:
    s = sectionize("\\section{Method}\n\\section{Data}\n")
    assert resolve(s, "the methodology is unclear").node is None
    assert resolve(s, "the update is wrong").node is None


def test_cjk_titles_are_found_inside_a_request_without_spaces() -> None:
    r = resolve(S, "请修改误差分析部分的表述")
    assert (r.node and r.node.anchor, r.by) == ("n6", "contained")


def test_repeated_exact_title_is_ambiguous_not_a_guess() -> None:
    r = resolve(S, "Method")
    assert r.node is None and r.ambiguous
    assert [n.anchor for n in r.candidates] == ["n4", "n5"]


def test_repeated_contained_title_is_ambiguous() -> None:
    r = resolve(S, "rewrite the method part")
    assert r.node is None and r.ambiguous


@pytest.mark.parametrize(
    "reference,expected",
    [
        ("abstract", "abstract"),
        ("keywords", "keywords"),
        ("the abstract is too long", "abstract"),
        ("摘要太长了", "abstract"),
        ("关键词不对", "keywords"),
    ],
)
def test_pseudo_nodes_by_anchor_and_alias(reference: str, expected: str) -> None:
    assert _anchor(reference) == expected


@pytest.mark.parametrize("reference", ["", "   ", "something unrelated", "L9:Nothing"])
def test_no_match(reference: str) -> None:
    r = resolve(S, reference)
    assert r.node is None and not r.ambiguous


def test_not_editable_document_resolves_nothing() -> None:
    assert resolve(sectionize("plain prose"), "Results").node is None
