"""Split a whole-document change into independent per-section candidates.

Only when that is provably safe: both versions have the same top-level
skeleton (same titles, same levels, same order) and every byte outside the
top-level sections -- the preamble, anything between sections, the tail with
the bibliography and ``\\end{document}`` -- is identical. Then the top-level
spans of ``base`` do not overlap, and accepting any subset of candidates
changes only those sections. Otherwise :func:`split_aligned` returns ``None``
and the change stays whole: a half-accepted reorganisation is worse than an
all-or-nothing one, and a change outside every section would be missed by a
per-section review.
"""

from __future__ import annotations

from dataclasses import dataclass

from labwright.latex.sectionizer import Node, Sectioning, sectionize


@dataclass(frozen=True, slots=True)
class SectionChange:
    """One changed top-level section; accept with ``splice(base, char_start, char_end, new_text)``."""

    anchor: str
    key: str
    title: str
    #: Span in ``base``.
    char_start: int
    char_end: int
    old_text: str
    new_text: str


def _outside(content: str, tops: tuple[Node, ...]) -> list[str]:
    """The text before, between and after the top-level spans."""
    pieces: list[str] = []
    pos = 0
    for node in tops:
        pieces.append(content[pos : node.char_start])
        pos = node.char_end
    pieces.append(content[pos:])
    return pieces


def _tops(sectioning: Sectioning) -> tuple[Node, ...] | None:
    if not sectioning.editable or not sectioning.nodes:
        return None
    return sectioning.top_nodes


def split_aligned(base: str, new: str) -> list[SectionChange] | None:
    """Per-section candidates turning ``base`` into ``new``, or ``None`` if unsafe.

    An empty list means nothing changed. Applying every candidate (from the
    last to the first, so earlier offsets stay valid) reproduces ``new``.
    """
    base_tops = _tops(sectionize(base))
    new_tops = _tops(sectionize(new))
    if base_tops is None or new_tops is None or len(base_tops) != len(new_tops):
        return None
    for a, b in zip(base_tops, new_tops, strict=True):
        if (a.level, a.command, a.starred, a.title) != (b.level, b.command, b.starred, b.title):
            return None
    if _outside(base, base_tops) != _outside(new, new_tops):
        return None
    changes: list[SectionChange] = []
    for a, b in zip(base_tops, new_tops, strict=True):
        old_text, new_text = a.text(base), b.text(new)
        if old_text != new_text:
            changes.append(
                SectionChange(
                    a.anchor, a.key, a.title, a.char_start, a.char_end, old_text, new_text
                )
            )
    return changes
