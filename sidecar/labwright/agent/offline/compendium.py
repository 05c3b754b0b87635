"""The compendium (issue 23): a script and a notebook that recompute the
report's traced numbers from the raw files, with the field's libraries only.

Every analysis kind's writer offers a block (`writers/script.py`) that
recomputes its numbers and states each through `report(computation, value)`
with the ledger's own computation text. This module puts the blocks in the
report's order, defines `table()` (how each table is read,
`compendium_data.py`), the numbers as the report prints them and the
comparison at the printed precision, and writes

    analysis.py        the script (exit status 1 on any difference)
    analysis.ipynb     the same cells as a notebook (nbformat v4, plain JSON)
    requirements.txt   the libraries, pinned to the versions Labwright runs
    data/              the raw files read (size-capped), README.txt says what was left out

Nothing of Labwright is imported, pickled or embedded. Before writing, the
blocks run here against the tables as read, which gives the line of the
script that computes each ledger entry (`Compendium.lines`, for the
appendix) and the entries no block recomputes (listed in the script with
the reason).
"""

from __future__ import annotations

import ast
import json
import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from labwright.agent.offline.compendium_data import (
    Shipped,
    TableReader,
    frame_of,
    plan_reader,
    ship_raw_files,
    write_extract,
)
from labwright.agent.offline.compendium_summary import summary_script
from labwright.agent.offline.kind_writers import scripts
from labwright.agent.offline.pyformat import format_code
from labwright.agent.offline.writers.script import KindScript
from labwright.analysis.jobs import Analysis
from labwright.ingest.types import Dataset, ReadResult

SCRIPT = "analysis.py"
NOTEBOOK = "analysis.ipynb"
REQUIREMENTS = "requirements.txt"
DATA_DIR = "data"
#: The field's libraries, pinned in requirements.txt (import name -> distribution).
LIBRARIES: dict[str, str] = {
    "numpy": "numpy",
    "pandas": "pandas",
    "scipy": "scipy",
    "statsmodels": "statsmodels",
    "lmfit": "lmfit",
    "matplotlib": "matplotlib",
}
_STDLIB = {"math", "sys", "re", "itertools", "collections", "json", "pathlib", "warnings"}


@dataclass(frozen=True)
class Printed:
    id: str
    computation: str
    printed: str  # the report's text, as Python reads a float ("2.5e-3", "nan")
    source: str = ""  # "file [part]: column", as the summary block names it


def source_key(file: str | None, part: str | None = None, column: str | None = None) -> str:
    key = (file or "") + (f" [{part}]" if part else "")
    return key + (f": {column}" if column else "")


@dataclass
class Compendium:
    script: str
    notebook: dict[str, Any]
    requirements: str
    readers: list[TableReader]
    #: ledger id -> line of analysis.py whose report() call states it
    lines: dict[str, int] = field(default_factory=dict)
    #: (id, printed, computation, why) of the entries no block recomputes
    not_recomputed: list[tuple[str, str, str, str]] = field(default_factory=list)


# --- the report's numbers ------------------------------------------------------

_SCI = re.compile(r"^(-?[0-9.]+)\\times10\^\{(-?[0-9]+)\}$")
_PLAIN = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")


def plain_number(printed: str) -> str | None:
    """The printed LaTeX number as Python reads it, keeping its digits; None
    for text that is not one number."""
    text = printed.replace("{,}", "").replace("\\,", "").strip()
    if text == "\\text{n/a}":
        return "nan"
    if _PLAIN.match(text):
        return text
    m = _SCI.match(text)
    return f"{m.group(1)}e{m.group(2)}" if m else None


def _significant(text: str, value: object) -> str:
    """An integer printed with trailing zeros from a value that was not that
    integer (a spread of 105 printed 110, its mean 301 printed 300) was
    rounded at its last non-zero digit: written 1.1e2, it says so."""
    digits = text.lstrip("-")
    if not digits.isdigit() or not digits.endswith("0") or digits == "0":
        return text
    try:
        if float(str(value)) == float(text):
            return text  # an exact count: every digit counts
    except ValueError:
        return text
    kept = digits.rstrip("0")
    zeros = len(digits) - len(kept)
    mantissa = kept[0] + (f".{kept[1:]}" if len(kept) > 1 else "")
    sign = "-" if text.startswith("-") else ""
    return f"{sign}{mantissa}e{zeros + len(kept) - 1}"


def _entries(record: Mapping[str, Any]) -> list[Printed]:
    out: list[Printed] = []
    for e in record.get("numbers", []):
        text = plain_number(str(e.get("printed", "")))
        if text is not None:
            text = _significant(text, e.get("value"))
            part = e.get("sheet") or e.get("variable")
            where = source_key(e.get("file"), part, e.get("column"))
            out.append(Printed(str(e["id"]), str(e.get("computation", "")), text, where))
    return out


def _close(a: float, b: str) -> float:
    v = float(b)
    if math.isnan(a) and math.isnan(v):
        return 0.0
    return abs(a - v) if math.isfinite(a) and math.isfinite(v) else math.inf


# --- running the blocks here -------------------------------------------------------


def dataset_named(read: ReadResult, file: str, part: str | None) -> Dataset:
    """The dataset of `file` (and of its sheet or variable `part`) in a read folder."""
    for ds in read.datasets:
        prov = ds.provenance
        own = (prov.sheet or prov.variable) if prov is not None else None
        if ds.source == file and (part is None or own == part):
            return ds
    raise KeyError((file, part))


def _locator(
    read: ReadResult,
) -> dict[tuple[str, str | None, str | None, str | None], tuple[str, str | None, str | None]]:
    """Where each provenance the reader gave points in the compendium's tables."""
    out: dict[
        tuple[str, str | None, str | None, str | None], tuple[str, str | None, str | None]
    ] = {}
    for ds in read.datasets:
        prov = ds.provenance
        part = (prov.sheet or prov.variable) if prov is not None else None
        if prov is not None:
            out.setdefault(
                (prov.file, prov.sheet, prov.variable, prov.column), (ds.source, part, None)
            )
        out.setdefault(
            (ds.source, None, ds.name if ds.matrix is not None else None, None),
            (ds.source, part, None),
        )
        for c in ds.columns:
            p = c.provenance
            out.setdefault((p.file, p.sheet, p.variable, p.column), (ds.source, part, c.name))
            out.setdefault((p.file, p.sheet, p.variable, None), (ds.source, part, None))
    return out


@dataclass
class _Run:
    said: list[tuple[str, float, str | None, int]] = field(default_factory=list)
    tables: dict[tuple[str, str | None], Dataset] = field(default_factory=dict)
    matrices: set[tuple[str, str | None]] = field(default_factory=set)


def _run_block(read: ReadResult, block: KindScript, first_line: int, run: _Run) -> None:
    """Run one block as the script will, its code numbered from `first_line`."""

    def table(file: str, part: str | None = None) -> Any:
        ds = dataset_named(read, file, part)
        run.tables[(file, part)] = ds
        return frame_of(ds)

    def matrix(file: str, part: str | None = None) -> Any:
        ds = dataset_named(read, file, part)
        run.tables[(file, part)] = ds
        run.matrices.add((file, part))
        return np.asarray(ds.matrix)

    def report(computation: str, value: float, source: str | None = None) -> None:
        run.said.append((computation, float(value), source, sys._getframe(1).f_lineno))

    env: dict[str, Any] = {"table": table, "matrix": matrix, "report": report}
    head = "\n\n".join([*block.imports, *block.helpers.values()])
    exec(compile(head, "<compendium>", "exec"), env)  # noqa: S102 - our own code
    tree = ast.parse(block.code)
    ast.increment_lineno(tree, first_line - 1)
    exec(compile(tree, "<compendium>", "exec"), env)  # noqa: S102


# --- writing --------------------------------------------------------------------


def _imports(blocks: list[KindScript]) -> list[str]:
    lines = {"import sys", "from pathlib import Path", "import numpy as np", "import pandas as pd"}
    for b in blocks:
        lines.update(i.strip() for i in b.imports)
    # One `from numpy import` line with every block's names (ruff I001 wants
    # them merged; each fit block imports the names its formula uses).
    bare = [i for i in lines if i.startswith("from numpy import ")]
    if bare:
        names = {n.strip() for i in bare for n in i.removeprefix("from numpy import ").split(",")}
        lines.difference_update(bare)
        lines.add(f"from numpy import {', '.join(sorted(names))}")

    def module(line: str) -> str:
        return line.split()[1].split(".")[0]

    std = sorted(i for i in lines if module(i) in _STDLIB)
    third = sorted(i for i in lines if module(i) not in _STDLIB)

    def order(group: list[str]) -> list[str]:
        # isort's order (ruff I001): straight imports first, then from-imports.
        plain = sorted((i for i in group if i.startswith("import ")), key=str.lower)
        return plain + sorted((i for i in group if i.startswith("from ")), key=str.lower)

    return [*order(std), "", *order(third)]


def _table_function(readers: list[TableReader]) -> str:
    frames = [r for r in readers if not r.matrix]
    mats = [r for r in readers if r.matrix]
    out: list[str] = []
    for name, kind, group in (
        ("table", "pd.DataFrame", frames),
        ("matrix", "np.ndarray", mats),
    ):
        if not group and name == "matrix":
            continue
        body = [
            f"def {name}(file: str, part: str | None = None) -> {kind}:",
            f'    """The {"table" if name == "table" else "array"} `file` (its sheet or '
            'variable `part`) as the report read it."""',
        ]
        for r in group:
            if r.note:
                body.append(f"    # {r.file}: {r.note}.")
            body.append(f"    if (file, part) == ({r.file!r}, {r.part!r}):")
            body.append(f"        return {r.expression}")
        body.append('    raise KeyError(f"{file} ({part}) is not a table of this report")')
        out.append("\n".join(body))
    return "\n\n\n".join(out)


_COMPARE = '''failures: list[str] = []


def printed_precision(printed: str) -> float:
    """Half a unit of the last digit the report prints."""
    mantissa, _, exponent = printed.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def report(computation: str, value: float, source: str | None = None) -> None:
    """Print a recomputed number beside the report's; note a difference.
    `source` ("file [part]: column") picks among numbers computed alike."""
    value = float(value)
    floor = PRINTED.get(f"reporting floor of {computation} (constant)")
    if computation not in PRINTED and floor:
        ok = value < float(floor[0][1])
        print(f"{'< ' + floor[0][1]:>14}  {value:<14.6g} {'ok' if ok else 'DIFFERS'}  {computation}")
        if not ok:
            failures.append(computation)
        return
    candidates = [p for p in PRINTED.get(computation, []) if source in (None, p[2])]
    if not candidates:
        print(f"{'':>14}  {value:<14.6g} (not printed)  {computation}")
        return
    number, printed, _ = min(candidates, key=lambda p: distance(value, p[1]))
    ok = distance(value, printed) <= printed_precision(printed) * (1 + 1e-9)
    print(f"{printed:>14}  {value:<14.6g} {'ok' if ok else 'DIFFERS'}  {computation} [{number}]")
    if not ok:
        failures.append(f"{computation} [{number}]: report {printed}, recomputed {value:.6g}")


def distance(value: float, printed: str) -> float:
    shown = float(printed)
    if np.isnan(value) and np.isnan(shown):
        return 0.0
    return abs(value - shown) if np.isfinite(value) and np.isfinite(shown) else np.inf
'''

_END_SCRIPT = """if failures:
    print(f"{len(failures)} numbers differ from the report:", *failures, sep="\\n  ")
    sys.exit(1)
print("Every recomputed number matches the report at its printed precision.")
"""

_END_NOTEBOOK = """assert not failures, f"{len(failures)} numbers differ from the report: {failures}"
print("Every recomputed number matches the report at its printed precision.")
"""


def requirements_text() -> str:
    """requirements.txt: the libraries pinned to the versions installed here (our lock's)."""
    lines = ["# The libraries the compendium needs, at the versions the report used."]
    for mod, dist in LIBRARIES.items():
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:  # a frozen bundle without metadata
            version = str(getattr(__import__(mod), "__version__", ""))
        lines.append(f"{dist}=={version}" if version else dist)
    return "\n".join(lines) + "\n"


def _heading(a: Analysis[Any, Any], n: int) -> str:
    return f"{n}. {a.kind.replace('_', ' ')} of {a.source}"


def _docstring(title: str) -> str:
    return f'''"""{title}: the report's numbers, recomputed from the raw data.

Each block below recomputes what one part of the report prints, in the
report's order, with numpy, pandas, scipy, statsmodels and lmfit only. The
raw files are in data/ beside this file. `python analysis.py` prints every
number beside the value the report prints, and exits with status 1 when one
differs by more than the precision the report prints it with.
"""'''


def _printed_table(entries: list[Printed], keep: set[str]) -> str:
    by: dict[str, list[tuple[str, str, str]]] = {}
    for e in entries:
        if e.id in keep or e.computation.startswith("reporting floor of "):
            by.setdefault(e.computation, []).append((e.id, e.printed, e.source))
    lines = [
        "# The numbers as the report prints them, by what was computed",
        "# (the report's provenance.json): [(entry id, printed, source)].",
        "PRINTED: dict[str, list[tuple[str, str, str]]] = {",
    ]
    for computation, pairs in by.items():
        inner = ", ".join(f"({i!r}, {p!r}, {w!r})" for i, p, w in pairs)
        lines.append(f"    {computation!r}: [{inner}],")
    lines.append("}")
    return "\n".join(lines)


def _not_recomputed(rows: list[tuple[str, str, str, str]]) -> str:
    if not rows:
        return "# Every number the report prints is recomputed above.\n"
    lines = ["# Numbers the report prints that this script does not recompute, and why:"]
    lines += [f"#   {p} ({i}): {c}; {why}" for i, p, c, why in rows]
    return "\n".join(lines) + "\n"


def build_compendium(
    read: ReadResult,
    analyses: list[Analysis[Any, Any]],
    record: Mapping[str, Any],
    folder: Path,
    *,
    title: str,
) -> Compendium:
    matrices = {
        (ds.source, (ds.provenance.sheet or ds.provenance.variable) if ds.provenance else None)
        for ds in read.datasets
        if ds.matrix is not None and not ds.columns
    }
    summary = summary_script(record, _locator(read), matrices)
    parts = [("the data: rows and column summaries", summary)] if summary.code else []
    parts += [
        (_heading(a, n), b)
        for n, (a, b) in enumerate(zip(analyses, scripts(analyses), strict=True), start=1)
    ]
    # Laid out as `ruff format` would (pyformat) before anything is counted:
    # the appendix names lines of this text.
    parts = [(h, replace(b, code=format_code(b.code))) for h, b in parts]
    blocks = [b for _h, b in parts]
    entries = _entries(record)
    helpers: dict[str, str] = {}
    for b in blocks:
        helpers.update(b.helpers)

    # A first run against the tables as read finds which tables the blocks
    # read; the readers decide table(), whose length moves the blocks' lines.
    probe = _Run()
    for b in blocks:
        _run_block(read, b, 1, probe)
    readers = [
        plan_reader(ds, folder, part) for (_file, part), ds in sorted(probe.tables.items(), key=str)
    ]
    readers = [
        TableReader(
            r.file, r.part, r.expression, r.note, r.extract, r.matrix or k in probe.matrices
        )
        for r, k in zip(readers, sorted(probe.tables, key=str), strict=True)
    ]

    head = [
        _docstring(title),
        "\n".join(_imports(blocks)),
        'DATA = Path(__file__).resolve().parent / "data"',
    ]
    said_ids: set[str] = set()
    # Two passes: the PRINTED table's length depends on which ids are said.
    for _ in range(2):
        setup = [
            format_code(s).strip("\n")
            for s in (
                _printed_table(entries, said_ids),
                _COMPARE,
                _table_function(readers),
                *helpers.values(),
            )
        ]
        text = head[0] + "\n\n" + head[1] + "\n\n" + head[2] + "\n"
        text += "".join("\n\n" + s + "\n" for s in setup)
        body: list[str] = []
        run = _Run()
        for heading, b in parts:
            text += f"\n\n# --- {heading} " + "-" * max(3, 72 - len(heading)) + "\n"
            first = text.count("\n") + 1
            _run_block(read, b, first, run)
            code = b.code.strip("\n") + "\n"
            body.append(code)
            text += code
        lines: dict[str, int] = {}
        for computation, value, source, line in run.said:
            candidates = [
                e for e in entries if e.computation == computation and source in (None, e.source)
            ]
            if candidates:
                best = min(candidates, key=lambda e: _close(value, e.printed))
                lines.setdefault(best.id, line)
        if set(lines) == said_ids:
            break
        said_ids = set(lines)
    missing = [
        (e.id, e.printed, e.computation, _why(e, record))
        for e in entries
        if e.id not in lines and not e.computation.startswith("reporting floor of ")
    ]
    script = text + "\n\n" + _not_recomputed(missing) + _END_SCRIPT
    notebook = _notebook(title, head, setup, [h for h, _b in parts], body)
    return Compendium(script, notebook, requirements_text(), readers, lines, missing)


def _why(e: Printed, record: Mapping[str, Any]) -> str:
    for n in record.get("numbers", []):
        if n.get("id") == e.id:
            if not n.get("file") or n.get("file") == ".":
                return "a count or a setting of the analysis, not computed from a table"
    return "no block of this compendium recomputes it yet"


def _cell(kind: str, source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": source.strip("\n")}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook_imports(imports: str, cells: list[str]) -> str:
    """The script's imports less `sys`, which only its exit status uses (the
    notebook ends with an assert): ruff's F401 in the notebook otherwise."""
    if any("sys." in c for c in cells):
        return imports
    return "\n".join(line for line in imports.split("\n") if line != "import sys")


def _notebook(
    title: str,
    head: list[str],
    setup: list[str],
    headings: list[str],
    body: list[str],
) -> dict[str, Any]:
    cells = [
        _cell("markdown", f"# {title}\n\n" + head[0].strip('"\n').split("\n", 1)[1].strip()),
        _cell(
            "code",
            _notebook_imports(head[1], [*setup, *body]) + '\n\nDATA = Path("data").resolve()',
        ),
        *(_cell("code", s) for s in setup),
    ]
    for heading, code in zip(headings, body, strict=True):
        cells += [_cell("markdown", f"## {heading[0].upper()}{heading[1:]}"), _cell("code", code)]
    cells.append(_cell("code", _END_NOTEBOOK))
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
        "cells": [dict(c, id=f"cell-{i}") for i, c in enumerate(cells)],
    }


def write_compendium(comp: Compendium, read: ReadResult, folder: Path, out_dir: Path) -> Shipped:
    """Write the compendium's files into `out_dir` (created)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    data = out_dir / DATA_DIR
    data.mkdir(exist_ok=True)
    (out_dir / SCRIPT).write_text(comp.script, encoding="utf-8")
    (out_dir / NOTEBOOK).write_text(
        json.dumps(comp.notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    (out_dir / REQUIREMENTS).write_text(comp.requirements, encoding="utf-8")
    for r in comp.readers:
        write_extract(r, dataset_named(read, r.file, r.part), data)
    shipped = ship_raw_files([r.file for r in comp.readers], folder, data)
    note = ["The raw files the report's analysis read, as they were in the data folder."]
    extracts = [r for r in comp.readers if r.extract]
    if extracts:
        note.append(
            f"{len(extracts)} tables are also given as the report read them, in {DATA_DIR}/"
            "as-read/ (the script reads those; see the comment in its table())."
        )
    if shipped.left_out:
        note.append("Left out:")
        note += [f"  {f}: {why}" for f, why in shipped.left_out]
    else:
        note.append("Nothing was left out.")
    (data / "README.txt").write_text("\n".join(note) + "\n", encoding="utf-8")
    return shipped


def export_compendium(
    folder: Path, out_dir: Path, *, lang: str = "en", record: Mapping[str, Any] | None = None
) -> tuple[Compendium, Shipped]:
    """Read and analyse `folder` as a build does and write its compendium.

    `record`: the report's provenance record (provenance.json) whose printed
    numbers the script compares with; without one, the ledger of a fresh
    offline write of the same folder (the numbers a build prints)."""
    from labwright.ingest.read import read_folder

    folder = Path(folder)
    read = read_folder(folder)
    fa = _analyse(read)
    if record is None:
        record = _fresh_record(read, fa, folder.name, lang)
    comp = build_compendium(read, fa.analyses, record, folder, title=folder.name)
    return comp, write_compendium(comp, read, folder, Path(out_dir))


def _analyse(read: ReadResult) -> Any:
    """The analysis a build makes (agent/offline/report.py `plan_report`): with
    the request the rules read from the notes. Without it (until 2026-12-03)
    the compendium analysed another report than the one built: pendulum's
    ledger had 54 numbers instead of the build's 47, rc-discharge's 67
    instead of 114, so the script was checked against numbers no PDF printed."""
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.plan import analyse_folder
    from labwright.analysis.request_rules import read_request

    return analyse_folder(read, read_request(read, catalogue()))


def _fresh_record(read: ReadResult, fa: Any, name: str, lang: str) -> dict[str, Any]:
    from labwright.agent.offline.figures import plan_figures
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.text import ReportInput, assemble

    ledger = Ledger()
    plans = plan_figures(read.datasets, read.images, analysis=fa)
    assemble(ReportInput(lang, name, read, plans, analysis=fa), ledger)
    return ledger.to_dict()


def report_record(folder: Path, *, lang: str = "en") -> dict[str, Any]:
    """The provenance record an offline build of `folder` writes (its ledger)."""
    from labwright.ingest.read import read_folder

    read = read_folder(Path(folder))
    return _fresh_record(read, _analyse(read), Path(folder).name, lang)
