"""File shapes the labset's writers do not make: notes in a given encoding,
a table without a header, a table with a units row under its header."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from tests.labset import formats as fm


def utf8(notes: str) -> bytes:
    return fm.text(notes)


def gbk(notes: str) -> bytes:
    return fm.text(notes, encoding="gbk")


def _cells(values: Sequence[np.ndarray], digits: int) -> list[list[str]]:
    n = len(values[0])
    return [[f"{float(col[i]):.{digits}g}" for col in values] for i in range(n)]


def headerless(values: Sequence[np.ndarray], digits: int = 5, sep: str = "  ") -> bytes:
    """Numbers only, columns separated by spaces (what a bench notebook
    typed into a .dat file looks like)."""
    return ("\n".join(sep.join(row) for row in _cells(values, digits)) + "\n").encode()


def units_row(cols: fm.Columns, units: Sequence[str], digits: int = 4) -> bytes:
    """Comma CSV whose second line holds each column's unit."""
    lines = [",".join(cols), ",".join(units)]
    lines += [",".join(row) for row in _cells([np.asarray(v) for v in cols.values()], digits)]
    return ("\n".join(lines) + "\n").encode()


_UNIT_TAIL = re.compile(r"\s*[\(\[][^\(\)\[\]]*[\)\]]\s*$")


def named(*refs: str) -> tuple[str, ...]:
    """Each "file: header" of a controlled column, in every form a report
    may name the column: as written, without its unit ("t (s)" -> "t",
    "c/(mol·L⁻¹)" -> "c"), and with the slash of the unit left on ("c/")."""
    out: list[str] = []
    for ref in refs:
        file, _, header = ref.partition(": ")
        forms = [header, _UNIT_TAIL.sub("", header)]
        if "/" in header:
            stem = header.split("/")[0].strip()
            forms += [stem, stem + "/"]
        if "_" in header and header.rsplit("_", 1)[1] in ("mT", "mV", "s", "V", "A"):
            forms.append(header.rsplit("_", 1)[0])  # B_mT: the unit as a suffix
        out += [f"{file}: {f}" for f in dict.fromkeys(forms) if f]
    return tuple(out)
