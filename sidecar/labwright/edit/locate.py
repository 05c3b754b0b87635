"""Where things are in a report, found by code: section numbers, floats, metadata, bibliography.

The router and the deterministic edits both need the same facts ("which
section is 3.1", "which section holds Table 2", "where is the title"), and
none of them needs a model. Everything is read from the masked text (so a
``\\section`` in a comment or a verbatim listing does not count) and returned
as character ranges of the original, ready for :func:`labwright.latex.splice`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from labwright.latex.mask import is_escaped, mask
from labwright.latex.sectionizer import Node, Sectioning, sectionize

FloatKind = Literal["table", "figure"]
BlockKind = Literal["title", "abstract", "keywords"]

_FLOAT_BEGIN = {
    "table": re.compile(r"\\begin[ \t]*\{(table\*?|longtable|sidewaystable)\}"),
    "figure": re.compile(r"\\begin[ \t]*\{(figure\*?|sidewaysfigure)\}"),
}
_CAPTION = re.compile(r"\\caption(?![A-Za-z@])")
# The bibliography block starts at the first of these and runs to \end{document}.
_BIB_START = re.compile(
    r"\\(?:bibliographystyle|bibliography|printbibliography|begin[ \t]*\{thebibliography\})"
    r"(?![A-Za-z@])"
)
_END_DOCUMENT = re.compile(r"\\end[ \t]*\{document\}")
# Commands holding the metadata blocks, most specific first. `\reportabstract`
# is our own template's form, which the generic sectionizer does not know.
_BLOCK_COMMANDS: dict[BlockKind, tuple[str, ...]] = {
    "title": ("title",),
    "abstract": ("reportabstract", "abstract"),
    "keywords": ("keywords", "keyword"),
}
# A keyword line written by hand: an optional \noindent, a label in bold or
# italics or plain ("\textbf{Keywords:}", "\noindent\textit{Key words}",
# "{\bf Index Terms}", "关键词："), then the words, up to the paragraph's end.
KEYWORD_LABEL = r"(?:key[ \t]*words?|index[ \t]+terms|关[ \t]*键[ \t]*[词字]|關鍵詞|キーワード)"
_KEYWORD_LINE = re.compile(
    r"^[ \t]*(?:\\noindent(?![A-Za-z@])[ \t]*)?"
    r"(?:\{[ \t]*\\(?:bf|it|bfseries|itshape|sc)(?![A-Za-z@])[ \t]*"
    + KEYWORD_LABEL
    + r"[ \t]*[:：]?[ \t]*\}"
    r"|\\(?:textbf|textit|emph|textsc|underline)[ \t]*\{[ \t]*"
    + KEYWORD_LABEL
    + r"[ \t]*[:：]?[ \t]*\}"
    r"|【?" + KEYWORD_LABEL + r"】?(?=[ \t]*[:：]))"
    r"[ \t]*[:：—–-]?[^\n]*(?:\n(?![ \t]*\n)(?![ \t]*\\(?:section|chapter|begin|end|par\b))[^\n]*)*",
    re.I | re.M,
)
_LANG_OPTION = re.compile(r"(\\documentclass[ \t]*\[)([^\]]*)(\][ \t]*\{labwright-report\})")


@dataclass(frozen=True, slots=True)
class Span:
    """A located piece of the document: ``content[start:end]``."""

    start: int
    end: int
    #: For blocks: the command (``reportabstract``); for floats: the environment.
    form: str = ""

    def text(self, content: str) -> str:
        return content[self.start : self.end]


def _group_end(masked: str, pos: int) -> int:
    """End (exclusive) of the brace group opening at ``masked[pos] == '{'``; -1 if unclosed."""
    depth = 0
    for i in range(pos, len(masked)):
        c = masked[i]
        if c == "{" and not is_escaped(masked, i):
            depth += 1
        elif c == "}" and not is_escaped(masked, i):
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def command_block(content: str, command: str, masked: str | None = None) -> Span | None:
    """The first unmasked ``\\command{...}`` with its argument (not a definition of it)."""
    masked = mask(content) if masked is None else masked
    pattern = re.compile(r"\\" + re.escape(command) + r"(?![A-Za-z@])[ \t]*\{")
    for m in pattern.finditer(masked):
        if is_escaped(masked, m.start()):
            continue
        before = masked[max(0, m.start() - 40) : m.start()]
        if re.search(r"\\(?:(?:re)?newcommand|providecommand|def)\*?[ \t]*\{?[ \t]*$", before):
            continue
        end = _group_end(masked, m.end() - 1)
        if end > 0:
            return Span(m.start(), end, command)
    return None


def keyword_line(text: str) -> tuple[int, int] | None:
    """Where the first hand-written keyword line of `text` is (start, end), if any."""
    m = _KEYWORD_LINE.search(text)
    if m is None:
        return None
    end = m.end()
    while end > m.start() and text[end - 1] in " \t\n":
        end -= 1
    return m.start(), end


def metadata_block(content: str, kind: BlockKind) -> Span | None:
    """Title, abstract or keywords as a command block, or as an environment."""
    masked = mask(content)
    for command in _BLOCK_COMMANDS[kind]:
        span = command_block(content, command, masked)
        if span is not None:
            return span
    if kind != "title":
        env = re.compile(r"\\begin[ \t]*\{" + kind + r"\}(.*?)\\end[ \t]*\{" + kind + r"\}", re.S)
        m = env.search(masked)
        if m is not None:
            return Span(m.start(), m.end(), "begin{" + kind + "}")
    if kind == "keywords":
        found = keyword_line(masked)
        if found is not None:
            return Span(found[0], found[1], "line")
    return None


def bibliography_block(content: str) -> Span | None:
    """From the first bibliography command to just before ``\\end{document}``."""
    masked = mask(content)
    start = next(
        (m for m in _BIB_START.finditer(masked) if not is_escaped(masked, m.start())), None
    )
    if start is None:
        return None
    end = _END_DOCUMENT.search(masked, start.end())
    return Span(start.start(), end.start() if end else len(content), "bibliography")


def floats(content: str, kind: FloatKind) -> list[Span]:
    """Captioned floats of one kind, in document order: entry N-1 is "Table N".

    Uncaptioned floats get no number in LaTeX, so they are not counted.
    """
    masked = mask(content)
    found: list[Span] = []
    for m in _FLOAT_BEGIN[kind].finditer(masked):
        if is_escaped(masked, m.start()):
            continue
        env = m.group(1)
        closer = re.compile(r"\\end[ \t]*\{" + re.escape(env) + r"\}")
        close = closer.search(masked, m.end())
        if close is None:
            continue
        if _CAPTION.search(masked, m.end(), close.start()):
            found.append(Span(m.start(), close.end(), env))
    return found


def float_span(content: str, kind: FloatKind, number: int) -> Span | None:
    items = floats(content, kind)
    return items[number - 1] if 1 <= number <= len(items) else None


def innermost_node(sectioning: Sectioning, pos: int) -> Node | None:
    """The deepest heading node whose span holds ``pos`` (the smallest edit scope)."""
    best: Node | None = None
    for node in sectioning.nodes:
        if node.char_start <= pos < node.char_end and (
            best is None or (node.level or 0) > (best.level or 0)
        ):
            best = node
    return best


def section_numbers(sectioning: Sectioning) -> dict[str, Node]:
    """ "3.1" -> node, as LaTeX numbers them (starred headings get no number)."""
    if sectioning.top_level is None:
        return {}
    top = sectioning.top_level
    counters: list[int] = []
    numbers: dict[str, Node] = {}
    for node in sectioning.nodes:
        if node.starred or node.level is None:
            continue
        depth = node.level - top
        while len(counters) <= depth:
            counters.append(0)
        counters[depth] += 1
        del counters[depth + 1 :]
        numbers[".".join(str(c) for c in counters)] = node
    return numbers


def document_language(content: str) -> str | None:
    """``en``/``zh`` from our class option, or None for another class."""
    m = _LANG_OPTION.search(content)
    if m is None:
        return None
    options = [o.strip() for o in m.group(2).split(",")]
    return next((o for o in options if o in ("en", "zh")), None)


def language_option_span(content: str) -> Span | None:
    """The options of ``\\documentclass[...]{labwright-report}``."""
    m = _LANG_OPTION.search(content)
    return None if m is None else Span(m.start(2), m.end(2), "documentclass")


def outline_lines(content: str, sectioning: Sectioning | None = None) -> list[str]:
    """``anchor: number title`` per heading, then the blocks that exist: the routing call's input."""
    sectioning = sectioning or sectionize(content)
    numbers = {node.anchor: num for num, node in section_numbers(sectioning).items()}
    lines = []
    for node in sectioning.nodes:
        indent = "  " * max(0, (node.level or 0) - (sectioning.top_level or 0))
        number = numbers.get(node.anchor, "")
        lines.append(f"{node.anchor}: {indent}{number + ' ' if number else ''}{node.title}")
    kinds: tuple[BlockKind, ...] = ("title", "abstract", "keywords")
    for kind in kinds:
        if metadata_block(content, kind) is not None:
            lines.append(f"{kind}: ({kind})")
    if bibliography_block(content) is not None:
        lines.append("bibliography: (bibliography)")
    return lines
