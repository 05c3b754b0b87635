"""Tables written as text: CSV, TSV, semicolon files with decimal commas,
whitespace-aligned columns in .txt/.dat exports.

The delimiter is sniffed from the content lines, preferring the one that splits
the most lines into the same number of fields. pandas does the bulk parsing
once the shape is known, because a Python loop over a 200,000-line logger file
is an order of magnitude slower.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass

import pandas as pd

from .tabular import (
    MAX_ROWS,
    column_names,
    frame_to_columns,
    is_data_row,
    locate_header,
    preamble_metadata,
)
from .types import Dataset, Provenance

_COMMENT_PREFIXES = ("#", "%", "//", "!")
# Order breaks ties: a file like "1,5;2,3" splits evenly on both ',' and ';',
# and there the semicolon is the delimiter (decimal commas).
_DELIMITERS: tuple[str | None, ...] = ("\t", ";", ",", "|", None)  # None = runs of whitespace
_SNIFF_LINES = 200
_ONE_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+(?:[eE][+-]?\d+)?$")


@dataclass(frozen=True)
class Dialect:
    delimiter: str | None
    decimal_comma: bool


def _split(line: str, delimiter: str | None) -> list[str]:
    """Cells of one line; quoted cells may contain the delimiter ("Smith, J")."""
    if delimiter is None:
        return line.split()
    if '"' not in line:
        return [c.strip() for c in line.split(delimiter)]
    try:
        return [
            c.strip() for c in next(csv.reader([line], delimiter=delimiter, skipinitialspace=True))
        ]
    except (csv.Error, StopIteration):
        return [c.strip() for c in line.split(delimiter)]


# Lines end the way pandas' C parser ends them (\n, \r\n or \r), so the
# indexes found while sniffing match the rows pandas reads.
_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|$)")
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|%|//|!)", re.MULTILINE)


def _content_line_spans(text: str, limit: int) -> list[tuple[int, str]]:
    """(offset, line) of the first `limit` non-blank, non-comment lines."""
    out: list[tuple[int, str]] = []
    for match in _LINE.finditer(text):
        if match.start() == len(text):
            break
        line = match.group(1)
        stripped = line.strip()
        if not stripped or stripped.startswith(_COMMENT_PREFIXES):
            continue
        out.append((match.start(), line))
        if len(out) >= limit:
            break
    return out


def _content_lines(text: str, limit: int) -> list[str]:
    """Non-blank, non-comment lines, at most `limit` of them."""
    return [line for _offset, line in _content_line_spans(text, limit)]


def sniff(lines: list[str]) -> Dialect:
    """Pick the delimiter that splits the lines most consistently into 2+ fields."""
    best_score, delim = 0.0, None
    for candidate in _DELIMITERS:
        counts = [len(_split(line, candidate)) for line in lines]
        if not counts:
            continue
        mode, hits = Counter(counts).most_common(1)[0]
        score = hits / len(counts)
        if mode >= 2 and score > best_score + 1e-9:  # strict: earlier delimiters win ties
            best_score, delim = score, candidate
    if best_score < 0.6:
        delim = None
    if (
        delim == ","
        and "," not in lines[0]
        and all(_ONE_DECIMAL_COMMA.match(x.strip()) for x in lines[1:])
    ):
        # "Spannung (V)" over "1,25": one column of decimal-comma numbers, not two columns.
        return Dialect(None, True)
    sample = [c for line in lines[:50] for c in _split(line, delim)]
    decimal_comma = delim != "," and any(re.match(r"^[+-]?\d+,\d+$", c) for c in sample)
    return Dialect(delim, decimal_comma)


def looks_like_table(text: str) -> bool:
    """A .txt is a table when, after at most a short preamble and a header, its
    lines are rows of numbers.

    Prose lines ("Length: 1.00 m") have a number or two among words and fail the
    half-values rule in `is_data_row`, so notes with a few numbers stay prose.
    """
    lines = _content_lines(text, _SNIFF_LINES)
    dialect = sniff(lines)
    rows = [_split(line, dialect.delimiter) for line in lines]
    info = locate_header(rows, dialect.decimal_comma)
    if info is None:
        return False
    rest = rows[info.data_start :]
    data = sum(1 for r in rest if is_data_row(r, dialect.decimal_comma))
    return data >= 2 and data >= 0.8 * len(rest) and info.data_start <= max(12, data)


def read_text_table(
    text: str, *, name: str, provenance: Provenance, max_rows: int = MAX_ROWS
) -> tuple[Dataset | None, str | None]:
    """Parse a text table into a Dataset, or return (None, the `read.*` key of why not)."""
    spans = _content_line_spans(text, _SNIFF_LINES)
    head = [line for _offset, line in spans]
    if not head:
        return None, "read.no_rows"
    dialect = sniff(head)
    info = locate_header([_split(line, dialect.delimiter) for line in head], dialect.decimal_comma)
    if info is None:
        return None, "read.no_number_rows"

    body_start = spans[info.data_start][0]
    rest = text[body_start:]
    if _COMMENT_LINE.search(rest):
        # Comment lines among the data (rare): filter them out line by line.
        rest = "\n".join(_content_lines(rest, max_rows + 1))
    width = Counter(len(_split(line, dialect.delimiter)) for line in head[info.data_start :])
    n_fields = width.most_common(1)[0][0]
    options: dict[str, object] = {
        "header": None,
        "names": list(range(n_fields)),
        "nrows": max_rows + 1,
        "on_bad_lines": "skip",
        "skipinitialspace": True,
        "sep": r"\s+" if dialect.delimiter is None else dialect.delimiter,
    }
    if dialect.decimal_comma:
        options["decimal"] = ","
    try:
        frame = pd.read_csv(io.StringIO(rest), **options)  # type: ignore[call-overload]
    except pd.errors.ParserError:
        return None, "read.open_quote"
    if frame.empty:
        return None, "read.no_data_rows"
    notes: list[str] = []
    if len(frame) > max_rows:
        frame = frame.iloc[:max_rows]
        notes.append(f"Only the first {max_rows:,} rows were read.")

    header = info.header
    if header is not None and dialect.delimiter is None and len(header) != n_fields:
        # Whitespace tables with spaces inside names ("t (s)   U (V)"): split the
        # header on tabs or runs of two or more spaces instead.
        raw = head[info.data_start - (2 if info.units else 1)]
        wide = [c for c in re.split(r"\t|\s{2,}", raw.strip()) if c]
        if len(wide) == n_fields:
            header = wide
    names, units = column_names(n_fields, header, info.units)
    columns = frame_to_columns(frame, names, units, provenance, dialect.decimal_comma, notes)
    if not any(c.is_numeric for c in columns):
        return None, "read.no_numeric_columns"
    dataset = Dataset(
        name=name,
        source=provenance.file,
        kind="table",
        columns=columns,
        provenance=provenance,
        notes=notes,
    )
    comments = [
        line.strip().lstrip("#%/!").strip()
        for line in text[:20_000].splitlines()[:50]
        if line.strip().startswith(_COMMENT_PREFIXES)
    ]
    dataset.metadata.update(preamble_metadata(info.preamble + comments))
    return dataset, None
