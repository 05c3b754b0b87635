"""File shapes the labset's writers do not make: a units row under the
header, and a headerless whitespace table whose columns only the notes name.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def csv_with_units_row(
    cols: dict[str, Sequence[float] | np.ndarray], units: Sequence[str], digits: int = 6
) -> bytes:
    names = list(cols)
    n = len(next(iter(cols.values())))
    lines = [",".join(names), ",".join(units)]
    for i in range(n):
        lines.append(",".join(f"{float(cols[k][i]):.{digits}g}" for k in names))
    return ("\n".join(lines) + "\n").encode("utf-8")


def headerless(rows: Sequence[Sequence[float]], fmt: Sequence[str]) -> bytes:
    """Space-aligned numbers, no header (what a hand-typed .dat file looks like)."""
    lines = ["  ".join(f.format(v) for f, v in zip(fmt, row, strict=True)) for row in rows]
    return ("\n".join(lines) + "\n").encode("ascii")


def rnd(x: np.ndarray | float, step: float) -> np.ndarray:
    """Round to an instrument's resolution."""
    return np.round(np.asarray(x, dtype=float) / step) * step
