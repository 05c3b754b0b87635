"""Repeated measurements of one quantity: mean, spread, standard error.

The best estimate of a repeatedly measured quantity is the mean; its
uncertainty is the standard error s/sqrt(n), not the standard deviation
(which describes a single reading). A Shapiro-Wilk test (scipy) says whether
the readings look normally distributed, which is what the standard error
assumes for small n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Repeated:
    name: str
    n: int
    mean: float
    sd: float
    se: float
    minimum: float
    maximum: float
    shapiro_p: float | None


def summarise(name: str, values: np.ndarray) -> Repeated | None:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 3:
        return None
    sd = float(v.std(ddof=1))
    sp = None
    return Repeated(name, int(v.size), float(v.mean()), sd, sd / math.sqrt(v.size),
                    float(v.min()), float(v.max()), sp)  # fmt: skip
