"""The safe evaluator of formulas (analysis/catalogue/expr.py): what it
refuses, and one parse evaluated on arrays, uncertain numbers and units."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from uncertainties import correlated_values, ufloat

from labwright.analysis import quantities
from labwright.analysis.catalogue.expr import (
    ARRAY,
    UNCERTAIN,
    UNITS,
    FormulaError,
    parse_equation,
    parse_expression,
)


@pytest.mark.parametrize(
    "text",
    [
        "x.__class__",
        "x.real",
        "(1).__class__.__bases__",
        "__import__('os')",
        "lambda: 1",
        "(lambda x: x)(2)",
        "import os",
        "os.system('true')",
        "exec('1')",
        "eval('1')",
        "open('f')",
        "getattr(x, 'y')",
        "x[0]",
        "x if y else z",
        "x == 1",
        "x and y",
        "[x for x in y]",
        "{1: 2}",
        "'text'",
        "f'{x}'",
        "b'x'",
        "1j",
        "True",
        "_secret",
        "exp(x=1)",
        "exp(*x)",
        "exp(x, y)",
        "2**1000",
        "9**9**9",
        "x**(10**10)",
        "10**-100",
        "x @ y",
        "x // y",
        "x % y",
        "~x",
        "not x",
        "x := 1",
        "",
        "(" * 300 + "x" + ")" * 300,
        "x+" * 500 + "x",
    ],
)
def test_anything_but_plain_math_is_refused(text: str) -> None:
    with pytest.raises(FormulaError):
        parse_expression(text)


def test_a_refused_formula_has_no_effect(tmp_path: Path) -> None:
    """Refused, and nothing ran: the file the formula would create is absent."""
    target = tmp_path / "pwned"
    attempts = [
        f"__import__('os').system('touch {target}')",
        f"open('{target}', 'w')",
        f"().__class__.__base__.__subclasses__()[0]('{target}')",
    ]
    for text in attempts:
        with pytest.raises(FormulaError):
            parse_expression(text).evaluate({})
    assert not target.exists()


def test_a_name_is_looked_up_in_the_environment_only() -> None:
    """`open` or `print` as a plain name is a variable like any other: with
    no value given it is an error, never the builtin."""
    expr = parse_expression("open + print")
    assert expr.names == {"open", "print"}
    with pytest.raises(FormulaError, match="no value"):
        expr.evaluate({})
    assert expr.evaluate({"open": 1.0, "print": 2.0}) == 3.0


def test_names_and_functions_are_reported() -> None:
    expr = parse_expression("Vmax*S/(Km + S) + exp(-t/tau) + pi + e")
    assert expr.names == {"Vmax", "S", "Km", "t", "tau", "e"}
    assert expr.functions == {"exp"}


def test_arrays_and_scalars() -> None:
    expr = parse_expression("N0*exp(-lam*t) + B")
    t = np.linspace(0, 10, 5)
    got = expr.evaluate({"N0": 100.0, "lam": 0.3, "t": t, "B": 5.0})
    assert np.allclose(got, 100 * np.exp(-0.3 * t) + 5)
    # sinc is the physicist's sin(x)/x, finite at 0.
    s = parse_expression("sinc(x)").evaluate({"x": np.array([0.0, np.pi])})
    assert s[0] == 1.0 and abs(s[1]) < 1e-15
    # A division by zero on arrays is inf, not an exception.
    with np.errstate(divide="ignore"):
        assert np.isinf(parse_expression("1/x").evaluate({"x": np.array([0.0])}))[0]


def test_uncertain_numbers_keep_correlations() -> None:
    """Ea = -R*slope and x0 = a/b with a and b correlated: the standard error
    is the one the full covariance gives, not the independent one."""
    a, b = correlated_values([2.0, 0.5], [[0.04, -0.009], [-0.009, 0.0025]])
    x0 = parse_expression("a/b").evaluate({"a": a, "b": b}, UNCERTAIN)
    grad = np.array([1 / 0.5, -2.0 / 0.5**2])
    cov = np.array([[0.04, -0.009], [-0.009, 0.0025]])
    assert x0.n == pytest.approx(4.0)
    assert x0.s == pytest.approx(math.sqrt(grad @ cov @ grad))
    half = parse_expression("log(2)/lam").evaluate({"lam": ufloat(0.01, 0.001)}, UNCERTAIN)
    assert half.n == pytest.approx(math.log(2) / 0.01)
    assert half.s == pytest.approx(math.log(2) / 0.01**2 * 0.001)


def test_units_of_a_result_and_dimensional_soundness() -> None:
    q = quantities.registry().Quantity
    g = parse_expression("4*pi**2*L/T**2").evaluate({"L": q(1.0, "m"), "T": q(1.0, "s")}, UNITS)
    assert g.dimensionality == q(1.0, "m/s^2").dimensionality
    ea = parse_expression("-R*slope").evaluate(
        {"R": q(1.0, "J/(mol*K)"), "slope": q(1.0, "K")}, UNITS
    )
    assert ea.to("kJ/mol").dimensionality == q(1.0, "J/mol").dimensionality
    with pytest.raises(FormulaError, match="dimensionless"):
        parse_expression("exp(-t)").evaluate({"t": q(1.0, "s")}, UNITS)
    with pytest.raises(Exception, match="(?i)dimension|convert"):
        parse_expression("t + L").evaluate({"t": q(1.0, "s"), "L": q(1.0, "m")}, UNITS)
    # sqrt halves the dimension.
    r = parse_expression("sqrt(A)").evaluate({"A": q(1.0, "m^2")}, UNITS)
    assert r.dimensionality == q(1.0, "m").dimensionality


def test_one_parse_serves_every_backend() -> None:
    expr = parse_expression("A*exp(-Ea/(R*T))")
    env = {"A": 1e7, "Ea": 5e4, "R": 8.314, "T": 300.0}
    plain = expr.evaluate(env, ARRAY)
    uncertain = expr.evaluate({**env, "Ea": ufloat(5e4, 100)}, UNCERTAIN)
    assert uncertain.n == pytest.approx(float(plain))


def test_equations() -> None:
    eq = parse_equation("v = Vmax*S/(Km + S)")
    assert eq.response == "v" and eq.explicit and eq.rhs.names == {"Vmax", "S", "Km"}
    implicit = parse_equation("T**2 = 4*pi**2*L/g")
    assert implicit.response == "T" and not implicit.explicit
    with pytest.raises(FormulaError):
        parse_equation("x + y = 2")
    with pytest.raises(FormulaError):
        parse_equation("y = 1 = 2")
    assert parse_equation("q_e*U = h*nu - W", constants={"q_e", "h"}).response == "U"
