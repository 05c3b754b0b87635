"""The lines of the exported compendium that recompute one analysis (issue 23).

Each kind's writer offers `script(analysis) -> KindScript`: plain Python a
careful scientist would write, with the field's libraries only (numpy,
pandas, scipy, statsmodels, lmfit) and no Labwright import. The compendium
puts the blocks in the report's order, ships the raw files in `data/`, and
defines the two names every block relies on:

- `table(file, part=None)` -> `pandas.DataFrame`: the table as the report read
  it (columns named as the report names them, numbers as floats; a date or
  time column the reader turned into seconds holds seconds since the origin
  the block states); `part` is the sheet (Excel) or variable (MATLAB, .npz);
  `matrix(file, part=None)` -> a 2-D `numpy` array, likewise;
- `report(computation, value)`: states one recomputed value; `computation` is
  exactly the text the report's ledger records for the printed number
  (`provenance.json`, `numbers[].computation`), so the compendium prints it
  beside the report's number and can compare them at the printed precision.

`helpers` are small functions a block calls (one definition per compendium,
keyed by name, so two blocks needing the same helper share it).

`answers` says where the block leaves each answer of its analysis (the
results table's quantities, `Answer.quantity` -> expressions of its value
and standard error in the answer's unit, valid right after the block;
several answers of one quantity are keyed "quantity/label"), and
`fit` the fit they came from (its residuals, R^2, parameter count): the
compendium restates them under the results table's, the discussion's and
the conclusion's computations (compendium_answers.py), with the comparison
against the expected value and the fit's quality.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from labwright.ingest.types import Dataset, Provenance


@dataclass(frozen=True)
class AnswerCode:
    """Expressions, valid after the block, of one answer's value and SE."""

    value: str
    se: str | None = None


@dataclass(frozen=True)
class FitCode:
    """Expressions, valid after the block, of the fit an answer came from:
    the discussion's points, R^2 (or chi-square) and runs test."""

    residuals: str  # data minus model at the points fitted (NaN where not used)
    r2: str
    n_params: int
    sigma: str | None = None  # the stated uncertainties of a weighted fit


@dataclass(frozen=True)
class KindScript:
    imports: tuple[str, ...] = ()
    code: str = ""
    helpers: dict[str, str] = field(default_factory=dict)
    answers: dict[str, AnswerCode] = field(default_factory=dict)
    fit: FitCode | None = None

    def source(self) -> str:
        """The block as one runnable piece (imports, helpers, code)."""
        parts = ["\n".join(sorted(set(self.imports)))] if self.imports else []
        parts += list(self.helpers.values())
        parts.append(self.code)
        return "\n\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"


def read_table(ds: Dataset, var: str = "df", file: str | None = None) -> str:
    """The line that reads `ds` through the compendium's `table()`; `file`,
    an expression for the file name (a loop variable) instead of its literal."""
    prov = ds.provenance
    part = prov.sheet or prov.variable if prov is not None else None
    args = (file or repr(ds.source)) + (f", {part!r}" if part else "")
    rows = ""
    if ds.subset is not None:
        # The rows of one group: the law was fitted group by group.
        column, value = ds.subset
        rows = f".loc[lambda d: d[{column!r}] == {value!r}].reset_index(drop=True)"
    return f"{var} = table({args}){rows}"


def read_matrix(ds: Dataset, var: str = "m") -> str:
    prov = ds.provenance
    part = prov.sheet or prov.variable if prov is not None else None
    args = repr(ds.source) + (f", {part!r}" if part else "")
    return f"{var} = matrix({args})"


def finite_rows(target: str, source: str, columns: list[str]) -> str:
    """`target` = the rows of `source` where every named column is a finite number."""
    cols = ", ".join(repr(c) for c in dict.fromkeys(columns))
    return (
        f"{target} = {source}[[{cols}]].astype(float).replace([np.inf, -np.inf], np.nan).dropna()"
    )


def report_with_se(what: str, value: str, se: str) -> list[str]:
    """The script's two lines that state a number and its standard uncertainty."""
    return [f"report({what!r}, {value})", f"report({'standard uncertainty of ' + what!r}, {se})"]


def no_script(what: str) -> KindScript:
    """A kind whose report prints no number it computed (a layout of panels)."""
    return KindScript(code=f"# {what}: drawn as it is; nothing is computed.\n")


def source_of(p: Provenance | None) -> str:
    """A provenance as the script's PRINTED names sources ("file [part]: column")."""
    if p is None or not p.file:
        return ""
    part = p.sheet or p.variable
    group = f" ({p.subset})" if p.subset else ""
    return p.file + (f" [{part}]" if part else "") + group + (f": {p.column}" if p.column else "")
