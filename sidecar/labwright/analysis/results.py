"""What every analysis result offers the writers: the answers to the
request, with their uncertainty, unit, method and comparison.

The report answers first: a results table at the top of Results lists every
`Answer`; the discussion is written from the same objects (agreement with the
expected value, the dominant uncertainty, the residuals), and the provenance
record and `benchmarks/analyst_eval.py` read them from there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.request import Unanswered
from labwright.ingest.types import Provenance


@dataclass(frozen=True)
class Comparison:
    """The result against an expected (notes) or reference (catalogue) value."""

    value: float
    uncertainty: float | None
    unit: str | None
    source: str  # "the notes" / the catalogue's reference source, in English (a key)
    file: str | None = None  # the notes' file that gives the value, when known
    source_zh: str | None = None  # the catalogue reference's source in Chinese

    def source_in(self, lang: str) -> str:
        """The source as the report's language says it (English when the
        reference has no Chinese text, and for the notes' own values, which
        the report's phrases name)."""
        return self.source_zh if lang == "zh" and self.source_zh else self.source

    def z(self, value: float, se: float | None) -> float | None:
        """The difference in combined standard errors, or None without any."""
        var = (se or 0.0) ** 2 + (self.uncertainty or 0.0) ** 2
        return (value - self.value) / math.sqrt(var) if var > 0 else None


@dataclass(frozen=True)
class FitQuality:
    """How well the law an answer came from describes its data: what the
    discussion says of the fit (the scatter against the stated uncertainties,
    a pattern in the residuals). Built by `fit_quality` from the residuals."""

    n: int  # points fitted
    dof: int  # degrees of freedom (n minus the fitted parameters)
    weighted: bool  # residuals divided by the data's stated uncertainties
    reduced_chi2: float | None = None  # chi2/dof of the weighted residuals
    chi2_p: float | None = None  # P(chi2 >= observed) for dof degrees of freedom
    runs_p: float | None = None  # runs test of the residuals' signs (a pattern when small)
    r2: float | None = None

    def record(self) -> dict[str, object]:
        return {
            "n": self.n,
            "dof": self.dof,
            "weighted": self.weighted,
            "reduced_chi2": self.reduced_chi2,
            "chi2_p": self.chi2_p,
            "runs_p": self.runs_p,
            "r2": self.r2,
        }


def fit_quality(
    residuals: Sequence[float] | np.ndarray[Any, Any],
    n_params: int,
    *,
    sigma: Sequence[float] | np.ndarray[Any, Any] | None = None,
    r2: float | None = None,
) -> FitQuality:
    """The quality of a fit from its residuals (data minus model). With
    `sigma` (the data's standard uncertainties) the reduced chi-square and its
    p-value say whether the scatter matches the stated uncertainties; without,
    chi-square is the residual variance by construction and is not given. The
    runs test (signs about zero, `runs_test_p`) finds residuals that run in
    long stretches of one sign: a model that misses a systematic trend."""
    from scipy.special import chdtrc

    r = np.asarray(residuals, dtype=float)
    keep = np.isfinite(r)
    s = None if sigma is None else np.asarray(sigma, dtype=float)
    if s is not None:
        keep &= np.isfinite(s) & (s > 0)
    r = r[keep]
    n = int(r.size)
    dof = n - int(n_params)
    reduced = chi2_p = None
    if s is not None and dof > 0:
        chi2 = float(np.sum((r / s[keep]) ** 2))
        reduced = chi2 / dof
        chi2_p = float(chdtrc(dof, chi2))  # scipy.stats.chi2.sf, without importing scipy.stats
    runs_p = None
    signs = r[r != 0]
    if signs.size >= 10 and 0 < int(np.sum(signs > 0)) < signs.size:
        p = runs_test_p(signs > 0)
        runs_p = p if math.isfinite(p) else None
    return FitQuality(
        n=n, dof=dof, weighted=s is not None, reduced_chi2=reduced, chi2_p=chi2_p,
        runs_p=runs_p, r2=r2,
    )  # fmt: skip


def runs_test_p(above: np.ndarray[Any, Any]) -> float:
    """Two-sided p-value of the Wald-Wolfowitz runs test of a sequence of
    two kinds (True/False, both present), by the normal approximation with
    the 0.5 continuity correction below 50 values.

    The same arithmetic as statsmodels' `runstest_1samp(x, cutoff=0.0,
    correction=x.size < 50)` (tests/analysis/test_runs_test.py holds the two
    equal), which the exported script calls. It is written out here because
    statsmodels' runs module imports scipy.stats, ~0.2 s that a build of
    least-squares fits would otherwise pay for this one p-value (lmfit defers
    it too: analysis/lmfit_import.py)."""
    from scipy.special import ndtr

    kinds = np.asarray(above, dtype=bool)
    n = int(kinds.size)
    n_runs = 1 + int(np.count_nonzero(kinds[1:] != kinds[:-1]))
    both = float(np.count_nonzero(kinds)) * float(n - np.count_nonzero(kinds))
    mean = 2.0 * both / n + 1
    std = math.sqrt(2.0 * both * (2.0 * both - n) / n**2.0 / (n - 1.0))
    excess = n_runs - mean
    if n < 50:
        # statsmodels' correction, as it is: any excess under 0.5 (negative
        # ones too) has 0.5 added; exactly 0.5 becomes 0.
        excess = excess - 0.5 if excess > 0.5 else excess + 0.5 if excess < 0.5 else 0.0
    z = excess / std
    return float(2 * ndtr(-abs(z)))


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
    fit: FitQuality | None = None  # the quality of the fit it came from, when one
    # The asked quantity this answers when its key differs: one peak's centre
    # (`center_2`) answers the notes' "centres" (`center`).
    answers_for: str | None = None
    # The notes' own symbol for it when they write the law their way (hmax
    # for A_inf), as plain text: the record carries it so a reader (and the
    # scorer) finds the quantity by the name they asked it by.
    symbol: str | None = None
    # The table (a sheet, or a file) that tells this answer apart from the
    # same quantity of another table: "草甘膦" of the EC50 fitted on that
    # sheet. The label says it too; the record keeps it apart, so a reader
    # finds "EC50 (草甘膦)" by the quantity's name and the table's.
    part: str | None = None

    @property
    def asks(self) -> str:
        """The quantity key an ask for this answer names."""
        return self.answers_for or self.quantity

    @property
    def z(self) -> float | None:
        return self.comparison.z(self.value, self.se) if self.comparison else None

    def record(self) -> dict[str, object]:
        return {
            "quantity": self.quantity,
            "symbol": self.symbol,
            "label": self.label.en,
            "part": self.part,
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
            "fit": None if self.fit is None else self.fit.record(),
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
