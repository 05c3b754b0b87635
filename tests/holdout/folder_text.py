"""File shapes the labelled set's writers do not make: a units row under
the header, data without a header (the notes say what the columns are),
an oscilloscope export with a preamble, and repeat columns."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _cell(value: float, digits: int) -> str:
    return f"{float(value):.{digits}g}"


def units_row_csv(names: Sequence[str], units: Sequence[str], cols: Sequence[np.ndarray],
                  digits: int = 5, sep: str = ",") -> bytes:  # fmt: skip
    """A header line of names, then a line of units, then the data."""
    lines = [sep.join(names), sep.join(units)]
    for row in zip(*cols, strict=True):
        lines.append(sep.join(_cell(v, digits) for v in row))
    return ("\n".join(lines) + "\n").encode("utf-8")


def headerless(cols: Sequence[np.ndarray], digits: int = 5, sep: str = " ") -> bytes:
    """Numbers only, one row per line: what a meter's 'save' button writes."""
    lines = [sep.join(_cell(v, digits) for v in row) for row in zip(*cols, strict=True)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def scope_csv(t: np.ndarray, v: np.ndarray) -> bytes:
    """An oscilloscope's CSV export: a few lines of settings, then
    'Time,CH1' and a units line."""
    head = [
        "Model,DS1054Z",
        f"Sample interval,{float(t[1] - t[0]):g}",
        f"Record length,{t.size}",
        "",
        "Time,CH1",
        "s,V",
    ]
    body = [f"{a:.6e},{b:.4f}" for a, b in zip(t, v, strict=True)]
    return ("\n".join(head + body) + "\n").encode("utf-8")
