"""Model-backed edits for a routed target, each behind its deterministic gate.

The model returns the smallest fragment the target allows (a section, a
block, the bibliography, or, for a global request, the document); code
cleans it, checks it and computes the range it replaces. A refused fragment
becomes one sentence for the person and is never spliced.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from labwright.agent.markup import draft_problems, extract_document
from labwright.agent.regression_gate import regression_check
from labwright.edit.change import Change, EditOutcome
from labwright.edit.locate import (
    BlockKind,
    Span,
    bibliography_block,
    command_block,
    keyword_line,
    metadata_block,
    outline_lines,
)
from labwright.edit.model import EditModel
from labwright.edit.prompts import (
    bibliography_messages,
    block_messages,
    section_messages,
    whole_messages,
)
from labwright.edit.say import ReplyLang, reply_lang, say
from labwright.latex.fragment import check_fragment, strip_fragment
from labwright.latex.mask import mask
from labwright.latex.sectionizer import Node, find_headings, sectionize
from labwright.latex.splice import apply_fragment, splice
from labwright.latex.split import split_aligned
from labwright.llm.model import Message, Messages
from labwright.llm.prompts import Lang

_BLOCK_SCOPE = {"abstract": "abstract", "keywords": "keywords", "title": "section"}


def refused(lang: ReplyLang, reason: str, problems: Sequence[str] = ()) -> EditOutcome:
    """Nothing is proposed; the person reads one sentence and what to do."""
    return EditOutcome(reply=say(lang, "refused", reason=reason), problems=tuple(problems))


def _reason(lang: ReplyLang, problems: Sequence[str]) -> str:
    first = problems[0] if problems else ""
    if "heading" in first:
        return say(lang, "why_heading")
    if "abstract or keywords" in first:
        return say(lang, "why_pseudo")
    # The gate's own sentence is English (it is also the model's repair prompt).
    return say(lang, "why_latex", detail=first.rstrip(".").split(";")[0])


def _contained(content: str, start: int, end: int, new_text: str) -> bool:
    """The rest of the document must lex the same after the splice (no runaway comment or group)."""
    result = splice(content, start, end, new_text)
    return mask(result)[start + len(new_text) :] == mask(content)[end:]


def _outline(content: str) -> str:
    return "\n".join(outline_lines(content))


#: Repair turns after a refused fragment: the refusal's instructional sentences
#: go back to the model once; a second refusal is reported to the person.
MAX_REPAIRS = 1
T = TypeVar("T")
Gate = Callable[[str], tuple[T | None, list[str]]]


def _ask_gated(model: EditModel, messages: Messages, gate: Gate[T]) -> tuple[T | None, list[str]]:
    """Ask, gate; on refusal feed the problems back (bounded), gate again."""
    answer = model.ask(messages, tier="main", step="edit")
    value, problems = gate(answer)
    for _ in range(MAX_REPAIRS):
        if not problems:
            break
        repair: Messages = [
            *messages,
            {"role": "assistant", "content": answer},
            {
                "role": "user",
                "content": "Your answer was not used: "
                + " ".join(problems)
                + " Return the corrected block only.",
            },
        ]
        answer = model.ask(repair, tier="main", step="edit-repair")
        value, problems = gate(answer)
    return value, problems


def edit_section(
    model: EditModel,
    request: str,
    content: str,
    node: Node,
    *,
    digest: str = "",
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> EditOutcome:
    lang_r = reply_lang(request)
    sectioning = sectionize(content)
    messages = section_messages(
        request, node.text(content), _outline(content), digest=digest, history=history, lang=lang
    )

    def gate(answer: str) -> tuple[str | None, list[str]]:
        result = apply_fragment(content, node, answer, top_level=sectioning.top_level)
        return (result.fragment, []) if result.ok else (None, list(result.problems))

    fragment, problems = _ask_gated(model, messages, gate)
    if fragment is None:
        return refused(lang_r, _reason(lang_r, problems), problems)
    if fragment == node.text(content):
        return EditOutcome(reply=say(lang_r, "unchanged", what=say(lang_r, "what_section")))
    change = Change(
        node.char_start,
        node.char_end,
        fragment,
        "section",
        f"{node.anchor} {node.title}",
        _summary(request),
    )
    return EditOutcome((change,), say(lang_r, "section_reply", title=node.title))


def _block_problems(fragment: str, span: Span, kind: BlockKind) -> list[str]:
    problems = list(check_fragment(fragment).problems)
    if problems:
        return problems
    if span.form == "line":
        # A hand-written keyword line: one paragraph that still starts with its label.
        ok = keyword_line(fragment) == (0, len(fragment))
        form = "the same label (e.g. \\textbf{Keywords:}) followed by the keywords, one paragraph"
    elif span.form.startswith("begin{"):
        env = span.form[len("begin{") : -1]
        ok = fragment.startswith("\\begin{" + env + "}") and fragment.endswith("\\end{" + env + "}")
        ok = ok and fragment.count("\\begin{" + env + "}") == 1
        form = f"\\begin{{{env}}} ... \\end{{{env}}}"
    else:
        found = command_block(fragment, span.form)
        ok = found is not None and found.start == 0 and found.end == len(fragment)
        form = f"\\{span.form}{{...}}"
    if not ok:
        return [f"Return the {kind} exactly once in the form {form}, and nothing else."]
    if find_headings(fragment, mask(fragment)):
        return ["The block must not contain section headings."]
    return []


def edit_block(
    model: EditModel, request: str, content: str, kind: BlockKind, *, lang: Lang = "en"
) -> EditOutcome:
    lang_r = reply_lang(request)
    span = metadata_block(content, kind)
    if span is None:
        return EditOutcome(reply=say(lang_r, "no_block", kind=say(lang_r, f"kind_{kind}")))

    def gate(answer: str) -> tuple[str | None, list[str]]:
        fragment = strip_fragment(answer).strip()
        problems = _block_problems(fragment, span, kind)
        if not problems and not _contained(content, span.start, span.end, fragment):
            problems = [
                "The block changes how the text after it is read; close every group inside it."
            ]
        return (None, problems) if problems else (fragment, [])

    messages = block_messages(request, span.text(content), _outline(content), lang=lang)
    fragment, problems = _ask_gated(model, messages, gate)
    if fragment is None:
        return refused(lang_r, _reason(lang_r, problems), problems)
    if fragment == span.text(content):
        what = say(lang_r, "what_block", kind=say(lang_r, f"kind_{kind}"))
        return EditOutcome(reply=say(lang_r, "unchanged", what=what))
    change = Change(span.start, span.end, fragment, _BLOCK_SCOPE[kind], kind, _summary(request))
    return EditOutcome((change,), say(lang_r, "block_reply", kind=say(lang_r, f"kind_{kind}")))


_BIB_START = re.compile(
    r"\\(?:bibliographystyle|bibliography|printbibliography|begin\{thebibliography\})(?![A-Za-z@])"
)


def edit_bibliography(
    model: EditModel, request: str, content: str, *, lang: Lang = "en"
) -> EditOutcome:
    lang_r = reply_lang(request)
    span = bibliography_block(content)
    if span is None:
        return EditOutcome(reply=say(lang_r, "no_bib"))
    old = span.text(content)

    def gate(answer: str) -> tuple[str | None, list[str]]:
        fragment = strip_fragment(answer).strip()
        problems = list(check_fragment(fragment).problems)
        if not problems and not _BIB_START.match(fragment):
            problems.append("Return only the bibliography block, starting with its first command.")
        if not problems and find_headings(fragment, mask(fragment)):
            problems.append("The bibliography must not contain section headings.")
        new_text = fragment + old[len(old.rstrip()) :]  # keep the block's trailing whitespace
        if not problems and not _contained(content, span.start, span.end, new_text):
            problems.append(
                "The bibliography changes how the text after it is read; close every group."
            )
        return (None, problems) if problems else (new_text, [])

    new_text, problems = _ask_gated(model, bibliography_messages(request, old, lang=lang), gate)
    if new_text is None:
        return refused(lang_r, _reason(lang_r, problems), problems)
    if new_text == old:
        return EditOutcome(reply=say(lang_r, "unchanged", what=say(lang_r, "what_bib")))
    change = Change(span.start, span.end, new_text, "bib", "bibliography", _summary(request))
    return EditOutcome((change,), say(lang_r, "bib_reply"))


def edit_whole(
    model: EditModel,
    request: str,
    content: str,
    *,
    digest: str = "",
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> EditOutcome:
    lang_r = reply_lang(request)
    answer = model.ask(
        whole_messages(request, content, digest=digest, history=history, lang=lang),
        tier="main",
        step="edit",
    )
    problems = draft_problems(answer)
    if problems:
        return refused(lang_r, say(lang_r, "why_not_document"), problems)
    new = extract_document(answer)
    gate = regression_check(content, new, bib=None)
    if not gate.accepted:
        detail = "; ".join(gate.reasons)[:200]
        return refused(lang_r, say(lang_r, "why_loses", detail=detail), gate.reasons)
    parts = split_aligned(content, new)
    summary = _summary(request)
    if parts is None:
        change = Change(0, len(content), new, "whole", "whole report", summary)
        return EditOutcome((change,), say(lang_r, "whole_one"))
    if not parts:
        return EditOutcome(reply=say(lang_r, "unchanged", what=say(lang_r, "what_report")))
    changes = tuple(
        Change(
            p.char_start,
            p.char_end,
            p.new_text,
            "whole",
            f"{p.anchor} {p.title}",
            f"{summary} ({p.title})",
        )
        for p in parts
    )
    return EditOutcome(changes, say(lang_r, "whole_split", n=len(changes)))


def _summary(request: str, limit: int = 160) -> str:
    text = " ".join(request.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
