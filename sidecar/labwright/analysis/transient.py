"""A law that starts at t = 0, and the samples recorded before it.

A capacitor's discharge, a decay, a damped swing: the catalogue writes them
as an exponential in time from the moment the event starts. An oscilloscope
or logger keeps pre-trigger samples (t < 0), where the capacitor still sat
at its charged voltage: fitted with the rest, they drag the time constant
(4.8 % too long on a capture with 20 samples of the flat pre-trigger part).
A scientist fits from the trigger on. Leaving t < 0 out of a law that is not
such a transient would only cost points, so the rule is kept to laws whose
formula holds an exponential of their time variable.
"""

from __future__ import annotations

import ast

import numpy as np

from labwright.analysis.catalogue.expr import parse_equation
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.quantities import dimensionality

_SECONDS = dimensionality("s")


def transient_time(entry: ModelEntry) -> str | None:
    """The time variable of a law that starts at t = 0 (an exponential of it
    in the formula), or None."""
    times = {v.name for v in entry.independents if v.unit and dimensionality(v.unit) == _SECONDS}
    if not times:
        return None
    tree = parse_equation(entry.formula).rhs.tree
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exp":
            named = {n.id for arg in node.args for n in ast.walk(arg) if isinstance(n, ast.Name)}
            hit = sorted(named & times)
            if hit:
                return hit[0]
    return None


def before_start(times: np.ndarray, enough: int) -> np.ndarray | None:
    """The samples before t = 0 when there are some and at least `enough`
    from t = 0 on; None otherwise."""
    t = np.asarray(times, dtype=float)
    early: np.ndarray = np.isfinite(t) & (t < 0)
    if not early.any() or int((np.isfinite(t) & (t >= 0)).sum()) < enough:
        return None
    return early
