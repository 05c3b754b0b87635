"""A small safe evaluator for the formulas of the catalogue and of the notes.

A formula is data (a catalogue entry, a line a student wrote), so it is
parsed with `ast` in expression mode and every node is checked against a
whitelist before anything is evaluated: numbers, names, `+ - * / **`, unary
minus and plus, and calls by name to a fixed table of functions. Attribute
access, subscripts, lambdas, comparisons, strings, keywords, names with a
leading underscore and huge constant powers are refused with one sentence;
`eval` is never used (the tree is compiled into nested closures).

One parse serves three evaluations, chosen by the backend:

- `ARRAY`: floats and numpy arrays (the fit, start rules, generated data);
- `UNCERTAIN`: `uncertainties` numbers (derived quantities, with the fitted
  parameters' correlations carried by the numbers themselves);
- `UNITS`: pint quantities (the unit of a derived quantity, and the loader's
  check that each formula is dimensionally sound: `exp`, `log`, `sin`, ...
  take dimensionless arguments, sums take one dimension).

`pi` is always the number; `e` is Euler's number unless the environment
binds `e` (the catalogue names the elementary charge `q_e`). `sinc(x)` is
the physicist's `sin(x)/x` (1 at 0).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MAX_LENGTH = 2000  # characters of one formula
MAX_NODES = 400
MAX_POWER = 64.0  # |exponent| of a constant power (2**64 is as far as a lab law goes)

#: Functions a formula may call, by the names people write (ln = log), with
#: the number of arguments each takes.
FUNCTIONS: Mapping[str, int] = {
    name: 2 if name in ("arctan2", "atan2") else 1
    for name in (
        "exp log ln log10 log2 sqrt sin cos tan arcsin arccos arctan arctan2 asin acos atan "
        "atan2 sinh cosh tanh abs sinc erf erfc"
    ).split()
}
FUNCTION_NAMES: frozenset[str] = frozenset(FUNCTIONS)
CONSTANT_VALUES: Mapping[str, float] = {"pi": math.pi, "e": math.e}


class FormulaError(ValueError):
    """A formula that cannot be read or evaluated; the message is one sentence."""


Env = Mapping[str, Any]
Compiled = Callable[[Env], Any]


class Backend:
    """How numbers and functions are evaluated for one kind of value. The
    function table is built on first use, so `uncertainties` and pint are
    imported only by a process that evaluates with them."""

    def __init__(
        self,
        name: str,
        build: Callable[[], Mapping[str, Callable[..., Any]]],
        number: Callable[[float], Any] = float,
    ) -> None:
        self.name = name
        self.number = number
        self._build = build
        self._table: Mapping[str, Callable[..., Any]] | None = None

    @property
    def functions(self) -> Mapping[str, Callable[..., Any]]:
        if self._table is None:
            self._table = self._build()
        return self._table

    def with_functions(self, extra: Mapping[str, Callable[..., Any]]) -> Backend:
        """This backend with more callable names (the data functions of start rules)."""
        return Backend(self.name, lambda: {**self.functions, **extra}, self.number)

    def __repr__(self) -> str:
        return f"Backend({self.name!r})"


# ---------------------------------------------------------------------------
# Backends


def _np_sinc(x: Any) -> Any:
    return np.sinc(np.asarray(x, dtype=float) / np.pi)


def _np_erf(x: Any) -> Any:
    from scipy.special import erf

    return erf(x)


def _np_erfc(x: Any) -> Any:
    from scipy.special import erfc

    return erfc(x)


_NUMPY_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "exp": np.exp,
    "log": np.log,
    "ln": np.log,
    "log10": np.log10,
    "log2": np.log2,
    "sqrt": np.sqrt,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "arcsin": np.arcsin,
    "arccos": np.arccos,
    "arctan": np.arctan,
    "arctan2": np.arctan2,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "atan2": np.arctan2,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "abs": np.abs,
    "sinc": _np_sinc,
    "erf": _np_erf,
    "erfc": _np_erfc,
}

ARRAY = Backend("array", lambda: _NUMPY_FUNCTIONS, number=np.float64)


def _uncertain_functions() -> dict[str, Callable[..., Any]]:
    from uncertainties import umath

    def sinc(x: Any) -> Any:
        return 1.0 if x == 0 else umath.sin(x) / x

    return {
        "exp": umath.exp,
        "log": umath.log,
        "ln": umath.log,
        "log10": umath.log10,
        "log2": lambda x: umath.log(x) / math.log(2.0),
        "sqrt": umath.sqrt,
        "sin": umath.sin,
        "cos": umath.cos,
        "tan": umath.tan,
        "arcsin": umath.asin,
        "arccos": umath.acos,
        "arctan": umath.atan,
        "arctan2": umath.atan2,
        "asin": umath.asin,
        "acos": umath.acos,
        "atan": umath.atan,
        "atan2": umath.atan2,
        "sinh": umath.sinh,
        "cosh": umath.cosh,
        "tanh": umath.tanh,
        "abs": abs,
        "sinc": sinc,
        "erf": umath.erf,
        "erfc": umath.erfc,
    }


def _units_functions() -> dict[str, Callable[..., Any]]:
    """Functions over pint quantities, for the dimension of a result only:
    transcendental functions need a dimensionless argument and give a
    dimensionless result; sqrt halves the dimension; abs keeps it."""

    def dimensionless(x: Any) -> Any:
        to = getattr(x, "to", None)
        if to is None:
            return 1.0
        try:
            to("dimensionless")
        except Exception as exc:  # pint's DimensionalityError
            raise FormulaError(
                f"a function of the formula is given a quantity in {x.units:~P}, "
                "but it needs a dimensionless argument"
            ) from exc
        return x._REGISTRY.Quantity(1.0, "")

    def arctan2(a: Any, b: Any) -> Any:
        ratio = a / b
        if hasattr(ratio, "to"):
            try:
                ratio.to("dimensionless")
            except Exception as exc:
                raise FormulaError(
                    f"arctan2 compares {a.units:~P} with {b.units:~P}, which differ in dimension"
                ) from exc
            return ratio._REGISTRY.Quantity(1.0, "")
        return 1.0

    table: dict[str, Callable[..., Any]] = {
        name: dimensionless for name in FUNCTION_NAMES if name not in ("sqrt", "abs")
    }
    table.update({"sqrt": lambda x: x**0.5, "abs": abs, "arctan2": arctan2, "atan2": arctan2})
    return table


UNCERTAIN = Backend("uncertain", _uncertain_functions)
UNITS = Backend("units", _units_functions)


# ---------------------------------------------------------------------------
# Parsing


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


def _constant_value(node: ast.expr) -> float | None:
    """The value of a constant sub-expression (numbers, pi, e, + - * / and
    bounded powers), or None when it names a variable or calls a function."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in CONSTANT_VALUES:
        return CONSTANT_VALUES[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _constant_value(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _constant_value(node.left), _constant_value(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_POWER:
            return math.inf
        try:
            return float(_BINARY[type(node.op)](left, right))
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            return math.nan
    return None


def _check(
    tree: ast.Expression, functions: Mapping[str, int]
) -> tuple[frozenset[str], frozenset[str]]:
    """Refuse everything outside the whitelist; (free names, functions used)."""
    names: set[str] = set()
    called: set[str] = set()
    count = 0
    for node in ast.walk(tree):
        count += 1
        if count > MAX_NODES:
            raise FormulaError(f"the formula is too long (more than {MAX_NODES} terms)")
        if isinstance(node, ast.Expression | ast.Load):
            continue
        if isinstance(node, ast.operator | ast.unaryop):
            if isinstance(node, ast.operator) and type(node) not in _BINARY:
                raise FormulaError(
                    f"the operator {type(node).__name__} is not allowed (use + - * / **)"
                )
            if isinstance(node, ast.unaryop) and not isinstance(node, ast.USub | ast.UAdd):
                raise FormulaError("only unary minus and plus are allowed")
            continue
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise FormulaError(f"{node.value!r} is not a number")
            continue
        if isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise FormulaError(f"the name {node.id!r} is not allowed (no leading underscore)")
            if node.id not in functions:
                names.add(node.id)
            continue
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Pow):
                power = _constant_value(node.right)
                if power is not None and not abs(power) <= MAX_POWER:
                    raise FormulaError(f"a power above {MAX_POWER:g} is not allowed")
            continue
        if isinstance(node, ast.UnaryOp):
            continue
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in functions:
                what = node.func.id if isinstance(node.func, ast.Name) else "an expression"
                raise FormulaError(f"{what} is not a function a formula may call")
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                raise FormulaError(f"{node.func.id}() takes plain arguments only")
            arity = functions[node.func.id]
            if len(node.args) != arity:
                raise FormulaError(f"{node.func.id}() takes {arity} argument(s)")
            called.add(node.func.id)
            continue
        raise FormulaError(f"{type(node).__name__} is not allowed in a formula")
    used_as_function = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    # A function name used as a value ("exp + 1") is a name the env must bind.
    names |= {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id in functions and n.id not in used_as_function
    }
    return frozenset(names - {"pi"}), frozenset(called)


def _compile(node: ast.expr, backend: Backend) -> Compiled:
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, int | float)  # _check made sure
        value = backend.number(float(node.value))
        return lambda env: value
    if isinstance(node, ast.Name):
        name = node.id
        if name == "pi":
            pi = backend.number(math.pi)
            return lambda env: pi
        if name == "e":
            euler = backend.number(math.e)
            return lambda env: env["e"] if "e" in env else euler

        def lookup(env: Env) -> Any:
            try:
                return env[name]
            except KeyError:
                raise FormulaError(f"the formula names {name!r}, which has no value") from None

        return lookup
    if isinstance(node, ast.UnaryOp):
        operand = _compile(node.operand, backend)
        if isinstance(node.op, ast.USub):
            return lambda env: -operand(env)
        return operand
    if isinstance(node, ast.BinOp):
        op = _BINARY[type(node.op)]
        left, right = _compile(node.left, backend), _compile(node.right, backend)
        return lambda env: op(left(env), right(env))
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)  # _check made sure
        fname = node.func.id
        args = [_compile(a, backend) for a in node.args]
        functions = backend.functions

        def call(env: Env) -> Any:
            fn = functions.get(fname)
            if fn is None:
                raise FormulaError(f"{fname}() cannot be evaluated on {backend.name} values")
            return fn(*(a(env) for a in args))

        return call
    raise FormulaError(f"{type(node).__name__} is not allowed in a formula")  # pragma: no cover


@dataclass(frozen=True, eq=False)
class Expr:
    """One parsed, checked expression; evaluate it with any backend."""

    text: str
    tree: ast.Expression = field(repr=False)
    names: frozenset[str]  # free names the environment must bind (pi, e, functions excluded)
    functions: frozenset[str]  # functions it calls
    _compiled: dict[Backend, Compiled] = field(default_factory=dict, repr=False)

    def evaluate(self, env: Env, backend: Backend = ARRAY) -> Any:
        """The value over `env` (names to floats, arrays, ufloats or quantities)."""
        compiled = self._compiled.get(backend)
        if compiled is None:
            compiled = _compile(self.tree.body, backend)
            if len(self._compiled) < 8:  # the shared backends, a few start-rule ones
                self._compiled[backend] = compiled
        try:
            return compiled(env)
        except RecursionError as exc:  # pragma: no cover - bounded by MAX_NODES
            raise FormulaError("the formula is nested too deeply") from exc

    def __call__(self, **env: Any) -> Any:
        return self.evaluate(env)

    def __str__(self) -> str:
        return self.text


def parse_expression(text: str, functions: Mapping[str, int] = FUNCTIONS) -> Expr:
    """Parse and check one expression in plain math syntax (`Vmax*S/(Km + S)`).

    `functions` is the table of callable names and their arities; start
    rules add the data functions of `catalogue/starts.py`. Raises FormulaError with one sentence.
    """
    source = text.strip()
    if not source:
        raise FormulaError("the formula is empty")
    if len(source) > MAX_LENGTH:
        raise FormulaError(f"the formula is longer than {MAX_LENGTH} characters")
    if "__" in source:
        raise FormulaError("double underscores are not allowed in a formula")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"{source!r} is not a formula ({exc.msg})") from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError("the formula is nested too deeply") from None
    names, called = _check(tree, functions)
    return Expr(ast.unparse(tree), tree, names, called)


@dataclass(frozen=True)
class Equation:
    """`response = expression`; the left side may itself be an expression
    (`T**2 = 4*pi**2*L/g`), whose one free name is the response."""

    response: str
    lhs: Expr
    rhs: Expr

    @property
    def explicit(self) -> bool:
        """The left side is the response itself (`v = ...`)."""
        return self.lhs.text == self.response

    @property
    def names(self) -> frozenset[str]:
        return self.rhs.names | self.lhs.names


def parse_equation(
    text: str, functions: Mapping[str, int] = FUNCTIONS, constants: Collection[str] = ()
) -> Equation:
    """Parse `lhs = rhs`. The left side names the response: its one free
    name that is not one of `constants` (`e*U = h*nu - W`: U)."""
    if text.count("=") != 1:
        raise FormulaError("a formula needs exactly one '=' (response = expression)")
    left, right = (part.strip() for part in text.split("="))
    lhs, rhs = parse_expression(left, functions), parse_expression(right, functions)
    candidates = lhs.names - set(constants) if len(lhs.names) > 1 else lhs.names
    if len(candidates) != 1:
        raise FormulaError(f"the left side {left!r} must name exactly one quantity, the response")
    (response,) = candidates
    return Equation(response, lhs, rhs)
