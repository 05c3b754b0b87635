"""The typed form of one catalogue entry (`knowledge/models/*.toml`).

A law is data: the loader (`catalogue/load.py`) turns each `[[model]]`
table into a `ModelEntry` and validates it (formula parses, every symbol is a
variable, parameter, constant or input, units are known to pint and the
formula is dimensionally sound). Everything downstream reads these types,
never the TOML.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

Lang = Literal["en", "zh"]
VariableRole = Literal["independent", "response"]


@dataclass(frozen=True)
class Text:
    """A name in both report languages."""

    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Phrases:
    """Phrases in notes that name something (a model, a quantity), per language."""

    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()

    def all(self) -> tuple[str, ...]:
        return self.en + self.zh


@dataclass(frozen=True)
class Variable:
    """A measured quantity of the law, bound to a column."""

    name: str  # the symbol in the formula
    role: VariableRole
    label: Text
    symbols: tuple[str, ...] = ()  # how headers and notes write it: "[S]", "c_S", "T"
    words: Phrases = Phrases()  # "substrate", "底物浓度"
    dimension: str = "any"  # pint dimensionality ("[concentration]", "[temperature]") or "any"
    unit: str | None = None  # the typical unit
    absolute: bool = False  # the law needs an absolute scale (K, not °C)


@dataclass(frozen=True)
class Parameter:
    """A fitted parameter."""

    name: str
    label: Text
    latex: str
    unit: str | None = None  # fixed ("J/mol") or in variables' units ("{v}/{S}")
    min: float | None = None
    max: float | None = None
    start: str | None = None  # expression over the data arrays ("max(v)")
    asks: Phrases = Phrases()
    display_unit: str | None = None  # the unit the report prints it in ("kJ/mol", "deg")


@dataclass(frozen=True)
class Constant:
    """A physical constant the formula uses (R, h, c, k_B, g when given)."""

    name: str
    value: float
    unit: str  # fixed ("J/(mol*K)"), or one of a variable's unit ("{c}": c/c_unit is a pure number)
    label: Text | None = None
    uncertainty: float | None = None


@dataclass(frozen=True)
class Input:
    """A quantity the notes must give (a mass, a length, a concentration)."""

    name: str
    label: Text
    unit: str | None = None
    symbols: tuple[str, ...] = ()
    words: Phrases = Phrases()
    default: float | None = None

    def as_variable(self) -> Variable:
        """The input read per row, as an independent variable of the law."""
        return Variable(
            name=self.name,
            role="independent",
            label=self.label,
            symbols=self.symbols,
            words=self.words,
            unit=self.unit,
        )


@dataclass(frozen=True)
class Derived:
    """A quantity computed from the parameters: `t_half = log(2)/lam`."""

    key: str
    expr: str
    label: Text
    latex: str
    asks: Phrases = Phrases()
    unit: str | None = None  # display unit; the dimension comes from the expression


@dataclass(frozen=True)
class LinearPlot:
    """The customary linearised companion plot (Lineweaver–Burk, ln k vs 1/T)."""

    label: Text
    x: str  # expressions over the variables (and fitted parameters: log(N - B))
    y: str
    x_latex: str = ""
    y_latex: str = ""
    # The straight line in terms of the parameters (to draw it from the fit) ...
    slope: str | None = None
    intercept: str | None = None
    # ... and the parameters from a straight-line fit of y on x (the linearised
    # method: "Ea = -R*slope"), each an expression in slope, intercept, constants.
    from_line: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Reference:
    """A textbook value the result is compared with."""

    quantity: str  # a parameter name or a derived key
    value: float
    unit: str
    # The source in English: the English report's text, and a key where the
    # record names it (the ledger's computations in provenance.json, which the
    # compendium's report() lines match exactly), so it never changes with the
    # report's language.
    source: str
    uncertainty: float | None = None
    condition: str | None = None
    # The source as a Chinese report says it (every built-in reference has
    # one; a user's overlay entry may not, and then the English is shown).
    source_zh: str | None = None

    def source_in(self, lang: str) -> str:
        """The source as the report's language says it."""
        return self.source_zh if lang == "zh" and self.source_zh else self.source


@dataclass(frozen=True)
class Composite:
    """Several peaks of one shape summed over a baseline."""

    peak: str  # "gaussian" | "lorentzian" | "voigt"
    baselines: tuple[str, ...] = ("constant", "linear", "quadratic")


@dataclass(frozen=True)
class Inverse:
    """The law solved for its one independent variable ("I = U/R" of
    "U = R*I"): fitted instead when the experimenter set the response's
    quantity and read the other (a voltage stepped, the current read), so
    that the scatter is in the fitted response, as least squares assumes."""

    formula: str
    latex: str


@dataclass(frozen=True)
class ExampleRange:
    """How an independent variable is sampled in the entry's own example data."""

    variable: str
    min: float | None = None
    max: float | None = None
    n: int | None = None  # points along this variable (the first one defaults to Example.n)
    spacing: Literal["linear", "log"] = "linear"
    values: tuple[float, ...] = ()  # discrete values instead of a range (orders n = 3..7)


NoiseKind = Literal["absolute", "relative", "poisson"]


@dataclass(frozen=True)
class Example:
    """Data the entry generates for its own checks (the coverage test) and
    for the labelled evaluation folders: true parameters, the sampling of
    each independent variable (several are crossed as a grid), the noise."""

    truth: tuple[tuple[str, float], ...]
    ranges: tuple[ExampleRange, ...]
    n: int = 15
    noise: float = 0.01  # sigma: in the response's unit ("absolute") or a fraction ("relative")
    noise_kind: NoiseKind = "absolute"
    inputs: tuple[tuple[str, float], ...] = ()  # values of the inputs the formula needs

    def truth_dict(self) -> dict[str, float]:
        return dict(self.truth)

    def inputs_dict(self) -> dict[str, float]:
        return dict(self.inputs)


@dataclass(frozen=True)
class ModelEntry:
    key: str
    area: str  # mechanics, thermal, electricity, optics, modern, chemistry, biology, ...
    name: Text
    formula: str
    latex: str
    variables: tuple[Variable, ...]
    parameters: tuple[Parameter, ...]
    aliases: Phrases = Phrases()
    asks: Phrases = Phrases()
    constants: tuple[Constant, ...] = ()
    inputs: tuple[Input, ...] = ()
    derived: tuple[Derived, ...] = ()
    linear_plot: LinearPlot | None = None
    references: tuple[Reference, ...] = ()
    procedure: str | None = None
    composite: Composite | None = None
    inverse: Inverse | None = None
    example: Example | None = None
    source_file: str = ""  # the TOML file it came from (for error messages)
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def response(self) -> Variable:
        return next(v for v in self.variables if v.role == "response")

    @property
    def independents(self) -> tuple[Variable, ...]:
        return tuple(v for v in self.variables if v.role == "independent")

    def inverted(self) -> ModelEntry:
        """The entry fitted the other way round: its inverse's formula, the
        one independent variable as the response and the response as the
        independent variable; parameters, derived quantities and references
        are the same. No linearised plot (it is the original's) and no
        example (the original's checks it)."""
        if self.inverse is None:
            raise ValueError(f"{self.key} has no inverse")
        (x,) = self.independents
        swapped = tuple(
            replace(v, role="response" if v.name == x.name else "independent")
            for v in self.variables
        )
        return replace(
            self,
            formula=self.inverse.formula,
            latex=self.inverse.latex,
            variables=swapped,
            linear_plot=None,
            inverse=None,
            example=None,
            extra={**self.extra, "inverted": True},
        )

    def with_inputs_as_variables(self, names: Iterable[str]) -> ModelEntry:
        """The entry with the inputs `names` read per row, as independent
        variables: a quantity the law takes as given (a tuning fork's
        frequency) that the table holds a column of, one value per row (one
        fork per row). Self when none of `names` is an input."""
        wanted = set(names)
        moved = tuple(i for i in self.inputs if i.name in wanted)
        if not moved:
            return self
        as_variables = tuple(i.as_variable() for i in moved)
        per_row = (*self.per_row_inputs, *(i.name for i in moved))
        return replace(
            self,
            variables=(*self.variables, *as_variables),
            inputs=tuple(i for i in self.inputs if i.name not in wanted),
            example=None,  # the example gives the inputs as values
            extra={**self.extra, "per_row_inputs": per_row},
        )

    @property
    def per_row_inputs(self) -> tuple[str, ...]:
        """The inputs `with_inputs_as_variables` made variables."""
        value = self.extra.get("per_row_inputs", ())
        return tuple(value) if isinstance(value, tuple) else ()

    @property
    def is_inverted(self) -> bool:
        """True for `inverted()`'s entry: its response is the original's
        independent variable (set by key, the catalogue's own entry differs)."""
        return self.extra.get("inverted") is True

    def quantity_keys(self) -> tuple[str, ...]:
        """Everything a request may ask of this model: parameters and derived."""
        return tuple(p.name for p in self.parameters) + tuple(d.key for d in self.derived)

    def variable(self, name: str) -> Variable | None:
        return next((v for v in self.variables if v.name == name), None)

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def derived_quantity(self, key: str) -> Derived | None:
        return next((d for d in self.derived if d.key == key), None)

    def label_of(self, quantity: str) -> Text | None:
        """The display name of a parameter or derived quantity."""
        p = self.parameter(quantity)
        if p is not None:
            return p.label
        d = self.derived_quantity(quantity)
        return None if d is None else d.label

    def asks_of(self, quantity: str) -> Phrases:
        """The phrases that ask for a parameter or derived quantity."""
        p = self.parameter(quantity)
        if p is not None:
            return p.asks
        d = self.derived_quantity(quantity)
        return Phrases() if d is None else d.asks
