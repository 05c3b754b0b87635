"""A relation the notes write with no one quantity alone on a side, solved
for the one that was measured.

Handouts write balances in the form they are derived in: a torque balance
"m g r − τ_f = (I + m r²) a / r", "m (g − a) r − τ_f = I a / r". The fit
needs the measured quantity (here the acceleration a, from the fall times)
as a function of the controlled one (the hung mass m) and the parameters.
When the measured quantity enters the relation linearly, as it does in
nearly every such balance, that function is one division:

    F(y) = lhs − rhs = F(0) + y·F′  =>  y = −F(0) / F′

with F′ = dF/dy free of y. Both are built symbolically (a derivative over
sums, products and quotients, folding the zeros and ones it makes), so the
result is a formula the evaluator, the dimensional analysis and the
exported script read like any other: "a = (m*g*r - tau_f)/((I + m*r**2)/r)".
A relation in which the measured quantity is not linear (squared, under a
root, in a denominator, inside a function) is not solved here (None).
"""

from __future__ import annotations

import ast

from labwright.analysis.catalogue.expr import FormulaError, parse_expression


class _NotLinear(Exception):
    """The quantity enters the relation other than linearly."""


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value  # an int stays an int in the formula shown
    return None


def _add(a: ast.expr, b: ast.expr) -> ast.expr:
    x, y = _number(a), _number(b)
    if x is not None and y is not None:
        return ast.Constant(x + y)
    if _number(a) == 0:
        return b
    if _number(b) == 0:
        return a
    return ast.BinOp(a, ast.Add(), b)


def _neg(a: ast.expr) -> ast.expr:
    value = _number(a)
    if value is not None:
        return ast.Constant(-value if value else value)
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub):
        return a.operand
    return ast.UnaryOp(ast.USub(), a)


def _sub(a: ast.expr, b: ast.expr) -> ast.expr:
    x, y = _number(a), _number(b)
    if x is not None and y is not None:
        return ast.Constant(x - y)
    if _number(b) == 0:
        return a
    if _number(a) == 0:
        return _neg(b)
    return ast.BinOp(a, ast.Sub(), b)


def _mul(a: ast.expr, b: ast.expr) -> ast.expr:
    if _number(a) == 0 or _number(b) == 0:
        return ast.Constant(0)
    if _number(a) == 1:
        return b
    if _number(b) == 1:
        return a
    if _number(a) == -1:
        return _neg(b)
    if _number(b) == -1:
        return _neg(a)
    return ast.BinOp(a, ast.Mult(), b)


def _div(a: ast.expr, b: ast.expr) -> ast.expr:
    if _number(a) == 0:
        return a
    if _number(b) == 1:
        return a
    return ast.BinOp(a, ast.Div(), b)


def _has(node: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _affine(node: ast.expr, y: str) -> tuple[ast.expr, ast.expr]:
    """(rest, slope) with node = rest + slope·y, both free of y, the zeros
    and ones folded away; _NotLinear when node is not so."""
    if not _has(node, y):
        return node, ast.Constant(0)
    if isinstance(node, ast.Name):
        return ast.Constant(0), ast.Constant(1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        rest, slope = _affine(node.operand, y)
        return (_neg(rest), _neg(slope)) if isinstance(node.op, ast.USub) else (rest, slope)
    if isinstance(node, ast.BinOp):
        (a0, a1), (b0, b1) = _affine(node.left, y), _affine(node.right, y)
        if isinstance(node.op, ast.Add):
            return _add(a0, b0), _add(a1, b1)
        if isinstance(node.op, ast.Sub):
            return _sub(a0, b0), _sub(a1, b1)
        if isinstance(node.op, ast.Mult):
            if _has(node.left, y) and _has(node.right, y):
                raise _NotLinear  # y·y
            return _mul(a0, b0), _add(_mul(a1, b0), _mul(a0, b1))
        if isinstance(node.op, ast.Div) and not _has(node.right, y):
            return _div(a0, node.right), _div(a1, node.right)
    raise _NotLinear  # a power, a function or a quotient by y


def linear_in(expression: str, y: str) -> bool:
    """`expression` (the evaluator's syntax) is a + b·y with a and b free of y."""
    try:
        _, slope = _affine(parse_expression(expression).tree.body, y)
    except (FormulaError, _NotLinear):
        return False
    return not _has(slope, y)


def _negated(node: ast.expr) -> ast.expr | None:
    """-node when node is written negative ("-x", "-x - y"), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return node.operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub | ast.Mult | ast.Div):
        head = _negated(node.left)
        if head is not None:
            if isinstance(node.op, ast.Sub):
                return _add(head, node.right)
            return ast.BinOp(head, node.op, node.right)
    return None


def solved_for(lhs: str, rhs: str, response: str) -> str | None:
    """ "response = ..." from `lhs = rhs` (the evaluator's syntax) when the
    response enters linearly with a coefficient that is not zero; else None."""
    try:
        left, right = parse_expression(lhs), parse_expression(rhs)
    except FormulaError:
        return None
    relation = ast.BinOp(left.tree.body, ast.Sub(), right.tree.body)
    if not _has(relation, response):
        return None
    try:
        rest, slope = _affine(relation, response)
    except _NotLinear:
        return None
    if _number(slope) == 0 or _has(slope, response):
        return None
    # y = -F(0)/F'; a slope written negative gives its sign to the numerator.
    positive = _negated(slope)
    solved = _div(rest, positive) if positive is not None else _div(_neg(rest), slope)
    text = f"{response} = {ast.unparse(ast.fix_missing_locations(solved))}"
    try:
        parse_expression(text.split("=", 1)[1])
    except FormulaError:
        return None
    return text
