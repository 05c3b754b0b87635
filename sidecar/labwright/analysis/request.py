"""What the notes ask, as one typed request the analysis runs from.

A lab scientist reads the notes before the data: which quantity is wanted
("find the activation energy", "半衰期"), which law applies (named, or
written out: `v = Vmax*[S]/(Km + [S])`), which column is which variable, the
constants given (a mass, R, a literature value), what each file is (the
background, the standards and the unknowns, repeat scans, one run per
parameter value) and what the result must be compared with. The
`AnalysisRequest` holds exactly that, each item with the phrase it came
from and a reason, so the report's method section and the provenance record
can say why every binding was made.

Offline, rules fill it (`analysis/request_rules/`); with a language model,
the model fills the same type through a typed tool, and `validate_request`
checks it against the catalogue and the folder's columns before anything is
computed. Pydantic, because the type is also the model's JSON contract.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

FileRoleName = Literal[
    "data",  # measurements to analyse (the default)
    "background",  # counts or signal without the sample, subtracted
    "blank",  # a reagent blank (calibration)
    "standards",  # known concentrations / values (calibration)
    "unknowns",  # samples whose value is predicted from the calibration
    "repeat",  # a repeat scan / replicate of another file
    "run",  # one run of a series, at one value of a parameter
    "reference",  # literature or expected values
]
Procedure = Literal[
    "fit",  # one catalogue law fitted to bound columns
    "titration",  # end point by derivative and Gran; pKa at half-equivalence
    "calibration",  # a line through standards, inverse prediction of unknowns
    "run_series",  # a quantity per run file, then a law across the runs
    "periodogram",  # the period of a cyclic series
    "factorial",  # two or more factors: ANOVA with interaction, cell means
    "peaks",  # several peak shapes on a baseline
    "quantal",  # counts responding of a number tested at each dose: binomial ML
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Evidence(_Strict):
    """Where an item of the request came from: the notes' phrase and why it
    was read so."""

    source: str = Field(description="file the phrase is in (relative to the folder), or 'columns'")
    phrase: str = Field(description="the words of the notes (or header) this was read from")
    reason: str = Field(description="one plain sentence: why it was read this way")


class AskedQuantity(_Strict):
    quantity: str = Field(
        description="catalogue quantity key (parameter or derived), e.g. Km, t_half, Ea"
    )
    model: str | None = Field(
        default=None, description="catalogue model key the quantity belongs to"
    )
    candidates: tuple[str, ...] = Field(
        default=(),
        description="when the notes do not decide the law: the catalogue models that have "
        "this quantity, for the analysis to compare on the data",
    )
    name: str | None = Field(
        default=None,
        description="the notes' own words for the quantity, when they give them beside the "
        "symbol ('asymptotic height'): the report's label for it",
    )
    evidence: Evidence


class NamedModel(_Strict):
    key: str | None = Field(
        default=None, description="catalogue model key, when the notes name a known law"
    )
    formula: str | None = Field(
        default=None, description="a formula written in the notes, 'y = expression'"
    )
    how: Literal["name", "formula", "quantity", "per_run"] = Field(
        default="name",
        description="named by its name or alias, written as a formula, implied by an "
        "asked quantity only this law has, or fitted in each run of a series",
    )
    symbols: tuple[tuple[str, str], ...] = Field(
        default=(),
        description="(catalogue parameter, the notes' symbol for it) where a written formula "
        "names a parameter its own way (A_inf, hmax): the report names the answer so",
    )
    evidence: Evidence


class Binding(_Strict):
    """One variable of a model bound to one column of one file."""

    model: str = Field(description="catalogue model key (or 'formula' for a written formula)")
    variable: str = Field(description="the variable's symbol in the model")
    file: str
    sheet: str | None = None
    column: str
    unit: str | None = Field(
        default=None, description="the column's unit, from its header or the notes"
    )
    source: Literal["column", "file_names", "per_run"] = Field(
        default="column",
        description="a column; the run files' names (the parameter each run was made at); "
        "or a quantity fitted in each run ('model.quantity' in column)",
    )
    per: int = Field(
        default=1,
        ge=1,
        description="the column holds the time of this many periods (a '10T' column: 10); "
        "the variable is the column divided by it",
    )
    evidence: Evidence


class GivenConstant(_Strict):
    symbol: str = Field(description="symbol of an input or constant of the model (m, L, R, E0)")
    value: float
    uncertainty: float | None = None
    unit: str | None = None
    evidence: Evidence


class FileRole(_Strict):
    file: str
    sheet: str | None = Field(default=None, description="the sheet, for a workbook")
    role: FileRoleName
    parameter: str | None = Field(
        default=None, description="for a run: the parameter varied (T, L, m)"
    )
    value: float | None = Field(default=None, description="for a run: its value in this file")
    unit: str | None = None
    evidence: Evidence


class ExpectedValue(_Strict):
    """A value the result must be compared with (given in the notes)."""

    quantity: str
    model: str | None = Field(default=None, description="catalogue model key of the quantity")
    value: float
    uncertainty: float | None = None
    unit: str | None = None
    evidence: Evidence


class DerivedColumn(_Strict):
    """A column the notes define from other columns and given values ("F =
    m g", "L = l + d/2"), computed into its table before the law is bound."""

    name: str = Field(description="the defined symbol, the new column's name")
    expression: str = Field(description="the right side in the evaluator's syntax (m*g)")
    written: str = Field(description="the definition as the notes write it")
    file: str
    sheet: str | None = None
    columns: tuple[tuple[str, str], ...] = Field(
        default=(), description="(symbol, column) for each column the expression uses"
    )
    constants: tuple[tuple[str, float, str | None], ...] = Field(
        default=(), description="(symbol, value, unit) for each given value it uses"
    )
    evidence: Evidence


class DefinedQuantity(_Strict):
    """A quantity the notes define from the law's fitted quantities and given
    values ("t½ = ln 2/k", "T = −a/b", "E = g L/(S·slope)"): computed from the
    fit with the parameters' correlations kept."""

    name: str = Field(description="the defined symbol")
    expression: str = Field(description="the right side in the evaluator's syntax")
    written: str = Field(description="the definition as the notes write it")
    constants: tuple[tuple[str, float, str | None], ...] = Field(
        default=(), description="(symbol, value, unit) for each given value it uses"
    )
    asked: bool = Field(default=False, description="the notes ask for it")
    label: str | None = Field(default=None, description="the notes' words for it")
    evidence: Evidence


class NotedReadings(_Strict):
    """Readings of an unknown sample written in the notes, not in a file
    ("未知样平行测定三次，吸光度为 0.498、0.503、0.499"): read back on the
    calibration line like a table of unknowns."""

    label: str = Field(description="the notes' name for the sample ('未知样', 'unknown A')")
    values: tuple[float, ...] = Field(min_length=1, description="the readings of the response")
    evidence: Evidence


class NumberedReadings(_Strict):
    """Numbered columns read as one variable at the law's count ("L1, L2" of
    a resonance tube: L at n = 1 and n = 2): the table is read long, one row
    per reading (`analysis/numbered_columns.py`)."""

    file: str
    sheet: str | None = None
    columns: tuple[str, ...] = Field(min_length=2, description="the numbered columns, in order")
    numbers: tuple[int, ...] = Field(min_length=2, description="each column's number")
    response: str = Field(description="the name of the column they make")
    count: str = Field(description="the name of the count column (the law's symbol)")
    evidence: Evidence


class SeparateFits(_Strict):
    """The notes ask for the law fitted group by group ("fit the line
    separately before and after insulation", "分别拟合两组"): one fit per
    level of a category column of the table, never one over all the rows."""

    file: str
    sheet: str | None = None
    column: str = Field(description="the category column whose levels are the groups")
    evidence: Evidence


class Unanswered(_Strict):
    """Something the notes ask that the data cannot answer, and why."""

    what: str
    why: str
    model: str | None = Field(default=None, description="the law it concerns, when one")
    variable: str | None = Field(
        default=None, description="the law's variable no column holds, when that is why"
    )


class AnalysisRequest(_Strict):
    asked: tuple[AskedQuantity, ...] = ()
    models: tuple[NamedModel, ...] = ()
    procedure: Procedure | None = None
    bindings: tuple[Binding, ...] = ()
    constants: tuple[GivenConstant, ...] = ()
    files: tuple[FileRole, ...] = ()
    expected: tuple[ExpectedValue, ...] = ()
    replicates: Literal["average", "together"] | None = Field(
        default=None, description="how the notes ask replicate columns or repeat scans to be used"
    )
    unanswered: tuple[Unanswered, ...] = ()
    peaks: int | None = Field(
        default=None, ge=1, le=8, description="the number of peaks the notes ask to fit"
    )
    baseline: Literal["constant", "linear", "quadratic"] | None = Field(
        default=None, description="the baseline the notes ask the peaks to be fitted on"
    )
    derived: tuple[DerivedColumn, ...] = Field(
        default=(), description="columns the notes define from other columns and given values"
    )
    defined: tuple[DefinedQuantity, ...] = Field(
        default=(), description="quantities the notes define from fitted ones and given values"
    )
    noted_unknowns: tuple[NotedReadings, ...] = Field(
        default=(), description="unknown samples whose readings the notes write out"
    )
    numbered: tuple[NumberedReadings, ...] = Field(
        default=(), description="numbered columns read as a law's variable at its count"
    )
    trend_rates: tuple[str, ...] = Field(
        default=(),
        description="rates the notes ask of a series dated by the calendar ('the growth rate "
        "per year'), answered by its linear trend: the notes' words for each",
    )
    separately: tuple[SeparateFits, ...] = Field(
        default=(), description="tables whose law the notes ask fitted per level of a column"
    )

    @property
    def is_empty(self) -> bool:
        return not (self.asked or self.models or self.procedure)

    def role_of(self, file: str) -> FileRole | None:
        return next((f for f in self.files if f.file == file), None)

    def record(self) -> dict[str, object]:
        """JSON-able form for the provenance record (every reason kept)."""
        return self.model_dump(mode="json", exclude_defaults=True)
