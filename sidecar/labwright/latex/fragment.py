"""Clean up and health-check a section fragment returned by a model.

Both functions are pure and cheap. :func:`check_fragment` returns problems as
instructional sentences, so a failed fragment can be fed back to the model as
the next prompt, or shown to the user, without further translation.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from labwright.latex.mask import is_escaped, mask_regions
from labwright.latex.sectionizer import find_headings

#: Environment problems listed one by one before they are summarised.
MAX_ENV_PROBLEMS = 5

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_DOCCLASS = re.compile(r"\\documentclass(?![A-Za-z@])")
_BEGIN_DOC = re.compile(r"\\begin[ \t]*\{document\}")
_END_DOC = re.compile(r"\\end[ \t]*\{document\}")
_ENV = re.compile(r"\\(begin|end)[ \t]*\{([^{}\n]*)\}")
_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)


def _fenced_blocks(text: str, masked: str) -> list[str]:
    """Bodies of Markdown code fences; an unclosed fence runs to the end.

    Fence lines are looked for in the masked text, so a line of backticks
    inside a LaTeX ``verbatim`` block is content, not a fence.
    """
    blocks: list[str] = []
    pos = 0
    while True:
        opening = _FENCE.search(masked, pos)
        if opening is None:
            return blocks
        fence = opening.group(1)
        body_start = min(opening.end() + 1, len(text))
        closing = None
        for cand in _FENCE.finditer(masked, body_start):
            # A closing fence is the same character, at least as long, no info string.
            if (
                cand.group(1)[0] == fence[0]
                and len(cand.group(1)) >= len(fence)
                and cand.group(0).strip() == cand.group(1)
            ):
                closing = cand
                break
        if closing is None:
            blocks.append(text[body_start:])
            return blocks
        blocks.append(text[body_start : closing.start()])
        pos = closing.end()


def strip_fragment(text: str) -> str:
    """Remove Markdown fences and, if a whole document came back, cut out the body.

    With several fenced blocks the longest is taken: models tend to put a short
    "usage" snippet before or after the real answer. A whole document is cut
    from its first heading to just before ``\\end{document}`` (or the whole body
    when it has no heading).
    """
    masked = mask_regions(text).text
    blocks = _fenced_blocks(text, masked)
    if blocks:
        text = max(blocks, key=len)
        masked = mask_regions(text).text
    begin = _BEGIN_DOC.search(masked)
    docclass = _DOCCLASS.search(masked)
    start_of_document = docclass or begin
    first_heading = find_headings(text, masked)[:1]
    # Same rule as the sectionizer: it is a whole document only when the
    # preamble comes first; a section may show a document in an example listing.
    if start_of_document and not (
        first_heading and first_heading[0].start < start_of_document.start()
    ):
        body_start = begin.end() if begin else 0
        end = _END_DOC.search(masked, body_start)
        body_end = end.start() if end else len(text)
        headings = find_headings(text, masked, body_start, body_end)
        start = headings[0].start if headings else body_start
        text = text[start:body_end]
    return text.strip("\n").rstrip() + "\n" if text.strip() else ""


@dataclass(frozen=True, slots=True)
class FragmentCheck:
    """Outcome of :func:`check_fragment`; ``ok`` when ``problems`` is empty."""

    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _brace_balance(masked: str) -> tuple[int, int]:
    """(unmatched closing braces, unclosed opening braces), escapes ignored."""
    depth = 0
    stray_closers = 0
    for m in _BRACE.finditer(masked):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            if depth == 0:
                stray_closers += 1
            else:
                depth -= 1
    return stray_closers, depth


def _environment_problems(masked: str) -> list[str]:
    stack: list[str] = []
    open_count: Counter[str] = Counter()  # names on the stack: keeps hostile input linear
    problems: list[str] = []
    for m in _ENV.finditer(masked):
        if is_escaped(masked, m.start()):
            continue  # \\begin is a line break followed by text
        kind, name = m.group(1), m.group(2).strip()
        if name == "document":
            # Reported once by check_fragment ("return only the section"); the
            # generic advice here ("add \\end{document}") would contradict it.
            continue
        if kind == "begin":
            stack.append(name)
            open_count[name] += 1
        elif open_count[name]:
            while stack[-1] != name:
                inner = stack.pop()
                open_count[inner] -= 1
                problems.append(
                    f"The environment '{inner}' is never closed; add \\end{{{inner}}} before \\end{{{name}}}."
                )
            stack.pop()
            open_count[name] -= 1
        else:
            problems.append(
                f"\\end{{{name}}} has no matching \\begin{{{name}}}; remove it or add the \\begin."
            )
    for name in reversed(stack):
        problems.append(
            f"The environment '{name}' is opened but never closed; add \\end{{{name}}}."
        )
    return problems


def check_fragment(text: str) -> FragmentCheck:
    """Health-check a fragment before it may be spliced into a document.

    Checks run on the masked text, so braces and environments inside comments
    and verbatim do not count; an unclosed verbatim region is itself a problem
    because it would swallow everything after the fragment.
    """
    if not text.strip():
        return FragmentCheck(("The fragment is empty; return the full text of the section.",))
    result = mask_regions(text)
    masked = result.text
    problems: list[str] = []
    for region in result.unterminated:
        if region.kind == "verbatim":
            problems.append(
                "A verbatim or listing environment is never closed; close it inside the fragment."
            )
        elif region.kind == "inline":
            problems.append(
                "An inline \\verb or \\lstinline is never closed; close it on the same line."
            )
    stray, unclosed = _brace_balance(masked)
    if stray:
        problems.append(
            f"The fragment has {stray} closing brace(s) without an opening one; remove them or escape them as \\}}."
        )
    if unclosed:
        problems.append(f"The fragment leaves {unclosed} brace(s) open; close every {{ you open.")
    env_problems = _environment_problems(masked)
    if len(env_problems) > MAX_ENV_PROBLEMS:
        more = len(env_problems) - MAX_ENV_PROBLEMS
        env_problems = env_problems[:MAX_ENV_PROBLEMS] + [
            f"{more} more environment(s) are unbalanced; match every \\begin with its \\end."
        ]
    problems.extend(env_problems)
    if _DOCCLASS.search(masked):
        problems.append(
            "The fragment contains \\documentclass; return only the section, not a whole document."
        )
    if _BEGIN_DOC.search(masked):
        problems.append(
            "The fragment contains \\begin{document}; return only the section, not the document start."
        )
    if _END_DOC.search(masked):
        problems.append(
            "The fragment contains \\end{document}; return only the section, not the document ending."
        )
    return FragmentCheck(tuple(problems))
