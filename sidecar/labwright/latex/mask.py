"""Equal-length masking of LaTeX comments and verbatim-like regions.

Why mask instead of delete: every structural question (where are the headings,
are the braces balanced) is answered on the masked text, while titles are read
and splices are made on the original text at the *same* offsets. Deleting the
regions would shift every offset and need a translation step; masking keeps one
coordinate system. A heading inside a comment or a ``verbatim`` block is a false
heading (the seed system produced "ghost" nodes from them, corrupting splices).

Masked characters become spaces; newlines are kept so line structure survives.
The scan is a single left-to-right regex pass: the earliest construct wins, so a
``%`` inside ``\\verb|...|`` is not a comment and a ``\\begin{verbatim}`` inside a
comment does not open anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple

#: Environments whose body LaTeX reads verbatim (or discards, for ``comment``).
#: The end tag is matched literally, exactly as LaTeX's verbatim reader does.
VERBATIM_ENVIRONMENTS: tuple[str, ...] = (
    "verbatim",
    "verbatim*",
    "Verbatim",
    "Verbatim*",
    "BVerbatim",
    "LVerbatim",
    "lstlisting",
    "minted",
    "comment",
    "filecontents",
    "filecontents*",
)

RegionKind = Literal["comment", "verbatim", "inline"]


class MaskedRegion(NamedTuple):
    """One masked span ``[start, end)`` of the original text.

    A NamedTuple rather than a frozen dataclass: a 1 MB report has thousands
    of comments, and construction cost shows up in the parse budget.
    """

    kind: RegionKind
    start: int
    end: int
    #: False when the construct was opened but never closed (masked to the end
    #: of the line for inline verbatim, to the end of the text for environments).
    terminated: bool = True


@dataclass(frozen=True, slots=True)
class MaskResult:
    """The masked text (same length as the input) and what was masked."""

    text: str
    regions: tuple[MaskedRegion, ...]

    @property
    def unterminated(self) -> tuple[MaskedRegion, ...]:
        return tuple(r for r in self.regions if not r.terminated)


_ENV_ALT = "|".join(re.escape(e) for e in sorted(VERBATIM_ENVIRONMENTS, key=len, reverse=True))
# Two scans merged by position, because speed matters on 1 MB inputs: a
# pattern starting with one literal backslash lets the regex engine skip ahead
# in C, and a ``%`` is found with str.find; one combined ``%|\\...``
# alternation scanned several times slower. An escaped backslash or percent is
# matched (and ignored) so ``\\verb`` is a line break plus text, not ``\verb``.
_BACKSLASH = re.compile(
    r"\\(?:"
    r"[\\%]"  # \\ or \% : escapes
    r"|(verb)(?![A-Za-z@])\*?"  # \verb<d>...<d>
    r"|(lstinline|mintinline)(?![A-Za-z@])"  # \lstinline[..]{..} / <d>..<d>
    r"|begin[ \t]*\{(" + _ENV_ALT + r")\}"
    r")"
)
_PERCENT = re.compile("%")
_BLANK = re.compile(r"[ \t]*(?:\n[ \t]*)?")
_NOT_NEWLINE = re.compile(r"[^\n]")


def _blank(segment: str) -> str:
    """Spaces of equal length, keeping newlines."""
    if "\n" not in segment:
        return " " * len(segment)
    return _NOT_NEWLINE.sub(" ", segment)


def _line_end(text: str, pos: int) -> int:
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl


def _skip_blank(text: str, pos: int) -> int:
    m = _BLANK.match(text, pos)
    return m.end() if m else pos


def _inline_delimited(text: str, pos: int) -> tuple[int, bool]:
    """End of a ``<d>...<d>`` argument starting at ``pos`` (on the same line)."""
    if pos >= len(text) or text[pos] in "\n":
        return pos, False
    delim = text[pos]
    close = text.find(delim, pos + 1, _line_end(text, pos + 1))
    if close < 0:
        return _line_end(text, pos), False
    return close + 1, True


def _inline_argument(
    text: str, pos: int, *, allow_options: bool, braces_then_arg: bool
) -> tuple[int, bool]:
    """Scan the argument(s) of ``\\lstinline``/``\\mintinline`` from ``pos``."""
    n = len(text)
    if allow_options and pos < n and text[pos] == "[":
        close = text.find("]", pos, _line_end(text, pos))
        if close < 0:
            return _line_end(text, pos), False
        # TeX skips spaces and one line end before the next argument (the
        # KOMA-Script manual writes ``\\lstinline[...]`` and ``|code|`` on two lines).
        pos = _skip_blank(text, close + 1)
    if braces_then_arg:  # \mintinline{lang}: the language in braces comes first
        if pos < n and text[pos] == "{":
            close = text.find("}", pos, _line_end(text, pos))
            if close < 0:
                return _line_end(text, pos), False
            pos = close + 1
    if pos < n and text[pos] == "{":
        # Verbatim braces argument: balanced, without escapes (as listings reads it).
        depth = 0
        end = _line_end(text, pos)
        for i in range(pos, end):
            c = text[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return i + 1, True
        return end, False
    return _inline_delimited(text, pos)


def _candidates(text: str) -> list[tuple[int, re.Match[str] | None]]:
    """Start offsets of possible regions in order; ``None`` marks a ``%``."""
    found: list[tuple[int, re.Match[str] | None]] = [
        (m.start(), m) for m in _BACKSLASH.finditer(text) if m.lastindex is not None
    ]
    found.extend(
        (m.start(), None) for m in _PERCENT.finditer(text) if not is_escaped(text, m.start())
    )
    found.sort(key=_first)
    return found


def _first(item: tuple[int, object]) -> int:
    return item[0]


def mask_regions(text: str) -> MaskResult:
    """Mask comments and verbatim-like regions; report each masked region."""
    pieces: list[str] = []
    regions: list[MaskedRegion] = []
    copied = 0  # text[:copied] has been emitted; candidates before it are inside a region
    n = len(text)
    for start, m in _candidates(text):
        if start < copied:
            continue
        if m is None:
            end = _line_end(text, start)
            pieces.append(text[copied:start])
            pieces.append(" " * (end - start))
            regions.append(MaskedRegion("comment", start, end))
            copied = end
            continue
        verb, inline, env = m.group(1, 2, 3)
        kind: RegionKind
        terminated = True
        if verb is not None:
            kind = "inline"
            end, terminated = _inline_delimited(text, m.end())
        elif inline is not None:
            kind = "inline"
            end, terminated = _inline_argument(
                text, m.end(), allow_options=True, braces_then_arg=inline == "mintinline"
            )
        else:
            kind = "verbatim"
            closer = "\\end{" + str(env) + "}"
            close = text.find(closer, m.end())
            if close < 0:
                end, terminated = n, False
            else:
                end = close + len(closer)
        end = max(end, m.end())
        pieces.append(text[copied:start])
        pieces.append(_blank(text[start:end]))
        regions.append(MaskedRegion(kind, start, end, terminated))
        copied = end
    pieces.append(text[copied:])
    return MaskResult("".join(pieces), tuple(regions))


def mask(text: str) -> str:
    """Return ``text`` with comments and verbatim regions blanked (same length)."""
    return mask_regions(text).text


def is_escaped(text: str, pos: int) -> bool:
    """True when the character at ``pos`` is preceded by an odd run of backslashes.

    ``\\\\section`` is a line break followed by the word "section", not a heading.
    """
    count = 0
    i = pos - 1
    while i >= 0 and text[i] == "\\":
        count += 1
        i -= 1
    return count % 2 == 1
