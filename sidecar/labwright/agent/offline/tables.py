"""Summary tables: n, mean, standard deviation, min and max of each column.

Every number goes through the ledger with the column's provenance, so the
table's numbers are traceable like the text's. Names and units from the files
are escaped and wrapped in \\lwtext (text quoted from the material).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from labwright.agent.offline.escape import escape_text
from labwright.agent.offline.figures import is_counter
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.ingest.types import Column, Dataset, Provenance

MAX_ROWS = 40
_PREVIEW_ROWS = 8
_PREVIEW_COLS = 6


_CARET_POWER = re.compile(r"\\textasciicircum\{\}(-?\d+)")


def src_text(text: str) -> str:
    """Text taken verbatim from the material (a name, a unit, a reason).
    A caret power as written in headers (`s^2`, `m s^-1`) is set as a
    superscript; everything else prints exactly as in the file."""
    escaped = _CARET_POWER.sub(r"\\textsuperscript{\1}", escape_text(text))
    return f"\\lwtext{{{escaped}}}"


def src_file(path: str) -> str:
    """A file path from the data folder."""
    return f"\\lwfile{{{escape_text(path)}}}"


def dataset_title(ds: Dataset) -> str:
    """The dataset as a reader identifies it: the file, plus sheet/variable if any."""
    base = ds.source.rsplit("/", 1)[-1]
    if ds.name and ds.name not in (ds.source, base, base.rsplit(".", 1)[0]):
        return f"{src_file(ds.source)} ({src_text(ds.name)})"
    return src_file(ds.source)


@dataclass(frozen=True)
class Stats:
    n: int
    mean: float
    std: float
    min: float
    max: float


def stats(values: np.ndarray) -> Stats | None:
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        return None
    std = float(np.std(v, ddof=1)) if v.size > 1 else float("nan")
    return Stats(int(v.size), float(v.mean()), std, float(v.min()), float(v.max()))


def _extreme(
    value: float, decimals: int | None, prov: Provenance, what: str, ledger: Ledger
) -> str:
    if decimals is None:
        return ledger.num(value, prov, what)
    return ledger.fixed(value, decimals, prov, what)


def _resolution(values: np.ndarray) -> int | None:
    """Decimals of the raw values, when plain notation can show them."""
    from labwright.analysis.presentation import decimals_of

    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        return None
    top = float(np.max(np.abs(v)))
    d = decimals_of(v)
    if not (1e-3 <= top < 1e6) or d >= 6:
        return None
    return d


#: At most this many distinct values make an analysis' independent variable a
#: setting of the experiment (lengths, doses, set temperatures), summarised by
#: its levels; more (times, observed sizes) is a variable like any other.
MAX_SET_LEVELS = 12
SET_LEVELS = "number of distinct values"
#: Levels written with at most this many significant digits are dialled
#: values (0.5, 2, 25, 1.5e-3), not readings (10.62, 0.2117).
_DIALLED_DIGITS = 2


def set_levels(values: np.ndarray) -> int | None:
    """The number of levels of a column the experiment set, or None when it
    is not a setting. Few distinct values are not enough: eleven currents
    read at eleven voltages are eleven readings. A setting repeats its
    levels, steps through them evenly (0, 0.5, ..., 5 V) or by a constant
    factor (1, 2, 4, 8 mM), or dials round values."""
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    levels = np.unique(v)
    k = int(levels.size)
    if not 1 < k <= MAX_SET_LEVELS:
        return None
    if k < v.size or _stepped(levels) or all(_dialled(x) for x in levels):
        return k
    return None


def _stepped(levels: np.ndarray) -> bool:
    """Sorted levels in equal steps or equal ratios."""
    if levels.size < 3:
        return False
    steps = np.diff(levels)
    if np.allclose(steps, steps[0], rtol=1e-6, atol=0.0):
        return True
    if np.all(levels > 0):
        ratios = levels[1:] / levels[:-1]
        return bool(np.allclose(ratios, ratios[0], rtol=1e-6, atol=0.0))
    return False


def _dialled(x: float) -> bool:
    return x == 0 or float(f"{x:.{_DIALLED_DIGITS}g}") == x


def _row(
    label: str,
    st: Stats,
    prov: Provenance,
    ledger: Ledger,
    decimals: int | None = None,
    *,
    levels: int | None = None,
    lang: str = "en",
) -> str:
    if levels is not None:
        # A setting's mean and spread describe the design, not a measurement.
        k = ledger.count(levels, prov, SET_LEVELS)
        mean_cell, std_cell = phrase(lang, "col_set_levels", k=f"${k}$"), ""
    elif np.isfinite(st.std):
        mean, std = ledger.mean_and_spread(st.mean, st.std, prov)
        mean_cell, std_cell = f"${mean}$", f"${std}$"
    else:  # a single value has no spread
        mean_cell, std_cell = f"${ledger.num(st.mean, prov, 'mean')}$", "--"
    cells = [
        label,
        f"${ledger.count(st.n, prov, 'number of finite values')}$",
        mean_cell,
        std_cell,
        f"${_extreme(st.min, decimals, prov, 'minimum', ledger)}$",
        f"${_extreme(st.max, decimals, prov, 'maximum', ledger)}$",
    ]
    return " & ".join(cells) + r" \\"


def _column_label(col: Column) -> str:
    label = src_text(col.name)
    if col.unit:
        label += f" ({src_text(col.unit)})"
    return label


def summary_rows(
    ds: Dataset,
    ledger: Ledger,
    lang: str,
    measurements: set[str] | None = None,
    settings: Collection[str] = (),
) -> list[str]:
    """One row per quantity; the columns in `settings` (independent
    variables of an analysis) by their levels when they have few."""
    rows: list[str] = []
    if ds.kind == "matrix" and ds.matrix is not None:
        st = stats(np.asarray(ds.matrix))
        prov = ds.provenance or Provenance(file=ds.source, variable=ds.name)
        if st:
            rows.append(_row(phrase(lang, "matrix_row"), st, prov, ledger))
        return rows
    # A row counter (1, 2, 3, ... without a unit) is not a quantity: its mean
    # and spread would be numbers without meaning.
    # With roles, only measurements: the mean of a year, a date, an ID or a
    # class code is a number without meaning (the roles sentence gives them).
    quantities = [c for c in ds.numeric_columns if not is_counter(c)]
    if measurements is not None:
        quantities = [c for c in quantities if c.name in measurements]
    for col in quantities[:MAX_ROWS]:
        st = stats(col.values)
        if st:
            levels = set_levels(col.values) if col.name in settings else None
            rows.append(
                _row(
                    _column_label(col),
                    st,
                    col.provenance,
                    ledger,
                    _resolution(col.values),
                    levels=levels,
                    lang=lang,
                )  # fmt: skip
            )
    return rows


def _float(body: str, caption: str) -> str:
    return (
        f"\\begin{{table}}[H]\n\\centering\\small\n\\caption{{{caption}}}\n{body}\n\\end{{table}}\n"
    )


def summary_table(
    ds: Dataset,
    ledger: Ledger,
    lang: str,
    measurements: set[str] | None = None,
    settings: Collection[str] = (),
) -> str:
    """A table float for one dataset ("" when it has nothing to summarise)."""
    rows = summary_rows(ds, ledger, lang, measurements, settings)
    caption = phrase(lang, "table_caption", name=dataset_title(ds))
    if not rows:
        return preview_table(ds, caption)
    head = " & ".join(
        phrase(lang, k)
        for k in ("col_quantity", "col_n", "col_mean", "col_std", "col_min", "col_max")
    )
    body = (
        "\\begin{tabular}{lrrrrr}\n\\toprule\n"
        f"{head} \\\\\n\\midrule\n" + "\n".join(rows) + "\n\\bottomrule\n\\end{tabular}"
    )
    return _float(body, caption)


def preview_table(ds: Dataset, caption: str) -> str:
    """First rows of a dataset without numeric columns, verbatim."""
    cols = ds.columns[:_PREVIEW_COLS]
    if not cols:
        return ""
    head = " & ".join(src_text(c.name) for c in cols) + r" \\"
    lines = []
    for i in range(min(ds.n_rows, _PREVIEW_ROWS)):
        lines.append(" & ".join(src_text(str(c.values[i])) for c in cols) + r" \\")
    body = (
        f"\\begin{{tabular}}{{{'l' * len(cols)}}}\n\\toprule\n{head}\n\\midrule\n"
        + "\n".join(lines)
        + "\n\\bottomrule\n\\end{tabular}"
    )
    return _float(body, caption)
