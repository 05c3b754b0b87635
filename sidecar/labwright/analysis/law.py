"""A law named in the notes, read and tested against the data.

Notes state laws as "T^2 ∝ L", "T² is proportional to L", "T^2 = (4 pi^2 / g) L",
"U = k I", "T² 与 L 成正比" or "T^2 正比于 L". The statement is read into the
two quantities with their powers and, for the "A = k B" form, the constant
expression (which may name a physical constant, g in 4π²/g).

The test a scientist does: regress the transformed quantities (A^n on B^m)
through the origin and with an intercept (statsmodels OLS), compare the two
by AICc and by the t-test of the intercept, check the exponent on log-log
axes against the one the law implies, and report the constant of
proportionality with its standard error and what it implies for the named
constant (g = 4π²/slope, with the uncertainty propagated). The verdict is
stated plainly: supported when the slope is significant, the intercept is
consistent with zero and the log-log exponent with the law's.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.ingest.types import Column

if TYPE_CHECKING:
    from labwright.analysis.catalogue.schema import Reference
    from labwright.analysis.results import Answer, Comparison

ALPHA = 0.05
_SUP = {"²": "2", "³": "3"}
_SYM = r"(?<![\w\\])([A-Za-z](?:_\{?[A-Za-z0-9]{1,6}\}?)?)(?![A-Za-z0-9])"
_POW = r"(?:\s*(?:\^|\*\*)\s*\{?\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*\}?|([²³]))?"
_TERM = _SYM + _POW
_PROP = re.compile(
    _TERM
    + r"\s*(?:∝|\\propto\b|is (?:directly )?proportional to|proportional to|正比于)\s*"
    + _TERM,
    re.I,
)
_ZH = re.compile(_TERM + r"\s*(?:与|和|跟)\s*" + _TERM + r"\s*成正比")
# "A = k B", "A = (4 pi^2 / g) B", "A = 2.5 B": a constant then the quantity,
# and nothing added after it (a "+ b" makes it no proportionality). A bare
# number is not accepted as the constant: "L = 0.50 m" is a value and its unit.
_CONST = r"(\([^()=]{1,60}\)|[A-Za-z](?![A-Za-z]))"
_EQ = re.compile(_TERM + r"\s*=\s*" + _CONST + r"\s*(?:\*|·|×)?\s*" + _TERM + r"(?!\s*[-+*/^(])")
_ROOT = re.compile(r"(?:√|\bsqrt)\s*\(?\s*([A-Za-z](?:_\{?[A-Za-z0-9]{1,6}\}?)?)\s*\)?")
_WORDS = {"is", "to", "of", "and", "or", "as", "at", "in", "on", "by", "be", "an", "a"}


@dataclass(frozen=True)
class LawStatement:
    left: str  # symbol as written, e.g. "T"
    left_power: float  # 2 for T^2
    right: str
    right_power: float
    text: str  # the phrase in the notes
    constant: str | None = None  # "4 pi^2 / g" for the "A = k B" form

    @property
    def expected_exponent(self) -> float:
        """A ∝ B^(m/n) for A^n ∝ B^m: the slope on log-log axes."""
        return self.right_power / self.left_power


def _power(num: str | None, sup: str | None) -> float:
    if sup:
        return float(_SUP[sup])
    if num:
        if "/" in num:
            a, b = num.split("/")
            return float(a) / float(b)
        return float(num)
    return 1.0


def parse_laws(text: str) -> list[LawStatement]:
    """Every law statement in `text`, in the order found. Which of them the
    data can test is decided by matching the symbols to columns."""
    # √L, sqrt(L) -> L^0.5, so the power reads like any other.
    text = _ROOT.sub(r"\1^0.5", text)
    found: list[tuple[int, LawStatement]] = []
    for pattern in (_PROP, _ZH):
        for m in pattern.finditer(text):
            a, an, asup, b, bn, bsup = m.groups()
            found.append(
                (m.start(), LawStatement(a, _power(an, asup), b, _power(bn, bsup), m.group(0)))
            )
    for m in _EQ.finditer(text):
        a, an, asup, const, b, bn, bsup = m.groups()
        if a.lower() in _WORDS or b.lower() in _WORDS:
            continue
        const = const.strip()
        if const.startswith("("):
            const = const[1:-1].strip()
        found.append(
            (m.start(), LawStatement(a, _power(an, asup), b, _power(bn, bsup), m.group(0), const))
        )
    found.sort(key=lambda p: p[0])
    return [s for _, s in found]


# --- the constant expression: slope = f(named) -----------------------------------

_OPS: dict[type, Any] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos,
}  # fmt: skip


def _pythonic(expr: str) -> str:
    e = expr.replace("π", " pi ").replace("^", "**").replace("×", "*").replace("·", "*")
    e = re.sub(r"\\pi\b", " pi ", e)
    e = re.sub(r"\\(?:frac|cdot|times)", " ", e)
    # Implicit multiplication: "4 pi", "4pi", "2 g", ") (", "pi g".
    e = re.sub(r"(\d|\))\s*(?=[A-Za-z(])", r"\1*", e)
    e = re.sub(r"([A-Za-z_]\w*|\))\s+(?=[A-Za-z(\d])", r"\1*", e)
    return e


def _evaluate(node: ast.AST, names: dict[str, float]) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return float(_OPS[type(node.op)](_evaluate(node.left, names), _evaluate(node.right, names)))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return float(_OPS[type(node.op)](_evaluate(node.operand, names)))
    raise ValueError("not a plain arithmetic expression")


@dataclass(frozen=True)
class ConstantRelation:
    """slope = factor * named^power (power -1 for 4π²/g)."""

    name: str  # the named constant, e.g. "g" (None-like "" when k itself)
    factor: float
    power: float

    def solve(self, slope: float, slope_se: float) -> tuple[float, float]:
        """The named constant and its standard error (delta method)."""
        value = (slope / self.factor) ** (1.0 / self.power)
        se = abs(value / (self.power * slope)) * slope_se
        return value, se


def constant_relation(expr: str) -> ConstantRelation | None:
    """Read "4 pi^2 / g" as slope = 4π² · g^-1. None when the expression has
    no single named symbol or is not a power of it."""
    try:
        tree = ast.parse(_pythonic(expr), mode="eval")
    except SyntaxError:
        return None
    symbols = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - {"pi"}
    if len(symbols) != 1:
        return None
    name = symbols.pop()
    try:
        f1 = _evaluate(tree, {"pi": math.pi, name: 1.0})
        f2 = _evaluate(tree, {"pi": math.pi, name: 2.0})
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    if not (f1 > 0 and f2 > 0):
        return None
    power = math.log2(f2 / f1)
    if abs(power) < 1e-9 or abs(power - round(power * 2) / 2) > 1e-9:
        return None  # not c * s^p with a simple power p
    return ConstantRelation(name, f1, round(power * 2) / 2)


# --- matching the statement to columns ------------------------------------------------


def _norm_name(name: str) -> str:
    n = name.strip()
    for sup, digit in _SUP.items():
        n = n.replace(sup, "^" + digit)
    return re.sub(r"[\s{}]", "", n).replace("**", "^")


def match_term(symbol: str, power: float, columns: list[Column]) -> tuple[Column, float] | None:
    """The column holding `symbol`^`power`: a column named so (T^2, T²) is
    used as it is; otherwise the column named `symbol`, raised to `power`."""
    names = {_norm_name(c.name): c for c in columns}
    sym = _norm_name(symbol)
    if power != 1.0:
        p = f"{power:g}"
        for key in (f"{sym}^{p}", f"{sym}^({p})"):
            if key in names:
                return names[key], 1.0
    if sym in names:
        return names[sym], power
    folded = [c for k, c in names.items() if k.lower() == sym.lower()]
    if len(folded) == 1:
        return folded[0], power
    return None


# --- the test ------------------------------------------------------------------------


@dataclass
class LawFit:
    statement: LawStatement
    x: Column
    y: Column
    x_power: float  # transformation applied to the x column
    y_power: float
    n: int
    xt: np.ndarray  # transformed values used in the fit
    yt: np.ndarray
    slope0: float  # through the origin
    slope0_se: float
    r2_0: float  # uncentred R² (statsmodels' for a model without constant)
    slope1: float  # with an intercept
    slope1_se: float
    intercept: float
    intercept_se: float
    intercept_p: float
    aicc0: float
    aicc1: float
    exponent: float | None  # log-log slope of y on x (raw columns)
    exponent_se: float | None
    expected_exponent: float
    exponent_p: float | None
    slope_p: float
    supported: bool
    relation: ConstantRelation | None = None
    constant: float | None = None
    constant_se: float | None = None
    models: tuple[str, ...] = ()  # catalogue laws the request names (preferred for names)

    @property
    def through_origin(self) -> bool:
        """The law's own form (no intercept) is kept unless the intercept test rejects it."""
        return self.intercept_p >= ALPHA

    @property
    def slope(self) -> tuple[float, float]:
        return (
            (self.slope0, self.slope0_se) if self.through_origin else (self.slope1, self.slope1_se)
        )

    def answers(self) -> list[Answer]:
        """The constant the law names (g of T^2 = (4 pi^2/g) L), from the
        slope of the form the intercept test keeps, with its delta-method
        standard error and the fit's residuals; none when the law names no
        constant."""
        from labwright.analysis.results import Answer, fit_quality

        if self.relation is None or self.constant is None or self.constant_se is None:
            return []
        name = self.relation.name
        slope, _ = self.slope
        fitted = slope * self.xt + (0.0 if self.through_origin else self.intercept)
        ty = _powered(self.y.name, self.y_power, text=True)
        tx = _powered(self.x.name, self.x_power, text=True)
        form = (
            ("through the origin", "过原点")
            if self.through_origin
            else ("with an intercept", "含截距")
        )
        method = Text(
            f"OLS of {ty} on {tx} {form[0]}; {name} from the slope, SE by the delta method",
            f"{ty} 对 {tx} 的最小二乘拟合（{form[1]}），由斜率求 {name}，误差按传递公式",
        )
        known = _catalogue_quantity(name, self.models)
        label, latex = (known[0], known[1]) if known else (
            Text("constant of the stated law", "笔记所给定律中的常量"), name
        )  # fmt: skip
        unit = constant_unit(self)
        comparison = _reference(known[2], unit) if known and known[2] else None
        quality = fit_quality(
            self.yt - fitted, 1 if self.through_origin else 2,
            r2=self.r2_0 if self.through_origin else None,
        )  # fmt: skip
        return [
            Answer(
                quantity=name, label=label, latex=latex, value=self.constant, se=self.constant_se,
                unit=unit, method=method, model=None, comparison=comparison,
                sources=(self.y.provenance, self.x.provenance), rows=f"{self.n}", fit=quality,
            )
        ]  # fmt: skip


def _catalogue_quantity(
    symbol: str, prefer: tuple[str, ...] = ()
) -> tuple[Text, str, Reference | None] | None:
    """The catalogue's label, LaTeX and reference value of a parameter or
    derived quantity written with this symbol, when the catalogue has exactly
    one name for it (g: acceleration due to gravity, 9.806 m/s²; the
    reference only when the laws that give one agree); None when none has it
    or laws use the symbol differently (k: a spring constant, a rate). The
    laws the request names (`prefer`) are asked first: the pendulum's g and
    free fall's g are one quantity with two references, and the notes'
    pendulum decides which."""
    from labwright.analysis.catalogue.load import catalogue

    entries = list(catalogue())
    named = [e for e in entries if e.key in prefer and _writes(e, symbol)]
    found: list[tuple[Text, str, Reference | None]] = []
    for e in named or entries:
        keys = [p.name for p in e.parameters] + [d.key for d in e.derived]
        labels = {p.name: (p.label, p.latex) for p in e.parameters}
        labels |= {d.key: (d.label, d.latex) for d in e.derived}
        if symbol in keys:
            ref = next((r for r in e.references if r.quantity == symbol), None)
            found.append((*labels[symbol], ref))
    names = {(f[0], f[1]) for f in found}
    if len(names) != 1:
        return None
    refs = {f[2] for f in found if f[2] is not None}
    label, latex = names.pop()
    return label, latex, refs.pop() if len(refs) == 1 else None


def _writes(entry: ModelEntry, symbol: str) -> bool:
    return symbol in {p.name for p in entry.parameters} | {d.key for d in entry.derived}


def _reference(ref: Reference, unit: str | None) -> Comparison | None:
    """The catalogue's reference value in the answer's unit (None when the
    units do not convert: then it is not the same quantity)."""
    from labwright.analysis.quantities import factor
    from labwright.analysis.results import Comparison

    k = factor(ref.unit, unit) if unit else None
    if k is None:
        return None
    unc = None if ref.uncertainty is None else ref.uncertainty * k
    return Comparison(
        value=ref.value * k, uncertainty=unc, unit=unit, source=ref.source, source_zh=ref.source_zh
    )


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _powered(name: str, power: float, *, text: bool = False) -> str:
    """`T^2`, or for running text `T²` (an integer power as superscripts)."""
    if power == 1.0:
        return name
    if text and power == int(power):
        return name + str(int(power)).translate(_SUPERSCRIPT)
    return f"{name}^{power:g}"


def fit_law(statement: LawStatement, columns: list[Column]) -> LawFit | None:
    """Test `statement` on the table's measurement `columns`; None when its
    symbols are not both columns or too few rows are usable."""
    from statsmodels.regression.linear_model import OLS
    from statsmodels.tools.eval_measures import aicc

    ym = match_term(statement.left, statement.left_power, columns)
    xm = match_term(statement.right, statement.right_power, columns)
    if ym is None or xm is None or ym[0] is xm[0]:
        return None
    (ycol, py), (xcol, px) = ym, xm
    xr = np.asarray(xcol.values, dtype=float)
    yr = np.asarray(ycol.values, dtype=float)
    ok = np.isfinite(xr) & np.isfinite(yr)
    if px != round(px) or py != round(py):
        ok &= (xr > 0) & (yr > 0)  # fractional powers need positive values
    n = int(ok.sum())
    if n < 4:
        return None
    xt, yt = xr[ok] ** px, yr[ok] ** py
    m0 = OLS(yt, xt[:, None]).fit()
    m1 = OLS(yt, np.column_stack([np.ones(n), xt])).fit()
    a0 = float(aicc(m0.llf, n, 1))
    a1 = float(aicc(m1.llf, n, 2))
    exponent = exponent_se = exponent_p = None
    expected = px / py  # raw y ∝ x^(px/py) when y^py ∝ x^px
    pos = (xr[ok] > 0) & (yr[ok] > 0)
    if pos.sum() >= 4:
        lx, ly = np.log(xr[ok][pos]), np.log(yr[ok][pos])
        ml = OLS(ly, np.column_stack([np.ones(lx.size), lx])).fit()
        exponent, exponent_se = float(ml.params[1]), float(ml.bse[1])
        test = ml.t_test(([0.0, 1.0], expected))
        exponent_p = float(np.asarray(test.pvalue))
    fit = LawFit(
        statement=statement, x=xcol, y=ycol, x_power=px, y_power=py, n=n, xt=xt, yt=yt,
        slope0=float(m0.params[0]), slope0_se=float(m0.bse[0]), r2_0=float(m0.rsquared),
        slope1=float(m1.params[1]), slope1_se=float(m1.bse[1]),
        intercept=float(m1.params[0]), intercept_se=float(m1.bse[0]),
        intercept_p=float(m1.pvalues[0]), aicc0=a0, aicc1=a1,
        exponent=exponent, exponent_se=exponent_se, expected_exponent=expected,
        exponent_p=exponent_p, slope_p=float(m0.pvalues[0]), supported=False,
    )  # fmt: skip
    fit.supported = (
        fit.slope_p < ALPHA
        and fit.intercept_p >= ALPHA
        and (exponent_p is None or exponent_p >= ALPHA)
    )
    if statement.constant:
        rel = constant_relation(statement.constant)
        slope, se = fit.slope
        if rel is not None and slope > 0:
            fit.relation = rel
            fit.constant, fit.constant_se = rel.solve(slope, se)
    return fit


def find_law(statements: list[LawStatement], columns: list[Column]) -> LawFit | None:
    """The first statement whose quantities are both columns of the table.
    When it names no constant ("T² ∝ L") and another statement of the same
    law does ("T^2 = (4 pi^2 / g) L"), that constant is solved for as well."""
    for s in statements:
        fit = fit_law(s, columns)
        if fit is None:
            continue
        if fit.relation is None:
            key = (s.left, s.left_power, s.right, s.right_power)
            for other in statements:
                if (
                    other.constant
                    and (other.left, other.left_power, other.right, other.right_power) == key
                ):
                    rel = constant_relation(other.constant)
                    slope, se = fit.slope
                    if rel is not None and slope > 0:
                        fit.statement = other
                        fit.relation = rel
                        fit.constant, fit.constant_se = rel.solve(slope, se)
                        break
        return fit
    return None


def unit_power(unit: str | None, power: float) -> str | None:
    if not unit:
        return None
    if power == 1.0:
        return unit
    return f"{unit}^{power:g}" if "/" not in unit and " " not in unit else f"({unit})^{power:g}"


def slope_unit(fit: LawFit) -> str | None:
    uy = fit.y.unit if fit.y_power == 1.0 else unit_power(fit.y.unit, fit.y_power)
    ux = fit.x.unit if fit.x_power == 1.0 else unit_power(fit.x.unit, fit.x_power)
    if uy and ux:
        return f"{uy}/{ux}"
    return uy or (f"1/{ux}" if ux else None)


def constant_unit(fit: LawFit) -> str | None:
    """Unit of the named constant for the two common forms (slope = c·s, c/s)."""
    rel = fit.relation
    if rel is None:
        return None
    uy = fit.y.unit if fit.y_power == 1.0 else unit_power(fit.y.unit, fit.y_power)
    ux = fit.x.unit if fit.x_power == 1.0 else unit_power(fit.x.unit, fit.x_power)
    if not (uy and ux):
        return None
    if rel.power == 1.0:
        return f"{uy}/{ux}"
    if rel.power == -1.0:
        return f"{ux}/{uy}"
    return None
