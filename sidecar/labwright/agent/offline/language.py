"""Choose the report language and find the passages to quote from the notes.

Both are decided from the folder's documents only, by plain rules: the
language is Chinese when the notes are mostly Chinese; the aim is the
paragraph under an "Aim"/"目的" heading or after an "Aim:" label, else the
first paragraph of the first note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labwright.ingest.types import DocumentText

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

# Documents whose name suggests notes are consulted first.
_NOTE_NAMES = ("readme", "notes", "note", "aim", "记录", "说明", "笔记")

_AIM_KEYS = ("aim", "aims", "objective", "objectives", "purpose", "goal", "目的", "实验目的")
_METHOD_KEYS = (
    "apparatus", "equipment", "setup", "set-up", "procedure", "method", "methods", "materials",
    "仪器", "实验仪器", "步骤", "实验步骤", "方法", "实验方法", "装置",
)  # fmt: skip


def detect_lang(documents: list[DocumentText]) -> str:
    """'zh' when Chinese characters make up at least a third of the letters of
    the notes, else 'en'. PDFs count too, but notes-like files are what a
    student writes, so a Chinese README alone is enough."""
    cjk = 0
    latin = 0.0
    for doc in ordered_notes(documents):
        cjk += len(_CJK.findall(doc.text))
        latin += len(_LATIN.findall(doc.text)) / 5  # ~5 letters per English word
    if cjk >= 10 and cjk >= latin / 2:
        return "zh"
    return "en"


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def ordered_notes(documents: list[DocumentText]) -> list[DocumentText]:
    """Notes-like text files first (README, notes), then other text, then PDFs."""

    def rank(doc: DocumentText) -> tuple[int, str]:
        name = doc.source.lower().rsplit("/", 1)[-1]
        is_pdf = name.endswith(".pdf")
        is_note = any(k in name for k in _NOTE_NAMES)
        return (2 if is_pdf else 0 if is_note else 1, doc.source)

    return sorted(documents, key=rank)


@dataclass(frozen=True)
class Passage:
    source: str
    heading: str | None
    text: str


def _blocks(text: str) -> list[tuple[str | None, str]]:
    """Split markdown-ish text into (heading, paragraph) pairs, after the
    markup is stripped (a reStructuredText label or directive is not a
    paragraph of the notes)."""
    from labwright.analysis.notes import strip_markup

    text = strip_markup(text)
    out: list[tuple[str | None, str]] = []
    heading: str | None = None
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append((heading, " ".join(s.strip() for s in para).strip()))
            para.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            flush()
            heading = stripped.lstrip("#").strip()
        elif not stripped:
            flush()
        else:
            para.append(stripped)
    flush()
    return [(h, p) for h, p in out if p]


def _norm(s: str) -> str:
    return re.sub(r"[\s:：]+", "", s).lower()


def _labelled(paragraph: str, keys: tuple[str, ...]) -> str | None:
    """'Aim: measure g ...' -> 'measure g ...' when the label is one of keys."""
    m = re.match(r"^\s*([^:：]{1,20})[:：]\s*(.+)$", paragraph, flags=re.S)
    if m and _norm(m.group(1)) in keys:
        return m.group(2).strip()
    return None


def find_passages(documents: list[DocumentText], keys: tuple[str, ...]) -> list[Passage]:
    found: list[Passage] = []
    for doc in ordered_notes(documents):
        for heading, para in _blocks(doc.text):
            if heading and _norm(heading) in keys:
                found.append(Passage(doc.source, heading, para))
            elif (body := _labelled(para, keys)) is not None:
                found.append(Passage(doc.source, None, body))
    return found


def find_aim(documents: list[DocumentText]) -> Passage | None:
    passages = find_passages(documents, _AIM_KEYS)
    if passages:
        return passages[0]
    for doc in ordered_notes(documents):
        if doc.source.lower().endswith(".pdf"):
            continue
        blocks = _blocks(doc.text)
        if blocks:
            # No "Aim" heading: the first paragraph that asks for something
            # ("We want a model of TOTEMP ..."), not a description of the
            # columns that happens to come first.
            from labwright.analysis.question import read_question

            asking = next((b for b in blocks if read_question(b[1]).goals), blocks[0])
            return Passage(doc.source, asking[0], asking[1])
    return None


def find_method(documents: list[DocumentText]) -> list[Passage]:
    return find_passages(documents, _METHOD_KEYS)


def find_title(documents: list[DocumentText]) -> str | None:
    """The first top-level markdown heading of the first note, if any."""
    from labwright.analysis.notes import strip_markup

    for doc in ordered_notes(documents):
        for line in strip_markup(doc.text).splitlines():
            s = line.strip()
            if s.startswith("# "):
                return s[2:].strip() or None
    return None
