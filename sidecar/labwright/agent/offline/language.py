"""Choose the report language and find the passages to quote from the notes.

Both are decided by plain rules. The language (`detect_language`, the one
detector of the CLI, the server's runs and the window's drop screen) comes
from the notes when they say enough, else from the file, sheet and column
names, else it is English; the aim is the paragraph under an "Aim"/"目的"
heading or after an "Aim:" label, else the first paragraph of the first note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from labwright.ingest.types import Dataset, DocumentText, Inventory, ReadResult

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

# Documents whose name suggests notes are consulted first.
_NOTE_NAMES = ("readme", "notes", "note", "aim", "记录", "说明", "笔记")

_AIM_KEYS = ("aim", "aims", "objective", "objectives", "purpose", "goal", "目的", "实验目的")
_METHOD_KEYS = (
    "apparatus", "equipment", "setup", "set-up", "procedure", "method", "methods", "materials",
    "仪器", "实验仪器", "步骤", "实验步骤", "方法", "实验方法", "装置",
)  # fmt: skip


Lang = Literal["en", "zh"]
Basis = Literal["chosen", "notes", "names", "default"]

# Notes decide when they hold at least this much text: ten Chinese characters
# or ten English words (a one-line "README: g" says nothing about a language).
_NOTES_ENOUGH_CJK = 10
_NOTES_ENOUGH_WORDS = 10.0
# Names decide with less: a Chinese column name is two or three characters.
_NAMES_ENOUGH_CJK = 2


@dataclass(frozen=True)
class Detected:
    lang: Lang
    basis: Basis


def _weights(texts: Iterable[str]) -> tuple[int, float]:
    """(Chinese characters, English words) in the texts (~5 letters a word)."""
    cjk = 0
    latin = 0.0
    for text in texts:
        cjk += len(_CJK.findall(text))
        latin += len(_LATIN.findall(text)) / 5
    return cjk, latin


def _mostly_chinese(cjk: int, words: float) -> bool:
    # A Chinese character carries about a word: Chinese wins at a third of the
    # letters, so Chinese notes quoting English units and symbols stay Chinese.
    return cjk >= words / 2


def detect_language(
    documents: list[DocumentText], names: Iterable[str] = (), chosen: str | None = None
) -> Detected:
    """The report language: `chosen` when it is "en"/"zh"; else from the notes
    when they hold enough text; else from the file, sheet and column names;
    else English. PDFs count among the notes, but notes-like files are what a
    student writes, so a Chinese README alone is enough."""
    if chosen in ("en", "zh"):
        return Detected(chosen, "chosen")  # type: ignore[arg-type]
    cjk, words = _weights(doc.text for doc in ordered_notes(documents))
    if cjk >= _NOTES_ENOUGH_CJK or words >= _NOTES_ENOUGH_WORDS:
        return Detected("zh" if _mostly_chinese(cjk, words) else "en", "notes")
    cjk, words = _weights(names)
    if cjk >= _NAMES_ENOUGH_CJK:
        return Detected("zh" if _mostly_chinese(cjk, words) else "en", "names")
    if words >= 1:
        return Detected("en", "names")
    return Detected("en", "default")


def names_of(files: Iterable[str], read: ReadResult | None) -> list[str]:
    """The names a language can be read from: file names (without folders'
    extensions), dataset names and column names."""
    out = [name.rsplit("/", 1)[-1].rsplit(".", 1)[0] for name in files]
    if read is not None:
        for dataset in read.datasets:
            out.append(dataset.name)
            out.extend(column.name for column in dataset.columns)
    return out


def detect_lang(documents: list[DocumentText]) -> str:
    """'zh' or 'en' from the notes alone (English when they say too little)."""
    return detect_language(documents).lang


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


# Reading for the drop screen's guess: the notes in full, the tables' names
# from files small enough to read at once; bigger files count by their names.
_GUESS_MAX_FILE_BYTES = 2_000_000
_GUESS_MAX_FILES = 60


def detect_folder_language(folder: Path, inventory: Inventory) -> Detected:
    """What `detect_language` will decide for a run on this folder, read
    cheaply enough to show when the folder is dropped (before any run)."""
    from labwright.ingest.read import read_file

    documents: list[DocumentText] = []
    partial = ReadResult()
    files = [f for f in inventory.files if not f.symlink_outside]
    for entry in files[:_GUESS_MAX_FILES]:
        if entry.bucket not in ("documents", "data") or entry.size > _GUESS_MAX_FILE_BYTES:
            continue
        if entry.path.lower().endswith(".pdf"):
            continue  # a PDF's text is slow to extract and rarely the notes
        for item in read_file(folder / entry.path, entry.path):
            if isinstance(item, DocumentText):
                documents.append(item)
            elif isinstance(item, Dataset):
                partial.datasets.append(item)
    return detect_language(documents, names_of((f.path for f in files), partial))
