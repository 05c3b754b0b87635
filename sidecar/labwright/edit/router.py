"""Which part of the report a chat request is about, decided by code when it can be.

Explicit targets are found without a model: the bibliography; the abstract,
keywords or report title; "Table N"/"Figure N" (the section that holds it);
section numbers ("§3.1", "section 3", "第3节", "3.1节"); a section title,
quoted or contained in the request (the longest matching title wins). When
exactly one *class* of target is named and it resolves to exactly one place,
the decision costs no tokens. No signal, signals of several classes, several
sections, or whole-document wording ("throughout", "全文") go to one small
routing call on the cheap tier, which answers with an anchor from the outline.

Why so strict: a wrong zero-token decision edits the wrong section silently,
while a deferred one costs a few hundred tokens. So every rule here prefers
"ask" to "guess" (tests/edit/test_router.py holds the labelled set).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from labwright.edit.locate import (
    BlockKind,
    FloatKind,
    bibliography_block,
    float_span,
    innermost_node,
    metadata_block,
    outline_lines,
    section_numbers,
)
from labwright.edit.say import reply_lang, say
from labwright.latex.sectionizer import Node, Sectioning, sectionize
from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import Messages

TargetKind = Literal["section", "abstract", "keywords", "title", "bibliography", "whole"]
SignalClass = Literal["bibliography", "abstract", "keywords", "title", "float", "section"]

#: Sends the routing messages to the cheap tier and returns the answer text.
AskModel = Callable[[Messages], str]


@dataclass(frozen=True, slots=True)
class Target:
    kind: TargetKind
    #: Positional anchor (``n3``) for sections; empty otherwise.
    anchor: str = ""
    #: For people: "3.1 Fit of g", "abstract".
    label: str = ""

    @property
    def ref(self) -> str:
        """One string per target (the labelled set and the routing call use it)."""
        return self.anchor if self.kind == "section" else self.kind


@dataclass(frozen=True, slots=True)
class Signal:
    cls: SignalClass
    target: Target | None  # None: named but not found ("Table 9" in a report with 2)
    text: str  # what in the request gave it away


@dataclass(frozen=True, slots=True)
class Route:
    """A routing decision. ``target`` None means: say ``reason`` to the person."""

    target: Target | None
    #: Which rule decided: a signal class, "model", or "none".
    by: str
    used_tokens: bool
    reason: str = ""
    signals: tuple[Signal, ...] = field(default=(), repr=False)


# -- signals ---------------------------------------------------------------------

_I = re.IGNORECASE
_WHOLE = re.compile(
    r"\b(?:overall|throughout|globally|everywhere)\b|"
    r"\b(?:the\s+)?(?:whole|entire|full)\s+(?:report|document|paper|text|thing)\b|"
    r"\b(?:all|every|each)\s+(?:the\s+)?sections?\b|\bas\s+a\s+whole\b|"
    r"全文|整体|整篇|通篇|全篇|整个报告|整份报告|所有章节|所有部分|每一节|各节|各部分",
    _I,
)
_BIB = re.compile(
    r"(?<!cross-)(?<!cross )\b(?:bibliography|references|reference\s+list|bibtex|"
    r"citation\s+style|citation\s+format)\b|参考文献|文献列表|引用格式|文献格式",
    _I,
)
# A new or changed citation needs two handlers (the sentence that cites, and
# the bibliography entry the key must resolve to) and knowledge of the work:
# code never decides it alone, whatever else the request names. The
# bibliography's style or format ("citation style") is a bibliography edit.
_CITE_INTENT = re.compile(
    r"\bcit(?:e|es|ed|ing)\b|\bcitations?\b(?!\s+(?:style|format))|"
    r"\badd\s+(?:a\s+|an\s+)?(?:new\s+)?(?:reference|source)s?\b|\breference\s+to\s+(?:the\s+)?(?:original|paper|work|article|book)\b|"
    r"引用(?!格式)|引述|援引|(?:添加|加上|加入|补充|补上|增加)(?:一[篇个条])?(?:参考)?文献|注明出处|标注出处",
    _I,
)
_ABSTRACT = re.compile(r"\babstract\b|摘要", _I)
_KEYWORDS = re.compile(r"\bkey\s?words?\b|关键词|关键字", _I)
_TITLE = re.compile(
    r"\b(?:report|document|paper)(?:'s)?\s+title\b|\btitle\s+of\s+the\s+(?:report|document|paper)\b|"
    r"\bthe\s+title\b(?!\s+of\b)|报告(?:的)?(?:标题|题目)|文档(?:的)?标题|总标题|大标题|^\s*(?:把)?(?:标题|题目)",
    _I,
)
_TABLE = re.compile(r"\b(?:table|tab\.)\s*~?(\d+)\b|(?<!图)表\s*(\d+)", _I)
_FIGURE = re.compile(r"\b(?:figure|fig\.?)\s*~?(\d+)\b|图\s*(\d+)", _I)
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九", 0)}
_NUM = r"(\d+(?:\.\d+)*)"
_SECTION_NUMBER = (
    re.compile(r"§\s*" + _NUM),
    re.compile(r"\b(?:section|sec\.|subsection|subsubsection|chapter)\s*" + _NUM + r"\b", _I),
    re.compile(r"第\s*([0-9一二三四五六七八九十]+(?:\.\d+)*)\s*(?:节|章|部分|小节)"),
    re.compile(r"(?<![\d.])" + _NUM + r"\s*(?:节|小节|部分)"),
    # A bare "3.1" only right after an editing verb or at the very start
    # ("rewrite 3.1 more formally", "3.1 is too long"): a bare decimal
    # elsewhere is far more often a value ("change 2.1 s to 2.10 s").
    re.compile(
        r"\b(?:rewrite|revise|edit|shorten|expand|improve|polish|redo|tighten|condense|"
        r"simplify|clarify|rework)\s+(\d+\.\d+(?:\.\d+)?)(?![\w.%])",
        _I,
    ),
    re.compile(r"^\s*(\d+\.\d+(?:\.\d+)?)\s+(?:is|has|needs|should|reads|seems|looks)\b", _I),
    re.compile(r"把\s*(\d+\.\d+(?:\.\d+)?)(?![\d.])"),
)
_QUOTED = re.compile(
    r"\"([^\"]{2,80})\"|“([^”]{2,80})”|‘([^’]{2,80})’|「([^」]{2,80})」|『([^』]{2,80})』|《([^》]{2,80})》|'([^']{2,80})'"
)
_WS = re.compile(r"\s+")


def _cn_number(text: str) -> str:
    """ "三" -> "3", "十二" -> "12"; digits pass through."""
    if text.isdigit() or "." in text:
        return text
    if text == "十":
        return "10"
    if "十" in text:
        tens, _, ones = text.partition("十")
        return str((_CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CN_DIGITS.get(ones, 0)))
    return "".join(str(_CN_DIGITS.get(c, c)) for c in text)


def _norm(text: str) -> str:
    text = text.replace("{", "").replace("}", "").replace("$", "").replace("\\", "")
    return _WS.sub(" ", text).strip().casefold()


def _contains(haystack: str, needle: str) -> bool:
    """Whole-word containment where the needle's edge is an ASCII word character."""
    start = 0
    while (i := haystack.find(needle, start)) >= 0:
        j = i + len(needle)
        left = (
            i == 0
            or not (needle[0].isascii() and needle[0].isalnum())
            or not (haystack[i - 1].isascii() and haystack[i - 1].isalnum())
        )
        right = (
            j == len(haystack)
            or not (needle[-1].isascii() and needle[-1].isalnum())
            or not (haystack[j].isascii() and haystack[j].isalnum())
        )
        if left and right:
            return True
        start = i + 1
    return False


def _names(node: Node) -> list[str]:
    """A heading's title, its short title, and "结果" for "实验结果" (Chinese reports
    prefix most titles with 实验, and people leave it out when they talk)."""
    names = [_norm(node.title)] + ([_norm(node.short_title)] if node.short_title else [])
    for name in list(names):
        if name.startswith("实验") and len(name) >= 4:
            names.append(name[2:])
    return [n for n in names if len(n) >= (2 if not n.isascii() else 3)]


def _section_target(node: Node, numbers: dict[str, Node]) -> Target:
    number = next((num for num, n in numbers.items() if n.anchor == node.anchor), "")
    return Target("section", node.anchor, f"{number} {node.title}".strip())


def _title_signals(request: str, sectioning: Sectioning, numbers: dict[str, Node]) -> list[Signal]:
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(request)]
    for q in quoted:
        exact = [n for n in sectioning.nodes if _norm(q) in _names(n)]
        if exact:
            return [Signal("section", _section_target(n, numbers), q) for n in exact]
    want = _norm(request)
    matched = [
        (name, node) for node in sectioning.nodes for name in _names(node) if _contains(want, name)
    ]
    # The longest title wins over the titles inside it ("results of the fit"
    # over "results"); titles found side by side all stay, so "merge the aim
    # into the conclusion" names two sections and is never guessed.
    kept = [
        (name, node)
        for name, node in matched
        if not any(name != other and name in other for other, _ in matched)
    ]
    nodes = list(dict.fromkeys(node for _, node in kept))
    return [Signal("section", _section_target(n, numbers), n.title) for n in nodes]


def find_signals(request: str, content: str, sectioning: Sectioning | None = None) -> list[Signal]:
    """Every explicit target the request names, each with the target it resolves to."""
    sectioning = sectioning or sectionize(content)
    numbers = section_numbers(sectioning)
    signals: list[Signal] = []
    for m in _BIB.finditer(request):
        found = bibliography_block(content) is not None
        signals.append(
            Signal(
                "bibliography",
                Target("bibliography", label="bibliography") if found else None,
                m.group(),
            )
        )
    blocks: tuple[tuple[BlockKind, re.Pattern[str]], ...] = (
        ("abstract", _ABSTRACT),
        ("keywords", _KEYWORDS),
        ("title", _TITLE),
    )
    for cls, pattern in blocks:
        for m in pattern.finditer(request):
            found = metadata_block(content, cls) is not None
            signals.append(Signal(cls, Target(cls, label=cls) if found else None, m.group()))
    floats: tuple[tuple[FloatKind, re.Pattern[str]], ...] = (("table", _TABLE), ("figure", _FIGURE))
    for kind, pattern in floats:
        for m in pattern.finditer(request):
            float_no = int(next(g for g in m.groups() if g))
            span = float_span(content, kind, float_no)
            node = innermost_node(sectioning, span.start) if span else None
            target = _section_target(node, numbers) if node else None
            signals.append(Signal("float", target, m.group()))
    for pattern in _SECTION_NUMBER:
        for m in pattern.finditer(request):
            number = _cn_number(m.group(1))
            node = numbers.get(number)
            signals.append(
                Signal("section", _section_target(node, numbers) if node else None, m.group())
            )
    if sectioning.editable:
        signals.extend(_title_signals(request, sectioning, numbers))
    return signals


def whole_wording(request: str) -> str | None:
    m = _WHOLE.search(request)
    return m.group() if m else None


# -- decisions -------------------------------------------------------------------


def route_without_model(request: str, content: str) -> Route:
    """The zero-token decision; ``by == "defer"`` when a routing call is needed."""
    sectioning = sectionize(content)
    signals = tuple(find_signals(request, content, sectioning))
    whole = whole_wording(request)
    if whole is not None:
        return Route(None, "defer", False, f"whole-document wording ({whole!r})", signals)
    cite = _CITE_INTENT.search(request)
    if cite is not None:
        return Route(
            None, "defer", False, f"a citation needs the model ({cite.group()!r})", signals
        )
    if not signals:
        return Route(None, "defer", False, "no part of the report is named", signals)
    classes = {s.cls for s in signals}
    if len(classes) > 1:
        named = ", ".join(sorted(classes))
        return Route(None, "defer", False, f"several kinds of target are named ({named})", signals)
    missing = [s for s in signals if s.target is None]
    if missing:
        # Named explicitly but absent: a model cannot find it either.
        return Route(
            None,
            "none",
            False,
            say(reply_lang(request), "missing_part", part=missing[0].text.strip()),
            signals,
        )
    targets = {s.target.ref for s in signals if s.target is not None}
    if len(targets) > 1:
        return Route(None, "defer", False, "several sections are named", signals)
    target = signals[0].target
    assert target is not None
    return Route(target, signals[0].cls, False, "", signals)


def routing_messages(request: str, content: str) -> Messages:
    """The routing call: the outline and the request, nothing else (about 200 tokens)."""
    outline = "\n".join(outline_lines(content))
    return [
        {"role": "system", "content": read_knowledge("agent/route_edit.md").strip()},
        {
            "role": "user",
            "content": f"## Outline\n{outline}\nwhole: (the whole report)\n\n## Request\n{request}",
        },
    ]


_BLOCK_REFS: dict[str, BlockKind] = {
    "abstract": "abstract",
    "keywords": "keywords",
    "title": "title",
}


def parse_routing_answer(answer: str, content: str) -> Target | None:
    """``{"target": "n3"}`` (or a bare anchor) -> the target; None when it names nothing known."""
    text = answer.strip()
    value: Any = None
    m = re.search(r"\{.*\}", text, re.S)
    if m:
        try:
            value = json.loads(m.group()).get("target")
        except (ValueError, AttributeError):
            value = None
    if value is None:
        value = text.strip("`\"' \n")
    ref = str(value).strip().lower()
    if ref == "whole":
        return Target("whole", label="whole report")
    if ref == "bibliography":
        return Target("bibliography", label="bibliography") if bibliography_block(content) else None
    block = _BLOCK_REFS.get(ref)
    if block is not None:
        return Target(block, label=block) if metadata_block(content, block) is not None else None
    sectioning = sectionize(content)
    node = sectioning.by_anchor(ref)
    if node is None or node.kind != "heading":
        return None
    return _section_target(node, section_numbers(sectioning))


def route(request: str, content: str, ask: AskModel | None = None) -> Route:
    """Zero-token decision first; otherwise one routing call through ``ask`` (cheap tier)."""
    decision = route_without_model(request, content)
    if decision.by != "defer":
        return decision
    if ask is None:
        # Offline: whole-document wording can still be answered (deterministic
        # edits do not need a section); anything else needs a name.
        if whole_wording(request) is not None:
            return Route(
                Target("whole", label="whole report"), "whole-wording", False, "", decision.signals
            )
        return Route(
            None, "none", False, say(reply_lang(request), "needs_model_to_route"), decision.signals
        )
    target = parse_routing_answer(ask(routing_messages(request, content)), content)
    if target is None:
        return Route(None, "model", True, say(reply_lang(request), "unclear"), decision.signals)
    return Route(target, "model", True, decision.reason, decision.signals)
