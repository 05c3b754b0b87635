"""The fixed parts of the compendium's script and notebook (issue 23): the
docstring, the imports, the numbers as printed, the comparison at the
printed precision, `table()`/`matrix()`, the end, and the notebook's cells.

Kept apart from the assembly (compendium.py) so that file says what goes
where, and this one what the reader of the script sees around the blocks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from labwright.agent.offline.compendium_data import TableReader
from labwright.agent.offline.pyformat import format_code

_STDLIB = {"math", "sys", "re", "itertools", "collections", "json", "pathlib", "warnings"}


@dataclass(frozen=True)
class Printed:
    id: str
    computation: str
    printed: str  # the report's text, as Python reads a float ("2.5e-3", "nan")
    source: str = ""  # "file [part]: column", as the summary block names it


def docstring(title: str, figures: bool) -> str:
    drawn = (
        " It redraws every figure from the\nnumbers it computes (figures/ beside it) and compares "
        "what it plots with\nwhat the report plotted (report-figures.json)."
        if figures
        else ""
    )
    return f'''"""{title}: the report's numbers{" and figures" if figures else ""}, recomputed from the raw data.

Each block below recomputes what one part of the report prints, in the
report's order, with numpy, pandas, scipy, statsmodels, lmfit and
matplotlib only. The raw files are in data/ beside this file. `python
analysis.py` prints every number beside the value the report prints.{drawn}
It exits with status 1 when a number differs by more than the precision
the report prints it with{", or a figure's data from the report's" if figures else ""}.
"""'''


def imports(lines_in: Iterable[str], figures: bool, chinese: bool = False) -> list[str]:
    """The script's import lines, in isort's order (ruff I001)."""
    lines = {"import sys", "from pathlib import Path", "import numpy as np", "import pandas as pd"}
    if figures:
        lines |= {"import json", "import matplotlib.pyplot as plt"}
    if figures and chinese:
        lines.add("from matplotlib import font_manager")
    lines.update(i.strip() for i in lines_in)
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
        # isort's order: straight imports first, then from-imports.
        plain = sorted((i for i in group if i.startswith("import ")), key=str.lower)
        return plain + sorted((i for i in group if i.startswith("from ")), key=str.lower)

    return [*order(std), "", *order(third)]


def printed_table(entries: list[Printed], keep: set[str]) -> str:
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


def table_function(readers: list[TableReader]) -> str:
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


COMPARE = '''failures: list[str] = []
stated: set[str] = set()  # the report's numbers already stated


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
        said = "ok" if ok else "DIFFERS"
        print(f"{'< ' + floor[0][1]:>14}  {value:<14.6g} {said}  {computation}")
        if not ok:
            failures.append(computation)
        return
    candidates = [p for p in PRINTED.get(computation, []) if source in (None, p[2])]
    if not candidates:
        print(f"{'':>14}  {value:<14.6g} (not printed)  {computation}")
        return
    # The nearest; of two printed alike, the one not stated yet.
    number, printed, _ = min(candidates, key=lambda p: (distance(value, p[1]), p[0] in stated))
    stated.add(number)
    ok = distance(value, printed) <= printed_precision(printed) * (1 + 1e-9)
    said = "ok" if ok else "DIFFERS"
    print(f"{printed:>14}  {value:<14.6g} {said}  {computation} [{number}]")
    if not ok:
        failures.append(f"{computation} [{number}]: report {printed}, recomputed {value:.6g}")


def distance(value: float, printed: str) -> float:
    shown = float(printed)
    if np.isnan(value) and np.isnan(shown):
        return 0.0
    return abs(value - shown) if np.isfinite(value) and np.isfinite(shown) else np.inf
'''


def end(figures: bool, notebook: bool) -> str:
    done = "Every recomputed number matches the report at its printed precision" + (
        ", every figure the data the report plotted." if figures else "."
    )
    if notebook:
        return (
            'assert not failures, f"{len(failures)} differences from the report: {failures}"\n'
            f"print({done!r})\n"
        )
    return (
        "if failures:\n"
        '    print(f"{len(failures)} differences from the report:", *failures, sep="\\n  ")\n'
        "    sys.exit(1)\n"
        f"print({done!r})\n"
    )


def not_recomputed(rows: list[tuple[str, str, str, str]]) -> str:
    if not rows:
        return "# Every number the report prints is recomputed above.\n"
    lines = ["# Numbers the report prints that this script does not recompute, and why:"]
    lines += [f"#   {p} ({i}): {c}; {why}" for i, p, c, why in rows]
    return "\n".join(lines) + "\n"


def _cell(kind: str, source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": source.strip("\n")}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _without_sys(imports_text: str, cells: list[str]) -> str:
    """The script's imports less `sys`, which only its exit status uses (the
    notebook ends with an assert): ruff's F401 in the notebook otherwise."""
    if any("sys." in c for c in cells):
        return imports_text
    return "\n".join(line for line in imports_text.split("\n") if line != "import sys")


def notebook(
    title: str,
    head: list[str],
    setup: list[str],
    headings: list[str],
    body: list[str],
    figures: bool,
) -> dict[str, Any]:
    """The same code as the script in cells, a heading before each block;
    the figures are shown under their cell instead of only saved."""
    setup = [s.replace("    plt.close(fig)\n", "    plt.show()\n") for s in setup]
    here = 'HERE = Path().resolve()\nDATA = HERE / "data"'
    cells = [
        _cell("markdown", f"# {title}\n\n" + head[0].strip('"\n').split("\n", 1)[1].strip()),
        _cell("code", _without_sys(head[1], [*setup, *body]) + "\n\n" + here),
        *(_cell("code", s) for s in setup),
    ]
    for heading, code in zip(headings, body, strict=True):
        cells += [_cell("markdown", f"## {heading[0].upper()}{heading[1:]}"), _cell("code", code)]
    cells.append(_cell("code", format_code(end(figures, notebook=True))))
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
        "cells": [dict(c, id=f"cell-{i}") for i, c in enumerate(cells)],
    }
