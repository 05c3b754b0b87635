"""splice, the conservation rule and the gated apply_fragment path."""

from __future__ import annotations

import pytest

from labwright.latex.sectionizer import sectionize
from labwright.latex.splice import apply_fragment, check_conservation, splice

DOC = (
    "\\documentclass{article}\n\\begin{document}\n"
    "\\section{Intro}\nHello.\n\n"
    "\\section{Method}\nWe measured.\n\\subsection{Setup}\nA pendulum.\n\n"
    "\\section{Results}\nNumbers.\n\n"
    "\\end{document}\n"
)


def test_splice_replaces_only_the_range() -> None:
    out = splice("abcdef", 2, 4, "XYZ")
    assert out == "abXYZef"


@pytest.mark.parametrize("start,end", [(-1, 2), (3, 2), (0, 7), (7, 7)])
def test_splice_rejects_ranges_outside_the_document(start: int, end: int) -> None:
    with pytest.raises(ValueError):
        splice("abcdef", start, end, "x")
