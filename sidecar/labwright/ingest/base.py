"""What every reader shares: its context, its result items and its error."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labwright.messages import Message, Param, say

from .tabular import MAX_ROWS
from .types import Dataset, DocumentText, ImageInfo, Skipped

Item = Dataset | ImageInfo | DocumentText | Skipped

# Largest text file read into memory. Beyond it only the first part is read
# (and the dataset says so): a report cannot use more, and a 5 GB logger dump
# must not take the machine down.
MAX_TEXT_BYTES = 64_000_000
# Largest document text kept (notes, README, PDF pages): enough to quote an aim.
MAX_DOCUMENT_CHARS = 100_000


class ReadError(Exception):
    """A file that cannot be read: a `read.*` catalogue key and its parameters
    (labwright.messages.ingest); `sentence(file)` is the one sentence naming it."""

    def __init__(self, key: str, **params: Param) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def sentence(self, file: str) -> Message:
        return say(self.key, file=file, **self.params)


@dataclass(frozen=True)
class ReaderContext:
    rel: str  # path relative to the data folder, POSIX separators
    name: str  # dataset base name: the file stem, or the relative path when stems clash
    max_rows: int = MAX_ROWS

    def sub(self, part: str) -> str:
        """Name of a part of the file (sheet, variable): `stem:part`."""
        return f"{self.name}:{part}"


def read_prefix(path: Path, limit: int) -> tuple[bytes, bool]:
    """The first `limit` bytes of a file and whether there was more."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    return data[:limit], len(data) > limit
