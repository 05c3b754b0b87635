"""Readers for text files: delimited tables (.csv, .tsv, table-shaped .txt/.dat)
and documents (.txt notes, README.md, .tex, .bib)."""

from __future__ import annotations

from pathlib import Path

from . import base
from .base import MAX_DOCUMENT_CHARS, Item, ReaderContext, ReadError, read_prefix
from .delimited import looks_like_table, read_text_table
from .encoding import Decoded, decode_text
from .types import DocumentText, Provenance


def _decode(path: Path) -> tuple[Decoded, bool]:
    data, cut = read_prefix(path, base.MAX_TEXT_BYTES)
    if not data.strip():
        raise ReadError("read.empty")
    if cut:
        # Never parse half a line: drop everything after the last newline.
        data = data[: data.rfind(b"\n") + 1] or data
    decoded = decode_text(data)
    if decoded is None:
        raise ReadError("read.binary")
    return decoded, cut


def _table(path: Path, ctx: ReaderContext, decoded: Decoded, cut: bool) -> list[Item]:
    dataset, reason = read_text_table(
        decoded.text, name=ctx.name, provenance=Provenance(ctx.rel), max_rows=ctx.max_rows
    )
    if dataset is None:
        raise ReadError(reason or "read.no_table")
    if cut:
        dataset.notes.append(
            f"Only the first {base.MAX_TEXT_BYTES / 1e6:g} MB of the file were read."
        )
    if decoded.lossy:
        dataset.notes.append("Some characters could not be decoded and were replaced.")
    return [dataset]


def _document(ctx: ReaderContext, decoded: Decoded, cut: bool) -> list[Item]:
    text = decoded.text.replace("\r\n", "\n")
    truncated = cut or len(text) > MAX_DOCUMENT_CHARS
    return [DocumentText(source=ctx.rel, text=text[:MAX_DOCUMENT_CHARS], truncated=truncated)]


def read_delimited(path: Path, ctx: ReaderContext) -> list[Item]:
    """.csv and .tsv: always a table, or skipped."""
    decoded, cut = _decode(path)
    return _table(path, ctx, decoded, cut)


def read_plain_text(path: Path, ctx: ReaderContext) -> list[Item]:
    """.txt and .dat: a table when the lines are rows of numbers, else a document."""
    decoded, cut = _decode(path)
    if looks_like_table(decoded.text):
        return _table(path, ctx, decoded, cut)
    return _document(ctx, decoded, cut)


def read_document(path: Path, ctx: ReaderContext) -> list[Item]:
    """.md, .tex, .bib, .rst: text the writer may quote (aim, method, references)."""
    decoded, cut = _decode(path)
    return _document(ctx, decoded, cut)
