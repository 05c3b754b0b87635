"""The one fit engine: every catalogue entry is fitted here (issue 20).

`fit(entry, data)` fits the entry's formula to the data by least squares
(lmfit), with the entry's bounds and start rules, and returns the
parameters and the derived quantities as `uncertainties` numbers in their
display units. Nothing here knows a particular law: the entry is data.

Units. The columns arrive in whatever units the lab wrote (`FitData.units`).
A variable the law needs on an absolute scale (`Variable.absolute`) is put
in kelvin first (°C data for an Arrhenius plot). The formula is then
evaluated in SI base units, where any dimensionally sound formula is
numerically right (k_B*T/h is in 1/s whatever unit the rate column uses;
sin of an angle in degrees is the sine of its radians), while the optimiser
sees each parameter in its *natural* unit, the unit its template resolves to
with the data's units (`{v}/{S}`: µM/min per mM), so the numbers it moves
are of the size the data suggest, never 1e-9 m. Results are converted to
each parameter's display unit (`Parameter.display_unit`) or to a readable
form of the natural unit (units of one dimension cancelled).

Uncertainty. With `FitData.sigma` (the standard uncertainty of each
response value) the fit is weighted and the covariance is taken as is;
without it the covariance is scaled by the reduced chi-square (the residual
scatter estimates the noise). The fitted parameters become correlated
`uncertainties` numbers (`correlated_values`), so a derived quantity
(`Derived.expr`, `Vmax/(E0*Km)`) carries the parameters' correlation, and
the inputs and constants with an uncertainty enter as uncertain numbers too.

Composite entries (N peaks over a baseline) are fitted with lmfit's
built-in peak models in `analysis/engine_peaks.py`.

Starts. The start rules (`Parameter.start`, `catalogue/starts.py`) are
evaluated like the formula, in SI base units, on the data sorted by the
first independent variable (a rule is physics: `max(V)/2`, not a unit
conversion written into it). Bounds are read in the entry's typical units. When the
first fit fails (no convergence, no covariance, a parameter stuck on a
bound) a few deterministic perturbations of the start are tried and the
best successful one is kept: a start rule is an estimate, and a law like a
damped oscillation has neighbouring minima.

"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np

from labwright.analysis import quantities
from labwright.analysis.catalogue import load
from labwright.analysis.catalogue.expr import ARRAY, UNCERTAIN, UNITS, Expr, parse_equation
from labwright.analysis.catalogue.expr import parse_expression as _parse
from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.catalogue.starts import START_FUNCTIONS, STARTS

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
#: An `uncertainties` number (the package has no type annotations).
UFloat = Any

#: When the first fit fails: each parameter's start times these factors,
#: then this many random joint perturbations (deterministic: seed 0).
DECADES = (0.1, 10.0, 0.01, 100.0, 1e-3, 1e3)
RETRIES = 6


@dataclass(frozen=True)
class FitData:
    """The data of one fit, bound to the entry's symbols.

    `variables`: every variable of the entry (independents and the response)
    by its symbol, as arrays of one length. `units`: the unit each was
    written in ("°C", "mM", "counts/s"); None is a column without a unit
    (taken in the variable's typical unit when the law gives it a dimension,
    else as a pure number). `inputs`: the quantities the notes give (floats
    or `uncertainties` numbers), in `input_units` (default: the input's unit
    in the entry, resolved with the data's units). `sigma`: the standard
    uncertainty of each response value, in the response's unit (weights the
    fit; the covariance is then not rescaled). `fixed`: parameters held at a
    value, in the unit `FitResult.units` reports for them. `peaks`: the
    number of peaks of a composite entry (None: chosen by AICc); `baseline`:
    its baseline ("constant", "linear", "quadratic"; None: chosen by AICc).
    """

    variables: Mapping[str, Any]
    units: Mapping[str, str | None] = field(default_factory=dict)
    inputs: Mapping[str, Any] = field(default_factory=dict)
    input_units: Mapping[str, str | None] = field(default_factory=dict)
    sigma: Any = None
    fixed: Mapping[str, float] = field(default_factory=dict)
    peaks: int | None = None
    baseline: str | None = None


@dataclass(frozen=True)
class FitResult:
    """The fit of one entry to one data set.

    `values`: parameters by name and derived quantities by key, as
    `uncertainties` numbers in `units` (display units, "kJ/mol"; None for a
    pure number). `residuals` (data - model) and `fitted` are in the
    response's unit, one per row of the data (NaN where a row was not used,
    see `used`). `message` says in one sentence (EN, ZH) why the fit is not
    `ok`; `skipped` says why a derived quantity is missing (an input the
    notes do not give).
    """

    key: str
    ok: bool
    values: dict[str, UFloat] = field(default_factory=dict)
    units: dict[str, str | None] = field(default_factory=dict)
    n: int = 0
    dof: int = 0
    chisqr: float = math.nan
    redchi: float = math.nan
    aicc: float = math.nan
    r2: float = math.nan
    residuals: FloatArray = field(default_factory=lambda: np.zeros(0))
    fitted: FloatArray = field(default_factory=lambda: np.zeros(0))
    used: np.ndarray[Any, np.dtype[np.bool_]] = field(
        default_factory=lambda: np.zeros(0, dtype=bool)
    )
    weighted: bool = False
    fixed: tuple[str, ...] = ()
    message: Text | None = None
    skipped: dict[str, Text] = field(default_factory=dict)
    starts_tried: int = 0
    #: A composite fit: the number of peaks and the baseline chosen (0, None otherwise).
    peaks: int = 0
    baseline: str | None = None
    _curve: Callable[[Mapping[str, Any]], FloatArray] | None = field(
        default=None, repr=False, compare=False
    )

    def curve(self, grid: Mapping[str, Any]) -> FloatArray:
        """The fitted response over `grid` (independent variables by symbol,
        in the units of the data), in the response's unit: for figures."""
        if self._curve is None:
            raise ValueError(f"the fit of {self.key} did not succeed, so it has no curve")
        return self._curve(grid)

    def value(self, name: str) -> float:
        return float(self.values[name].nominal_value)

    def se(self, name: str) -> float:
        return float(self.values[name].std_dev)

    @property
    def parameters(self) -> tuple[str, ...]:
        """Names of the fitted parameters (the other values are derived)."""
        return self._params

    _params: tuple[str, ...] = field(default=(), repr=False, compare=False)


def _failed(key: str, en: str, zh: str, **extra: Any) -> FitResult:
    return FitResult(key=key, ok=False, message=Text(en, zh), **extra)


# ---------------------------------------------------------------------------
# Units: the plan of one entry for one set of data units (cached)


@dataclass(frozen=True)
class _Scale:
    """How values in a work unit become SI base values: base = work * factor.
    `absolute`: the data are temperatures put in kelvin first."""

    unit: Any  # pint unit of the work values
    factor: float
    data_unit: str | None = None
    absolute: bool = False

    def work(self, values: FloatArray) -> FloatArray:
        if self.absolute:
            converted = quantities.to_absolute(values, self.data_unit)
            return values if converted is None else converted[0]
        return values

    def data(self, values: FloatArray) -> FloatArray:
        """Work values back in the data's unit (kelvin back to °C)."""
        if self.absolute and self.data_unit is not None:
            reg = quantities.registry()
            unit = quantities.parse_unit(self.data_unit)
            return np.asarray(reg.Quantity(values, reg.kelvin).to(unit).magnitude, dtype=float)
        return values


@dataclass(frozen=True)
class _Plan:
    rhs: Expr
    variables: dict[str, _Scale]  # every variable
    params: dict[str, _Scale]  # natural unit of each parameter
    typical_params: dict[str, float]  # bounds: typical-unit value * this = natural value
    display: dict[str, tuple[str | None, float]]  # display text, natural -> display factor
    constants: dict[str, UFloat]  # base values
    input_scales: dict[str, _Scale]
    derived: dict[str, tuple[str | None, float] | None]  # display text, base factor
    problem: Text | None = None


def _base_factor(unit: Any) -> float:
    return float(quantities.registry().Quantity(1.0, unit).to_base_units().magnitude)


def _work_units(entry: ModelEntry, units: Mapping[str, str | None]) -> dict[str, str | None]:
    """The unit of each variable's values as the fit reads them: the data's
    unit when pint reads it; for a column without one, the law's typical
    unit when the law gives the variable a dimension, else a pure number."""
    out: dict[str, str | None] = {}
    for v in entry.variables:
        given = units.get(v.name)
        if given is not None and quantities.normalise_unit(given) is not None:
            out[v.name] = given
        elif given is None and v.unit is not None and v.dimension != "any":
            out[v.name] = v.unit
        else:
            out[v.name] = None
    return out


def _readable(unit: Any) -> tuple[Any, float]:
    """A readable unit for a natural unit, and the factor natural -> readable."""
    reg = quantities.registry()
    if len(getattr(unit, "_units", {})) <= 1:
        return unit, 1.0  # one unit is readable as it is (pint would put degrees in radians)
    try:
        q = quantities.readable(reg.Quantity(1.0, unit))
    except Exception:  # pint cannot reduce some fractional powers (S·cm²·L^½/mol^1.5)
        return unit, 1.0
    return q.units, float(q.magnitude)


def _show(unit: Any) -> str | None:
    text = quantities.display(unit)
    return text or None


def _has_dimension(dimension: str, unit: Any) -> bool:
    """The unit is of the variable's dimension ("[length]"; "any" takes all)."""
    if dimension == "any":
        return True
    try:
        wanted = quantities.registry().get_dimensionality(dimension)
    except Exception:  # a dimension pint does not read: nothing to hold the data to
        return True
    return bool(unit.dimensionality == wanted)


@lru_cache(maxsize=512)
def _any_unit(entry: ModelEntry, variable: str) -> bool:
    """The law holds whatever the unit of this variable: its parameters take
    their units from it (Km in the unit of S, Vmax in that of v), so real
    data in a proxy unit (ppm, counts per minute: `quantities.is_proxy`) fit
    it as well as the textbook's mM and µM/s. Probed with a unit of a
    dimension no law uses (the candela): a law that holds with S in cd holds
    in any unit of S."""
    return load.holds_in(entry, {variable: "cd"})


@lru_cache(maxsize=512)
def _plan(
    entry: ModelEntry,
    units_items: tuple[tuple[str, str | None], ...],
    input_items: tuple[tuple[str, str | None], ...],
) -> _Plan:
    reg = quantities.registry()
    work = _work_units(entry, dict(units_items))
    symbol = load.symbol_units(entry, work)
    variables: dict[str, _Scale] = {}
    for v in entry.variables:
        unit = symbol[v.name]
        absolute = v.absolute and quantities.is_temperature(work[v.name])
        variables[v.name] = _Scale(unit, _base_factor(unit), work[v.name], absolute)
    typical = load.symbol_units(entry)
    params: dict[str, _Scale] = {}
    typical_params: dict[str, float] = {}
    display: dict[str, tuple[str | None, float]] = {}
    for p in entry.parameters:
        unit = symbol[p.name]
        params[p.name] = _Scale(unit, _base_factor(unit))
        typical_params[p.name] = (
            _base_factor(typical[p.name]) / params[p.name].factor
            if typical[p.name].dimensionality == unit.dimensionality
            else 1.0
        )
        target, to_display = None, 1.0
        if p.display_unit is not None:
            target = quantities.parse_unit(p.display_unit, difference=True)
            if target is not None and target.dimensionality == unit.dimensionality:
                to_display = float(reg.Quantity(1.0, unit).to(target).magnitude)
            else:
                target = None
        if target is None:
            target, to_display = _readable(unit)
        display[p.name] = (_show(target), to_display)
    given_inputs = dict(input_items)
    input_scales: dict[str, _Scale] = {}
    for i in entry.inputs:
        unit = symbol[i.name]
        text = given_inputs.get(i.name)
        absolute = False
        if text is not None:
            parsed = quantities.parse_unit(text, difference=True)
            if parsed is not None and parsed.dimensionality == unit.dimensionality:
                # A temperature the notes give in °C is a point on the scale: kelvin.
                absolute = quantities.is_temperature(text) and parsed != reg.kelvin
                unit = reg.kelvin if absolute else parsed
        input_scales[i.name] = _Scale(unit, _base_factor(unit), text, absolute)
        symbol[i.name] = unit
    constants: dict[str, UFloat] = {}
    for c in entry.constants:
        f = _base_factor(symbol[c.name])
        if c.uncertainty:
            from uncertainties import ufloat

            constants[c.name] = ufloat(c.value * f, c.uncertainty * f, tag=c.name)
        else:
            constants[c.name] = c.value * f
    equation = parse_equation(entry.formula)
    problem = None
    try:
        env = load.quantity_env(entry, symbol)
        lhs, rhs = equation.lhs.evaluate(env, UNITS), equation.rhs.evaluate(env, UNITS)
        dims = [getattr(q, "dimensionality", reg.dimensionless.dimensionality) for q in (lhs, rhs)]
        sound = dims[0] == dims[1]
    except Exception:
        sound = False
    if sound:
        sound = all(
            _has_dimension(v.dimension, symbol[v.name])
            or (quantities.is_proxy(work[v.name]) and _any_unit(entry, v.name))
            for v in entry.variables
        )
    if not sound:
        written = ", ".join(f"{k} in {u}" for k, u in work.items() if u)
        written_zh = "，".join(f"{k}：{u}" for k, u in work.items() if u)
        problem = Text(
            f"The units of the columns ({written or 'none'}) do not fit {entry.name.en}; "
            "check which column is which and its unit.",
            f"各列的单位（{written_zh or '无'}）与{entry.name.zh}不相符；请检查各列的对应关系及其单位。",
        )
    return _Plan(
        rhs=equation.rhs,
        derived=_derived_units(entry, symbol, variables[entry.response.name].unit),
        variables=variables,
        params=params,
        typical_params=typical_params,
        display=display,
        constants=constants,
        input_scales=input_scales,
        problem=problem,
    )


def _derived_units(
    entry: ModelEntry, symbol: Mapping[str, Any], response_unit: Any
) -> dict[str, tuple[str | None, float] | None]:
    """The display unit of each derived quantity for these data (its
    `Derived.unit`, else the readable unit of its expression in the data's
    units: a half-life of data in minutes is in minutes) and that unit's
    factor to base units; None when its expression is unsound in these units."""
    reg = quantities.registry()
    env = load.quantity_env(entry, symbol)
    env.update({"s_res": reg.Quantity(1.0, response_unit), "n_points": 1.0})
    out: dict[str, tuple[str | None, float] | None] = {}
    for d in entry.derived:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                unit = getattr(_expr(d.expr).evaluate(env, UNITS), "units", reg.dimensionless)
        except Exception:  # pint's DimensionalityError: data in units the law does not take
            out[d.key] = None
            env[d.key] = reg.Quantity(1.0, "")
            continue
        target = None
        if d.unit is not None:
            target = quantities.parse_unit(d.unit, difference=True)
            if target is not None and target.dimensionality != unit.dimensionality:
                target = None
        if target is None:
            target, _ = _readable(unit)
        out[d.key] = (_show(target), _base_factor(target))
        env[d.key] = reg.Quantity(1.0, target)
    return out


@lru_cache(maxsize=1024)
def _start_expr(text: str) -> Expr:
    return _parse(text, START_FUNCTIONS)


@lru_cache(maxsize=1024)
def _expr(text: str) -> Expr:
    return _parse(text)


def _nominal(value: Any) -> float:
    return float(getattr(value, "nominal_value", value))


# ---------------------------------------------------------------------------
# The fit


@dataclass
class _Prepared:
    plan: _Plan
    x_base: dict[str, FloatArray]  # independents in base units (used rows)
    y: FloatArray  # response in its work unit (used rows)
    sigma: FloatArray | None
    used: np.ndarray[Any, np.dtype[np.bool_]]
    inputs_base: dict[str, UFloat]  # inputs and constants, base units
    length: int


def _prepare(entry: ModelEntry, data: FitData) -> _Prepared | FitResult:
    missing = [v.name for v in entry.variables if v.name not in data.variables]
    if missing:
        names = ", ".join(missing)
        return _failed(
            entry.key,
            f"The data have no column for {names}; bind a column to each variable of the law.",
            f"数据中没有与 {names} 对应的列；请为定律的每个变量指定一列。",
        )
    try:
        plan = _plan(
            entry,
            tuple(sorted((k, data.units.get(k)) for k in (v.name for v in entry.variables))),
            tuple(sorted(data.input_units.items())),
        )
    except Exception as exc:  # a unit pint reads but cannot convert as the law needs
        return _failed(
            entry.key,
            f"The units of the columns cannot be used for {entry.name.en} ({exc}); "
            "check the units in the headers.",
            f"各列的单位无法用于{entry.name.zh}（{exc}）；请检查表头中的单位。",
        )
    if plan.problem is not None:
        return FitResult(key=entry.key, ok=False, message=plan.problem)
    arrays = {
        name: np.asarray(data.variables[name], dtype=float).ravel()
        for name in (v.name for v in entry.variables)
    }
    lengths = {a.size for a in arrays.values()}
    if len(lengths) != 1:
        return _failed(
            entry.key,
            "The columns of the fit have different lengths; give one value of each per row.",
            "拟合所用各列的长度不同；请每行给出每个量的一个值。",
        )
    length = lengths.pop()
    work = {name: plan.variables[name].work(a) for name, a in arrays.items()}
    used = np.ones(length, dtype=bool)
    for a in work.values():
        used &= np.isfinite(a)
    sigma = None
    if data.sigma is not None:
        sigma_all = np.broadcast_to(np.asarray(data.sigma, dtype=float), (length,))
        used &= np.isfinite(sigma_all) & (sigma_all > 0)
        sigma = np.array(sigma_all[used], dtype=float)
    values: dict[str, UFloat] = dict(plan.constants)
    for i in entry.inputs:
        given = data.inputs.get(i.name, i.default)
        if given is not None:
            scale = plan.input_scales[i.name]
            if scale.absolute and i.name in data.inputs:
                offset = float(scale.work(np.zeros(1))[0])
                given = given * (float(scale.work(np.ones(1))[0]) - offset) + offset
            values[i.name] = given * scale.factor
    needed = sorted(plan.rhs.names - set(values) - set(arrays) - {p.name for p in entry.parameters})
    if needed:
        labels = [next((i.label for i in entry.inputs if i.name == n), Text(n, n)) for n in needed]
        en = ", ".join(f"{t.en} ({n})" for t, n in zip(labels, needed, strict=True))
        zh = "、".join(f"{t.zh}（{n}）" for t, n in zip(labels, needed, strict=True))
        return _failed(
            entry.key,
            f"{entry.name.en} needs {en}, which the notes do not give; write its value in the notes.",
            f"{entry.name.zh}需要{zh}，但笔记中没有给出；请在笔记中写明其数值。",
        )
    response = entry.response.name
    x_base = {
        v.name: work[v.name][used] * plan.variables[v.name].factor for v in entry.independents
    }
    return _Prepared(
        plan=plan,
        x_base=x_base,
        y=work[response][used],
        sigma=sigma,
        used=used,
        inputs_base=values,
        length=length,
    )


def _starts(entry: ModelEntry, prep: _Prepared, fixed: Mapping[str, float]) -> dict[str, float]:
    """Start values in natural units. A start rule is physics like the
    formula, so it is evaluated as the formula is, in SI base units (data,
    constants, inputs and earlier parameters), on the data sorted by the
    first independent variable: `0.886*lam*L/fwhm(x, I)` is a slit width
    whatever units λ, L and x were written in, and half the largest volume
    is `max(V)/2`, never `max(V)/2000`."""
    plan = prep.plan
    first = entry.independents[0].name
    order = np.argsort(prep.x_base[first], kind="stable")
    env: dict[str, Any] = {name: _nominal(v) for name, v in prep.inputs_base.items()}
    env.update({name: x[order] for name, x in prep.x_base.items()})
    response = entry.response.name
    env[response] = prep.y[order] * plan.variables[response].factor
    starts: dict[str, float] = {}
    for p in entry.parameters:
        scale = plan.params[p.name].factor
        if p.name in fixed:
            value = fixed[p.name]
        elif p.start is not None:
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = float(_start_expr(p.start).evaluate(env, STARTS)) / scale
            except (ArithmeticError, ValueError, TypeError):
                value = math.nan
        else:
            value = math.nan
        if not math.isfinite(value):
            value = 1.0
        low, high = _bounds(plan, p.name, p.min, p.max)
        if value <= low or value >= high:
            value = _inside(value, low, high)
        starts[p.name] = value
        env[p.name] = value * scale
    return starts


def _bounds(plan: _Plan, name: str, low: float | None, high: float | None) -> tuple[float, float]:
    f = plan.typical_params[name]
    return (
        -math.inf if low is None else low * f,
        math.inf if high is None else high * f,
    )


def _inside(value: float, low: float, high: float) -> float:
    """A start strictly inside (low, high), near `value`."""
    if math.isfinite(low) and math.isfinite(high):
        return low + (high - low) * (
            0.5 if not math.isfinite(value) else 0.1 if value <= low else 0.9
        )
    if math.isfinite(low):
        return low + max(abs(low), 1.0) * 0.1 if value <= low else value
    return high - max(abs(high), 1.0) * 0.1 if value >= high else value


def _model(
    entry: ModelEntry, prep: _Prepared
) -> Callable[[Mapping[str, float], Mapping[str, FloatArray]], FloatArray]:
    """The formula as a function of natural-unit parameters over base-unit
    independents, giving the response in its work unit."""
    plan = prep.plan
    scales = {name: s.factor for name, s in plan.params.items()}
    response_factor = plan.variables[entry.response.name].factor
    constants = {name: _nominal(v) for name, v in prep.inputs_base.items()}
    rhs = plan.rhs

    def model(params: Mapping[str, float], x: Mapping[str, FloatArray]) -> FloatArray:
        env: dict[str, Any] = dict(constants)
        env.update(x)
        for name, value in params.items():
            env[name] = value * scales[name]
        with np.errstate(all="ignore"):
            out = rhs.evaluate(env, ARRAY)
        size = next(iter(x.values())).shape
        return np.broadcast_to(np.asarray(out, dtype=float) / response_factor, size)

    return model


def fit(entry: ModelEntry, data: FitData) -> FitResult:
    """Fit `entry` to `data`; never raises for bad data (the result says why
    it is not ok in one sentence)."""
    if entry.composite is not None:
        from labwright.analysis.engine_peaks import fit_peaks

        return fit_peaks(entry, data)
    prep = _prepare(entry, data)
    if isinstance(prep, FitResult):
        return prep
    unknown = set(data.fixed) - {p.name for p in entry.parameters}
    if unknown:
        names = ", ".join(sorted(unknown))
        return _failed(
            entry.key,
            f"{names} is not a parameter of {entry.name.en}; fix only its parameters.",
            f"{names} 不是{entry.name.zh}的参数；只能固定该定律的参数。",
        )
    plan = prep.plan
    fixed = {
        name: value / plan.display[name][1] for name, value in data.fixed.items()
    }  # display -> natural units
    varied = [p for p in entry.parameters if p.name not in fixed]
    n = int(prep.y.size)
    if n <= len(varied):
        return _failed(
            entry.key,
            f"{n} usable points cannot determine {len(varied)} parameters; measure more points.",
            f"{n} 个有效数据点无法确定 {len(varied)} 个参数；请测量更多数据点。",
            n=n,
            used=prep.used,
        )
    model = _model(entry, prep)
    starts = _starts(entry, prep, fixed)
    best, tried = _minimise(entry, prep, model, starts, fixed)
    if best is None:
        return _failed(
            entry.key,
            f"The fit of {entry.name.en} did not converge from {tried} starts; "
            "check the columns and the units, or give a start value.",
            f"{entry.name.zh}的拟合从 {tried} 个初值出发均未收敛；请检查数据列和单位，或给出初值。",
            n=n,
            used=prep.used,
            starts_tried=tried,
        )
    return _result(entry, data, prep, model, best, fixed, tried)


def in_display_units(
    entry: ModelEntry, units: Mapping[str, str | None], natural: Mapping[str, float]
) -> dict[str, float]:
    """Parameter values in the units their templates give for data in
    `units` ("{v}/{S}" with µM/min and mM), as `fit` would report them (in
    the display units): the truth of an example, a start the notes give."""
    plan = _plan(entry, tuple(sorted((v.name, units.get(v.name)) for v in entry.variables)), ())
    return {name: value * plan.display[name][1] for name, value in natural.items()}


@dataclass(frozen=True)
class _Best:
    values: dict[str, float]  # natural units
    covar: FloatArray  # of the varied parameters, natural units
    chisqr: float


def _minimise(
    entry: ModelEntry,
    prep: _Prepared,
    model: Callable[[Mapping[str, float], Mapping[str, FloatArray]], FloatArray],
    starts: Mapping[str, float],
    fixed: Mapping[str, float],
) -> tuple[_Best | None, int]:
    """The best fit over the start and, when it fails, perturbed starts."""
    from labwright.analysis.lmfit_import import import_lmfit

    lmfit = import_lmfit()

    plan = prep.plan
    y, sigma, x = prep.y, prep.sigma, prep.x_base
    names = [p.name for p in entry.parameters]
    # The optimiser moves each parameter in units of its start (|start| = 1):
    # lmfit's bound transform adds 1 to a bounded value, which a Planck
    # constant in J·s (6.6e-34) or a prefactor of 2e-12 W would not survive.
    scale = {name: abs(v) if math.isfinite(v) and v != 0 else 1.0 for name, v in starts.items()}

    def residual(params: Any) -> FloatArray:
        values = {name: params[name].value * scale[name] for name in names}
        r = model(values, x) - y
        return r / sigma if sigma is not None else r

    def one(start: Mapping[str, float]) -> _Best | None:
        # A list of Parameter objects, not a Parameters: lmfit then builds one
        # asteval interpreter per fit instead of two (a third of a small fit's time).
        params = [
            lmfit.Parameter(
                p.name,
                value=start[p.name] / scale[p.name],
                vary=p.name not in fixed,
                min=low / scale[p.name],
                max=high / scale[p.name],
            )
            for p in entry.parameters
            for low, high in [_bounds(plan, p.name, p.min, p.max)]
        ]
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = lmfit.minimize(
                    residual, params, method="leastsq", scale_covar=sigma is None,
                    nan_policy="raise",
                )  # fmt: skip
        except (ValueError, ArithmeticError, TypeError, np.linalg.LinAlgError):
            return None
        if not _good(out, names, fixed):
            return None
        varied = [n for n in names if n not in fixed]
        d = np.array([scale[n] for n in varied])
        return _Best(
            values={n: float(out.params[n].value) * scale[n] for n in names},
            covar=np.asarray(out.covar, dtype=float) * np.outer(d, d),
            chisqr=float(out.chisqr),
        )

    first = one(starts)
    if first is not None:
        return first, 1
    # Each parameter a few decades either way (a start rule wrong in scale),
    # then all together at random (seed 0: the same data give the same fit).
    trials: list[dict[str, float]] = []
    free = [p for p in entry.parameters if p.name not in fixed]
    for p in free:
        for factor in DECADES:
            trials.append({**starts, p.name: _scaled(plan, p.name, p.min, p.max, starts, factor)})
    rng = np.random.default_rng(0)
    for _ in range(RETRIES):
        trial = dict(starts)
        for p in free:
            factor = float(10 ** rng.uniform(-1.5, 1.5)) * (-1 if rng.random() < 0.15 else 1)
            trial[p.name] = _scaled(plan, p.name, p.min, p.max, starts, factor)
        trials.append(trial)
    results = [r for r in (one(t) for t in trials) if r is not None]
    tried = 1 + len(trials)
    if not results:
        return None, tried
    return min(results, key=lambda r: r.chisqr), tried


def _scaled(
    plan: _Plan,
    name: str,
    low: float | None,
    high: float | None,
    starts: Mapping[str, float],
    factor: float,
) -> float:
    lo, hi = _bounds(plan, name, low, high)
    s = starts[name]
    value = (s if s != 0 else (1.0 if hi > 0 else -1.0)) * factor
    return value if lo < value < hi else _inside(value, lo, hi)


def _good(out: Any, names: list[str], fixed: Mapping[str, float]) -> bool:
    if not getattr(out, "success", False) or out.covar is None:
        return False
    if not np.all(np.isfinite(out.covar)) or not math.isfinite(float(out.chisqr)):
        return False
    for name in names:
        if name in fixed:
            continue
        par = out.params[name]
        if not math.isfinite(par.value) or par.stderr is None or not math.isfinite(par.stderr):
            return False
        for bound in (par.min, par.max):
            if math.isfinite(bound) and abs(par.value - bound) <= 1e-9 * max(abs(bound), 1.0):
                return False
    return True


def _with_input_uncertainty(
    entry: ModelEntry,
    prep: _Prepared,
    natural: dict[str, UFloat],
    best: Mapping[str, float],
    fixed: Mapping[str, float],
    varied: Sequence[str],
) -> dict[str, UFloat]:
    """The parameters with the uncertainty of the inputs the law uses added
    (a wire's diameter measured five times: E ∝ 1/d², so its 0.14 % is 0.28 %
    of E, which the fit's scatter alone does not see). Each uncertain input's
    sensitivity is found by refitting with the input one standard uncertainty
    up; the parameter then carries the input's own uncertain number, so a
    quantity derived from both keeps their correlation."""
    in_law = plan_symbols(prep.plan)
    uncertain = {
        name: value
        for name, value in prep.inputs_base.items()
        if name in in_law and getattr(value, "std_dev", 0.0) > 0 and math.isfinite(value.std_dev)
    }
    if not uncertain or not varied:
        return natural
    out = dict(natural)
    for name, value in uncertain.items():
        shifted = dict(prep.inputs_base)
        shifted[name] = value.nominal_value + value.std_dev
        moved = replace(prep, inputs_base=shifted)
        refit, _ = _minimise(entry, moved, _model(entry, moved), dict(best), fixed)
        if refit is None:
            continue
        for p in varied:
            slope = (refit.values[p] - best[p]) / value.std_dev
            if math.isfinite(slope) and slope != 0:
                out[p] = out[p] + slope * (value - value.nominal_value)
    return out


def plan_symbols(plan: _Plan) -> set[str]:
    """The names the law's right-hand side uses."""
    return set(plan.rhs.names)


def _result(
    entry: ModelEntry,
    data: FitData,
    prep: _Prepared,
    model: Callable[[Mapping[str, float], Mapping[str, FloatArray]], FloatArray],
    out: _Best,
    fixed: Mapping[str, float],
    tried: int,
) -> FitResult:
    from uncertainties import correlated_values, ufloat

    plan = prep.plan
    varied = [p.name for p in entry.parameters if p.name not in fixed]
    best = out.values
    covar = out.covar
    natural: dict[str, UFloat] = dict(
        zip(varied, correlated_values([best[n] for n in varied], covar, tags=varied), strict=True)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a fixed value is exact: std_dev 0 on purpose
        for name in fixed:
            natural[name] = ufloat(best[name], 0.0, tag=name)
    natural = _with_input_uncertainty(entry, prep, natural, best, fixed, varied)
    fitted_used = model(best, prep.x_base)
    r = prep.y - fitted_used
    n, k = int(prep.y.size), len(varied)
    dof = n - k
    chisqr = out.chisqr
    ss_res = float(np.sum(r**2))
    ss_tot = float(np.sum((prep.y - prep.y.mean()) ** 2))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else math.nan
    aicc = corrected_aic(chisqr, n, k)
    values: dict[str, UFloat] = {}
    units: dict[str, str | None] = {}
    for p in entry.parameters:
        text, factor = plan.display[p.name]
        values[p.name] = natural[p.name] * factor
        units[p.name] = text
    skipped = _derived(entry, prep, natural, values, units, ss_res, n, dof)
    response = plan.variables[entry.response.name]
    residuals = np.full(prep.length, np.nan)
    fitted = np.full(prep.length, np.nan)
    fitted[prep.used] = response.data(fitted_used)
    data_y = response.work(np.asarray(data.variables[entry.response.name], dtype=float).ravel())
    residuals[prep.used] = data_y[prep.used] - fitted_used

    def curve(grid: Mapping[str, Any]) -> FloatArray:
        x = {}
        for v in entry.independents:
            scale = plan.variables[v.name]
            x[v.name] = scale.work(np.asarray(grid[v.name], dtype=float)) * scale.factor
        shaped = np.broadcast_arrays(*x.values())
        x = {name: np.asarray(a, dtype=float) for name, a in zip(x, shaped, strict=True)}
        return response.data(np.array(model(best, x), dtype=float))

    return FitResult(
        key=entry.key,
        ok=True,
        values=values,
        units=units,
        n=n,
        dof=dof,
        chisqr=chisqr,
        redchi=chisqr / dof if dof > 0 else math.nan,
        aicc=aicc,
        r2=r2,
        residuals=residuals,
        fitted=fitted,
        used=prep.used,
        weighted=prep.sigma is not None,
        fixed=tuple(fixed),
        skipped=skipped,
        starts_tried=tried,
        _curve=curve,
        _params=tuple(p.name for p in entry.parameters),
    )


def corrected_aic(chisqr: float, n: int, k: int) -> float:
    """The corrected Akaike criterion of a least-squares fit."""
    if n <= 0 or chisqr <= 0:
        return -math.inf if chisqr == 0 else math.nan
    aic = n * math.log(chisqr / n) + 2 * k
    return aic + (2 * k * (k + 1) / (n - k - 1) if n - k - 1 > 0 else math.inf)


def _derived(
    entry: ModelEntry,
    prep: _Prepared,
    natural: Mapping[str, UFloat],
    values: dict[str, UFloat],
    units: dict[str, str | None],
    ss_res: float,
    n: int,
    dof: int,
) -> dict[str, Text]:
    """Evaluate the derived quantities on uncertain numbers in base units
    (numerically right for any sound expression), each put in its display
    unit (`Derived.unit`, else the readable unit of the expression in the
    data's units). Returns why each skipped quantity could not be computed."""
    plan = prep.plan
    response = plan.variables[entry.response.name]
    s_res = math.sqrt(ss_res / dof) if dof > 0 else math.nan
    env: dict[str, Any] = dict(prep.inputs_base)
    for name, value in natural.items():
        env[name] = value * plan.params[name].factor
    env["s_res"] = s_res * response.factor
    env["n_points"] = float(n)
    skipped: dict[str, Text] = {}
    for d in entry.derived:
        expr = _expr(d.expr)
        absent = sorted(expr.names - set(env))
        if absent:
            labels = [
                next((i.label for i in entry.inputs if i.name == a), Text(a, a)) for a in absent
            ]
            skipped[d.key] = Text(
                f"{d.label.en} needs {', '.join(t.en for t in labels)}, which the notes do not give; "
                "write its value in the notes.",
                f"{d.label.zh}需要{'、'.join(t.zh for t in labels)}，但笔记中没有给出；请在笔记中写明其数值。",
            )
            continue
        unit = plan.derived[d.key]
        value = None
        if unit is not None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = expr.evaluate(env, UNCERTAIN)
            except (ArithmeticError, ValueError, TypeError):
                value = None
        if unit is None or value is None or not math.isfinite(_nominal(value)):
            skipped[d.key] = Text(
                f"{d.label.en} cannot be computed from the fitted values and these units.",
                f"无法由拟合值及这些单位计算{d.label.zh}。",
            )
            continue
        values[d.key] = value / unit[1]
        units[d.key] = unit[0]
        env[d.key] = value
    return skipped


# ---------------------------------------------------------------------------
# The linearised fit (Lineweaver–Burk, ln k against 1/T)


@dataclass(frozen=True)
class LineFit:
    """The straight-line fit of the entry's linearised plot.

    `x`, `y`: the plot's coordinates (in base units of the symbols, the
    frame the `from_line` expressions are written in); `slope`, `intercept`
    as correlated `uncertainties` numbers; `values`: the parameters the line
    gives (`from_line`), in the display units of the full fit."""

    key: str
    ok: bool
    x: FloatArray = field(default_factory=lambda: np.zeros(0))
    y: FloatArray = field(default_factory=lambda: np.zeros(0))
    slope: UFloat = None
    intercept: UFloat = None
    values: dict[str, UFloat] = field(default_factory=dict)
    units: dict[str, str | None] = field(default_factory=dict)
    r2: float = math.nan
    n: int = 0
    message: Text | None = None
    #: The same points in the data's own units (1/[S] in 1/mM, not in
    #: m³/mol) for the plot a reader sees, with each axis' unit when pint
    #: gives one (none for ln of a quantity with a unit).
    x_shown: FloatArray = field(default_factory=lambda: np.zeros(0))
    y_shown: FloatArray = field(default_factory=lambda: np.zeros(0))
    x_unit: str | None = None
    y_unit: str | None = None

    def value(self, name: str) -> float:
        return float(self.values[name].nominal_value)

    def se(self, name: str) -> float:
        return float(self.values[name].std_dev)


def _shown(
    entry: ModelEntry,
    prep: _Prepared,
    base_env: Mapping[str, Any],
    exprs: tuple[Expr, Expr],
) -> tuple[tuple[FloatArray, str | None], tuple[FloatArray, str | None]]:
    """The linearised plot's coordinates with every symbol in the unit the
    fit works in for these data (the columns' units; kelvin for an absolute
    temperature), and each coordinate's unit."""
    plan = prep.plan
    reg = quantities.registry()
    scales: dict[str, _Scale] = {**plan.variables, **plan.params, **plan.input_scales}
    env = {
        name: value / scales[name].factor if name in scales else value
        for name, value in base_env.items()
    }
    units = {name: reg.Quantity(1.0, sc.unit) for name, sc in scales.items()}
    for c in entry.constants:
        units.setdefault(c.name, reg.Quantity(1.0, load.symbol_units(entry)[c.name]))
    out = []
    for expr in exprs:
        with np.errstate(all="ignore"):
            values = np.broadcast_to(
                np.asarray(expr.evaluate(env, ARRAY), dtype=float), prep.y.shape
            )
        unit: str | None = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                q = expr.evaluate(units, UNITS)
            target, to_target = _readable(getattr(q, "units", reg.dimensionless))
            magnitude = float(getattr(q, "magnitude", 1.0)) * to_target
            values = values * magnitude
            unit = _show(target)
        except Exception:  # noqa: BLE001 - ln of a quantity with a unit: its numbers, no unit
            unit = None
        out.append((np.array(values, dtype=float), unit))
    return out[0], out[1]


def linear(entry: ModelEntry, data: FitData, full: FitResult | None = None) -> LineFit:
    """Fit the entry's linearised plot by ordinary least squares and read the
    parameters off the line (`linear_plot.from_line`). A plot that names a
    parameter (ln(N − B)) takes it from the full fit, `full` or `fit()`."""
    plot = entry.linear_plot
    if plot is None or not plot.from_line:
        return LineFit(
            key=entry.key,
            ok=False,
            message=Text(
                f"{entry.name.en} has no linearised method.", f"{entry.name.zh}没有线性化方法。"
            ),
        )
    prep = _prepare(entry, data)
    if isinstance(prep, FitResult):
        return LineFit(key=entry.key, ok=False, message=prep.message)
    plan = prep.plan
    env: dict[str, Any] = {name: _nominal(v) for name, v in prep.inputs_base.items()}
    env.update(prep.x_base)
    response = entry.response.name
    env[response] = prep.y * plan.variables[response].factor
    parameters = {p.name for p in entry.parameters}
    x_expr, y_expr = _expr(plot.x), _expr(plot.y)
    if (x_expr.names | y_expr.names) & parameters:
        full = full if full is not None else fit(entry, data)
        if not full.ok:
            return LineFit(key=entry.key, ok=False, message=full.message)
        for name in parameters:
            env[name] = full.value(name) / plan.display[name][1] * plan.params[name].factor
    with np.errstate(all="ignore"):
        xs = np.broadcast_to(np.asarray(x_expr.evaluate(env, ARRAY), dtype=float), prep.y.shape)
        ys = np.broadcast_to(np.asarray(y_expr.evaluate(env, ARRAY), dtype=float), prep.y.shape)
    shown = _shown(entry, prep, env, (x_expr, y_expr))
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = np.array(xs[keep]), np.array(ys[keep])
    x_shown, y_shown = shown[0][0][keep], shown[1][0][keep]
    n = int(xs.size)
    if n < 3 or np.ptp(xs) == 0:
        return LineFit(
            key=entry.key,
            ok=False,
            n=n,
            message=Text(
                "Fewer than three points lie on the linearised plot; measure more points.",
                "线性化作图上的有效点少于三个；请测量更多数据点。",
            ),
        )
    from uncertainties import correlated_values

    design = np.column_stack([xs, np.ones_like(xs)])
    coef, *_ = np.linalg.lstsq(design, ys, rcond=None)
    resid = ys - design @ coef
    s2 = float(resid @ resid) / (n - 2)
    cov = s2 * np.linalg.inv(design.T @ design)
    slope, intercept = correlated_values(coef, cov, tags=["slope", "intercept"])
    ss_tot = float(np.sum((ys - ys.mean()) ** 2))
    line_env: dict[str, Any] = dict(prep.inputs_base)
    line_env.update({"slope": slope, "intercept": intercept})
    values: dict[str, UFloat] = {}
    units: dict[str, str | None] = {}
    for name, text in plot.from_line:
        try:
            base = _expr(text).evaluate(line_env, UNCERTAIN)
        except (ArithmeticError, ValueError, TypeError):
            continue
        display, factor = plan.display[name]
        values[name] = base / plan.params[name].factor * factor
        units[name] = display
    return LineFit(
        key=entry.key,
        ok=bool(values),
        x=xs,
        y=ys,
        slope=slope,
        intercept=intercept,
        values=values,
        units=units,
        r2=1.0 - float(resid @ resid) / ss_tot if ss_tot > 0 else math.nan,
        n=n,
        x_shown=x_shown,
        y_shown=y_shown,
        x_unit=shown[0][1],
        y_unit=shown[1][1],
        message=None
        if values
        else Text(
            "The line's slope or intercept is outside the range the parameters allow.",
            "直线的斜率或截距超出参数允许的范围。",
        ),
    )
