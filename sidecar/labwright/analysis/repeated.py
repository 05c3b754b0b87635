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

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.results import Answer, Comparison
from labwright.ingest.types import Provenance


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
    #: The symbol the notes ask the mean by ("the mean density D"), their
    #: words for it, the readings' unit and column: the mean is then an answer.
    asked: str | None = None
    label: str | None = None
    unit: str | None = None
    source: Provenance | None = None
    #: The value the notes give for it (a nominal value), to compare with.
    comparison: Comparison | None = None

    def answers(self) -> list[Answer]:
        if self.asked is None:
            return []
        label = self.label or self.asked
        how = Text(
            f"mean of the {self.n} readings; standard error s/√n",
            f"{self.n} 个读数的平均值；标准误差 s/√n",
        )
        return [
            Answer(self.asked, Text(label, label), self.asked, self.mean, self.se, self.unit, how,
                   None, True, self.comparison, (self.source,) if self.source else (),
                   f"all {self.n}")
        ]  # fmt: skip


def summarise(name: str, values: np.ndarray) -> Repeated | None:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 3:
        return None
    sd = float(v.std(ddof=1))
    sp = None
    return Repeated(name, int(v.size), float(v.mean()), sd, sd / math.sqrt(v.size),
                    float(v.min()), float(v.max()), sp)  # fmt: skip
