"""Patterns the deterministic checks share, so they agree on what counts.

The checks read LaTeX source with regular expressions; stripping comments
and recognising a top-level heading the same way everywhere keeps the
structure score, the regression gate, citation closure and number provenance
from disagreeing about one document.
"""

from __future__ import annotations

import re

#: A `%` that is not escaped starts a comment that runs to the end of the line.
COMMENT = re.compile(r"(?<!\\)%.*")
#: A `\section` heading, starred or with a short title.
SECTION = re.compile(r"\\section\*?\s*(?:\[[^\]]*\])?\s*\{")


def strip_comments(tex: str) -> str:
    return COMMENT.sub("", tex)
