"""What every analysis result offers the writers: the answers to the
request, with their uncertainty, unit, method and comparison.

The report answers first: a results table at the top of Results lists every
`Answer`; the discussion is written from the same objects (agreement with the
expected value, the dominant uncertainty, the residuals), and the provenance
record and `benchmarks/analyst_eval.py` read them from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.request import Unanswered
from labwright.ingest.types import Provenance


@dataclass(frozen=True)
class Comparison:
    """The result against an expected (notes) or reference (catalogue) value."""

    value: float
    uncertainty: float | None
    unit: str | None
    source: str  # "the notes" / the catalogue's reference source

    def z(self, value: float, se: float | None) -> float | None:
        """The difference in combined standard errors, or None without any."""
        var = (se or 0.0) ** 2 + (self.uncertainty or 0.0) ** 2
        return (value - self.value) / math.sqrt(var) if var > 0 else None


@dataclass(frozen=True)
class Answer:
    """One asked (or customary) quantity, computed."""

    quantity: str  # catalogue key: parameter name or derived key
    label: Text  # "Michaelis constant" / "米氏常数"
    latex: str  # its symbol as LaTeX ("K_m")
    value: float
    se: float | None
    unit: str | None  # display unit (pint-formatted short form)
    method: Text  # one line: what was fitted to what, how the SE was found
    model: str | None = None  # catalogue model key
    asked: bool = True  # False: reported because customary, not because asked
    comparison: Comparison | None = None
    sources: tuple[Provenance, ...] = ()  # the columns it came from
    rows: str | None = None  # which rows ("all 12", "2-11")

    @property
    def z(self) -> float | None:
        return self.comparison.z(self.value, self.se) if self.comparison else None

    def record(self) -> dict[str, object]:
        return {
            "quantity": self.quantity,
            "label": self.label.en,
            "value": self.value,
            "se": self.se,
            "unit": self.unit,
            "method": self.method.en,
            "model": self.model,
            "asked": self.asked,
            "expected": None
            if self.comparison is None
            else {
                "value": self.comparison.value,
                "uncertainty": self.comparison.uncertainty,
                "unit": self.comparison.unit,
                "source": self.comparison.source,
            },
            "z": self.z,
            "sources": [s.describe() for s in self.sources],
            "rows": self.rows,
        }


class Answers(Protocol):
    """A typed result that answers part of the request."""

    def answers(self) -> list[Answer]: ...


@dataclass
class AnswerSheet:
    """All answers of a folder, and what could not be answered."""

    answers: list[Answer] = field(default_factory=list)
    unanswered: list[Unanswered] = field(default_factory=list)

    def record(self) -> dict[str, object]:
        return {
            "answers": [a.record() for a in self.answers],
            "unanswered": [u.model_dump() for u in self.unanswered],
        }
