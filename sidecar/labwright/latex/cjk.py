"""CJK characters in an English report: load a CJK font only when the text has them.

The English template sets Latin Modern only, so a Chinese file or column
name, or a quoted note, printed as blanks (XeTeX's "Missing character"). The
class's `\\lwcjk` loads xeCJK with the Fandol fonts the Chinese template uses
(knowledge/templates/labwright-report.cls). It is not loaded by default:
xeCJK and Fandol add to every XeLaTeX pass, and most English reports have no
CJK character at all (benchmarks/main_job.py holds the main job's cost).

`with_cjk_fallback` is the one rule, applied where every document passes
before a compile (the sanitizer) and by the writer's template, so a report
written by the offline writer, by the model, or changed by an edit (a section
renamed to Chinese) gets it alike.
"""

from __future__ import annotations

import re

#: CJK ideographs (with extension A and the compatibility block), kana, Hangul,
#: CJK punctuation and full-width forms: what Latin Modern has no glyph for.
CJK_CHARS = re.compile(
    "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
    "|[\U00020000-\U0003134f]"
)
#: What the class's English branch needs in the preamble.
CJK_COMMAND = "\\lwcjk"

_COMMENT = re.compile(r"(?<!\\)%.*")
_CLASS = re.compile(r"\\documentclass\s*(?:\[(?P<opts>[^\]]*)\])?\s*\{(?P<cls>[^}]*)\}")
_BEGIN = re.compile(r"\\begin\s*\{document\}")
#: Packages that set up CJK fonts themselves.
_CJK_PACKAGE = re.compile(
    r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{[^}]*\b(?:ctex|xeCJK|CJK|CJKutf8)\b"
)
#: Outside the labwright class: xeCJK with the same Fandol fonts.
_GENERIC = (
    "\\usepackage{xeCJK}\\setCJKmainfont{FandolSong}[Extension=.otf,"
    " UprightFont=*-Regular, BoldFont=*-Bold, ItalicFont=FandolKai-Regular]"
)


def has_cjk(text: str) -> bool:
    """Whether `text` (comments aside) has a character Latin Modern cannot print."""
    return any(CJK_CHARS.search(_COMMENT.sub("", line)) for line in text.splitlines())


def _has_cjk_fonts(preamble: str) -> bool:
    """The preamble already sets CJK fonts: a Chinese class option, a CJK
    package, or the class's command."""
    uncommented = "\n".join(_COMMENT.sub("", line) for line in preamble.splitlines())
    cls = _CLASS.search(uncommented)
    if cls and cls.group("cls").strip() in ("ctexart", "ctexrep", "ctexbook"):
        return True
    if cls and cls.group("cls").strip() == "labwright-report":
        options = {o.strip() for o in (cls.group("opts") or "").split(",")}
        if "zh" in options:
            return True
    return (
        bool(_CJK_PACKAGE.search(uncommented))
        or re.search(re.escape(CJK_COMMAND) + r"(?![A-Za-z@])", uncommented) is not None
    )


def with_cjk_fallback(tex: str) -> str:
    """`tex` with CJK fonts loaded when its text has CJK characters and its
    preamble loads none; otherwise `tex` unchanged. The command goes at the
    start of the `\\begin{document}` line, so no line of the document moves
    (number sources and the source pane refer to lines)."""
    begin = _BEGIN.search(tex)
    if begin is None:
        return tex
    preamble = tex[: begin.start()]
    if _has_cjk_fonts(preamble) or not has_cjk(tex[begin.start() :] + "\n" + preamble):
        return tex
    cls = _CLASS.search(preamble)
    command = CJK_COMMAND if cls and cls.group("cls").strip() == "labwright-report" else _GENERIC
    return tex[: begin.start()] + command + tex[begin.start() :]
