"""Deterministic splice of a fragment into a document, and the gates before it.

:func:`splice` is the one place a scoped edit changes a document: every byte
outside ``[start, end)`` is kept. :func:`apply_fragment` is the gated path the
pipeline uses for model output: clean, health-check, conservation rule,
splice, then verify that the rest of the document still lexes the same.

The conservation rule exists because of a seed-system incident: a model
"helpfully" split one section into two; the fragment was healthy, but after
the splice every later positional anchor (``n5`` ...) pointed one section too
early and the next scoped edits of the same round hit the wrong sections.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from labwright.latex.fragment import check_fragment, strip_fragment
from labwright.latex.mask import mask
from labwright.latex.sectionizer import HEADING_LEVELS, Node, find_headings, sectionize

ConservationMode = Literal["top", "skeleton"]
_LEVEL_NAMES = {level: name for name, level in HEADING_LEVELS.items()}


def splice(content: str, start: int, end: int, new_text: str) -> str:
    """Replace ``content[start:end]`` with ``new_text``; nothing else changes.

    Raises ``ValueError`` for a range outside the document: a wrong range is a
    caller bug and must never be clamped into a silent overwrite.
    """
    if not (0 <= start <= end <= len(content)):
        raise ValueError(
            f"splice range [{start}, {end}) is outside a document of {len(content)} characters"
        )
    return content[:start] + new_text + content[end:]


def heading_levels(text: str) -> tuple[int, ...]:
    """Levels of the unmasked heading commands in ``text``, in order."""
    return tuple(h.level for h in find_headings(text, mask(text)))


def _describe(levels: tuple[int, ...]) -> str:
    if not levels:
        return "none"
    return ", ".join(_LEVEL_NAMES.get(lv, str(lv)) for lv in levels)


@dataclass(frozen=True, slots=True)
class Conservation:
    """Outcome of :func:`check_conservation`."""

    ok: bool
    old_levels: tuple[int, ...]
    new_levels: tuple[int, ...]
    #: Empty when ok; otherwise one instructional sentence.
    reason: str = ""


def check_conservation(
    old_span: str,
    fragment: str,
    *,
    mode: ConservationMode = "skeleton",
    top_level: int | None = None,
) -> Conservation:
    """Does ``fragment`` keep the heading structure of the span it replaces?

    ``mode="top"`` is the minimal rule: the number of headings at the top level
    (``top_level``, default: the shallowest level in either text) must match.
    ``mode="skeleton"`` (default) also requires the same sequence of levels at
    every depth. It is stricter on purpose: positional anchors count every
    heading, so even an added subsection moves every later ``n`` anchor.
    """
    old = heading_levels(old_span)
    new = heading_levels(fragment)
    if mode == "skeleton":
        if old == new:
            return Conservation(True, old, new)
        return Conservation(
            False,
            old,
            new,
            f"The fragment's headings ({_describe(new)}) differ from the original "
            f"({_describe(old)}); keep exactly the original headings and change only the text.",
        )
    level = top_level if top_level is not None else min(old + new, default=0)
    old_top = sum(1 for lv in old if lv <= level)
    new_top = sum(1 for lv in new if lv <= level)
    if old_top == new_top:
        return Conservation(True, old, new)
    return Conservation(
        False,
        old,
        new,
        f"The fragment has {new_top} top-level heading(s) where the section had {old_top}; "
        f"do not add, remove or merge sections.",
    )


@dataclass(frozen=True, slots=True)
class SpliceResult:
    """Outcome of :func:`apply_fragment`. On refusal ``content`` is the input, unchanged."""

    ok: bool
    content: str
    #: Instructional sentences; empty when ok.
    problems: tuple[str, ...] = ()
    #: The cleaned fragment as spliced (or as it would have been).
    fragment: str = ""


def _keep_trailing_space(old_span: str, fragment: str) -> str:
    """Give the fragment the span's own trailing whitespace.

    Without this a fragment ending in a ``%`` comment would comment out the
    next heading, and one without a newline would glue itself to it. (A span
    with no trailing whitespace keeps none; the containment check then
    catches a trailing comment.)
    """
    stripped = old_span.rstrip()
    return fragment.rstrip() + old_span[len(stripped) :]


def _heading_start_problems(node: Node, old_span: str, fragment: str) -> list[str]:
    """A section fragment starts with its own heading, like the span it replaces.

    Anything before the heading would land between two sections, outside any
    node: typically a model's "Here is the revised section:" line.
    """
    masked = mask(fragment)
    headings = find_headings(fragment, masked)
    problems: list[str] = []
    if not (headings and headings[0].start == 0 and headings[0].level == node.level):
        # Even a comment before the heading would end up in the previous section.
        problems.append(
            f"The fragment must begin with the heading \\{node.command}{{...}} of the section it "
            f"replaces; remove any text or comment before it."
        )
    old_pseudo = [n.kind for n in sectionize(old_span).pseudo_nodes]
    new_pseudo = [n.kind for n in sectionize(fragment).pseudo_nodes]
    if old_pseudo != new_pseudo:
        problems.append(
            "The fragment adds or removes an abstract or keywords block; keep those exactly as they were."
        )
    return problems


def _pseudo_problems(node: Node, fragment: str) -> list[str]:
    """An abstract/keywords fragment must keep its own LaTeX form, and be only that."""
    found = sectionize(fragment).pseudo_nodes
    body = fragment.strip()
    if (
        len(found) == 1
        and found[0].command == node.command
        and found[0].kind == node.kind
        and fragment[found[0].char_start : found[0].char_end] == body
    ):
        return []
    if node.command.startswith("begin{"):
        env = node.command[len("begin{") : -1]
        form = f"\\begin{{{env}}} ... \\end{{{env}}}"
    else:
        form = f"\\{node.command}{{...}}"
    return [f"Return the {node.kind} exactly once in the form {form}, and nothing else."]


def apply_fragment(
    content: str,
    node: Node,
    fragment: str,
    *,
    mode: ConservationMode = "skeleton",
    top_level: int | None = None,
) -> SpliceResult:
    """Clean, check and splice a model fragment in place of ``node``'s span.

    ``node`` must come from sectionizing this exact ``content`` (re-sectionize
    after every splice: offsets move). Refusals leave ``content`` untouched.
    """
    current = {(n.anchor, n.key, n.span) for n in sectionize(content).all_nodes()}
    if (node.anchor, node.key, node.span) not in current:
        # A node parsed from another version would splice over the wrong bytes.
        return SpliceResult(
            False,
            content,
            (
                "The section does not match this version of the document; sectionize the current version again.",
            ),
        )
    old_span = content[node.char_start : node.char_end]
    cleaned = strip_fragment(fragment).lstrip()
    problems = list(check_fragment(cleaned).problems)
    if not problems:
        if node.kind == "heading":
            problems.extend(_heading_start_problems(node, old_span, cleaned))
        else:
            problems.extend(_pseudo_problems(node, cleaned))
    if not problems:
        cons = check_conservation(old_span, cleaned, mode=mode, top_level=top_level)
        if not cons.ok:
            problems.append(cons.reason)
    if problems:
        return SpliceResult(False, content, tuple(problems), cleaned)
    new_text = _keep_trailing_space(old_span, cleaned)
    result = splice(content, node.char_start, node.char_end, new_text)
    # Containment: the fragment must not change how the rest of the document
    # lexes (an unclosed \verb or a trailing comment would swallow what follows).
    after = node.char_start + len(new_text)
    if mask(result)[after:] != mask(content)[node.char_end :]:
        return SpliceResult(
            False,
            content,
            (
                "The fragment changes how the text after it is read; close every comment, verbatim and group inside it.",
            ),
            cleaned,
        )
    return SpliceResult(True, result, (), new_text)
