"""The offline writer as a function: what was read in, an `OfflineReport` out.

No scanning, no reading, no events, no files besides the figures it is asked
to draw into the given figure folder: the caller has read the folder (once)
and decides what to announce and what to write. Both pipelines start from it:
the offline pipeline writes it as the report, the model-backed pipeline gives
it to the model as the default report and falls back on it.

It comes in three steps because the offline pipeline shows them as three
milestones (fitting, drawing, writing); `write_offline_report` chains them.
`analysis` carries the analyst's results (issue 13: column roles, the
question the notes ask, the analyses chosen from both); the plan step computes
them when the caller has not, and chooses figures and fits from them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from labwright.agent.events import FigureMade
from labwright.agent.offline.figure_record import FIGURES_KEY, figure_record
from labwright.agent.offline.figures import MAX_FIGURES, TEX_IMAGE_FORMATS, FigurePlan, plan_figures
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.render import FigureResult
from labwright.agent.offline.text import FIGURE_DIR, ReportInput, assemble
from labwright.ingest.types import Inventory, ReadResult
from labwright.messages import say
from labwright.safety import is_inside

if TYPE_CHECKING:
    import numpy as np

    from labwright.analysis.fits import FitResult
    from labwright.analysis.plan import FolderAnalysis

PROVENANCE_JSON = "provenance.json"
# Larger images go through the plotting process, which scales them down for print.
_COPY_MAX_PIXELS = 3000 * 3000


class FigureDrawer(Protocol):
    """What fits and draws the offline figures (the plotting process)."""

    def fit(
        self, pairs: list[tuple[np.ndarray, np.ndarray]], work_dir: Path
    ) -> list[FitResult | None]: ...

    def render(
        self, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]: ...

    def release(self) -> None: ...


@dataclass(frozen=True)
class ReportPlan:
    lang: str
    figures: list[FigurePlan]
    warnings: list[str] = field(default_factory=list)
    #: The analyst's reading, request, analyses and answers.
    analysis: FolderAnalysis | None = None

    @property
    def fit_count(self) -> int:
        """The fits made: of the request's laws, and of curves on the figures."""
        laws = sum(a.kind == "fit" for a in self.analysis.analyses) if self.analysis else 0
        return laws + sum(len(p.fits) for p in self.figures)


@dataclass(frozen=True)
class DrawnFigures:
    results: dict[str, FigureResult]
    made: list[FigureMade]
    warnings: list[str]


@dataclass(frozen=True)
class OfflineReport:
    """The offline writer's result: LaTeX source, figures, number provenance, warnings."""

    lang: str
    tex: str
    figures: list[FigureMade]
    ledger: Ledger
    warnings: list[str]
    #: What the sanitizer changed in our own source (each one is a bug in this writer).
    problems: list[str]
    #: What each figure the report shows plots (figure_record.py), for the
    #: compendium's script to compare its redrawn figures with.
    plotted: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """provenance.json: the numbers (the ledger) and the figures' data."""
        return {**self.ledger.to_dict(), FIGURES_KEY: self.plotted}


def plan_report(
    inventory: Inventory,
    read: ReadResult,
    *,
    lang: str,
    drawer: FigureDrawer,
    work_dir: Path,
    analysis: FolderAnalysis | None = None,
) -> ReportPlan:
    """Analyse (unless the caller has), choose the figures and fit the curves.
    Tables the analyses take get their figures; the rest go down the x-y path,
    restricted to measurement columns."""
    del inventory
    if analysis is None:
        from labwright.analysis.catalogue.load import catalogue
        from labwright.analysis.plan import analyse_folder
        from labwright.analysis.request_rules import read_request

        # What the notes ask, read by rules: the request-driven kinds
        # (procedures, laws of the catalogue) bind from it.
        analysis = analyse_folder(read, read_request(read, catalogue()))
    figures = plan_figures(
        read.datasets,
        read.images,
        lambda pairs: drawer.fit(pairs, work_dir),
        analysis=analysis,
        lang=lang,
    )
    warnings: list[str] = []
    if len(figures) == MAX_FIGURES:
        warnings.append(say("fig.max", max=MAX_FIGURES))
    return ReportPlan(lang=lang, figures=figures, warnings=warnings, analysis=analysis)


def _copy_images(
    plans: list[FigurePlan], folder: Path, fig_dir: Path
) -> tuple[list[FigurePlan], list[FigureResult]]:
    """Images TeX can include are copied under a generated name; the rest go
    to the plotting process for conversion. A path resolving outside the folder
    (a symlink) is refused."""
    rest: list[FigurePlan] = []
    done: list[FigureResult] = []
    for plan in plans:
        if plan.kind != "image" or plan.image is None:
            rest.append(plan)
            continue
        src = folder / plan.image.source
        if not is_inside(src, folder):
            done.append(FigureResult(plan.key, False, None, say("fig.reason.outside")))
            continue
        small = plan.image.width * plan.image.height <= _COPY_MAX_PIXELS
        if plan.image.format.upper() in TEX_IMAGE_FORMATS and small:
            dest = fig_dir / plan.file_name
            try:
                shutil.copyfile(src, dest, follow_symlinks=True)
                done.append(FigureResult(plan.key, True, dest))
            except OSError as exc:
                done.append(
                    FigureResult(
                        plan.key,
                        False,
                        None,
                        say("fig.reason.copy_failed", reason=exc.strerror or str(exc)),
                    )
                )
        else:
            rest.append(plan)
    return rest, done


def copy_images(
    plan: ReportPlan, folder: Path, out_dir: Path
) -> tuple[list[FigurePlan], list[FigureResult]]:
    """Copy the images TeX can include into out_dir/figures; return the
    figures left to draw and what the copying gave."""
    fig_dir = out_dir / FIGURE_DIR
    fig_dir.mkdir(parents=True, exist_ok=True)
    return _copy_images(plan.figures, folder, fig_dir)


def settle_figures(plan: ReportPlan, results: list[FigureResult]) -> DrawnFigures:
    """The planned figures that exist, in plan order, and a sentence for each
    one that does not."""
    by_key = {r.key: r for r in results}
    made: list[FigureMade] = []
    warnings: list[str] = []
    for figure in plan.figures:
        r = by_key.get(figure.key)
        if r is not None and r.ok and r.path is not None:
            made.append(FigureMade(name=figure.key, path=str(r.path), source=figure.source))
        else:
            reason = (r.error or say("fig.reason.no_result")) if r else say("fig.reason.no_result")
            warnings.append(say("fig.not_drawn", source=figure.source, reason=reason))
    return DrawnFigures(by_key, made, warnings)


def draw_figures(
    plan: ReportPlan, folder: Path, out_dir: Path, drawer: FigureDrawer
) -> DrawnFigures:
    """Draw the planned figures into out_dir/figures (their only side effect)."""
    to_draw, results = copy_images(plan, folder, out_dir)
    if to_draw:
        results += list(drawer.render(to_draw, folder, out_dir / FIGURE_DIR))
    drawer.release()  # no more requests: its exit overlaps the writing and the compile
    return settle_figures(plan, results)


def compose_report(
    plan: ReportPlan,
    drawn: DrawnFigures,
    inventory: Inventory,
    read: ReadResult,
    *,
    folder_name: str,
    graphics_root: Path,
) -> OfflineReport:
    """Write the LaTeX from the plan and the drawn figures; every number goes to the ledger."""
    from labwright.agent.offline.provenance import unsourced_numbers
    from labwright.analysis.fits import MODELS
    from labwright.latex.sanitize import sanitize
    from labwright.latex.template import render_template

    ledger = Ledger()
    inp = ReportInput(
        lang=plan.lang,
        folder_name=folder_name,
        read=read,
        plans=plan.figures,
        figures=drawn.results,
        inventory=inventory,
        analysis=plan.analysis,
    )
    fields = assemble(inp, ledger)
    source = render_template(plan.lang, fields)  # type: ignore[arg-type]
    cleaned = sanitize(source, graphics_root=graphics_root)
    warnings = list(plan.warnings) + list(drawn.warnings)
    # Self-check: a number without a ledger entry is a bug in this writer.
    formulas = tuple(m.formula for m in MODELS.values())
    for token in unsourced_numbers(cleaned.text, ledger.to_dict(), formulas):
        warnings.append(say("fig.no_provenance", token=token))
    # The figures' data for the compendium: the plot worker's own arrays,
    # of the figures the report shows (a few ms; no array is computed twice
    # but the x-y fits' curves).
    shown = {m.name for m in drawn.made}
    return OfflineReport(
        lang=plan.lang,
        tex=cleaned.text,
        figures=drawn.made,
        ledger=ledger,
        warnings=warnings,
        problems=[say("tex.sanitized", rule=c.rule, detail=c.detail) for c in cleaned.changes],
        plotted=figure_record(plan.figures, shown),
    )


def write_offline_report(
    inventory: Inventory,
    read: ReadResult,
    *,
    lang: str,
    folder: Path,
    folder_name: str,
    out_dir: Path,
    drawer: FigureDrawer,
    analysis: FolderAnalysis | None = None,
) -> OfflineReport:
    """The three steps in one call (the model-backed pipeline's default report)."""
    plan = plan_report(
        inventory, read, lang=lang, drawer=drawer, work_dir=out_dir, analysis=analysis
    )
    drawn = draw_figures(plan, folder, out_dir, drawer)
    return compose_report(
        plan, drawn, inventory, read, folder_name=folder_name, graphics_root=out_dir
    )


def write_report_files(report: OfflineReport, out_dir: Path) -> None:
    """The template files and provenance.json next to where main.tex goes (both pipelines)."""
    from labwright.agent.offline.appendix import write_appendix
    from labwright.latex.template import install_template_files

    install_template_files(report.lang, out_dir)  # type: ignore[arg-type]
    record = report.record()
    (out_dir / PROVENANCE_JSON).write_text(
        json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    write_appendix(record, report.lang, out_dir)
