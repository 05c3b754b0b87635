"""The notes as clauses to read requests from, each with the file it is in.

Notes come as a lab handout (paragraphs wrapped at 80 columns, a "Tasks"
list), a student's terse README ("MM kinetics. want Km, Vmax"), a Chinese
实验报告要求 (full-width punctuation, "（1）" items) or a data-set
description. Rules read *clauses*: a wrapped paragraph is joined back into
sentences (so "find the activation\nenergy" is one phrase), list items and
headings stay apart, and each clause remembers the heading it sits under,
because "Tasks:" or "实验要求" makes every item below it a request.

Text is normalised one character for one character (full-width ASCII to
ASCII, the Unicode minus to "-", the ideographic space to a space), so an
offset in the normalised text is an offset in the original and the phrase
kept as evidence is what the author wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from labwright.analysis.notes import strip_markup
from labwright.ingest.types import DocumentText

# One character for one: offsets survive normalisation.
_ONE_FOR_ONE = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_ONE_FOR_ONE.update(
    {
        0x3000: 0x20,  # ideographic space
        0x2212: 0x2D,  # minus sign
        0x2013: 0x2D,  # en dash (Michaelis–Menten, 5–10 mM)
        0x2014: 0x2D,  # em dash
        0x2010: 0x2D,  # hyphen
        0x2011: 0x2D,  # non-breaking hyphen
        0x00A0: 0x20,  # no-break space
        0x2009: 0x20,  # thin space
        0x202F: 0x20,  # narrow no-break space
        0x3001: 0x2C,  # 、 enumeration comma
        0x3002: 0x2E,  # 。 (kept a sentence end below)
        0x2019: 0x27,  # ’
        0x2018: 0x27,  # ‘
        0x201C: 0x22,  # “
        0x201D: 0x22,  # ”
    }
)


def normalise(text: str) -> str:
    """Full-width forms and typographic dashes as ASCII, one char for one."""
    return text.translate(_ONE_FOR_ONE)


_ITEM = re.compile(
    # "1." is an item, "25.00 mL of acid" a line that starts with a number.
    r"^\s*(?:[-*•·+]\s+|\(?\d{1,2}(?:[.](?!\d)|[)、])\s*|[（(]\s*\d{1,2}\s*[)）]\s*|[a-zA-Z][.)]\s+|"
    # "(a) Find k.", "(ii) Find the mass.": a letter or a roman numeral in brackets.
    r"[（(]\s*(?:[a-hA-H]|[ivxIVX]{1,4})\s*[)）]\s*|"
    r"[一二三四五六七八九十]{1,2}[、.．]\s*|[①②③④⑤⑥⑦⑧⑨⑩]\s*)"
)
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+")
# Sentence ends: a stop followed by space or the end (not the dot of 0.25 or
# of run_T25C.csv), and the CJK stops, which need no space.
_SENTENCE_END = re.compile(r"(?<=[.!?;])(?=\s)|(?<=[。！？；!?;])|(?<=[.])$")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Headings whose items are requests ("Tasks", "要求") or descriptions of the
# data ("Files", "Columns", "数据说明").
REQUEST_HEADINGS = re.compile(
    r"\b(?:tasks?|aims?|goals?|objectives?|questions?|to do|todo|what to (?:do|report)|"
    r"report|required|requirements?|deliverables?|analysis|exercises?|procedure for analysis|"
    r"data analysis|results? required|wanted)\b|"
    r"要求|任务|目的|问题|数据处理|分析|思考题|实验内容|报告内容|需要",
    re.I,
)


@dataclass(frozen=True)
class Clause:
    """One sentence or list item of a note."""

    source: str  # the note's file, relative to the folder
    text: str  # normalised (one char for one with `original`)
    original: str  # as written
    heading: str  # the nearest heading above ("" when none)
    item: bool  # a list item
    index: int  # order in the folder's notes

    @property
    def under_request_heading(self) -> bool:
        return bool(self.heading) and bool(REQUEST_HEADINGS.search(self.heading))

    def quote(self, start: int, end: int) -> str:
        """The author's words between two offsets of `text`."""
        return self.original[start:end].strip()


def _is_heading(line: str, next_line: str) -> bool:
    stripped = line.strip()
    if not stripped:
        return False
    if _MD_HEADING.match(line):
        return True
    if len(stripped) > 60 or _ITEM.match(line):
        return False
    # "Tasks:" / "实验要求：" alone on a line, or a short line over an empty one
    # or a list ("Analysis" then "1. ...").
    if stripped.endswith((":", "：")):
        return True
    return bool(re.fullmatch(r"\*\*[^*]+\*\*", stripped))


def _join(a: str, b: str) -> str:
    """Join a wrapped line: no space between two CJK characters."""
    if a and b and _CJK.match(a[-1]) and _CJK.match(b[0]):
        return a + b
    return a + " " + b


# A full stop that ends an abbreviation ends no sentence: "(lit. 0.5 mM)",
# "approx. 9 V", "cf. Fig. 2", "e.g. the slope".
_ABBREVIATION = re.compile(
    r"\b(?:lit|ref|refs|approx|ca|cf|vs|fig|figs|eq|eqs|resp|e\.g|i\.e)\.\s*$",
    re.I,
)


def _split_sentences(text: str) -> list[str]:
    parts: list[str] = []
    for p in _SENTENCE_END.split(text):
        if parts and _ABBREVIATION.search(parts[-1]):
            parts[-1] += p
        else:
            parts.append(p)
    return [p for p in parts if p.strip()]


def clauses_of(source: str, raw: str, start_index: int = 0) -> list[Clause]:
    """The clauses of one note, headings attached."""
    original = strip_markup(raw)
    lines = original.split("\n")
    blocks: list[tuple[str, bool, str]] = []  # (text, is item, heading)
    heading = ""
    current: list[str] = []
    current_item = False

    def flush() -> None:
        nonlocal current, current_item
        if current:
            text = current[0]
            for nxt in current[1:]:
                text = _join(text, nxt)
            blocks.append((text, current_item, heading))
        current, current_item = [], False

    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if not line.strip():
            flush()
            continue
        if _is_heading(line, nxt):
            flush()
            heading = _MD_HEADING.sub("", line).strip().strip("*").strip()
            # The heading is read too: "Determine the activation energy:".
            blocks.append((heading, False, heading))
            continue
        marker = _ITEM.match(line)
        if marker:
            flush()
            # The marker goes: "1. Plot ln k." would split at "1." otherwise.
            current, current_item = [line[marker.end() :].strip()], True
            continue
        if current:
            current.append(line.strip())
        else:
            current, current_item = [line.strip()], False
    flush()
    out: list[Clause] = []
    for text, item, head in blocks:
        for sentence in _split_sentences(text):
            s = sentence.strip()
            out.append(Clause(source, normalise(s), s, head, item, start_index + len(out)))
    return out


@dataclass(frozen=True)
class Notes:
    """All notes of a folder as clauses, in reading order."""

    clauses: tuple[Clause, ...]

    @property
    def text(self) -> str:
        return "\n".join(c.text for c in self.clauses)

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses)


def is_note(doc: DocumentText) -> bool:
    """Notes and description files; PDFs are papers and manuals, not the
    author's request (the same choice as `notes.notes_text`)."""
    return not doc.source.lower().endswith(".pdf")


def read_notes(documents: Iterable[DocumentText]) -> Notes:
    out: list[Clause] = []
    for doc in documents:
        if is_note(doc):
            out.extend(clauses_of(doc.source, doc.text, len(out)))
    return Notes(tuple(out))
