"""The offline pipeline: folder in, PDF (or .tex) out, no LLM.

`build_offline` is the run loop (labwright.agent.run) over the offline stage
table: scan, analyse (choose figures, fit), figures (draw), draft (write),
compile. The writing itself is the pure function in `offline/report.py`, which
the LLM pipeline uses too; this module only announces its steps as events and
writes the results into the output directory.

Safety: the data folder is only read. The output directory may not lie
inside it, images are copied only when they resolve inside the folder, and
every file written to the output directory has a name generated here.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from labwright.agent.events import Done, Error, Event, Step, Warning_
from labwright.agent.offline.early import EarlyCompile, PendingFigure, TexStream, write_stand_ins
from labwright.agent.offline.figures import FigurePlan, drawn_page
from labwright.agent.offline.render import FigureResult, PlotWorker, take_worker
from labwright.agent.offline.report import (
    PROVENANCE_JSON,
    DrawnFigures,
    OfflineReport,
    ReportPlan,
    compose_report,
    copy_images,
    plan_report,
    settle_figures,
    write_report_files,
)
from labwright.agent.offline.text import FIGURE_DIR, folder_display_name
from labwright.agent.run import (
    RunContext,
    Stage,
    check_folder,
    data_skips,
    plan_of,
    run_stages,
)
from labwright.latex.template import fixed_head, install_template_files
from labwright.messages import Message, say
from labwright.safety import is_inside

__all__ = [
    "MAIN_TEX",
    "OFFLINE_STAGES",
    "PROVENANCE_JSON",
    "BadInput",
    "OfflineContext",
    "OfflineStage",
    "build_offline",
    "check_folder",
    "plan_offline",
    "write_report_files",
]

MAIN_TEX = "main.tex"
NO_TEX = say("run.no_tex")


@dataclass(frozen=True)
class OfflineStage:
    stage: str
    label: Message


class BadInput(ValueError):
    """The folder cannot be turned into a report (message: one plain sentence)."""


def _tex_available() -> bool:
    from labwright.latex.engine import resolve_engine

    return resolve_engine().available


# --- the stage table ---------------------------------------------------------------


@dataclass
class OfflineContext(RunContext):
    worker: PlotWorker | None = None
    plan: ReportPlan | None = None
    drawn: DrawnFigures | None = None
    report: OfflineReport | None = None
    #: Typeset while the figures are drawn (offline/early.py); decided by
    #: `build_offline` from the stages that run.
    compile_early: bool = False
    early: EarlyCompile | None = None
    #: Write analysis/ (the compendium) with the report's files, before the
    #: compile: `build --zip` (RunRequest.compendium).
    compendium: bool = False

    @property
    def drawer(self) -> PlotWorker:
        if self.worker is None:
            self.worker = take_worker(self.folder)
        return self.worker

    def planned(self) -> ReportPlan:
        if self.plan is None:
            self.require_data()
            self.out_dir.mkdir(parents=True, exist_ok=True)
            self.plan = plan_report(
                self.inventory, self.read, lang=self.lang, drawer=self.drawer, work_dir=self.out_dir
            )
        return self.plan

    def drawn_figures(self) -> DrawnFigures:
        if self.drawn is None:
            plan = self.planned()
            to_draw, results = copy_images(plan, self.folder, self.out_dir)
            pending = self._stand_ins(to_draw)
            # The worker draws while the report is written and sent to TeX
            # (after the stand-ins: a drawn figure replaces its stand-in).
            drawing = _Drawing(self.drawer, to_draw, self.folder, self.out_dir / FIGURE_DIR)
            try:
                expected = self._start_early(plan, to_draw, results, pending)
            except BaseException:
                drawing.wait()  # the worker is not left drawing for nobody
                raise
            results += drawing.results()
            self.drawer.release()  # its exit overlaps the writing and the compile
            self.drawn = settle_figures(plan, results)
            if self.early is not None:
                if self.drawn == expected:
                    self.early.confirm()
                else:  # the report must say what is missing: write and compile it anew
                    self.stop_early()
                    self.report = None
        return self.drawn

    def start_typesetting(self) -> None:
        """Start XeLaTeX on the report's fixed head (the class line, which
        loads every package and font) while the data is analysed; the report
        follows through the stream when it is written (offline/early.py)."""
        if not self.compile_early or self.early is not None or not TexStream.available():
            return
        install_template_files(self.lang, self.out_dir)  # type: ignore[arg-type]
        self.early = EarlyCompile.start(
            self.out_dir / MAIN_TEX,
            head=fixed_head(self.lang),  # type: ignore[arg-type]
        )

    def _stand_ins(self, to_draw: list[FigurePlan]) -> list[PendingFigure] | None:
        """The figures an early compile will place before they are drawn, their
        stand-ins written; None when there is no early compile."""
        fig_dir = self.out_dir / FIGURE_DIR
        pending = []
        for figure in to_draw:
            page = drawn_page(figure)
            if page is None or not figure.file_name.endswith(".pdf"):
                self.stop_early()  # an image to convert: its page is its own
                return None
            pending.append(PendingFigure(fig_dir / figure.file_name, *page))
        if not self.compile_early or (self.early is None and not pending):
            return None
        write_stand_ins(pending)
        return pending

    def _start_early(
        self,
        plan: ReportPlan,
        to_draw: list[FigurePlan],
        copied: list[FigureResult],
        pending: list[PendingFigure] | None,
    ) -> DrawnFigures | None:
        """Write the report as if every figure will be drawn and have it
        compiled (sent into the started compile, or a compile started now);
        return that assumption (None when there is no early compile)."""
        if pending is None:
            return None
        fig_dir = self.out_dir / FIGURE_DIR
        assumed = copied + [FigureResult(f.key, True, fig_dir / f.file_name) for f in to_draw]
        expected = settle_figures(plan, assumed)
        report = self._compose(expected)
        self._write_files(report)
        if self.early is None:
            (self.out_dir / MAIN_TEX).write_text(report.tex, encoding="utf-8")
            self.early = EarlyCompile.start(self.out_dir / MAIN_TEX)
        elif not self.early.send(report.tex):
            self.stop_early()  # the head it typeset is not this report's
            return None
        self.early.expect(pending)
        self.early.wrote(
            [self.out_dir / PROVENANCE_JSON]
            + [r.path for r in copied if r.ok and r.path is not None]
        )
        self.report = report
        return expected

    def stop_early(self) -> None:
        """Abandon the early compile and wait until TeX has left the folder."""
        if self.early is not None:
            self.early.abandon()
            try:
                self.early.result()
            except Exception:  # noqa: BLE001 - its result is not used anyway
                pass
            self.early = None

    def _compose(self, drawn: DrawnFigures) -> OfflineReport:
        return compose_report(
            self.planned(),
            drawn,
            self.inventory,
            self.read,
            folder_name=folder_display_name(self.folder),
            graphics_root=self.out_dir,
        )

    def _write_files(self, report: OfflineReport) -> None:
        """The template files, the record and the appendix; with `compendium`,
        analysis/ and the appendix naming each number's script line, written
        before TeX reads the appendix (at \\end{document}), so no pass is added."""
        write_report_files(report, self.out_dir)
        analysis = self.plan.analysis if self.plan is not None else None
        if not self.compendium or analysis is None:
            return
        from labwright.agent.offline.compendium_build import write_beside

        try:
            write_beside(
                self.folder,
                self.read,
                analysis,
                report.record(),
                report.lang,
                self.out_dir,
                self.plan.figures if self.plan is not None else None,
            )
        except Exception:  # noqa: BLE001 - the report comes first; the caller
            # sees no analysis/ and writes it after the compile, or says why not.
            shutil.rmtree(self.out_dir / "analysis", ignore_errors=True)

    def _write(self, report: OfflineReport) -> None:
        self._write_files(report)
        (self.out_dir / MAIN_TEX).write_text(report.tex, encoding="utf-8")

    def written(self) -> OfflineReport:
        """The report, written to the output folder (once)."""
        if self.report is None:
            self.report = self._compose(self.drawn_figures())
            self._write(self.report)
        return self.report


class _Drawing:
    """`PlotWorker.render` of the figures in a thread, started at once: the
    worker draws while this process writes the report (the thread mostly
    waits for the worker's replies). `results` waits for every figure and
    raises what the drawing raised."""

    def __init__(self, drawer: PlotWorker, plans: list[FigurePlan], folder: Path, out: Path):
        self._results: list[FigureResult] = []
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if not plans:
            return

        def draw() -> None:
            try:
                self._results.extend(drawer.render(plans, folder, out))
            except BaseException as exc:  # noqa: BLE001 - raised again in results()
                self._error = exc

        self._thread = threading.Thread(target=draw, name="draw-figures", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def results(self) -> list[FigureResult]:
        self.wait()
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return self._results


def _scan(ctx: OfflineContext) -> Iterator[Event]:
    yield from scan_events(ctx)
    yield ctx.language_step()


def scan_events(ctx: RunContext) -> Iterator[Event]:
    """The scan's warnings, its log line, then each unread file once; stops
    the run (with the one sentence that names why) when there is no data.
    Shared by both pipelines' scan stages."""
    for warning in ctx.inventory.warnings:
        yield Warning_(message=warning)
    read = ctx.read
    yield Step(
        stage="scan",
        message=say(
            "step.scan",
            files=len(ctx.inventory.files),
            datasets=len(read.datasets),
            images=len(read.images),
            documents=len(read.documents),
            skipped=len(read.skipped),
        ),
    )
    usable = bool(read.datasets or read.images)
    told = set() if usable else set(data_skips(read))  # the stop says these itself
    for skipped in read.skipped:
        if skipped.reason not in told:
            yield Warning_(message=skipped.reason)  # the reason already names the file
    ctx.require_data()


def _analyse(ctx: OfflineContext) -> Iterator[Event]:
    ctx.start_typesetting()
    plan = ctx.planned()
    for warning in plan.warnings:
        yield Warning_(message=warning)
    kinds = sorted(plan.analysis.kinds()) if plan.analysis is not None else []
    yield Step(
        stage="analyse",
        message=say(
            "step.analyse",
            lang=plan.lang,
            analyses=", ".join(kinds) or say("none"),
            figures=len(plan.figures),
            fits=plan.fit_count,
        ),
    )


def _figures(ctx: OfflineContext) -> Iterator[Event]:
    drawn = ctx.drawn_figures()
    made = {f.name: f for f in drawn.made}
    warnings = iter(drawn.warnings)
    for figure in ctx.planned().figures:  # in plan order, as the report shows them
        yield made[figure.key] if figure.key in made else Warning_(message=next(warnings))


def _draft(ctx: OfflineContext) -> Iterator[Event]:
    report = ctx.written()
    ctx.problems += report.problems
    # The plan's and the drawing's warnings were announced by their stages.
    announced = len(ctx.planned().warnings) + len(ctx.drawn_figures().warnings)
    for warning in report.warnings[announced:]:
        yield Warning_(message=warning)
    yield Step(
        stage="draft",
        message=say(
            "step.numbers_recorded", count=len(report.ledger.entries), file=PROVENANCE_JSON
        ),
    )


def _compile(ctx: OfflineContext) -> Iterator[Event]:
    from labwright.latex.compile import EngineNotFound, compile_tex
    from labwright.latex.diagnose import humanize

    try:
        early, ctx.early = ctx.early, None
        result = early.result() if early is not None else None
        if result is None:  # no early compile, or a drawn page differed
            result = compile_tex(ctx.out_dir / MAIN_TEX)
    except EngineNotFound:
        missing = say("tex.engine_missing")
        ctx.problems.append(missing)
        yield Error(message=missing, action=say("action.doctor"))
        return
    passes = ", ".join(p.name for p in result.passes)
    yield Step(
        stage="compile",
        message=say(
            "step.compile",
            count=len(result.passes),
            passes=passes,
            seconds=f"{result.elapsed_s:.1f}",
        ),
    )
    # Every finding is shown; only those that degrade the PDF count as problems
    # (an overfull line is cosmetic and does not turn the exit code to 1).
    findings = humanize(result.diagnostics)
    for f in findings:
        yield Warning_(message=f)
    if result.status != "clean":
        ctx.problems += findings or [say("run.compile_status", status=result.status)]
    if result.pdf is None:
        yield Error(message=say("run.no_pdf"), action=say("action.open_log"))
    ctx.pdf = result.pdf


def _finish(ctx: OfflineContext) -> Iterator[Event]:
    tex_path = ctx.out_dir / MAIN_TEX
    if not tex_path.is_file():  # the draft stage was turned off: write the report now
        yield from _draft(ctx)
    if not ctx.tex_available:
        ctx.problems.append(NO_TEX)
        yield Warning_(message=NO_TEX)
    pdf = str(ctx.pdf) if ctx.pdf is not None else None
    yield Done(
        ok=pdf is not None and not ctx.problems,
        pdf_path=pdf,
        tex_path=str(tex_path),
        problems=ctx.problems,
    )


OFFLINE_STAGES: tuple[Stage[OfflineContext], ...] = (
    Stage("scan", say("stage.scan"), _scan),
    Stage("analyse", say("stage.analyse"), _analyse),
    Stage("figures", say("stage.figures"), _figures),
    Stage("draft", say("stage.write"), _draft),
    Stage("compile", say("stage.compile"), _compile, enabled=lambda ctx: ctx.tex_available),
)


def plan_offline(*, tex_available: bool) -> list[OfflineStage]:
    """The milestones of one offline build, known before it starts."""
    ctx = OfflineContext(Path("."), Path("."), tex_available=tex_available)
    return [OfflineStage(p.stage, p.label) for p in plan_of(OFFLINE_STAGES, ctx)]


def build_offline(
    folder: Path,
    out_dir: Path,
    *,
    lang: str | None = None,
    tex_available: bool | None = None,
    stages: tuple[Stage[OfflineContext], ...] = OFFLINE_STAGES,
    compendium: bool = False,
) -> Iterator[Event]:
    """Build a report from `folder` into `out_dir` (main.tex, figures/, the
    template files, provenance.json and, with TeX, main.pdf).

    Ends with exactly one Done event. `Done.tex_path` is None only when the
    input could not be used at all (missing/empty folder, nothing readable).
    """
    folder = Path(folder)
    out_dir = Path(out_dir)
    problem = check_folder(folder)
    if problem is None and is_inside(out_dir, folder):
        problem = say("folder.output_inside")
    if problem is not None:
        yield Error(message=problem, action=say("action.give_data_folder"))
        yield Done(ok=False, outcome="failed")
        return
    ctx = OfflineContext(
        folder,
        out_dir,
        lang_option=lang,
        tex_available=_tex_available() if tex_available is None else tex_available,
        compendium=compendium,
    )
    ctx.worker = take_worker(ctx.folder)  # already importing matplotlib while we read
    names = {s.name for s in stages if s.enabled(ctx)}
    ctx.compile_early = {"figures", "draft", "compile"} <= names
    try:
        yield from run_stages(stages, ctx, _finish)
    finally:
        ctx.stop_early()  # a run that ended before its compile stage
        if ctx.worker is not None:
            ctx.worker.close()
