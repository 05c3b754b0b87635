"""A catalogue entry for a formula the notes write that no law of the
catalogue is ("fit d = t_r v + v^2/(2a)", "fit V = a G^b H^c").

The request rules bind such a formula's symbols to the columns named like
them and ask for its parameters (`request_rules/formula.py`, model key
`CUSTOM`); the fit kind fits it like any law once it is an entry. The entry
is the written equation with its bound symbols as the variables and every
other name as a fitted parameter.

The unit of each parameter is what makes the formula dimensionally sound in
the columns' units, found by dimensional analysis over the formula: every
symbol's unit is a product of powers of the variables' units, an unknown
product for a parameter; a sum makes its terms equal, a function's argument
(exp, ln, sin) and a power's fitted exponent make their operand a pure
number, and the right side equals the response. The linear system for the
parameters' exponents has one solution for a sound formula (t_r in d/v, a in
v²/d). When it has none (ln c of a concentration in ng/mL, G^b of a girth in
inches), the notes mean the numbers in the columns' units, as a scientist
reads "ln c": the formula is then fitted to the columns as pure numbers.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from labwright.analysis.catalogue.expr import (
    Equation,
    FormulaError,
    parse_equation,
    parse_expression,
)
from labwright.analysis.catalogue.schema import (
    Derived,
    Input,
    ModelEntry,
    Parameter,
    Phrases,
    Text,
    Variable,
)
from labwright.analysis.catalogue.written import subscripted
from labwright.analysis.quantities import parse_unit

KEY = "formula"  # the request's model key of a written formula (request_rules.formula.CUSTOM)
NAME = Text("formula written in the notes", "笔记中写出的公式")
_DIMENSIONLESS_FUNCTIONS = frozenset(
    "exp log log10 sin cos tan sinh cosh tanh arctan arcsin arccos".split()
)
_CONSTANTS = frozenset({"pi", "e"})
PARAMETER = Text("parameter", "参数")


@dataclass(frozen=True)
class CustomEntry:
    """The entry, and whether its variables are read as pure numbers."""

    entry: ModelEntry
    pure_numbers: bool


class _Unsound(Exception):
    """The formula's dimensions cannot be balanced (or are not determined)."""


# A dimension: exponents of the variables' units, plus unknown multiples of
# each parameter's (yet unknown) dimension.
@dataclass(frozen=True)
class _Dim:
    known: tuple[tuple[str, Fraction], ...] = ()
    unknown: tuple[tuple[str, Fraction], ...] = ()

    @staticmethod
    def of(known: Mapping[str, Fraction], unknown: Mapping[str, Fraction]) -> _Dim:
        return _Dim(
            tuple(sorted((k, v) for k, v in known.items() if v)),
            tuple(sorted((k, v) for k, v in unknown.items() if v)),
        )

    def combine(self, other: _Dim, sign: int) -> _Dim:
        known, unknown = dict(self.known), dict(self.unknown)
        for k, v in other.known:
            known[k] = known.get(k, Fraction(0)) + sign * v
        for k, v in other.unknown:
            unknown[k] = unknown.get(k, Fraction(0)) + sign * v
        return _Dim.of(known, unknown)

    def scale(self, power: Fraction) -> _Dim:
        return _Dim.of(
            {k: v * power for k, v in self.known}, {k: v * power for k, v in self.unknown}
        )


_NONE = _Dim()


class _Balance:
    """Walks the right side, collecting the constraints `difference == 0`."""

    def __init__(self, variables: Sequence[str], parameters: Sequence[str]) -> None:
        self.variables = set(variables)
        self.parameters = set(parameters)
        self.constraints: list[_Dim] = []

    def equal(self, a: _Dim, b: _Dim) -> None:
        d = a.combine(b, -1)
        if d.known or d.unknown:
            self.constraints.append(d)

    def dim(self, node: ast.expr) -> _Dim:
        if isinstance(node, ast.Constant):
            return _NONE
        if isinstance(node, ast.Name):
            if node.id in self.variables:
                return _Dim.of({node.id: Fraction(1)}, {})
            if node.id in self.parameters:
                return _Dim.of({}, {node.id: Fraction(1)})
            return _NONE
        if isinstance(node, ast.UnaryOp):
            return self.dim(node.operand)
        if isinstance(node, ast.BinOp):
            left = self.dim(node.left)
            if isinstance(node.op, ast.Pow):
                power = _number(node.right)
                if power is None:  # a fitted exponent: base and exponent are pure numbers
                    self.equal(left, _NONE)
                    self.equal(self.dim(node.right), _NONE)
                    return _NONE
                return left.scale(power)
            right = self.dim(node.right)
            if isinstance(node.op, ast.Add | ast.Sub):
                self.equal(left, right)
                return left
            if isinstance(node.op, ast.Mult):
                return left.combine(right, 1)
            if isinstance(node.op, ast.Div):
                return left.combine(right, -1)
            raise _Unsound(type(node.op).__name__)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [self.dim(a) for a in node.args]
            name = node.func.id
            if name == "sqrt" and len(args) == 1:
                return args[0].scale(Fraction(1, 2))
            if name == "abs" and len(args) == 1:
                return args[0]
            for a in args:
                if name in _DIMENSIONLESS_FUNCTIONS:
                    self.equal(a, _NONE)
            if name in _DIMENSIONLESS_FUNCTIONS:
                return _NONE
        raise _Unsound(ast.dump(node)[:60])


def _number(node: ast.expr) -> Fraction | None:
    """A power written as a number (2, 0.5, 1/2, -1), else None."""
    try:
        expr = parse_expression(ast.unparse(node))
        if expr.names:
            return None
        value = float(expr.evaluate({}))
    except (FormulaError, ArithmeticError, ValueError, TypeError):
        return None
    return Fraction(value).limit_denominator(12) if np.isfinite(value) else None


def _meets_units(exponents: Mapping[str, float], units: Mapping[str, str | None]) -> bool:
    """The product of the variables' actual units to these powers is
    dimensionless: "a/g" with a in m/s² and g in m s^-2. False without a
    unit of each."""
    total: dict[str, float] = {}
    for name, power in exponents.items():
        if abs(power) < 1e-9:
            continue
        unit = parse_unit(units.get(name), difference=True)
        if unit is None:
            return False
        for base, k in unit.dimensionality.items():
            total[base] = total.get(base, 0.0) + power * k
    return all(abs(v) < 1e-9 for v in total.values())


def parameter_units(
    equation: Equation,
    variables: Sequence[str],
    parameters: Sequence[str],
    units: Mapping[str, str | None] | None = None,
) -> dict[str, dict[str, Fraction]]:
    """Each parameter's unit as exponents of the variables' units; raises
    `_Unsound` when no assignment balances the formula or several do.

    `units`: the variables' actual units, where known. The variables' units
    are independent here, so a balance that equates two of one kind (the
    response a and a given g in a = (m g r − τ)/(m r + I/r)) has no
    solution; with the actual units, what is left over once the parameters
    are fixed by the formula's sums is checked to be dimensionless instead."""
    balance = _Balance(variables, parameters)
    rhs = balance.dim(equation.rhs.tree.body)
    balance.equal(rhs, _Dim.of({equation.response: Fraction(1)}, {}))
    params = sorted(parameters)
    basis = sorted(variables)
    rows = balance.constraints
    if not params:
        if any(
            not _meets_units({k: float(v) for k, v in c.known}, units or {}) or c.unknown
            for c in rows
        ):
            raise _Unsound("the formula's sides differ in dimension")
        return {}

    def matrices(chosen: Sequence[_Dim]) -> tuple[np.ndarray, np.ndarray]:
        a = [[float(dict(c.unknown).get(p, 0)) for p in params] for c in chosen]
        b = [[-float(dict(c.known).get(v, 0)) for v in basis] for c in chosen]
        return np.array(a or [[0.0] * len(params)]), np.array(b or [[0.0] * len(basis)])

    a, b = matrices(rows)
    if np.linalg.matrix_rank(a) < len(params):
        raise _Unsound("the parameters' units are not determined by the formula")
    solution, *_ = np.linalg.lstsq(a, b, rcond=None)
    if not np.allclose(a @ solution, b, atol=1e-9):
        # The sums inside the formula fix the parameters; the response's
        # own balance (the last row) may then equate variables of one kind.
        inner_a, inner_b = matrices(rows[:-1])
        if not units or np.linalg.matrix_rank(inner_a) < len(params):
            raise _Unsound("no units of the parameters balance the formula")
        solution, *_ = np.linalg.lstsq(inner_a, inner_b, rcond=None)
        left = a @ solution - b
        if not np.allclose(inner_a @ solution, inner_b, atol=1e-9) or not all(
            _meets_units(dict(zip(basis, map(float, row), strict=True)), units) for row in left
        ):
            raise _Unsound("no units of the parameters balance the formula")
    return {
        p: {
            v: Fraction(float(solution[i, j])).limit_denominator(12)
            for j, v in enumerate(basis)
            if abs(solution[i, j]) > 1e-9
        }
        for i, p in enumerate(params)
    }


def _template(exponents: Mapping[str, Fraction]) -> str | None:
    """`{d}/{v}`, `{v}**2/{d}`: a unit template over the variables' units."""
    if not exponents:
        return None

    def power(name: str, k: Fraction) -> str:
        return f"{{{name}}}" if k == 1 else f"{{{name}}}**({k})"

    top = [power(v, k) for v, k in exponents.items() if k > 0]
    bottom = [power(v, -k) for v, k in exponents.items() if k < 0]
    text = "*".join(top) or "1"
    return text + ("/(" + "*".join(bottom) + ")" if bottom else "")


_GREEK_NAMES = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma "
    "tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split()
)


def symbol_latex(name: str) -> str:
    """`t_r` -> t_{r}, `x0` -> x_{0}, `tau` -> \\tau."""
    head, _, tail = name.partition("_")
    if not tail and (m := re.fullmatch(r"([A-Za-z]+?)(\d+)", name)):
        head, tail = m.groups()
    if not tail and (sub := subscripted(name)):
        head, tail = sub[0], rf"\mathrm{{{sub[1]}}}"  # Cmax -> C_max, not C·m·a·x
    if head in _GREEK_NAMES:
        head = "\\" + head
    return f"{head}_{{{tail}}}" if tail else head


_TEX_FUNCTIONS = {"exp": r"\exp", "log": r"\ln", "log10": r"\lg", "sin": r"\sin",
                  "cos": r"\cos", "tan": r"\tan", "sinh": r"\sinh", "cosh": r"\cosh",
                  "tanh": r"\tanh", "arctan": r"\arctan", "arcsin": r"\arcsin",
                  "arccos": r"\arccos"}  # fmt: skip


def _tex(node: ast.expr) -> str:
    """The formula as LaTeX, for the report's sentence that states it (the
    request holds it in the evaluator's syntax: `v**2/(2*a)`)."""
    if isinstance(node, ast.Name):
        return {"pi": r"\pi", "e": "e"}.get(node.id, symbol_latex(node.id))
    if isinstance(node, ast.Constant):
        return f"{node.value:g}" if isinstance(node.value, float) else str(node.value)
    if isinstance(node, ast.UnaryOp):
        inner = _tex(node.operand)
        return f"-{_wrap(node.operand, inner)}" if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            return rf"\frac{{{_tex(node.left)}}}{{{_tex(node.right)}}}"
        if isinstance(node.op, ast.Pow):
            base = _tex(node.left)
            if isinstance(node.left, ast.BinOp | ast.UnaryOp | ast.Call):
                base = rf"\left({base}\right)"
            return f"{{{base}}}^{{{_tex(node.right)}}}"
        left, right = _tex(node.left), _tex(node.right)
        if isinstance(node.op, ast.Add):
            return f"{left} + {right}"
        if isinstance(node.op, ast.Sub):
            return f"{left} - {_wrap(node.right, right)}"
        if isinstance(node.op, ast.Mult):
            return rf"{_wrap(node.left, left)}\,{_wrap(node.right, right)}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = ", ".join(_tex(a) for a in node.args)
        if node.func.id == "sqrt":
            return rf"\sqrt{{{args}}}"
        name = _TEX_FUNCTIONS.get(node.func.id, rf"\operatorname{{{node.func.id}}}")
        return rf"{name}\left({args}\right)"
    return ast.unparse(node)


def _wrap(node: ast.expr, text: str) -> str:
    """A sum in brackets where a product or difference holds it."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return rf"\left({text}\right)"
    return text


def formula_latex(formula: str) -> tuple[str, str] | None:
    """A formula as the request holds it ("h = hmax + (h0 - hmax)*exp(-k*t)")
    in LaTeX, with its response's name; None when it does not parse."""
    try:
        equation = parse_equation(formula)
        return f"{_tex(equation.lhs.tree.body)} = {_tex(equation.rhs.tree.body)}", equation.response
    except (FormulaError, AttributeError, TypeError, ValueError):
        return None


TIME_CONSTANT = Text("time constant", "时间常数")
RATE_CONSTANT = Text("rate constant", "速率常数")
_TIME_NAMES = frozenset({"t", "time", "t_s"})


def _time_constant(
    equation: Equation, independents: Sequence[str], parameters: Sequence[str]
) -> tuple[str, bool] | None:
    """The time constant of the formula's one decaying exponential in time:
    exp(-t/E) gives (E, False), exp(-E*t) gives (E, True) (E a rate), when
    E is made of parameters and given values only. A written law names its
    own letters, yet "the time constant" it is asked for is that E (RC of
    "V0 (1 - exp(-t/RC))")."""
    times = [v for v in independents if v in _TIME_NAMES]
    if len(times) != 1:
        return None
    t = times[0]
    found: list[tuple[str, bool]] = []
    for node in ast.walk(equation.rhs.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id != "exp" or len(node.args) != 1:
            continue
        arg = node.args[0]
        negative = False
        if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
            arg, negative = arg.operand, True
        if not isinstance(arg, ast.BinOp):
            continue
        left, right = arg.left, arg.right
        if isinstance(left, ast.UnaryOp) and isinstance(left.op, ast.USub):
            left, negative = left.operand, not negative
        if not negative:
            continue
        is_t = isinstance(left, ast.Name) and left.id == t
        if isinstance(arg.op, ast.Div) and is_t:
            other, rate = right, False
        elif isinstance(arg.op, ast.Mult) and (
            is_t or (isinstance(right, ast.Name) and right.id == t)
        ):
            other, rate = (right if is_t else left), True
        else:
            continue
        names = {n.id for n in ast.walk(other) if isinstance(n, ast.Name)}
        if t in names or not names:
            continue
        found.append((ast.unparse(other), rate))
    return found[0] if len(found) == 1 else None


def explicit_form(formula: str) -> str | None:
    """The formula solved for its response when the left side is the
    response under operations that undo one by one: "T**2 = 4*pi**2*(m +
    m_eff)/k" is T = (4*pi**2*(m + m_eff)/k)**(1/2), "1/c = 1/c0 + k*t" is c
    = 1/(1/c0 + k*t), "log(k) = log(A) - Ea/(R*T)" is k = exp(...). Notes
    write a law in the form they plot it; the data hold the response itself,
    and it is fitted in the form it was measured in. None when the left side
    cannot be undone so (the response twice, or inside a sum with itself)."""
    try:
        equation = parse_equation(formula)
    except FormulaError:
        return None
    if equation.explicit:
        return formula
    y = equation.response

    def has_y(node: ast.expr) -> bool:
        return any(isinstance(n, ast.Name) and n.id == y for n in ast.walk(node))

    def undo(node: ast.expr, rhs: str) -> str | None:
        if isinstance(node, ast.Name) and node.id == y:
            return rhs
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return undo(node.operand, f"-({rhs})")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
            inverse = {"sqrt": "({})**2", "log": "exp({})", "exp": "log({})",
                       "log10": "10**({})"}.get(node.func.id)  # fmt: skip
            return undo(node.args[0], inverse.format(rhs)) if inverse else None
        if not isinstance(node, ast.BinOp):
            return None
        left, right = has_y(node.left), has_y(node.right)
        if left == right:
            return None
        a, b = ast.unparse(node.left), ast.unparse(node.right)
        op = node.op
        if isinstance(op, ast.Pow) and left and _number(node.right) not in (None, 0):
            return undo(node.left, f"({rhs})**(1/({b}))")
        if isinstance(op, ast.Mult):
            return undo(node.left, f"({rhs})/({b})") if left else undo(node.right, f"({rhs})/({a})")
        if isinstance(op, ast.Div):
            return undo(node.left, f"({rhs})*({b})") if left else undo(node.right, f"({a})/({rhs})")
        if isinstance(op, ast.Add):
            return (
                undo(node.left, f"({rhs}) - ({b})")
                if left
                else undo(node.right, f"({rhs}) - ({a})")
            )
        if isinstance(op, ast.Sub):
            return (
                undo(node.left, f"({rhs}) + ({b})")
                if left
                else undo(node.right, f"({a}) - ({rhs})")
            )
        return None

    solved = undo(equation.lhs.tree.body, ast.unparse(equation.rhs.tree.body))
    if solved is None:
        return None
    text = f"{y} = {ast.unparse(ast.parse(solved, mode='eval').body)}"
    try:
        parse_equation(text)
    except FormulaError:
        return None
    return text


def custom_entry(
    formula: str,
    variables: Sequence[str],
    constants: Mapping[str, str | None] | None = None,
    bound_units: Mapping[str, str | None] | None = None,
) -> CustomEntry | None:
    """The entry for `formula` ("d = t_r*v + v**2/(2*a)", as the request
    holds it) with `variables` bound to columns (the response among them),
    or None when the response cannot be written alone on the left
    (`explicit_form`) or no parameter is left to fit. The report states the
    formula as the notes wrote it.

    `constants`: symbols the notes give a value for (symbol -> unit): not
    fitted but inputs, and their units take part in the dimensional
    analysis ("V0 (1 - exp(-t/RC))" with R = 10 kΩ given: C in s/kΩ, a
    capacitance).

    `bound_units`: the variables' units as bound, where known (a balance of the
    response with a given value of its kind is then no contradiction)."""
    solved = explicit_form(formula)
    if solved is None:
        return None
    written = parse_equation(formula)
    formula = solved
    try:
        equation = parse_equation(formula)
    except FormulaError:
        return None
    if equation.lhs.text != equation.response or equation.response not in variables:
        return None
    bound = [v for v in variables if v in equation.rhs.names or v == equation.response]
    given = {
        name: unit
        for name, unit in (constants or {}).items()
        if name in equation.rhs.names and name not in bound
    }
    parameters = sorted(equation.rhs.names - set(bound) - set(given) - _CONSTANTS)
    independents = [v for v in bound if v != equation.response]
    if not parameters or not independents:
        return None
    try:
        # A given value without a unit is a pure number in the analysis.
        basis = bound + [g for g, unit in given.items() if unit]
        known_units = {**(bound_units or {}), **{g: u for g, u in given.items() if u}}
        units = parameter_units(equation, basis, parameters, known_units)
        pure = False
    except _Unsound:
        units, pure = {}, True
    time_constant = _time_constant(equation, independents, parameters)
    labels = {p: PARAMETER for p in parameters}
    derived: tuple[Derived, ...] = ()
    if time_constant is not None:
        expr, is_rate = time_constant
        if expr in labels and not is_rate:
            labels[expr] = TIME_CONSTANT
        else:
            if expr in labels:
                labels[expr] = RATE_CONSTANT
            key = next(k for k in ("tau", "tau_c", "time_constant") if k not in equation.names)
            derived = (
                Derived(key, f"1/({expr})" if is_rate else expr, TIME_CONSTANT, r"\tau",
                        Phrases(("time constant", "tau", "τ"), ("时间常数",))),
            )  # fmt: skip
    entry = ModelEntry(
        key=KEY,
        area="custom",
        name=NAME,
        formula=formula,
        latex=f"{_tex(written.lhs.tree.body)} = {_tex(written.rhs.tree.body)}",
        variables=(
            Variable(equation.response, "response", Text(equation.response, equation.response)),
            *(Variable(v, "independent", Text(v, v)) for v in independents),
        ),
        parameters=tuple(
            # The table prints the label before the symbol: "parameter a".
            Parameter(p, labels[p], symbol_latex(p), unit=_template(units.get(p, {})))
            for p in parameters
        ),
        derived=derived,
        inputs=tuple(
            Input(g, Text(g, g), unit=None if pure else unit, symbols=(g,))
            for g, unit in given.items()
        ),
    )
    return CustomEntry(entry, pure)


_DRAWS = 4000
_DECADES = 9.0


def with_starts(
    entry: ModelEntry,
    x_base: Mapping[str, np.ndarray],
    y_base: np.ndarray,
    inputs_base: Mapping[str, float] | None = None,
) -> ModelEntry:
    """The entry with a start value for each parameter (in SI base units,
    as start rules are), found by a search over the data: a written formula
    has no start rules, and from 1 for every parameter the optimiser stops
    in a false minimum (F = k x + x³/c with c = 2.5e-5 m³/N went to
    c = -9e4). Parameters are drawn log-uniformly over ±9 decades with
    either sign, all draws evaluated at once (the formula broadcasts), then
    twice more within a decade of the best. `inputs_base`: the values the
    notes give for the formula's other symbols (R of exp(-t/(R C))), in SI
    base units too."""
    equation = parse_equation(entry.formula)
    names = [p.name for p in entry.parameters]
    rng = np.random.default_rng(20261203)
    env: dict[str, object] = {k: np.asarray(v, dtype=float)[None, :] for k, v in x_base.items()}
    env.update({k: float(v) for k, v in (inputs_base or {}).items()})
    y = np.asarray(y_base, dtype=float)[None, :]

    def best_of(draws: np.ndarray) -> tuple[np.ndarray, float]:
        for i, name in enumerate(names):
            env[name] = draws[:, i : i + 1]
        with np.errstate(all="ignore"):
            try:
                pred = np.asarray(equation.rhs.evaluate(env), dtype=float)
            except (FormulaError, ArithmeticError, ValueError, TypeError):
                return draws[0], math.inf
            sse = np.sum((np.broadcast_to(pred, (draws.shape[0], y.shape[1])) - y) ** 2, axis=1)
        sse = np.where(np.isfinite(sse), sse, np.inf)
        i = int(np.argmin(sse))
        return draws[i], float(sse[i])

    k = len(names)
    # Half the draws around each parameter's scale in these data (its
    # unit's exponents applied to the variables' typical sizes: a rate
    # constant near 1/median(t)), half over the whole range.
    scale = np.ones(k)
    try:
        exponents = parameter_units(equation, [v.name for v in entry.variables], names)
    except _Unsound:
        exponents = {}
    typical = {
        v: float(np.nanmedian(np.abs(a))) for v, a in {**x_base, equation.response: y}.items()
    }
    for i, name in enumerate(names):
        for v, power in exponents.get(name, {}).items():
            if typical.get(v, 0.0) > 0:
                scale[i] *= typical[v] ** float(power)
    signs = np.where(rng.random((_DRAWS, k)) < 0.3, -1.0, 1.0)
    half = _DRAWS // 2
    draws = signs * np.concatenate([
        scale[None, :] * 10 ** rng.uniform(-4.0, 4.0, (half, k)),
        10 ** rng.uniform(-_DECADES, _DECADES, (_DRAWS - half, k)),
    ])  # fmt: skip
    draws[0] = scale
    best, sse = best_of(draws)
    for width in (1.0, 0.2):
        near = best[None, :] * 10 ** rng.uniform(-width, width, (_DRAWS, k))
        near[0] = best
        best, sse = best_of(near)
    if not math.isfinite(sse):
        return entry
    params = tuple(
        replace(p, start=repr(float(v))) for p, v in zip(entry.parameters, best, strict=True)
    )
    return replace(entry, parameters=params)
