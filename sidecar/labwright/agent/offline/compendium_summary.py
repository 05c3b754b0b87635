"""The compendium's block for the report's data section: every table's rows
and the summary of each column the report prints (count, mean, spread,
extremes), taken from the ledger entries that name a file.

The data section is written by `text.py`/`tables.py`, not by a kind
writer, so it has no `script` hook; its numbers are few and uniform (one
statistic of one column), which is why one block, driven by what the ledger
recorded, recomputes all of them. Each `report()` names its source
("file [part]: column") so a mean is compared with that column's mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labwright.agent.offline.writers.script import KindScript

#: The statistics the data section prints, as the block computes them.
COLUMN_STATISTICS: dict[str, str] = {
    "number of finite values": "values.size",
    "mean": "values.mean()",
    "sample standard deviation (ddof=1)": "values.std(ddof=1)",
    "minimum": "values.min()",
    "maximum": "values.max()",
    "number of distinct values": "np.unique(values).size",
}
_TABLE = {"number of rows": "len(df)"}
_FIGURE_LINES = "lines in the figure"
_MATRIX = {"matrix rows": "m.shape[0]", "matrix columns": "m.shape[1] if m.ndim > 1 else 1"}

_HELPER = '''STATISTICS = {
    "number of finite values": lambda v: v.size,
    "mean": np.mean,
    "sample standard deviation (ddof=1)": lambda v: np.std(v, ddof=1),
    "minimum": np.min,
    "maximum": np.max,
    "number of distinct values": lambda v: np.unique(v).size,
}


def finite(values: object) -> np.ndarray:
    """The finite numbers of a column or an array, flattened."""
    v = np.asarray(values, dtype=float).ravel()
    return v[np.isfinite(v)]'''


#: (file, sheet, variable, column) of a ledger entry -> (file, part, column name)
#: of the table the compendium's table()/matrix() reads; column None for a table.
Locator = Mapping[
    tuple[str, str | None, str | None, str | None], tuple[str, str | None, str | None]
]


def _where(e: Mapping[str, Any]) -> str:
    key = str(e.get("file") or "")
    part = e.get("sheet") or e.get("variable")
    return key + (f" [{part}]" if part else "") + (f": {e['column']}" if e.get("column") else "")


def summary_script(
    record: Mapping[str, Any],
    locate: Locator,
    matrices: set[tuple[str, str | None]],
    read: Any = None,
) -> KindScript:
    """The block recomputing the data section's numbers of `record`; an
    entry `locate` cannot place stays unrecomputed (the script lists it)."""
    # (file, part) -> (column, source) -> the statistics the report prints of it
    tables: dict[tuple[str, str | None], dict[tuple[str, str], list[str]]] = {}
    counted: dict[tuple[str, str | None], str] = {}
    figures: dict[tuple[str, str | None], str] = {}
    for e in record.get("numbers", []):
        what = e.get("computation")
        if not e.get("file") or e.get("file") == ".":
            continue
        if (
            what not in COLUMN_STATISTICS
            and what not in _MATRIX
            and what not in _TABLE
            and what != _FIGURE_LINES
        ):
            continue
        found = locate.get((e["file"], e.get("sheet"), e.get("variable"), e.get("column")))
        if found is None:
            continue
        file, part, column = found
        columns = tables.setdefault((file, part), {})
        if what == _FIGURE_LINES:
            # A saved figure the data section only counts the lines of (a
            # fit kind analyses its data): read here for that count alone.
            figures.setdefault((file, part), _where(e))
        elif column is not None and what in COLUMN_STATISTICS:
            wanted = columns.setdefault((column, _where(e)), [])
            if what not in wanted:
                wanted.append(what)
        elif column is None:
            counted.setdefault((file, part), _where(e))
    lines = _folder_lines(record, read)
    if not tables and not lines:
        return KindScript()
    for (file, part), columns in tables.items():
        args = repr(file) + (f", {part!r}" if part else "")
        where = counted.get((file, part), "")
        if (file, part) in matrices:
            lines += [
                f"m = matrix({args})",
                *(f"report({w!r}, {expr}, {where!r})" for w, expr in _MATRIX.items()),
                "values = finite(m)",
                "for what, statistic in STATISTICS.items():",
                f"    report(what, statistic(values), {where!r})",
                "",
            ]
            continue
        lines.append(f"df = table({args})")
        if (file, part) in counted:
            lines.append(f"report('number of rows', len(df), {where!r})")
        figure_lines = _figure_lines(record, read, file, part, figures.get((file, part), where))
        lines += figure_lines
        if columns:
            order = list(COLUMN_STATISTICS)
            printed = [(c, w, sorted(s, key=order.index)) for (c, w), s in columns.items()]
            lines += [
                f"for name, source, printed in {printed!r}:",
                "    values = finite(df[name])",
                "    for what in printed:",
                "        report(what, STATISTICS[what](values), source)",
            ]
        lines.append("")
    return KindScript(("import numpy as np",), "\n".join(lines).strip() + "\n", {"finite": _HELPER})


def _read_items(read: Any) -> list[str]:
    """What the report read, one item each: a table (a workbook's sheet, a
    MATLAB file's variable), an image, a document."""
    items = []
    for ds in read.datasets:
        prov = ds.provenance
        part = (prov.sheet or prov.variable) if prov is not None else None
        items.append(ds.source + (f" [{part}]" if part else ""))
    items += [img.source for img in read.images]
    items += [doc.source for doc in read.documents]
    return items


def _folder_lines(record: Mapping[str, Any], read: Any) -> list[str]:
    """The Method section's count of what the report read: the items named
    (a workbook counts once a sheet), each one's file in data/."""
    if read is None:
        return []
    said = {e.get("computation") for e in record.get("numbers", []) if e.get("file") == "."}
    if "files read" not in said:
        return []
    items = _read_items(read)
    return [
        "# What the report read, one item a table (a sheet, a MATLAB variable), an image",
        "# or a document; their files are in data/ (README.txt there names any left out).",
        f"READ = {items!r}",
        'report("files read", len(READ), ".")',
        "",
    ]


def _figure_lines(
    record: Mapping[str, Any], read: Any, file: str, part: str | None, where: str
) -> list[str]:
    """A saved MATLAB figure's line count, from its table of x/y columns."""
    said = {(e.get("computation"), e.get("file")) for e in record.get("numbers", [])}
    if (_FIGURE_LINES, file) not in said or read is None:
        return []
    for ds in read.datasets:
        if (
            ds.source == file
            and ds.kind == "figure"
            and all(y.endswith(".y") for _x, y in ds.pairs)
        ):
            return [
                "# A saved figure's lines are its columns' x/y pairs (line1.x, line1.y, ...).",
                f"report('lines in the figure', sum(c.endswith('.y') for c in df.columns), {where!r})",
            ]
    return []
