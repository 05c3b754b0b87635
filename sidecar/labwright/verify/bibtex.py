"""BibTeX read and written with bibtexparser v2, keeping a user's file as it was.

Parsing is bibtexparser's (its splitter is fault tolerant: a broken block is
reported, the rest still parses). Writing never re-emits a whole library:
`replace_entries` puts a freshly written entry in the place of the one it
replaces and leaves every other byte of the file as the user wrote it, so a
correction shows as a diff of that entry alone.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, Field, ParsingFailedBlock

#: Entry types bibtexparser returns as blocks that are not references.
_NOT_REFERENCES = frozenset({"comment", "string", "preamble"})
_FORMAT = bibtexparser.BibtexFormat()
_FORMAT.indent = "  "
_FORMAT.trailing_comma = False
# Its splitter logs each unreadable block; `BibFile.problems` says it once, plainly.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


@dataclass(frozen=True, slots=True)
class Person:
    """One name of an author list: family name and given names, as written."""

    family: str
    given: str = ""


@dataclass(frozen=True)
class BibEntry:
    """One reference of a .bib file: its key, type, field values and its text as written."""

    key: str
    entry_type: str
    fields: Mapping[str, str]
    raw: str
    #: Character offsets of `raw` in the text it was parsed from.
    start: int = 0
    end: int = 0

    def get(self, name: str) -> str:
        return self.fields.get(name.lower(), "").strip()

    @property
    def authors(self) -> list[Person]:
        return parse_names(self.get("author") or self.get("editor"))


@dataclass
class BibFile:
    """A parsed .bib text: its entries in order and the blocks that did not parse."""

    text: str
    entries: list[BibEntry] = field(default_factory=list)
    #: One line per block bibtexparser could not read (where it starts and why).
    problems: list[str] = field(default_factory=list)

    def by_key(self) -> dict[str, BibEntry]:
        return {e.key: e for e in self.entries}

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.entries]


def parse_bib(text: str) -> BibFile:
    """Entries with their field values (braces and string macros resolved by bibtexparser)."""
    library = bibtexparser.parse_string(text)
    parsed = BibFile(text)
    position = 0
    for block in library.blocks:
        raw = block.raw or ""
        raw_block = block
        found = text.find(raw, position) if raw else -1
        start, end = (found, found + len(raw)) if found >= 0 else (position, position)
        position = max(position, end)
        if isinstance(block, ParsingFailedBlock) and not isinstance(block, DuplicateBlockKeyBlock):
            # A repeated field: BibTeX keeps reading the entry, so do we.
            block = block.ignore_error_block or block
        if isinstance(block, Entry) and block.entry_type.lower() not in _NOT_REFERENCES:
            unparsed = block is not raw_block  # the parse stack did not reach it
            values = {f.key.lower(): _text(f.value, unenclose=unparsed) for f in block.fields}
            parsed.entries.append(
                BibEntry(block.key, block.entry_type.lower(), values, raw, start, end)
            )
    for failed in library.failed_blocks:
        error = str(getattr(failed, "error", "") or "").strip().split("\n")[0]
        where = f"line {failed.start_line}" if failed.start_line is not None else "a block"
        parsed.problems.append(f"{where}: {error or 'the block is not complete BibTeX'}")
    return parsed


def entry_keys(text: str) -> set[str]:
    """The keys of a .bib text's references (@comment, @string, @preamble are not references)."""
    library = bibtexparser.parse_string(text)
    keys = {e.key for e in library.entries if e.entry_type.lower() not in _NOT_REFERENCES}
    # A repeated key is a failed block for bibtexparser, but BibTeX still knows the key.
    for failed in library.failed_blocks:
        inner = getattr(failed, "ignore_error_block", None)
        if isinstance(inner, Entry):
            keys.add(inner.key)
    return keys


def _text(value: object, *, unenclose: bool = False) -> str:
    text = value if isinstance(value, str) else str(value)
    if unenclose and len(text) >= 2 and (text[0], text[-1]) in (("{", "}"), ('"', '"')):
        return text[1:-1]
    return text


def parse_names(names: str) -> list[Person]:
    """An author field split into people ("and" outside braces; "Last, First" or "First Last")."""
    people = []
    for name in split_multiple_persons_names(names) if names.strip() else []:
        if name.strip().lower() == "others":
            continue
        parts = parse_single_name_into_parts(name, strict=False)
        family = " ".join([*parts.von, *parts.last]).strip()
        if family.startswith("{") and family.endswith("}") and family.count("{") == 1:
            family = family[1:-1]  # {Barnes and Noble}: one name, braced to stay whole
        given = " ".join(parts.first).strip()
        people.append(Person(family or given, given if family else ""))
    return people


def write_entry(key: str, entry_type: str, fields: Iterable[tuple[str, str]]) -> str:
    """One entry as BibTeX text (values braced), in bibtexparser's layout."""
    library = Library()
    library.add(Entry(entry_type, key, [Field(k, "{" + v + "}") for k, v in fields if v]))
    return bibtexparser.write_string(library, unparse_stack=[], bibtex_format=_FORMAT).strip()


def replace_entries(parsed: BibFile, replacements: Mapping[str, str]) -> str:
    """The file's text with the named entries replaced by new BibTeX text; nothing else moves."""
    out: list[str] = []
    position = 0
    for entry in parsed.entries:
        new = replacements.get(entry.key)
        if new is None or entry.end <= entry.start:
            continue
        out.append(parsed.text[position : entry.start])
        out.append(new.strip())
        position = entry.end
    out.append(parsed.text[position:])
    return "".join(out)


def without_entries(parsed: BibFile, keys: Iterable[str]) -> str:
    """The file's text with the named entries (and the blank line after each) removed."""
    drop = set(keys)
    out: list[str] = []
    position = 0
    for entry in parsed.entries:
        if entry.key not in drop or entry.end <= entry.start:
            continue
        out.append(parsed.text[position : entry.start])
        position = entry.end
        while parsed.text[position : position + 1] in ("\n", "\r"):
            position += 1
    out.append(parsed.text[position:])
    return "".join(out)


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff of a .bib file, the way chat edits are shown."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
    )
