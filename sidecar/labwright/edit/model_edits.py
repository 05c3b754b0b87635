"""Model-backed edits for a routed target, each behind its deterministic gate.

The model returns the smallest fragment the target allows (a section, a
block, the bibliography, or, for a global request, the document); code
cleans it, checks it and computes the range it replaces. A refused fragment
becomes one sentence for the person and is never spliced.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.agent.markup import draft_problems, extract_document
from labwright.agent.regression_gate import regression_check
from labwright.edit.change import Change, EditOutcome
from labwright.edit.locate import (
    BlockKind,
    Span,
    bibliography_block,
    command_block,
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
from labwright.latex.fragment import check_fragment, strip_fragment
from labwright.latex.mask import mask
from labwright.latex.sectionizer import Node, find_headings, sectionize
from labwright.latex.splice import apply_fragment, splice
from labwright.latex.split import split_aligned
from labwright.llm.model import Message
from labwright.llm.prompts import Lang

_BLOCK_SCOPE = {"abstract": "abstract", "keywords": "keywords", "title": "section"}


def refused(reason: str, problems: Sequence[str] = ()) -> EditOutcome:
    """Nothing is proposed; the person reads one sentence and what to do."""
    return EditOutcome(
        reply=f"Nothing was changed because the model's answer {reason}; ask again or rephrase the request.",
        problems=tuple(problems),
    )


def _reason(problems: Sequence[str]) -> str:
    first = problems[0] if problems else ""
    if "headings" in first or "heading" in first:
        return "adds, removes or moves a heading, and an edit must keep the report's sections"
    if "abstract or keywords" in first:
        return "adds or removes the abstract or the keywords"
    return "did not pass the LaTeX check (" + first.rstrip(".").split(";")[0].lower() + ")"


def _contained(content: str, start: int, end: int, new_text: str) -> bool:
    """The rest of the document must lex the same after the splice (no runaway comment or group)."""
    result = splice(content, start, end, new_text)
    return mask(result)[start + len(new_text) :] == mask(content)[end:]


def _outline(content: str) -> str:
    return "\n".join(outline_lines(content))


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
    sectioning = sectionize(content)
    messages = section_messages(
        request, node.text(content), _outline(content), digest=digest, history=history, lang=lang
    )
    answer = model.ask(messages, tier="main", step="edit")
    result = apply_fragment(content, node, answer, top_level=sectioning.top_level)
    if not result.ok:
        return refused(_reason(result.problems), result.problems)
    if result.fragment == node.text(content):
        return EditOutcome(
            reply="The model returned the section unchanged, so there is nothing to accept; rephrase the request."
        )
    change = Change(
        node.char_start,
        node.char_end,
        result.fragment,
        "section",
        f"{node.anchor} {node.title}",
        _summary(request),
    )
    return EditOutcome((change,), f"Proposed a change to \u201c{node.title}\u201d.")


def _block_problems(fragment: str, span: Span, kind: BlockKind) -> list[str]:
    problems = list(check_fragment(fragment).problems)
    if problems:
        return problems
    if span.form.startswith("begin{"):
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
    span = metadata_block(content, kind)
    if span is None:
        return EditOutcome(reply=f"The report has no {kind}; add one in the source first.")
    answer = model.ask(
        block_messages(request, span.text(content), _outline(content), lang=lang),
        tier="main",
        step="edit",
    )
    fragment = strip_fragment(answer).strip()
    problems = _block_problems(fragment, span, kind)
    if not problems and not _contained(content, span.start, span.end, fragment):
        problems = ["The block changes how the text after it is read; close every group inside it."]
    if problems:
        return refused(_reason(problems), problems)
    if fragment == span.text(content):
        return EditOutcome(reply=f"The model returned the {kind} unchanged; rephrase the request.")
    change = Change(span.start, span.end, fragment, _BLOCK_SCOPE[kind], kind, _summary(request))
    return EditOutcome((change,), f"Proposed a change to the {kind}.")


_BIB_START = re.compile(
    r"\\(?:bibliographystyle|bibliography|printbibliography|begin\{thebibliography\})(?![A-Za-z@])"
)


def edit_bibliography(
    model: EditModel, request: str, content: str, *, lang: Lang = "en"
) -> EditOutcome:
    span = bibliography_block(content)
    if span is None:
        return EditOutcome(
            reply="The report has no bibliography yet; cite a source first, then ask again."
        )
    old = span.text(content)
    answer = model.ask(bibliography_messages(request, old, lang=lang), tier="main", step="edit")
    fragment = strip_fragment(answer).strip()
    problems = list(check_fragment(fragment).problems)
    if not problems and not _BIB_START.match(fragment):
        problems.append("Return only the bibliography block, starting with its first command.")
    if not problems and find_headings(fragment, mask(fragment)):
        problems.append("The bibliography must not contain section headings.")
    new_text = fragment + old[len(old.rstrip()) :]  # keep the block's own trailing whitespace
    if not problems and not _contained(content, span.start, span.end, new_text):
        problems.append(
            "The bibliography changes how the text after it is read; close every group."
        )
    if problems:
        return refused(_reason(problems), problems)
    if new_text == old:
        return EditOutcome(
            reply="The model returned the bibliography unchanged; rephrase the request."
        )
    change = Change(span.start, span.end, new_text, "bib", "bibliography", _summary(request))
    return EditOutcome((change,), "Proposed a change to the bibliography; the body is untouched.")


def edit_whole(
    model: EditModel,
    request: str,
    content: str,
    *,
    digest: str = "",
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> EditOutcome:
    answer = model.ask(
        whole_messages(request, content, digest=digest, history=history, lang=lang),
        tier="main",
        step="edit",
    )
    problems = draft_problems(answer)
    if problems:
        return refused("is not a whole LaTeX document", problems)
    new = extract_document(answer)
    gate = regression_check(content, new, bib=None)
    if not gate.accepted:
        return refused(
            "loses parts of the report (" + "; ".join(gate.reasons)[:200] + ")", gate.reasons
        )
    parts = split_aligned(content, new)
    summary = _summary(request)
    if parts is None:
        change = Change(0, len(content), new, "whole", "whole report", summary)
        return EditOutcome(
            (change,),
            "Proposed one change to the whole report (its structure changed, so it cannot be split by section).",
        )
    if not parts:
        return EditOutcome(reply="The model returned the report unchanged; rephrase the request.")
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
    return EditOutcome(
        changes, f"Proposed changes to {len(changes)} section(s); each can be accepted on its own."
    )


def _summary(request: str, limit: int = 160) -> str:
    text = " ".join(request.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
