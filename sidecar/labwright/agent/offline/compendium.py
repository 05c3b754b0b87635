"""The compendium (issue 23): a script and a notebook that recompute the
report's traced numbers and redraw its figures from the raw files, with the
field's libraries only.

Every analysis kind's writer offers a block (`writers/script.py`) that
recomputes its numbers and states each through `report(computation, value)`
with the ledger's own computation text, leaves its answers in variables the
results table's and the discussion's numbers are stated from
(`compendium_answers.py`), and draws its figures through `figure(key,
...)` (its `drawing` hook, `compendium_figures.py`). This module puts the
parts in the report's order (the data section, the values the notes give,
each analysis, the figures of the data as they are) around the fixed text
(`compendium_text.py`) and writes

    analysis.py          the script (exit status 1 on any difference)
    analysis.ipynb       the same cells as a notebook (nbformat v4, plain JSON)
    requirements.txt     the libraries, pinned to the versions Labwright runs
    report-figures.json  what the report's figures plot (the record's "figures")
    data/                the raw files read (size-capped), README.txt says what was left out

Nothing of Labwright is imported, pickled or embedded. Before writing, the
parts run here against the tables as read (`compendium_run.py`), which
gives the line of the script that computes each ledger entry
(`Compendium.lines`, for the appendix), the entries no block recomputes
(listed in the script with the reason) and whether each figure's arrays
are the report's (`Compendium.figures`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from labwright.agent.offline import compendium_text as text
from labwright.agent.offline.compendium_answers import answers_code, request_code
from labwright.agent.offline.compendium_data import (
    Shipped,
    TableReader,
    plan_reader,
    ship_raw_files,
    write_extract,
)
from labwright.agent.offline.compendium_figures import (
    FIGURE_FILE,
    helper,
    loose_figures,
    uses_cjk,
)
from labwright.agent.offline.compendium_run import Run, dataset_named, locator, run_block
from labwright.agent.offline.compendium_summary import summary_script
from labwright.agent.offline.compendium_text import Printed
from labwright.agent.offline.figure_record import FIGURES_KEY, figure_record
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.kind_writers import writer_of
from labwright.agent.offline.pyformat import format_code
from labwright.agent.offline.writers.script import KindScript
from labwright.analysis.jobs import Analysis
from labwright.ingest.types import ReadResult

__all__ = [
    "DATA_DIR", "LIBRARIES", "NOTEBOOK", "REQUIREMENTS", "SCRIPT", "Compendium", "Printed",
    "build_compendium", "dataset_named", "export_compendium", "plain_number", "report_record",
    "requirements_text", "source_key", "write_compendium",
]  # fmt: skip

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
    #: figure key -> what its redrawn data differ in ([]: nothing), for the
    #: figures the script redraws
    figures: dict[str, list[str]] = field(default_factory=dict)
    #: figure keys of the report the script does not redraw
    not_redrawn: list[str] = field(default_factory=list)
    #: what the report's figures plot (written as report-figures.json)
    figure_data: dict[str, Any] = field(default_factory=dict)
    #: every file the report read (tables, images, notes), shipped in data/
    files: list[str] = field(default_factory=list)


# --- the report's numbers ------------------------------------------------------

_SCI = re.compile(r"^(-?[0-9.]+)\\times10\^\{(-?[0-9]+)\}$")
_PLAIN = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")


def plain_number(printed: str) -> str | None:
    """The printed LaTeX number as Python reads it, keeping its digits; None
    for text that is not one number."""
    t = printed.replace("{,}", "").replace("\\,", "").strip()
    if t == "\\text{n/a}":
        return "nan"
    if _PLAIN.match(t):
        return t
    m = _SCI.match(t)
    return f"{m.group(1)}e{m.group(2)}" if m else None


def _significant(t: str, value: object) -> str:
    """An integer printed with trailing zeros from a value that was not that
    integer (a spread of 105 printed 110, its mean 301 printed 300) was
    rounded at its last non-zero digit: written 1.1e2, it says so."""
    digits = t.lstrip("-")
    if not digits.isdigit() or not digits.endswith("0") or digits == "0":
        return t
    try:
        if float(str(value)) == float(t):
            return t  # an exact count: every digit counts
    except ValueError:
        return t
    kept = digits.rstrip("0")
    zeros = len(digits) - len(kept)
    mantissa = kept[0] + (f".{kept[1:]}" if len(kept) > 1 else "")
    sign = "-" if t.startswith("-") else ""
    return f"{sign}{mantissa}e{zeros + len(kept) - 1}"


def _entries(record: Mapping[str, Any]) -> list[Printed]:
    out: list[Printed] = []
    for e in record.get("numbers", []):
        t = plain_number(str(e.get("printed", "")))
        if t is not None:
            t = _significant(t, e.get("value"))
            part = e.get("sheet") or e.get("variable")
            where = source_key(e.get("file"), part, e.get("column"))
            out.append(Printed(str(e["id"]), str(e.get("computation", "")), t, where))
    return out


def _close(a: float, b: str) -> float:
    v = float(b)
    if math.isnan(a) and math.isnan(v):
        return 0.0
    return abs(a - v) if math.isfinite(a) and math.isfinite(v) else math.inf


# --- the parts -------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    heading: str  # a comment in the script, a markdown cell in the notebook
    block: KindScript


def _heading(a: Analysis[Any, Any], n: int) -> str:
    return f"{n}. {a.kind.replace('_', ' ')} of {a.source}"


def _merge(*blocks: KindScript) -> KindScript:
    """Blocks run one after the other as one part of the script."""
    helpers: dict[str, str] = {}
    for b in blocks:
        helpers.update(b.helpers)
    code = "\n".join(b.code.strip("\n") for b in blocks if b.code.strip()) + "\n"
    return KindScript(tuple(i for b in blocks for i in b.imports), code, helpers)


def _drawn_by(plan: FigurePlan, a: Analysis[Any, Any]) -> bool:
    """The figure is drawn from this analysis' variables: its own figures,
    and the x-y path's figure of the table the x-y analysis fitted."""
    if plan.analysis is a:
        return True
    return a.kind == "xy" and plan.analysis is None and plan.dataset is a.dataset


def _parts(
    read: ReadResult,
    fa: Any,
    record: Mapping[str, Any],
    entries: list[Printed],
    plans: list[FigurePlan],
) -> list[_Part]:
    printed = {(e.computation, e.source) for e in entries}
    matrices = {
        (ds.source, (ds.provenance.sheet or ds.provenance.variable) if ds.provenance else None)
        for ds in read.datasets
        if ds.matrix is not None and not ds.columns
    }
    parts: list[_Part] = []
    summary = summary_script(record, locator(read), matrices, read)
    if summary.code:
        parts.append(_Part("the data: files, rows and column summaries", summary))
    given = request_code(fa.request, printed)
    if given:
        parts.append(_Part("the values the notes give", KindScript(("import numpy as np",), given)))
    sheet = list(fa.sheet.answers)
    start = 0
    said: set[str] = set()
    for n, a in enumerate(fa.analyses, start=1):
        count = len(a.answers())
        mine, start = sheet[start : start + count], start + count
        w = writer_of(a)
        block = w.recompute(a)
        answers = answers_code(mine, block, printed, fa.rc, said)
        drawn = [p for p in plans if _drawn_by(p, a)]
        drawing = w.drawing(a, drawn) if drawn else KindScript()
        parts.append(_Part(_heading(a, n), _merge(block, answers, drawing)))
    rest = [p for p in plans if not any(_drawn_by(p, a) for a in fa.analyses)]
    loose = loose_figures(rest, printed)
    if loose.code.strip():
        parts.append(_Part("the figures of the data as they are", loose))
    return [
        _Part(p.heading, replace(p.block, code=format_code(_printed_only(p.block.code, printed))))
        for p in parts
    ]


_REPORT_LITERAL = re.compile(r"""^report\((["'])(?P<what>[^"'\\]*)\1[,)]""")


def _printed_only(code: str, printed: Collection[tuple[str, str]]) -> str:
    """The block without its top-level report() lines of numbers this report
    does not print: a block states what its analysis computes in either
    language (a Chinese report prints the month of a date as a number, an
    English one names it), the script only what its report prints."""
    said = {c for c, _s in printed}
    kept = []
    for line in code.splitlines():
        m = _REPORT_LITERAL.match(line)
        what = m.group("what") if m else None
        if (
            what is not None
            and what not in said
            and f"reporting floor of {what} (constant)" not in said
        ):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def build_compendium(
    read: ReadResult,
    fa: Any,
    record: Mapping[str, Any],
    folder: Path,
    *,
    title: str,
    plans: list[FigurePlan] | None = None,
) -> Compendium:
    """The compendium of the analysis `fa` of `read`, against the report's
    `record` (its numbers and, when it has them, its figures' data)."""
    from labwright.agent.offline.figures import plan_figures

    if plans is None:
        plans = plan_figures(read.datasets, read.images, analysis=fa)
    figure_data = dict(record.get(FIGURES_KEY) or {}) or figure_record(plans, folder=str(folder))
    shown = [p for p in plans if p.key in figure_data]
    entries = _entries(record)
    parts = _parts(read, fa, record, entries, shown)
    blocks = [p.block for p in parts]
    helpers: dict[str, str] = {}
    for b in blocks:
        helpers.update(b.helpers)

    # A first run against the tables as read finds which tables the blocks
    # read; the readers decide table(), whose length moves the blocks' lines.
    probe = Run()
    for b in blocks:
        run_block(read, b, 1, probe, figure_data, Path(folder))
    keys = sorted(probe.tables, key=str)
    readers = [plan_reader(probe.tables[k], folder, k[1]) for k in keys]
    readers = [
        TableReader(
            r.file, r.part, r.expression, r.note, r.extract, r.matrix or k in probe.matrices
        )
        for r, k in zip(readers, keys, strict=True)
    ]
    drawn = bool(probe.figures)
    if drawn:
        helpers = {"figure": helper(figure_data), **helpers}
    head = [
        text.docstring(title, drawn),
        "\n".join(
            text.imports([i for b in blocks for i in b.imports], drawn, uses_cjk(figure_data))
        ),
        'HERE = Path(__file__).resolve().parent\nDATA = HERE / "data"',
    ]
    said_ids: set[str] = set()
    # Two passes: the PRINTED table's length depends on which ids are said.
    for _ in range(2):
        setup = [
            format_code(s).strip("\n")
            for s in (
                text.printed_table(entries, said_ids),
                text.COMPARE,
                text.table_function(readers),
                *helpers.values(),
            )
        ]
        script = head[0] + "\n\n" + head[1] + "\n\n" + head[2] + "\n"
        script += "".join("\n\n" + s + "\n" for s in setup)
        body: list[str] = []
        run = Run()
        for part in parts:
            script += f"\n\n# --- {part.heading} " + "-" * max(3, 72 - len(part.heading)) + "\n"
            first = script.count("\n") + 1
            run_block(read, part.block, first, run, figure_data, Path(folder))
            code = part.block.code.strip("\n") + "\n"
            body.append(code)
            script += code
        lines: dict[str, int] = {}
        for computation, value, source, line in run.said:
            candidates = [
                e for e in entries if e.computation == computation and source in (None, e.source)
            ]
            if candidates:
                best = min(candidates, key=lambda e: (_close(value, e.printed), e.id in lines))
                lines.setdefault(best.id, line)
        if set(lines) == said_ids:
            break
        said_ids = set(lines)
    missing = [
        (e.id, e.printed, e.computation, _why(e, record))
        for e in entries
        if e.id not in lines and not e.computation.startswith("reporting floor of ")
    ]
    script += "\n\n" + text.not_recomputed(missing) + format_code(text.end(drawn, notebook=False))
    notebook = text.notebook(title, head, setup, [p.heading for p in parts], body, drawn)
    files = [ds.source for ds in read.datasets] + [i.source for i in read.images]
    files += [d.source for d in read.documents]
    return Compendium(
        script, notebook, requirements_text(), readers, lines, missing,
        figures=run.figures, not_redrawn=[k for k in figure_data if k not in run.figures],
        figure_data={k: v for k, v in figure_data.items() if k in run.figures}, files=files,
    )  # fmt: skip


def _why(e: Printed, record: Mapping[str, Any]) -> str:
    for n in record.get("numbers", []):
        if n.get("id") == e.id:
            if not n.get("file") or n.get("file") == ".":
                return "a count or a setting of the analysis, not computed from a table"
    return "no block of this compendium recomputes it yet"


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


# --- writing ------------------------------------------------------------------------


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
    if comp.figure_data:
        (out_dir / FIGURE_FILE).write_text(
            json.dumps(comp.figure_data, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    for r in comp.readers:
        write_extract(r, dataset_named(read, r.file, r.part), data)
    shipped = ship_raw_files([r.file for r in comp.readers] + comp.files, folder, data)
    note = ["The files the report read, as they were in the data folder."]
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
    numbers and plotted data the script compares with; without one, the
    record of a fresh offline write of the same folder (what a build prints)."""
    from labwright.agent.offline.figures import plan_figures
    from labwright.ingest.read import read_folder

    folder = Path(folder)
    read = read_folder(folder)
    fa = _analyse(read)
    plans = plan_figures(read.datasets, read.images, analysis=fa, lang=lang)
    if record is None:
        record = _fresh_record(read, fa, folder, lang, plans)
    comp = build_compendium(read, fa, record, folder, title=folder.name, plans=plans)
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


def _fresh_record(
    read: ReadResult, fa: Any, folder: Path, lang: str, plans: list[FigurePlan] | None = None
) -> dict[str, Any]:
    from labwright.agent.offline.figures import plan_figures
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.text import ReportInput, assemble

    ledger = Ledger()
    if plans is None:
        plans = plan_figures(read.datasets, read.images, analysis=fa, lang=lang)
    assemble(ReportInput(lang, folder.name, read, plans, analysis=fa), ledger)
    return {**ledger.to_dict(), FIGURES_KEY: figure_record(plans, folder=str(folder))}


def report_record(folder: Path, *, lang: str = "en") -> dict[str, Any]:
    """The provenance record an offline build of `folder` writes (its
    ledger and its figures' data)."""
    from labwright.ingest.read import read_folder

    read = read_folder(Path(folder))
    return _fresh_record(read, _analyse(read), Path(folder), lang)
