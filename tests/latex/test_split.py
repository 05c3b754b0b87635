"""split_aligned: per-section candidates only when provably independent."""

from __future__ import annotations

from labwright.latex.splice import splice
from labwright.latex.split import split_aligned

BASE = (
    "\\documentclass{article}\n\\begin{document}\n"
    "\\begin{abstract}\nAbs.\n\\end{abstract}\n"
    "\\section{Intro}\nHello.\n\n"
    "\\section{Method}\nWe measured.\n\\subsection{Setup}\nA pendulum.\n\n"
    "\\section{Results}\nNumbers.\n\n"
    "\\bibliography{refs}\n"
    "\\end{document}\n"
)


def _apply_all(base: str, changes) -> str:  # type: ignore[no-untyped-def]
    out = base
    for change in sorted(changes, key=lambda c: c.char_start, reverse=True):
        out = splice(out, change.char_start, change.char_end, change.new_text)
    return out


def test_one_changed_section_gives_one_candidate() -> None:
    new = BASE.replace("Numbers.", "Better numbers.")
    changes = split_aligned(BASE, new)
    assert changes is not None and len(changes) == 1
    (change,) = changes
    assert (change.anchor, change.key, change.title) == ("n3", "L1:Results", "Results")
    assert change.old_text == "\\section{Results}\nNumbers.\n\n"
    assert change.new_text == "\\section{Results}\nBetter numbers.\n\n"
    assert BASE[change.char_start : change.char_end] == change.old_text
    assert splice(BASE, change.char_start, change.char_end, change.new_text) == new


def test_several_changes_are_independent_and_together_reproduce_new() -> None:
    new = BASE.replace("Hello.", "Hi.").replace("A pendulum.", "A long pendulum.")
    changes = split_aligned(BASE, new)
    assert changes is not None
    assert [c.title for c in changes] == [
        "Intro",
        "Method",
    ]  # subsection edits belong to the top section
    assert _apply_all(BASE, changes) == new
    # Accepting only one leaves every other byte as it was.
    only_method = splice(BASE, changes[1].char_start, changes[1].char_end, changes[1].new_text)
    assert "Hello." in only_method and "A long pendulum." in only_method


def test_identical_versions_give_no_candidates() -> None:
    assert split_aligned(BASE, BASE) == []


def test_renamed_section_is_not_split() -> None:
    assert split_aligned(BASE, BASE.replace("\\section{Results}", "\\section{Findings}")) is None


def test_added_or_removed_section_is_not_split() -> None:
    added = BASE.replace("\\section{Results}", "\\section{Extra}\nx\n\n\\section{Results}")
    assert split_aligned(BASE, added) is None
    assert split_aligned(added, BASE) is None


def test_reordered_sections_are_not_split() -> None:
    intro = "\\section{Intro}\nHello.\n\n"
    results = "\\section{Results}\nNumbers.\n\n"
    swapped = BASE.replace(intro, "@@").replace(results, intro).replace("@@", results)
    assert split_aligned(BASE, swapped) is None


def test_starred_change_of_a_heading_is_structural() -> None:
    assert split_aligned(BASE, BASE.replace("\\section{Intro}", "\\section*{Intro}")) is None


def test_preamble_change_prevents_the_split() -> None:
    new = BASE.replace("\\begin{document}", "\\usepackage{siunitx}\n\\begin{document}").replace(
        "Numbers.", "More numbers."
    )
    assert split_aligned(BASE, new) is None


def test_abstract_change_is_outside_every_section() -> None:
    assert split_aligned(BASE, BASE.replace("Abs.", "New abstract.")) is None


def test_tail_change_prevents_the_split() -> None:
    assert split_aligned(BASE, BASE.replace("refs}", "references}")) is None


def test_subsection_skeleton_change_inside_a_section_still_splits() -> None:
    # Only the top-level skeleton must align; the candidate carries the whole section.
    new = BASE.replace("A pendulum.\n", "A pendulum.\n\\subsection{Timing}\nStopwatch.\n")
    changes = split_aligned(BASE, new)
    assert changes is not None and [c.title for c in changes] == ["Method"]
    assert _apply_all(BASE, changes) == new


def test_documents_without_sections_are_not_split() -> None:
    assert split_aligned("plain text", "other text") is None
    assert split_aligned(BASE, "plain text") is None


def test_chapter_documents_split_at_chapters() -> None:
    base = "\\chapter{A}\nx\n\\section{A1}\ny\n\\chapter{B}\nz\n"
    new = base.replace("y\n", "y2\n")
    changes = split_aligned(base, new)
    assert changes is not None and [c.key for c in changes] == ["L0:A"]
