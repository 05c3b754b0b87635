"""The writer half of the table of analysis kinds: for each kind, its text
(every number through the ledger), its figures (panels specs for the plot
worker) and its script (the lines of the exported compendium that recompute
it, `writers/script.py`).

Keyed like `labwright.analysis.kinds.KINDS` (a test holds the two tables to
the same keys). Each writer takes the kind's typed result: `result` is the
type its `compute` returns, checked when the writer is called, so a result
reaching the wrong writer fails loudly instead of printing nonsense.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.writers import (
    calibration,
    factorial,
    fit,
    groups,
    law,
    paired,
    peaks,
    periodogram,
    quantal,
    regression,
    repeated,
    run_series,
    series,
    spacing,
    symmetry,
    timeseries,
    timeseries_script,
    titration,
    wide,
    xy,
)
from labwright.agent.offline.writers.common import KeyMaker, no_figures, no_findings, no_text
from labwright.agent.offline.writers.script import KindScript
from labwright.analysis.analyses.fit import FitOutcome
from labwright.analysis.analyses.groups import GroupsFound
from labwright.analysis.analyses.timeseries import TimeSeriesFound
from labwright.analysis.analyses.xy import XYTable
from labwright.analysis.jobs import Analysis
from labwright.analysis.law import LawFit
from labwright.analysis.paired import PairedResult
from labwright.analysis.peaks import PeakResult
from labwright.analysis.procedures.calibration import CalibrationResult
from labwright.analysis.procedures.factorial import FactorialResult
from labwright.analysis.procedures.periodogram import PeriodResult
from labwright.analysis.procedures.run_series import RunSeriesResult
from labwright.analysis.procedures.titration import TitrationResult
from labwright.analysis.quantal import QuantalResult
from labwright.analysis.regression import RegressionResult
from labwright.analysis.repeated import Repeated
from labwright.analysis.series_summary import SeriesSummary
from labwright.analysis.spacing import SpacingResult
from labwright.analysis.symmetry import SymmetryResult
from labwright.analysis.wide import WideLayout

R = TypeVar("R")


def no_drawing(a: Analysis[Any, Any], plans: list[FigurePlan]) -> KindScript:
    """A kind whose figures the compendium does not redraw (yet)."""
    del a, plans
    return KindScript()


@dataclass(frozen=True)
class KindWriter(Generic[R]):
    result: type[R]
    text: Callable[[Analysis[Any, R], Ledger, str], str]
    figures: Callable[[Analysis[Any, R], KeyMaker, str], list[FigurePlan]]
    script: Callable[[Analysis[Any, R]], KindScript]
    #: The compendium's code that redraws the analysis' figures (`plans`,
    #: the ones the report shows) from the variables its block left.
    drawing: Callable[[Analysis[Any, R], list[FigurePlan]], KindScript] = no_drawing
    #: What the analysis found, one sentence each (a difference between groups
    #: or not): the discussion and conclusion of a report whose notes ask for
    #: no quantity state these instead of only listing what was computed.
    findings: Callable[[Analysis[Any, R], Ledger, str], list[str]] = no_findings

    def _check(self, a: Analysis[Any, Any]) -> None:
        if not isinstance(a.result, self.result):
            raise TypeError(f"a {type(a.result).__name__} reached the {a.kind} writer")

    def write(self, a: Analysis[Any, Any], ledger: Ledger, lang: str) -> str:
        self._check(a)
        return self.text(a, ledger, lang)

    def draw(self, a: Analysis[Any, Any], next_key: KeyMaker, lang: str) -> list[FigurePlan]:
        self._check(a)
        return self.figures(a, next_key, lang)

    def recompute(self, a: Analysis[Any, Any]) -> KindScript:
        self._check(a)
        return self.script(a)

    def found(self, a: Analysis[Any, Any], ledger: Ledger, lang: str) -> list[str]:
        self._check(a)
        return self.findings(a, ledger, lang)


WRITERS: dict[str, KindWriter[Any]] = {
    "run_series": KindWriter(
        RunSeriesResult, run_series.text, run_series.figures, run_series.script
    ),
    "quantal": KindWriter(
        QuantalResult, quantal.text, quantal.figures, quantal.script, quantal.drawing
    ),
    "spacing": KindWriter(SpacingResult, spacing.text, spacing.figures, spacing.script),
    "fit": KindWriter(FitOutcome, fit.text, fit.figures, fit.script, fit.drawing),
    "titration": KindWriter(
        TitrationResult, titration.text, titration.figures, titration.script, titration.drawing
    ),
    "calibration": KindWriter(
        CalibrationResult,
        calibration.text,
        calibration.figures,
        calibration.script,
        calibration.drawing,
    ),
    "periodogram": KindWriter(
        PeriodResult,
        periodogram.text,
        periodogram.figures,
        periodogram.script,
        periodogram.drawing,
    ),
    "factorial": KindWriter(FactorialResult, factorial.text, factorial.figures, factorial.script),
    "series": KindWriter(
        SeriesSummary, series.text, series.figures, series.script, series.drawing, series.findings
    ),
    "law": KindWriter(LawFit, law.text, law.figures, law.script),
    "peaks": KindWriter(PeakResult, peaks.text, peaks.figures, peaks.script),
    "paired": KindWriter(PairedResult, paired.text, paired.figures, paired.script),
    "regression": KindWriter(
        RegressionResult,
        regression.text,
        regression.figures,
        regression.script,
        regression.drawing,
        regression.findings,
    ),
    "groups": KindWriter(
        GroupsFound, groups.text, groups.figures, groups.script, groups.drawing, groups.findings
    ),
    "timeseries": KindWriter(
        TimeSeriesFound,
        timeseries.text,
        timeseries.figures,
        timeseries_script.script,
        timeseries_script.drawing,
    ),
    "repeated": KindWriter(
        Repeated, repeated.text, repeated.figures, repeated.script, repeated.drawing
    ),
    "wide": KindWriter(WideLayout, wide.text, wide.figures, wide.script),
    "symmetry": KindWriter(
        SymmetryResult, symmetry.text, symmetry.figures, symmetry.script, symmetry.drawing
    ),
    # The x-y path writes and draws its own (offline/text.py, offline/figures.py).
    "xy": KindWriter(XYTable, no_text, no_figures, xy.script, xy.drawing),
}


def writer_of(a: Analysis[Any, Any]) -> KindWriter[Any]:
    return WRITERS[a.kind]


def findings(analyses: list[Analysis[Any, Any]], ledger: Ledger, lang: str) -> list[str]:
    """What the analyses found, in the report's order (`KindWriter.findings`)."""
    return [f for a in analyses for f in writer_of(a).found(a, ledger, lang)]


def scripts(analyses: list[Analysis[Any, Any]]) -> list[KindScript]:
    """The compendium's blocks, one per analysis, in the report's order."""
    return [writer_of(a).recompute(a) for a in analyses]


def analysis_plans(
    analyses: list[Analysis[Any, Any]], next_key: KeyMaker, lang: str = "en"
) -> list[FigurePlan]:
    """Figures of every analysis, in order (the x-y path draws its own)."""
    plans: list[FigurePlan] = []
    for a in analyses:
        plans.extend(writer_of(a).draw(a, next_key, lang))
    return plans
