"""Deterministic sectionizer: which characters are "this section".

Headings are found on the masked text (see :mod:`labwright.latex.mask`) and
titles are read from the original at the same offsets, so a node's
``char_start``/``char_end`` can be handed straight to :func:`splice`.

A heading node spans from its command to the next heading of the same or a
higher level (editing a section takes its subsections with it), or to the
first *terminator* -- ``\\part``, ``\\appendix``, the bibliography, ``\\backmatter``,
``\\end{document}`` -- whichever comes first. Terminators close every open node
so that a fragment for the last section can never carry away the bibliography
or the appendix switch.

Each heading node has two addresses: a positional anchor (``n0``, ``n1``, ... in
document order; cheap, stable within one version) and a content key
(``L1:ErrorAnalysis``, level plus title, ``#2``/``#3`` on repeats; stable across
versions that keep the title). Abstract and keywords get pseudo-nodes
(anchors/keys ``abstract``, ``keywords``) so "fix the abstract" can be scoped too.

:func:`sectionize` never raises: a text without structure gives
``editable=False`` with a reason, and the caller falls back to a whole-document
change.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from labwright.latex.mask import is_escaped, mask

#: Sectioning commands and their levels (LaTeX's own numbering). ``\\part`` is
#: not a node but a terminator: a chapter's span must not swallow the next part.
HEADING_LEVELS: dict[str, int] = {
    "chapter": 0,
    "section": 1,
    "subsection": 2,
    "subsubsection": 3,
    "paragraph": 4,
    "subparagraph": 5,
}

#: A title longer than this is taken as a broken heading (an unclosed brace
#: would otherwise make every heading scan to the end of a large document).
MAX_TITLE_CHARS = 4000
#: Deeper brace nesting than this in a title is taken as a broken heading.
MAX_GROUP_DEPTH = 32
#: Abstract/keywords arguments may be long and contain paragraphs.
MAX_PSEUDO_CHARS = 100_000

NodeKind = Literal["heading", "abstract", "keywords"]

_HEADING = re.compile(
    r"\\(" + "|".join(sorted(HEADING_LEVELS, key=len, reverse=True)) + r")(?![A-Za-z@])"
)
_TERMINATOR = re.compile(
    r"\\(?:part|appendix|backmatter|printbibliography|printindex|bibliographystyle|bibliography"
    r"|begin[ \t]*\{thebibliography\}|end[ \t]*\{document\})(?![A-Za-z@])"
)
_DOCUMENTCLASS = re.compile(r"\\documentclass(?![A-Za-z@])")
_BEGIN_DOCUMENT = re.compile(r"\\begin[ \t]*\{document\}")
_END_DOCUMENT = re.compile(r"\\end[ \t]*\{document\}")
_PSEUDO = re.compile(
    r"\\begin[ \t]*\{(abstract|keywords)\}|\\(abstract|keywords|keyword)(?![A-Za-z@])"
)
# ``\\providecommand\\keywords{...}`` defines the command; it is not the keywords.
_DEFINED = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|def|gdef|let|DeclareRobustCommand)\*?[ \t]*\{?[ \t]*\Z"
)
_SPACE = re.compile(r"[ \t]*(?:\n[ \t]*)?")  # TeX skips spaces and one newline
_GROUP_TOKEN = re.compile(
    r"\\(?:[\\{}\]]|(?:"
    + "|".join([*sorted(HEADING_LEVELS, key=len, reverse=True), "abstract", "keywords?"])
    + r")(?![A-Za-z@]))|[{}\]]|\n[ \t]*\n"
)
_SLUG_DROP = re.compile(r"[\W_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Node:
    """One addressable part of a document; ``[char_start, char_end)`` in the original."""

    kind: NodeKind
    #: 0 chapter ... 5 subparagraph; ``None`` for abstract/keywords pseudo-nodes.
    level: int | None
    #: ``section``, ``subsection``, ...; for pseudo-nodes the LaTeX form used:
    #: ``begin{abstract}``/``begin{keywords}`` (environments) or ``abstract``,
    #: ``keywords``, ``keyword`` (one-argument commands).
    command: str
    title: str
    char_start: int
    char_end: int
    #: End of the heading command itself (after the title's closing brace).
    heading_end: int
    #: Positional anchor (``n0``...) for headings, ``abstract``/``keywords`` otherwise.
    anchor: str
    #: Content key (``L1:ErrorAnalysis``, ``L1:Results#2``, ``abstract``).
    key: str
    starred: bool = False
    short_title: str | None = None
    #: Anchor of the enclosing heading node, if any.
    parent: str | None = None

    @property
    def span(self) -> tuple[int, int]:
        return (self.char_start, self.char_end)

    def text(self, content: str) -> str:
        """This node's source text, read from the document it was parsed from."""
        return content[self.char_start : self.char_end]


@dataclass(frozen=True, slots=True)
class Sectioning:
    """Result of :func:`sectionize`. Never raised; inspect ``editable``."""

    editable: bool
    nodes: tuple[Node, ...] = ()
    pseudo_nodes: tuple[Node, ...] = ()
    #: Empty when editable; otherwise one sentence saying why not.
    reason: str = ""
    #: The shallowest heading level present (``None`` without headings).
    top_level: int | None = None
    #: Offsets of the document body (after ``\\begin{document}`` up to
    #: ``\\end{document}``; the whole text when those are absent).
    body_start: int = 0
    body_end: int = 0
    _by_anchor: dict[str, Node] = field(default_factory=dict, repr=False, compare=False)

    @property
    def top_nodes(self) -> tuple[Node, ...]:
        """Heading nodes at the document's top level, in order."""
        return tuple(n for n in self.nodes if n.level == self.top_level)

    def all_nodes(self) -> tuple[Node, ...]:
        """Heading nodes then pseudo-nodes."""
        return self.nodes + self.pseudo_nodes

    def by_anchor(self, anchor: str) -> Node | None:
        return self._by_anchor.get(anchor)

    def by_key(self, key: str) -> Node | None:
        for node in self.all_nodes():
            if node.key == key:
                return node
        return None


class HeadingMatch(NamedTuple):
    """A parsed heading command (before spans are assigned)."""

    command: str
    level: int
    start: int
    end: int
    starred: bool
    title: str
    short_title: str | None


def _skip_space(masked: str, pos: int) -> int:
    m = _SPACE.match(masked, pos)
    return m.end() if m else pos


def _group_end(
    masked: str,
    pos: int,
    opener: str,
    closer: str,
    *,
    limit: int = MAX_TITLE_CHARS,
    long: bool = False,
) -> int:
    """Offset after the group opened at ``masked[pos] == opener``; -1 if unclosed.

    Braces nest inside either group; ``[`` only closes at brace depth zero
    (``\\section[{a]b}]{...}`` is legal). Escaped braces are skipped. A regex
    jumps between the significant characters (a per-character loop was the
    largest cost on a 1 MB document).

    The scan gives up, as LaTeX would fail, at a blank line (a heading's title
    is not ``\\long``; pass ``long=True`` for abstract/keywords arguments), at
    another heading command, or past ``MAX_GROUP_DEPTH``. Without these bounds
    1 MB of unclosed ``\\section{`` took minutes: every heading scanned ahead.
    """
    stop = min(len(masked), pos + limit)
    depth = 1 if opener == "{" else 0
    for m in _GROUP_TOKEN.finditer(masked, pos + 1, stop):
        c = m.group()
        if c == "{":
            depth += 1
            if depth > MAX_GROUP_DEPTH:
                return -1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return -1
            if opener == "{" and depth == 0:
                return m.end()
        elif c == "]":
            if opener == "[" and depth == 0:
                return m.end()
        elif c[0] == "\\":
            if len(c) > 2:  # a heading (or abstract/keywords) command inside the group
                return -1
        elif not long:  # a blank line
            return -1
    return -1


def _clean_title(raw: str) -> str:
    return " ".join(raw.split())


def parse_heading(original: str, masked: str, m: re.Match[str]) -> HeadingMatch | None:
    """Parse ``\\cmd*[short]{title}`` at a regex match on the masked text."""
    command = m.group(1)
    pos = _skip_space(masked, m.end())
    starred = False
    if pos < len(masked) and masked[pos] == "*":
        starred = True
        pos = _skip_space(masked, pos + 1)
    short: str | None = None
    if pos < len(masked) and masked[pos] == "[":
        end = _group_end(masked, pos, "[", "]")
        if end < 0:
            return None
        short = _clean_title(original[pos + 1 : end - 1])
        pos = _skip_space(masked, end)
    if pos >= len(masked) or masked[pos] != "{":
        return None
    end = _group_end(masked, pos, "{", "}")
    if end < 0:
        return None
    title = _clean_title(original[pos + 1 : end - 1])
    return HeadingMatch(command, HEADING_LEVELS[command], m.start(), end, starred, title, short)


def find_headings(
    original: str, masked: str, start: int = 0, end: int | None = None
) -> list[HeadingMatch]:
    """All unmasked, unescaped, well-formed heading commands in ``[start, end)``."""
    stop = len(masked) if end is None else end
    found: list[HeadingMatch] = []
    for m in _HEADING.finditer(masked, start, stop):
        if is_escaped(masked, m.start()):
            continue
        heading = parse_heading(original, masked, m)
        if heading is not None and heading.end <= stop:
            found.append(heading)
    return found


def title_slug(title: str) -> str:
    """``"Error Analysis"`` -> ``"ErrorAnalysis"``; keeps non-ASCII letters.

    Backslashes and punctuation are dropped but command names stay, so
    ``Fit of $\\alpha$`` and ``Fit of $\\beta$`` get different keys.
    """
    slug = _SLUG_DROP.sub("", title)
    return slug or "Untitled"


def _body_bounds(masked: str) -> tuple[int, int]:
    """The document body; the whole text for a fragment or an included file.

    A text is a full document when its first ``\\documentclass`` precedes its
    first heading. Chapter files of real manuals show ``\\documentclass`` and
    ``\\begin{document}`` inside example listings of custom environments that
    masking does not know; those come after the file's own headings.
    """
    docclass = _DOCUMENTCLASS.search(masked)
    if docclass is None:
        return 0, len(masked)
    first_heading = _HEADING.search(masked, 0, docclass.start())
    if first_heading is not None:
        return 0, len(masked)
    begin = _BEGIN_DOCUMENT.search(masked, docclass.end())
    if begin is None:
        return len(masked), len(masked)  # a preamble only: no body at all
    end = _END_DOCUMENT.search(masked, begin.end())
    return begin.end(), (end.start() if end else len(masked))


def _terminators(masked: str, start: int, end: int, headings: list[HeadingMatch]) -> list[int]:
    """Offsets that close every open node, ending with ``end``.

    A terminator inside a heading's own title (``\\section{On \\appendix}``)
    is not one, or the node would end before its own heading does.
    """
    starts = [h.start for h in headings]
    stops: list[int] = []
    for m in _TERMINATOR.finditer(masked, start, end):
        pos = m.start()
        if is_escaped(masked, pos):
            continue
        k = bisect_right(starts, pos) - 1
        if k >= 0 and pos < headings[k].end:
            continue
        stops.append(pos)
    stops.append(end)
    return stops


def _heading_nodes(content: str, masked: str, body_start: int, body_end: int) -> tuple[Node, ...]:
    headings = find_headings(content, masked, body_start, body_end)
    if not headings:
        return ()
    stops = _terminators(masked, body_start, body_end, headings)
    ends = [0] * len(headings)
    parents: list[int | None] = [None] * len(headings)
    stack: list[int] = []  # indices of open headings, levels strictly increasing
    ti = 0
    for i, h in enumerate(headings):
        # A terminator between the previous heading and this one closes everything.
        while stops[ti] < h.start:
            for j in stack:
                ends[j] = stops[ti]
            stack.clear()
            ti += 1
        while stack and headings[stack[-1]].level >= h.level:
            ends[stack.pop()] = h.start
        parents[i] = stack[-1] if stack else None
        stack.append(i)
    final = next((s for s in stops[ti:] if s >= headings[-1].end), body_end)
    for j in stack:
        ends[j] = final

    seen: Counter[str] = Counter()
    nodes: list[Node] = []
    for i, h in enumerate(headings):
        base = f"L{h.level}:{title_slug(h.title)}"
        seen[base] += 1
        key = base if seen[base] == 1 else f"{base}#{seen[base]}"
        parent = parents[i]
        nodes.append(
            Node(
                kind="heading",
                level=h.level,
                command=h.command,
                title=h.title,
                char_start=h.start,
                char_end=ends[i],
                heading_end=h.end,
                anchor=f"n{i}",
                key=key,
                starred=h.starred,
                short_title=h.short_title,
                parent=None if parent is None else f"n{parent}",
            )
        )
    return tuple(nodes)


def _pseudo_nodes(content: str, masked: str, body_start: int, body_end: int) -> tuple[Node, ...]:
    """Abstract/keywords as environments or one-argument commands.

    Searched in the whole text: templates put ``\\abstract{...}`` and
    ``\\keywords{...}`` in the preamble as often as in the body.
    """
    nodes: list[Node] = []
    seen: Counter[str] = Counter()
    unclosed: set[str] = set()  # no \\end{env} after one point means none after later ones
    for m in _PSEUDO.finditer(masked):
        if is_escaped(masked, m.start()) or _DEFINED.search(
            masked[max(0, m.start() - 40) : m.start()]
        ):
            continue
        env = m.group(1)
        if env is not None:
            if env in unclosed:
                continue
            closer = re.compile(r"\\end[ \t]*\{" + env + r"\}")
            close = closer.search(masked, m.end())
            if close is None:
                unclosed.add(env)
                continue
            start, end = m.start(), close.end()
            kind: NodeKind = "abstract" if env == "abstract" else "keywords"
            command = "begin{" + env + "}"
        else:
            command = m.group(2)
            pos = _skip_space(masked, m.end())
            if pos >= len(masked) or masked[pos] != "{":
                continue  # \abstract as a bare switch or in a definition
            close_pos = _group_end(masked, pos, "{", "}", limit=MAX_PSEUDO_CHARS, long=True)
            if close_pos < 0:
                continue
            start, end = m.start(), close_pos
            kind = "abstract" if command == "abstract" else "keywords"
        seen[kind] += 1
        name = kind if seen[kind] == 1 else f"{kind}#{seen[kind]}"
        nodes.append(
            Node(
                kind=kind,
                level=None,
                command=command,
                title=kind.capitalize(),
                char_start=start,
                char_end=end,
                heading_end=end if env is None else m.end(),
                anchor=name,
                key=name,
            )
        )
    return tuple(nodes)


def sectionize(content: str) -> Sectioning:
    """Parse ``content`` into heading nodes and pseudo-nodes. Never raises."""
    if not isinstance(content, str):
        return Sectioning(
            False, reason="The document is not text, so it cannot be edited by section."
        )
    try:
        masked = mask(content)
        body_start, body_end = _body_bounds(masked)
        nodes = _heading_nodes(content, masked, body_start, body_end)
        pseudo = _pseudo_nodes(content, masked, body_start, body_end)
    except (RecursionError, MemoryError, ValueError, IndexError) as exc:  # pragma: no cover
        # Defence in depth: the contract is "never raises". The property tests
        # assert this branch is never taken, so a bug here still fails a test.
        return Sectioning(
            False, reason=f"The document could not be parsed into sections ({type(exc).__name__})."
        )
    by_anchor = {n.anchor: n for n in nodes + pseudo}
    top = min((n.level for n in nodes if n.level is not None), default=None)
    if not nodes and not pseudo:
        return Sectioning(
            False,
            reason="No section headings were found, so the document can only be changed as a whole.",
            body_start=body_start,
            body_end=body_end,
        )
    return Sectioning(
        True,
        nodes=nodes,
        pseudo_nodes=pseudo,
        top_level=top,
        body_start=body_start,
        body_end=body_end,
        _by_anchor=by_anchor,
    )
