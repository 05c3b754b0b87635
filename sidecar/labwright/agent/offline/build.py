"""The offline writer's pipeline: folder in, PDF (or .tex) out, no LLM.

`build_offline` is a generator of run events (labwright.agent.events), so the
CLI prints them and the server streams them. Its milestones are fixed before
the first step by `plan_offline`. The pieces it chains (figure choice, fits,
tables, text) are importable on their own for the LLM pipeline.

Safety: the data folder is only read. The output directory may not lie
inside it, images are copied only when they resolve inside the folder, and
every file written to the output directory has a name generated here.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from labwright.agent.events import Done, Error, Event, FigureMade, Milestone, Step, Warning_
from labwright.agent.offline.figures import MAX_FIGURES, TEX_IMAGE_FORMATS, FigurePlan, plan_figures
from labwright.agent.offline.fits import MODELS
from labwright.agent.offline.language import detect_lang
from labwright.agent.offline.provenance import Ledger, unsourced_numbers
from labwright.agent.offline.render import FigureResult, PlotWorker, take_worker
from labwright.agent.offline.text import FIGURE_DIR, ReportInput, assemble, folder_display_name
from labwright.agent.path_guard import is_inside
from labwright.ingest.types import Inventory, ReadResult

MAIN_TEX = "main.tex"
# Larger images go through the worker, which scales them down for print.
_COPY_MAX_PIXELS = 3000 * 3000
PROVENANCE_JSON = "provenance.json"


@dataclass(frozen=True)
class OfflineStage:
    stage: str
    label: str


_STAGES: tuple[OfflineStage, ...] = (
    OfflineStage("scan", "Reading the folder"),
    OfflineStage("analyse", "Fitting and summarising the data"),
    OfflineStage("figures", "Drawing figures"),
    OfflineStage("draft", "Writing the report"),
    OfflineStage("compile", "Compiling the PDF"),
)


def plan_offline(*, tex_available: bool) -> list[OfflineStage]:
    """The milestones of one offline build, known before it starts."""
    return [s for s in _STAGES if tex_available or s.stage != "compile"]


class BadInput(ValueError):
    """The folder cannot be turned into a report (message: one plain sentence)."""


def check_folder(folder: Path) -> str | None:
    """One sentence saying why `folder` cannot be used, or None when it can."""
    if not folder.exists():
        return f"The folder {folder} does not exist; check the path and try again."
    if not folder.is_dir():
        return f"{folder} is a file, not a folder; give the folder that holds the data."
    try:
        has_any = any(True for _ in _visible(folder))
    except OSError as exc:
        return f"The folder {folder} cannot be read ({exc.strerror}); check its permissions."
    if not has_any:
        return f"The folder {folder} is empty; put the data files in it and try again."
    return None


def _visible(folder: Path) -> Iterator[Path]:
    for entry in folder.iterdir():
        if not entry.name.startswith("."):
            yield entry


def _tex_available() -> bool:
    from labwright.latex.engine import resolve_engine

    return resolve_engine().available


def _copy_images(
    plans: list[FigurePlan], folder: Path, fig_dir: Path
) -> tuple[list[FigurePlan], list[FigureResult]]:
    """Images TeX can include are copied under a generated name; the rest go
    to the plot worker for conversion. A path resolving outside the folder
    (a symlink) is refused."""
    rest: list[FigurePlan] = []
    done: list[FigureResult] = []
    for plan in plans:
        if plan.kind != "image" or plan.image is None:
            rest.append(plan)
            continue
        src = folder / plan.image.source
        if not is_inside(src, folder):
            done.append(FigureResult(plan.key, False, None, "the image points outside the folder"))
            continue
        small = plan.image.width * plan.image.height <= _COPY_MAX_PIXELS
        if plan.image.format.upper() in TEX_IMAGE_FORMATS and small:
            dest = fig_dir / plan.file_name
            try:
                shutil.copyfile(src, dest, follow_symlinks=True)
                done.append(FigureResult(plan.key, True, dest))
            except OSError as exc:
                done.append(
                    FigureResult(plan.key, False, None, f"cannot copy the image ({exc.strerror})")
                )
        else:
            rest.append(plan)
    return rest, done


def build_offline(
    folder: Path,
    out_dir: Path,
    *,
    lang: str | None = None,
    tex_available: bool | None = None,
    material: tuple[Inventory, ReadResult] | None = None,
) -> Iterator[Event]:
    """Build a report from `folder` into `out_dir` (main.tex, figures/, the
    template files, provenance.json and, with TeX, main.pdf).

    Ends with exactly one Done event. `Done.tex_path` is None only when the
    input could not be used at all (missing/empty folder, nothing readable).
    `material` is the folder's scan and read when the caller already has them
    (the LLM pipeline reads first); they are then not redone or re-reported.
    """
    folder = Path(folder)
    out_dir = Path(out_dir)
    if tex_available is None:
        tex_available = _tex_available()
    stages = plan_offline(tex_available=tex_available)
    total = len(stages)
    index = 0

    def milestone(stage: str) -> Milestone:
        nonlocal index
        index += 1
        label = next(s.label for s in stages if s.stage == stage)
        return Milestone(index=index, total=total, stage=stage, label=label)

    problem = check_folder(folder)
    if problem is None and is_inside(out_dir, folder):
        problem = "The output folder lies inside the data folder, which Labwright never writes to; choose another output folder."
    if problem is not None:
        yield Error(message=problem, action="Give a folder that holds the experiment's data files.")
        yield Done(ok=False, problems=[problem])
        return

    worker = take_worker()  # already importing matplotlib while we read
    try:
        yield from _build(folder, out_dir, lang, tex_available, worker, milestone, material)
    finally:
        worker.close()


def _build(
    folder: Path,
    out_dir: Path,
    lang: str | None,
    tex_available: bool,
    worker: PlotWorker,
    ms: Callable[[str], Milestone],
    material: tuple[Inventory, ReadResult] | None = None,
) -> Iterator[Event]:
    from labwright.ingest.read import read_folder
    from labwright.ingest.scan import scan_folder

    yield ms("scan")
    if material is not None:
        inventory, read = material
    else:
        inventory = scan_folder(folder)
        for w in inventory.warnings:
            yield Warning_(message=w)
        read = read_folder(folder, inventory)
    yield Step(
        stage="scan",
        message=(
            f"{len(inventory.files)} files: {len(read.datasets)} datasets, {len(read.images)} images, "
            f"{len(read.documents)} documents, {len(read.skipped)} not read"
        ),
    )
    if material is None:  # a caller that read the folder has reported these
        for sk in read.skipped:
            yield Warning_(message=sk.reason)  # the reason already names the file
    if not read.datasets and not read.images:
        msg = (
            f"No readable data was found in the folder {folder_display_name(folder)}; add CSV, "
            "Excel, MATLAB, NumPy, JSON or image files and try again."
        )
        yield Error(message=msg, action="Add data files to the folder.")
        yield Done(ok=False, problems=[msg])
        return

    yield ms("analyse")
    chosen_lang = lang or detect_lang(read.documents)
    out_dir.mkdir(parents=True, exist_ok=True)
    # --- the analyst (issue 13): column roles, the question the notes ask,
    # and the analyses chosen from both; tables it does not take go down the
    # x-y path, restricted to measurement columns.
    from labwright.analysis.plan import analyse_folder

    analysis = analyse_folder(read)
    plans = plan_figures(
        read.datasets,
        read.images,
        lambda pairs: worker.fit(pairs, out_dir),
        analysis=analysis,
        lang=chosen_lang,
    )
    n_fits = sum(len(p.fits) for p in plans)
    if len(plans) == MAX_FIGURES:
        yield Warning_(
            message=f"Only the first {MAX_FIGURES} figures are drawn; every dataset still has its table."
        )
    yield Step(
        stage="analyse",
        message=(
            f"language {chosen_lang}; analyses: {', '.join(sorted(analysis.kinds())) or 'none'}; "
            f"{len(plans)} figures planned, {n_fits} fits"
        ),
    )

    yield ms("figures")
    fig_dir = out_dir / FIGURE_DIR
    fig_dir.mkdir(exist_ok=True)
    to_draw, results = _copy_images(plans, folder, fig_dir)
    if to_draw:
        results += list(worker.render(to_draw, folder, fig_dir))
    worker.release()  # its exit overlaps the writing and the compile
    by_key = {r.key: r for r in results}
    for plan in plans:
        r = by_key.get(plan.key)
        if r is not None and r.ok and r.path is not None:
            yield FigureMade(name=plan.key, path=str(r.path), source=plan.source)
        else:
            yield Warning_(
                message=f"The figure for {plan.source} could not be drawn: {r.error if r else 'no result'}."
            )

    yield ms("draft")
    from labwright.latex.sanitize import sanitize
    from labwright.latex.template import render_template, template_files

    ledger = Ledger()
    inp = ReportInput(
        lang=chosen_lang,
        folder_name=folder_display_name(folder),
        read=read,
        plans=plans,
        figures=by_key,
        inventory=inventory,
        analysis=analysis,
    )
    fields = assemble(inp, ledger)
    source = render_template(chosen_lang, fields)  # type: ignore[arg-type]
    for path in template_files(chosen_lang):  # type: ignore[arg-type]
        shutil.copyfile(path, out_dir / path.name)
    cleaned = sanitize(source, graphics_root=out_dir)
    problems: list[str] = [f"{c.rule}: {c.detail}" for c in cleaned.changes]
    tex_path = out_dir / MAIN_TEX
    tex_path.write_text(cleaned.text, encoding="utf-8")
    ledger.save(out_dir / PROVENANCE_JSON)
    # Self-check: a number without a ledger entry is a bug in this writer.
    formulas = tuple(m.formula for m in MODELS.values())
    for token in unsourced_numbers(cleaned.text, ledger.to_dict(), formulas):
        yield Warning_(message=f"The number {token} in the report has no provenance entry.")
    yield Step(
        stage="draft", message=f"{len(ledger.entries)} numbers recorded in {PROVENANCE_JSON}"
    )

    if not tex_available:
        problems.append(
            "No TeX engine was found, so only the .tex source was written; run `labwright doctor`."
        )
        yield Warning_(message=problems[-1])
        yield Done(ok=False, tex_path=str(tex_path), problems=problems)
        return

    yield ms("compile")
    from labwright.latex.compile import EngineNotFound, compile_tex
    from labwright.latex.diagnose import humanize

    try:
        result = compile_tex(tex_path)
    except EngineNotFound as exc:
        problems.append(str(exc))
        yield Error(message=str(exc), action="Run `labwright doctor`.")
        yield Done(ok=False, tex_path=str(tex_path), problems=problems)
        return
    passes = ", ".join(p.name for p in result.passes)
    yield Step(
        stage="compile",
        message=f"{len(result.passes)} passes ({passes}) in {result.elapsed_s:.1f} s",
    )
    # Every finding is shown; only those that degrade the PDF count as problems
    # (an overfull line is cosmetic and does not turn the exit code to 1).
    findings = humanize(result.diagnostics)
    for f in findings:
        yield Warning_(message=f)
    if result.status != "clean":
        problems += findings or [f"The compile ended as {result.status}."]
    pdf = str(result.pdf) if result.pdf is not None else None
    if pdf is None:
        yield Error(
            message="LaTeX did not produce a PDF.", action="Open main.log in the build folder."
        )
    yield Done(
        ok=result.status == "clean" and not problems,
        pdf_path=pdf,
        tex_path=str(tex_path),
        problems=problems,
    )
