"""Text from the data folder -> LaTeX that prints it as it is, in either template.

`latex_escape` (latex/template.py) makes special characters literal. Two
further steps make the result safe to compile:
- control characters and runs of whitespace become one space: a newline pair
  in a file name would end the paragraph inside a macro argument (an error);
- Greek letters are set through the math font (`\\ensuremath{\\symup{μ}}`): the
  English template's Latin Modern text font has no Greek, and a unit such as
  `μs` would otherwise print as a blank (unicode-math's math font has them).
"""

from __future__ import annotations

import re

from labwright.latex.template import latex_escape

_SPACE = re.compile(r"[\s\x00-\x1f\x7f]+")
_GREEK = re.compile(r"[\u0370-\u03ff]")


def escape_text(text: str) -> str:
    escaped = latex_escape(_SPACE.sub(" ", text).strip())
    return _GREEK.sub(lambda m: f"\\ensuremath{{\\symup{{{m.group(0)}}}}}", escaped)
