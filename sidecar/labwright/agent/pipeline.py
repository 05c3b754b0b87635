"""The LLM pipeline: scan → explore → figures → gaps → draft → reflect ×N → bibliography → compile.

Every model step has a narrow input, a narrow output contract and a
deterministic gate after it; when a model step fails (the provider errors, the
output breaks its contract), the run degrades to the offline writer's result
for that step and says so. It never crashes and never loses what was produced:
each accepted draft is handed to `save_version`.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labwright.agent.bibliography import BibOutcome, build_bibliography
from labwright.agent.draft import DraftOutcome, write_draft
from labwright.agent.events import (
    Done,
    Error,
    Event,
    FigureMade,
    GateDecision,
    Step,
    UsageRecorded,
    Warning_,
)
from labwright.agent.explore import explore
from labwright.agent.explore_tools import ExploreTools
from labwright.agent.figure_gate import enforce as enforce_figures
from labwright.agent.gaps import deterministic_gaps, parse_model_gaps
from labwright.agent.material import Material, collect_material
from labwright.agent.plan import PipelineConfig, Progress, plan_pipeline
from labwright.agent.prompts import AgentPrompts
from labwright.agent.reflect import ReflectPrompts, RoundResult, reflect_round
from labwright.agent.repair import RepairOutcome, compile_and_repair
from labwright.llm.errors import LLMCancelled, LLMError

MAIN_TEX = "main.tex"
BIB_NAME = "refs"
NUMBER_CHECK_JSON = "number_check.json"

VersionSink = Callable[[str, str, str], object]  # (content, summary, origin)


@dataclass
class AgentOptions:
    lang: str | None = None
    genre: str = "lab_report"
    reflect_rounds: int = 2
    explore: bool = True
    compile_budget_s: float = 600.0
    max_repair_rounds: int = 2


@dataclass
class _RunState:
    """What the run has produced so far; what degradation falls back on."""

    lang: str = "en"
    offline_tex: str | None = None
    draft: str | None = None
    figures: list[FigureMade] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    degraded: bool = False


class _Cancelled(Exception):
    pass


class _UsageTap:
    """Chains onto the client's usage sink and turns each billed call into a
    UsageRecorded event, released before the next event the run yields."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._downstream = getattr(client, "usage_sink", None)
        self._pending: list[Any] = []
        self._lock = threading.Lock()

    def __call__(self, record: Any) -> None:
        with self._lock:
            self._pending.append(record)
        if self._downstream is not None:
            self._downstream(record)

    def __enter__(self) -> _UsageTap:
        if self._client is not None and hasattr(self._client, "usage_sink"):
            self._client.usage_sink = self
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None and hasattr(self._client, "usage_sink"):
            self._client.usage_sink = self._downstream

    def drain(self) -> Iterator[UsageRecorded]:
        with self._lock:
            pending, self._pending = self._pending, []
        for record in pending:
            yield UsageRecorded(
                step=record.step or "",
                model=record.model,
                prompt_tokens=record.usage.prompt_tokens,
                cached_tokens=record.usage.cached_prompt_tokens,
                completion_tokens=record.usage.completion_tokens,
                cost=record.cost,
            )


def _tex_available() -> bool:
    from labwright.latex.engine import resolve_engine

    return resolve_engine().available


def _sandbox_figure_maker(folder: Path, fig_dir: Path) -> Callable[[str, str], str | Path]:
    from labwright.sandbox import make_figure

    def make(name: str, code: str) -> str | Path:
        result = make_figure(f"llm-{name}", code, data_root=folder, out_dir=fig_dir)
        return result.path if result.path is not None else (result.error or "The figure failed.")

    return make


def _vision_describer(client: Any, cancel: threading.Event | None) -> Callable[[Path], str] | None:
    """read_image through the vision tier, only when a vision model is configured
    explicitly (a text-only main model would fail on image input)."""
    models = getattr(getattr(client, "endpoint", None), "models", None)
    if models is None or not getattr(models, "vision", None):
        return None

    def describe(path: Path) -> str:
        import base64
        import io

        from PIL import Image

        with Image.open(path) as image:
            image.thumbnail((1024, 1024))
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, format="PNG")
        url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        messages = [
            {
                "role": "user",
                "content": [
                    {
                        "type": "text",
                        "text": "Describe this image from a lab experiment: instrument readings, axes, labels and values you can read. Do not guess values you cannot read.",
                    },
                    {"type": "image_url", "image_url": {"url": url}},
                ],
            }
        ]
        try:
            return (
                client.chat(messages, tier="vision", cancel=cancel, step="read_image").content
                or "(no description)"
            )
        except LLMCancelled:
            raise
        except LLMError as error:
            return f"The image could not be described ({error.user_message})."

    return describe


def _folder_bibs(folder: Path, paths: list[str]) -> list[str]:
    from labwright.ingest.encoding import decode_text

    texts = []
    for rel in paths:
        decoded = decode_text((folder / rel).read_bytes())
        if decoded is not None:
            texts.append(decoded.text)
    return texts


_BIB_COMMAND = re.compile(r"\\bibliography\{([^}]*)\}")


def _attach_bibliography(draft: str, bib: str) -> tuple[str, str]:
    """Make the draft point at our .bib file: (draft, bib file stem)."""
    if not bib.strip():
        return draft, BIB_NAME
    match = _BIB_COMMAND.search(draft)
    if match:
        return draft[: match.start()] + f"\\bibliography{{{BIB_NAME}}}" + draft[
            match.end() :
        ], BIB_NAME
    commands = f"\\bibliographystyle{{plain}}\n\\bibliography{{{BIB_NAME}}}\n"
    end = draft.rfind("\\end{document}")
    return draft[:end] + commands + draft[end:], BIB_NAME


def run_agent(
    folder: Path,
    out_dir: Path,
    client: Any,
    options: AgentOptions | None = None,
    *,
    cancel: threading.Event | None = None,
    save_version: VersionSink | None = None,
    tex_available: bool | None = None,
) -> Iterator[Event]:
    """Yield the run's events; the last one is exactly one Done."""
    options = options or AgentOptions()
    folder, out_dir = Path(folder), Path(out_dir)
    if tex_available is None:
        tex_available = _tex_available()
    plan = plan_pipeline(
        PipelineConfig(
            tex_available=tex_available,
            reflect_rounds=options.reflect_rounds,
            explore=options.explore,
        )
    )
    progress = Progress(plan)
    state = _RunState()
    try:
        with _UsageTap(client) as tap:
            for event in _run(
                folder,
                out_dir,
                client,
                options,
                cancel,
                save_version,
                tex_available,
                progress,
                state,
            ):
                yield from tap.drain()
                yield event
    except _Cancelled:
        yield from progress.finish()
        yield Error(
            message="The run was cancelled; what it had produced is kept.",
            action="Start it again when ready.",
        )
        yield Done(ok=False, problems=["cancelled"])


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise _Cancelled


def _degrade(state: _RunState, step: str, error: LLMError) -> Warning_:
    if isinstance(error, LLMCancelled):
        raise _Cancelled
    state.degraded = True
    message = f"The model failed during {step} ({error.user_message}); the offline writer's result is used for it."
    state.problems.append(message)
    return Warning_(message=message)


def _run(
    folder: Path,
    out_dir: Path,
    client: Any,
    options: AgentOptions,
    cancel: threading.Event | None,
    save_version: VersionSink | None,
    tex_available: bool,
    progress: Progress,
    state: _RunState,
) -> Iterator[Event]:
    from labwright.agent.offline import build_offline
    from labwright.agent.offline.build import check_folder
    from labwright.agent.offline.language import detect_lang
    from labwright.ingest.read import read_folder
    from labwright.ingest.scan import scan_folder

    def save(content: str, summary: str, origin: str = "generated") -> None:
        if save_version is not None:
            save_version(content, summary, origin)

    # -- scan ------------------------------------------------------------------------
    yield from progress.start("scan")
    problem = check_folder(folder)
    if problem is not None:
        yield from progress.finish()
        yield Error(message=problem, action="Give a folder that holds the experiment's data files.")
        yield Done(ok=False, problems=[problem])
        return
    inventory = scan_folder(folder)
    for warning in inventory.warnings:
        yield Warning_(message=warning)
    read = read_folder(folder, inventory)
    for skipped in read.skipped:
        yield Warning_(message=skipped.reason)  # the reason already names the file
    if not read.datasets and not read.images:
        message = "No readable data was found in the folder; add CSV, Excel, MATLAB, NumPy, JSON or image files and try again."
        yield from progress.finish()
        yield Error(message=message, action="Add data files to the folder.")
        yield Done(ok=False, problems=[message])
        return
    state.lang = options.lang or detect_lang(read.documents)
    yield Step(
        stage="scan",
        message=f"{len(inventory.files)} files, {len(read.datasets)} datasets; writing in {state.lang}.",
    )
    material: Material = collect_material(inventory, read)
    prompts = AgentPrompts.for_material(material.files, state.lang, options.genre)

    # -- explore ---------------------------------------------------------------------
    fig_dir = out_dir / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    tools = ExploreTools(
        root=folder,
        make_figure=_sandbox_figure_maker(folder, fig_dir),
        describe_image=_vision_describer(client, cancel),
    )
    if options.explore:
        _check_cancel(cancel)
        yield from progress.start("explore")
        try:
            yield from explore(client, tools, prompts.explore(), cancel=cancel)
        except LLMError as error:
            yield _degrade(state, "exploration", error)
    for figure in tools.exploration.figures:
        made = FigureMade(name=figure["name"], path=figure["path"], source=figure.get("source", ""))
        state.figures.append(made)
        yield made

    # -- figures (the offline writer's defaults, its text and its computed values) ---------
    _check_cancel(cancel)
    yield from progress.start("figures")
    for event in build_offline(
        folder, out_dir, lang=state.lang, tex_available=False, material=(inventory, read)
    ):
        if isinstance(event, FigureMade):
            state.figures.append(event)
            yield event
        elif isinstance(event, Warning_) and "No TeX engine" not in event.message:
            yield event
        elif isinstance(event, Done) and event.tex_path:
            state.offline_tex = Path(event.tex_path).read_text(encoding="utf-8")
    material = collect_material(inventory, read, out_dir / "provenance.json")
    prompts = AgentPrompts.for_material(material.files, state.lang, options.genre)
    if state.offline_tex is None:
        message = "The default report could not be written from this folder."
        yield from progress.finish()
        yield Error(
            message=message, action="Check the warnings above for the files that could not be read."
        )
        yield Done(ok=False, problems=[message])
        return

    # -- gaps ------------------------------------------------------------------------
    _check_cancel(cancel)
    yield from progress.start("gaps")
    gaps = deterministic_gaps(inventory, read, {f.source for f in state.figures})
    try:
        answer = client.chat(prompts.gaps(), tier="cheap", cancel=cancel, step="gaps")
        gaps += parse_model_gaps(answer.content)
    except LLMError as error:
        yield _degrade(state, "the gap check", error)
    yield Step(
        stage="gaps", message=f"{len(gaps)} gap(s): " + "; ".join(g.message for g in gaps)[:500]
    )

    # -- draft -----------------------------------------------------------------------
    _check_cancel(cancel)
    yield from progress.start("draft")
    from labwright.latex.sanitize import sanitize

    outcome = DraftOutcome()
    figure_names = [f"figures/{Path(f.path).name} ({f.source})" for f in state.figures]
    try:
        yield from write_draft(
            client,
            prompts.draft(
                tools.exploration.summary,
                figure_names,
                [g.message for g in gaps],
                state.offline_tex,
            ),
            outcome,
            cancel=cancel,
        )
    except LLMError as error:
        yield _degrade(state, "drafting", error)
    if outcome.text is None:
        if not state.degraded:
            state.problems.append(
                "The model's drafts broke the output contract; the offline report is used."
            )
            yield Warning_(message=state.problems[-1])
        state.draft = state.offline_tex
        save(state.draft, "Offline report (the model's draft was not usable)", "generated")
    else:
        state.draft = sanitize(outcome.text, graphics_root=out_dir).text
        # Every computed figure and table, and the template's preamble, survive
        # whatever the model wrote (agent/figure_gate.py).
        gated = enforce_figures(state.draft, state.offline_tex, out_dir)
        state.draft = gated.text
        for note in gated.messages():
            yield Step(stage="draft", message=note)
        save(state.draft, "First draft", "generated")

    # -- reflect ×N --------------------------------------------------------------------
    reflect_prompts = ReflectPrompts(
        review=prompts.review, scoped=prompts.scoped, whole=prompts.whole
    )
    for round_no in range(1, options.reflect_rounds + 1):
        _check_cancel(cancel)
        if state.draft is state.offline_tex and state.degraded:
            break  # the provider failed hard: do not keep calling it
        yield from progress.start("reflect")
        result = RoundResult(draft=state.draft)
        try:
            yield from reflect_round(
                client, reflect_prompts, state.draft, result, round_no=round_no, cancel=cancel
            )
        except LLMError as error:
            yield _degrade(state, f"reflection round {round_no}", error)
            break
        if result.gate is not None and result.gate.accepted:
            state.draft = sanitize(result.draft, graphics_root=out_dir).text
            state.draft = enforce_figures(state.draft, state.offline_tex, out_dir).text
            save(state.draft, f"Reflection round {round_no}", "generated")
        if result.stop:
            break
    yield from progress.skip("reflect")

    # -- bibliography ----------------------------------------------------------------
    _check_cancel(cancel)
    yield from progress.start("bibliography")
    bib = BibOutcome()
    bib_files = [
        e.path for e in inventory.files if e.path.lower().endswith(".bib") and not e.symlink_outside
    ]

    def ask_model(keys: list[str]) -> str:
        return (
            client.chat(
                prompts.bibliography(keys, state.draft or ""),
                tier="cheap",
                cancel=cancel,
                step="bibliography",
            ).content
            or ""
        )

    try:
        yield from build_bibliography(
            state.draft, _folder_bibs(folder, bib_files), ask_model, bib, cancel=cancel
        )
    except LLMError as error:
        yield _degrade(state, "the bibliography", error)
        yield from build_bibliography(state.draft, _folder_bibs(folder, bib_files), None, bib)
    state.problems += [f"Citation without an entry: {k}" for k in bib.missing]
    draft, bib_stem = _attach_bibliography(state.draft, bib.bib)
    state.draft = draft
    if bib.bib.strip():
        (out_dir / f"{bib_stem}.bib").write_text(bib.bib, encoding="utf-8")

    # -- compile and repair ----------------------------------------------------------
    yield from _finish(
        out_dir,
        client,
        options,
        cancel,
        save,
        tex_available,
        progress,
        state,
        material,
        bib.bib,
        prompts.repair,
    )


def _finish(
    out_dir: Path,
    client: Any,
    options: AgentOptions,
    cancel: threading.Event | None,
    save: Callable[..., None],
    tex_available: bool,
    progress: Progress,
    state: _RunState,
    material: Material,
    bib: str,
    repair_messages: Callable[[str, str], list[dict[str, Any]]],
) -> Iterator[Event]:
    from labwright.latex.diagnose import humanize
    from labwright.latex.template import template_files
    from labwright.verify.numbers import check_numbers
    from labwright.verify.score import score_report

    assert state.draft is not None
    tex_path = out_dir / MAIN_TEX
    pdf_path: str | None = None
    if tex_available:
        _check_cancel(cancel)
        yield from progress.start("compile")
        files: dict[str, Path | bytes] = {p.name: p for p in template_files(state.lang)}  # type: ignore[arg-type]
        for figure in (out_dir / "figures").iterdir():
            if figure.is_file() and not figure.is_symlink():
                files[f"figures/{figure.name}"] = figure
        if bib.strip():
            files[f"{BIB_NAME}.bib"] = bib.encode("utf-8")
        repaired = RepairOutcome()
        repair_client = None if state.degraded else client
        try:
            yield from compile_and_repair(
                state.draft,
                files,
                out_dir / "builds",
                repaired,
                client=repair_client,
                messages_for=repair_messages,
                max_rounds=options.max_repair_rounds,
                wall_budget_s=options.compile_budget_s,
                cancel=cancel,
            )
        except LLMError as error:
            yield _degrade(state, "compile repair", error)
        if repaired.draft and repaired.draft != state.draft:
            state.draft = repaired.draft
            save(state.draft, "Compile repair", "generated")
        result = repaired.result
        if result is not None:
            if result.pdf is not None:
                shutil.copyfile(result.pdf, out_dir / "main.pdf")
                pdf_path = str(out_dir / "main.pdf")
            findings = humanize(result.diagnostics)
            for finding in findings:
                yield Warning_(message=finding)
            if result.status != "clean":
                state.problems += findings or [f"The compile ended as {result.status}."]
    else:
        state.problems.append(
            "No TeX engine was found, so only the .tex source was written; run `labwright doctor`."
        )
    tex_path.write_text(state.draft, encoding="utf-8")
    numbers = check_numbers(state.draft, material.values, material.text)
    (out_dir / NUMBER_CHECK_JSON).write_text(
        json.dumps(
            {"checked": numbers.checked, "unsourced": numbers.unsourced},
            ensure_ascii=False,
            indent=1,
        ),
        encoding="utf-8",
    )
    if numbers.unsourced:
        yield Warning_(
            message=f"{len(numbers.unsourced)} number(s) in the text have no source in the material: "
            + ", ".join(numbers.unsourced[:12])
        )
    score = score_report(state.draft, bib if bib.strip() else None)
    yield GateDecision(
        gate="structure_score",
        accepted=score.score >= 0.75,
        reasons=[f"score {score.score:.2f}", *score.failed()],
    )
    yield from progress.finish()
    yield Done(
        ok=pdf_path is not None and not state.problems,
        pdf_path=pdf_path,
        tex_path=str(tex_path),
        problems=state.problems,
    )
