"""Resolve a reference ("L1:Results", "n3", "Results", "please fix the results
and discussion part") to one node of a :class:`Sectioning`.

Order, most to least precise: content key, positional anchor, exact title,
then the *longest* title contained in the request. Longest-first is why a
request for "Results and Discussion" is never taken by a section titled
"Results". Several nodes matching at the same step give an ambiguous result,
never a guess: a wrong scope would silently edit the wrong section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from labwright.latex.sectionizer import Node, Sectioning

ResolvedBy = Literal["key", "anchor", "title", "contained"]

#: Extra names the pseudo-nodes answer to (English and Chinese reports).
PSEUDO_ALIASES: dict[str, tuple[str, ...]] = {
    "abstract": ("abstract", "summary", "摘要"),
    "keywords": ("keywords", "keyword", "key words", "关键词", "关键字"),
}

_ANCHOR = re.compile(r"n\d+")
_WS = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Resolution:
    """``node`` when exactly one node matched; else ``candidates`` says why not."""

    node: Node | None
    by: ResolvedBy | None = None
    #: Nodes that matched equally well when the reference is ambiguous.
    candidates: tuple[Node, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return self.node is None and len(self.candidates) > 1


def _norm(text: str) -> str:
    """Case-folded, whitespace-collapsed; TeX braces and ``$`` dropped."""
    text = text.replace("{", "").replace("}", "").replace("$", "")
    return _WS.sub(" ", text).strip().casefold()


def _names(node: Node) -> tuple[str, ...]:
    """The titles a node answers to, normalised."""
    if node.kind == "heading":
        names = [node.title] + ([node.short_title] if node.short_title else [])
    else:
        names = list(PSEUDO_ALIASES.get(node.kind, (node.kind,)))
    return tuple(n for n in (_norm(x) for x in names) if n)


def _contains(haystack: str, needle: str) -> bool:
    """Whole-word containment for word characters at the needle's edges.

    "results" must not match inside "resultsets"; CJK titles have no word
    boundaries, so the check only applies where the edge character is ASCII.
    """
    start = 0
    while True:
        i = haystack.find(needle, start)
        if i < 0:
            return False
        j = i + len(needle)
        left_ok = (
            i == 0
            or not (needle[0].isascii() and needle[0].isalnum())
            or not (haystack[i - 1].isascii() and haystack[i - 1].isalnum())
        )
        right_ok = (
            j == len(haystack)
            or not (needle[-1].isascii() and needle[-1].isalnum())
            or not (haystack[j].isascii() and haystack[j].isalnum())
        )
        if left_ok and right_ok:
            return True
        start = i + 1


def _one(matches: list[Node], by: ResolvedBy) -> Resolution:
    unique = list(dict.fromkeys(matches))
    if len(unique) == 1:
        return Resolution(unique[0], by, (unique[0],))
    return Resolution(None, by, tuple(unique))


def resolve(sectioning: Sectioning, reference: str) -> Resolution:
    """Find the node ``reference`` means; ``Resolution.node`` is ``None`` if none or ambiguous."""
    nodes = sectioning.all_nodes()
    ref = reference.strip()
    if not nodes or not ref:
        return Resolution(None)
    by_key = [n for n in nodes if n.key == ref]
    if by_key:
        return _one(by_key, "key")
    if _ANCHOR.fullmatch(ref) or ref in ("abstract", "keywords"):
        node = sectioning.by_anchor(ref)
        if node is not None:
            return Resolution(node, "anchor", (node,))
    folded_key = [n for n in nodes if n.key.casefold() == ref.casefold()]
    if folded_key:
        return _one(folded_key, "key")
    want = _norm(ref)
    exact = [n for n in nodes if want in _names(n)]
    if exact:
        return _one(exact, "title")
    best_len = 0
    best: list[Node] = []
    for node in nodes:
        for name in _names(node):
            if len(name) < best_len or not _contains(want, name):
                continue
            if len(name) > best_len:
                best_len, best = len(name), [node]
            else:
                best.append(node)
    if best:
        return _one(best, "contained")
    return Resolution(None)
