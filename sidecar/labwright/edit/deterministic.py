"""Edits that need no model: done by code, with or without a model configured.

Five kinds, each recognised by a narrow grammar in English and Chinese:
rename a section, change the report title, switch the report language's
fixed texts (the class option), remove a figure, and replace a text (a unit)
inside a table named by number. Anything the grammar does not recognise is
left to the model path; a recognised request whose target does not exist
gets one sentence back, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from labwright.edit.change import Change, EditOutcome
from labwright.edit.locate import (
    document_language,
    float_span,
    language_option_span,
    metadata_block,
)
from labwright.edit.router import find_signals
from labwright.latex.mask import mask
from labwright.latex.sectionizer import Node, sectionize
from labwright.latex.template import latex_escape

_I = re.IGNORECASE
_Q = r"[\"“”'‘’「」『』《》]"  # quote characters around names
_END = r"\s*[.。!！]?\s*$"

_RENAME = (
    re.compile(r"^\s*rename\s+(?P<ref>.+?)\s+(?:to|as)\s+(?P<new>.+?)" + _END, _I),
    re.compile(
        r"^\s*(?:change|set)\s+the\s+(?:title|heading|name)\s+of\s+(?P<ref>.+?)\s+to\s+(?P<new>.+?)"
        + _END,
        _I,
    ),
    re.compile(
        r"^\s*(?:把|将)?(?P<ref>.+?)(?:的标题|的名称)?(?:改名为|改名成|重命名为|更名为)(?P<new>.+?)"
        + _END
    ),
    re.compile(
        r"^\s*(?:把|将)(?P<ref>第\s*[0-9一二三四五六七八九十.]+\s*(?:节|章|小节))的?(?:标题)?改(?:为|成)(?P<new>.+?)"
        + _END
    ),
)
_TITLE = (
    re.compile(
        r"^\s*(?:change|set|make|rename)\s+the\s+(?:report(?:'s)?\s+|document(?:'s)?\s+)?title\s+"
        r"(?:to|into|as)\s+(?P<new>.+?)" + _END,
        _I,
    ),
    re.compile(r"^\s*(?:把|将)?(?:报告)?的?(?:标题|题目)改(?:为|成)(?P<new>.+?)" + _END),
)
_LANGUAGE = (
    re.compile(
        r"^\s*(?:switch|change|set)\s+(?:the\s+)?(?:report(?:'s)?\s+|document(?:'s)?\s+)?"
        r"(?:language\s+)?to\s+(?P<lang>english|chinese)" + _END,
        _I,
    ),
    re.compile(
        r"^\s*(?:把|将)?(?:报告)?(?:语言)?(?:切换|改|换)(?:为|成|到)(?P<lang>中文|英文)" + _END
    ),
)
_REMOVE_FIGURE = (
    re.compile(r"^\s*(?:remove|delete|drop)\s+(?:figure|fig\.?)\s*~?(?P<n>\d+)" + _END, _I),
    re.compile(r"^\s*(?:把|将)?(?:删除|删掉|去掉|移除)(?:图)\s*(?P<n>\d+)" + _END),
    re.compile(r"^\s*(?:把|将)?图\s*(?P<n>\d+)(?:删除|删掉|去掉|移除)" + _END),
)
_TABLE_TEXT = (
    re.compile(
        r"^\s*in\s+table\s*~?(?P<n>\d+)\s*,?\s*(?:change|replace)\s+(?:the\s+unit\s+)?"
        rf"{_Q}?(?P<old>[^\"“”]+?){_Q}?\s+(?:to|with|by)\s+{_Q}?(?P<new>[^\"“”]+?){_Q}?" + _END,
        _I,
    ),
    re.compile(
        rf"^\s*(?:change|replace)\s+(?:the\s+unit\s+)?{_Q}?(?P<old>[^\"“”]+?){_Q}?\s+(?:to|with|by)\s+"
        rf"{_Q}?(?P<new>[^\"“”]+?){_Q}?\s+in\s+table\s*~?(?P<n>\d+)" + _END,
        _I,
    ),
    re.compile(
        rf"^\s*(?:把|将)?表\s*(?P<n>\d+)(?:中|里)?的?{_Q}?(?P<old>[^“”\"]+?){_Q}?改(?:为|成){_Q}?(?P<new>[^“”\"]+?){_Q}?"
        + _END
    ),
)

NOT_DETERMINISTIC = (
    "This request needs a language model; add a provider in Settings, or ask for a rename, "
    "a title change, a language switch, a figure removal or a unit fix in a named table."
)


def _clean_name(text: str) -> str:
    return text.strip().strip("\"“”'‘’「」『』《》").strip()


def _one_section(ref: str, content: str) -> Node | None:
    signals = [s for s in find_signals(ref, content) if s.cls == "section"]
    anchors = {s.target.anchor for s in signals if s.target is not None}
    if len(anchors) != 1 or any(s.target is None for s in signals):
        return None
    return sectionize(content).by_anchor(anchors.pop())


def _title_group(content: str, node: Node) -> tuple[int, int]:
    """The inside of a heading's main ``{...}`` (the last group before ``heading_end``)."""
    close = node.heading_end - 1
    depth = 0
    masked = mask(content)
    for i in range(close, node.char_start - 1, -1):
        if masked[i] == "}":
            depth += 1
        elif masked[i] == "{":
            depth -= 1
            if depth == 0:
                return i + 1, close
    raise ValueError("heading without a title group")  # sectionize parsed one: cannot happen


def _rename(m: re.Match[str], content: str) -> EditOutcome:
    ref, new = m.group("ref"), _clean_name(m.group("new"))
    node = _one_section(ref, content)
    if node is None or not new:
        return EditOutcome(
            reply=f"I could not find exactly one section matching {ref.strip()!r}; "
            'name it by number (for example "section 2") or by its exact title.'
        )
    start, end = _title_group(content, node)
    change = Change(
        start,
        end,
        latex_escape(new),
        "section",
        f"{node.anchor} {node.title}",
        f"Rename the section \u201c{node.title}\u201d to \u201c{new}\u201d.",
    )
    return EditOutcome(
        (change,), f"Proposed: rename \u201c{node.title}\u201d to \u201c{new}\u201d."
    )


def _title(m: re.Match[str], content: str) -> EditOutcome:
    new = _clean_name(m.group("new"))
    block = metadata_block(content, "title")
    if block is None or not new:
        return EditOutcome(
            reply="The report has no \\title to change; add one in the source first."
        )
    inner = content.index("{", block.start) + 1
    change = Change(
        inner,
        block.end - 1,
        latex_escape(new),
        "section",
        "title",
        f"Change the title to \u201c{new}\u201d.",
    )
    return EditOutcome((change,), f"Proposed: the title becomes \u201c{new}\u201d.")


def _language(m: re.Match[str], content: str) -> EditOutcome:
    want = "zh" if m.group("lang").lower() in ("chinese", "中文") else "en"
    span = language_option_span(content)
    current = document_language(content)
    if span is None or current is None:
        return EditOutcome(
            reply="This report does not use the Labwright class, so its language switch is not known; edit the source instead."
        )
    if current == want:
        return EditOutcome(
            reply=f"The report's fixed texts are already in {'Chinese' if want == 'zh' else 'English'}."
        )
    options = [want if o.strip() == current else o for o in span.text(content).split(",")]
    change = Change(
        span.start,
        span.end,
        ",".join(options),
        "whole",
        "language",
        f"Switch the report's fixed texts (labels, captions) to {'Chinese' if want == 'zh' else 'English'}.",
    )
    return EditOutcome(
        (change,),
        "Proposed: the fixed texts switch language; the prose is not translated (that needs a model).",
    )


def _remove_figure(m: re.Match[str], content: str) -> EditOutcome:
    number = int(m.group("n"))
    span = float_span(content, "figure", number)
    if span is None:
        return EditOutcome(reply=f"The report has no Figure {number}; check the number in the PDF.")
    end = span.end + 1 if content[span.end : span.end + 1] == "\n" else span.end
    label = re.search(r"\\label\{([^{}]+)\}", span.text(content))
    change = Change(span.start, end, "", "section", f"Figure {number}", f"Remove Figure {number}.")
    reply = f"Proposed: remove Figure {number}."
    if label and content.count("\\ref{" + label.group(1) + "}"):
        reply += " The text still refers to it; remove those references too."
    return EditOutcome((change,), reply)


def _table_text(m: re.Match[str], content: str) -> EditOutcome:
    number, old, new = int(m.group("n")), m.group("old").strip(), m.group("new").strip()
    span = float_span(content, "table", number)
    if span is None:
        return EditOutcome(reply=f"The report has no Table {number}; check the number in the PDF.")
    text = span.text(content)
    edge = r"(?<![A-Za-z])" if old[:1].isascii() and old[:1].isalpha() else ""
    tail = r"(?![A-Za-z])" if old[-1:].isascii() and old[-1:].isalpha() else ""
    pattern = re.compile(edge + re.escape(old) + tail)
    # Only the cells: the caption and the label keep their text.
    cells = re.search(r"\\begin\{tabular\*?\}.*?\\end\{tabular\*?\}", text, re.S)
    if cells is None or not pattern.search(cells.group()):
        return EditOutcome(
            reply=f"Table {number} has no cell text \u201c{old}\u201d; quote the text exactly as it appears."
        )
    new_cells = pattern.sub(lambda _: new, cells.group())
    start = span.start + cells.start()
    change = Change(
        start,
        span.start + cells.end(),
        new_cells,
        "section",
        f"Table {number}",
        f"In Table {number}, change \u201c{old}\u201d to \u201c{new}\u201d.",
    )
    return EditOutcome(
        (change,), f"Proposed: in Table {number}, \u201c{old}\u201d becomes \u201c{new}\u201d."
    )


_RULES: tuple[
    tuple[tuple[re.Pattern[str], ...], Callable[[re.Match[str], str], EditOutcome]], ...
] = (
    (_TITLE, _title),
    (_LANGUAGE, _language),
    (_REMOVE_FIGURE, _remove_figure),
    (_TABLE_TEXT, _table_text),
    (_RENAME, _rename),
)


def deterministic_edit(request: str, content: str) -> EditOutcome | None:
    """The change for a request code can do, a sentence if its target is missing, else None."""
    for patterns, make in _RULES:
        for pattern in patterns:
            m = pattern.search(request)
            if m is not None:
                return make(m, content)
    return None
