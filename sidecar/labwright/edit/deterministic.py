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
from labwright.edit.say import ReplyLang, reply_lang, say
from labwright.latex.mask import mask
from labwright.latex.sectionizer import Node, sectionize
from labwright.latex.template import latex_escape
from labwright.verify.tags import hide_ids

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


def needs_model(request: str) -> str:
    """The reply to a request that only a model can do, when none is configured."""
    return say(reply_lang(request), "needs_model")


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


def _rename(m: re.Match[str], content: str, lang: ReplyLang) -> EditOutcome:
    ref, new = m.group("ref"), _clean_name(m.group("new"))
    node = _one_section(ref, content)
    if node is None or not new:
        return EditOutcome(reply=say(lang, "rename_not_found", ref=ref.strip()))
    start, end = _title_group(content, node)
    change = Change(
        start,
        end,
        latex_escape(new),
        "section",
        f"{node.anchor} {node.title}",
        say(lang, "rename_summary", old=node.title, new=new),
    )
    return EditOutcome((change,), say(lang, "rename_reply", old=node.title, new=new))


def _title(m: re.Match[str], content: str, lang: ReplyLang) -> EditOutcome:
    new = _clean_name(m.group("new"))
    block = metadata_block(content, "title")
    if block is None or not new:
        return EditOutcome(reply=say(lang, "no_title"))
    inner = content.index("{", block.start) + 1
    summary = say(lang, "title_summary", new=new)
    change = Change(inner, block.end - 1, latex_escape(new), "section", "title", summary)
    return EditOutcome((change,), say(lang, "title_reply", new=new))


def _language(m: re.Match[str], content: str, lang: ReplyLang) -> EditOutcome:
    want = "zh" if m.group("lang").lower() in ("chinese", "中文") else "en"
    name = say(lang, f"lang_{want}")
    span = language_option_span(content)
    current = document_language(content)
    if span is None or current is None:
        return EditOutcome(reply=say(lang, "lang_unknown"))
    if current == want:
        return EditOutcome(reply=say(lang, "lang_already", name=name))
    options = [want if o.strip() == current else o for o in span.text(content).split(",")]
    summary = say(lang, "lang_summary", name=name)
    change = Change(span.start, span.end, ",".join(options), "whole", "language", summary)
    return EditOutcome((change,), say(lang, "lang_reply", name=name))


def _remove_figure(m: re.Match[str], content: str, lang: ReplyLang) -> EditOutcome:
    number = int(m.group("n"))
    span = float_span(content, "figure", number)
    if span is None:
        return EditOutcome(reply=say(lang, "no_figure", n=number))
    end = span.end + 1 if content[span.end : span.end + 1] == "\n" else span.end
    label = re.search(r"\\label\{([^{}]+)\}", span.text(content))
    summary = say(lang, "figure_summary", n=number)
    change = Change(span.start, end, "", "section", f"Figure {number}", summary)
    cited = label is not None and "\\ref{" + label.group(1) + "}" in content
    return EditOutcome(
        (change,), say(lang, "figure_still_cited" if cited else "figure_reply", n=number)
    )


def _table_text(m: re.Match[str], content: str, lang: ReplyLang) -> EditOutcome:
    number, old, new = int(m.group("n")), m.group("old").strip(), m.group("new").strip()
    span = float_span(content, "table", number)
    if span is None:
        return EditOutcome(reply=say(lang, "no_table", n=number))
    text = span.text(content)
    edge = r"(?<![A-Za-z])" if old[:1].isascii() and old[:1].isalpha() else ""
    tail = r"(?![A-Za-z])" if old[-1:].isascii() and old[-1:].isalpha() else ""
    pattern = re.compile(edge + re.escape(old) + tail)
    # Only the cells: the caption and the label keep their text. A number
    # tag's id is not cell text (a unit "cd" must not rewrite an id).
    cells = re.search(r"\\begin\{tabular[x*]?\}.*?\\end\{tabular[x*]?\}", text, re.S)
    hidden, restore = hide_ids(cells.group()) if cells is not None else ("", str)
    if cells is None or not pattern.search(hidden):
        return EditOutcome(reply=say(lang, "no_cell", n=number, old=old))
    new_cells = restore(pattern.sub(lambda _: new, hidden))
    summary = say(lang, "cell_summary", n=number, old=old, new=new)
    change = Change(
        span.start + cells.start(),
        span.start + cells.end(),
        new_cells,
        "section",
        f"Table {number}",
        summary,
    )
    return EditOutcome((change,), say(lang, "cell_reply", n=number, old=old, new=new))


_Rule = Callable[[re.Match[str], str, ReplyLang], EditOutcome]
_RULES: tuple[tuple[tuple[re.Pattern[str], ...], _Rule], ...] = (
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
                return make(m, content, reply_lang(request))
    return None
