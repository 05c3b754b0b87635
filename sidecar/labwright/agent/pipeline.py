"""The LLM pipeline: scan → explore → figures → gaps → draft → reflect ×N → bibliography → compile.

It is a stage table (`agent_stages`) run by the one run loop (agent/run.py)
over an `AgentContext`. Every model step has a narrow input, a narrow output
contract and a deterministic gate after it; when a model step fails (the
provider errors, the output breaks its contract), the loop degrades to the
offline writer's result for that step and says so. It never crashes and never
loses what was produced: each accepted draft is handed to `save_version`.

The offline writer's report (offline/report.py, a function of what was read)
is the default report the model starts from and what it falls back on.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.agent.bibliography import BibOutcome, build_bibliography
from labwright.agent.citation_check import CitationCheck, FolderBib
from labwright.agent.draft import DraftOutcome, write_draft
from labwright.agent.events import Done, Event, FigureMade, GateDecision, Step, Warning_
from labwright.agent.explore import explore
from labwright.agent.explore_tools import ExploreTools
from labwright.agent.figure_gate import enforce as enforce_figures
from labwright.agent.gaps import Gap, deterministic_gaps, parse_model_gaps
from labwright.agent.material import add_computed
from labwright.agent.offline.report import OfflineReport
from labwright.agent.prompts import AgentPrompts
from labwright.agent.reflect import ReflectPrompts, RoundResult, reflect_round
from labwright.agent.repair import RepairOutcome, compile_and_repair
from labwright.agent.run import RunContext, Stage, StopRun, check_folder, plan_of, run_stages
from labwright.agent.tools import AnyTool
from labwright.llm.errors import LLMCancelled, LLMError
from labwright.llm.model import ChatModel, Message, has_vision
from labwright.messages import say

MAIN_TEX = "main.tex"
BIB_NAME = "refs"
NUMBER_CHECK_JSON = "number_check.json"
NO_TEX = say("run.no_tex")

VersionSink = Callable[[str, str, str], object]  # (content, summary, origin)


@dataclass
class AgentOptions:
    lang: str | None = None
    genre: str = "lab_report"
    reflect_rounds: int = 2
    explore: bool = True
    gap_check: bool = True
    bibliography: bool = True
    compile_budget_s: float = 600.0
    max_repair_rounds: int = 2
    #: Stage names turned off for this run (any stage can be; what a later
    #: stage needs is then produced on demand, without its milestone).
    off: frozenset[str] = frozenset()


@dataclass
class AgentContext(RunContext):
    """The run context of a model-backed run: the model, and what the stages produced."""

    model: ChatModel | None = None
    options: AgentOptions = field(default_factory=AgentOptions)
    save_version: VersionSink | None = None
    tools: ExploreTools | None = None
    offline: OfflineReport | None = None
    figures: list[FigureMade] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    draft: str | None = None
    reflect_stopped: bool = False
    bib: str = ""
    citations: CitationCheck = field(default_factory=CitationCheck)
    _folder_bibs: list[FolderBib] | None = None
    repaired: RepairOutcome = field(default_factory=RepairOutcome)
    compiled_from: str = ""
    _prompts: AgentPrompts | None = None

    @property
    def chat(self) -> ChatModel:
        assert self.model is not None, "an agent run has a model"
        return self.model

    def save(self, content: str, summary: str, origin: str = "generated") -> None:
        if self.save_version is not None:
            self.save_version(content, summary, origin)

    def explore_tools(self) -> ExploreTools:
        if self.tools is None:
            fig_dir = self.out_dir / "figures"
            fig_dir.mkdir(parents=True, exist_ok=True)
            self.tools = ExploreTools(
                root=self.folder,
                make_figure=_sandbox_figure_maker(self.folder, fig_dir),
                describe_image=_vision_describer(self.chat, self.cancel),
                extra_tools=_reference_tools(self.citations),
            )
        return self.tools

    def prompts(self) -> AgentPrompts:
        """Built from the material once, and once more after the computed values joined it."""
        if self._prompts is None:
            self._prompts = AgentPrompts.for_material(
                self.material.files, self.lang, self.options.genre
            )
        return self._prompts

    def offline_report(self) -> OfflineReport:
        """The offline writer's report, written once from what was read."""
        if self.offline is None:
            from labwright.agent.offline.render import take_worker
            from labwright.agent.offline.report import write_offline_report, write_report_files
            from labwright.agent.offline.text import folder_display_name

            self.require_data()
            self.out_dir.mkdir(parents=True, exist_ok=True)
            with take_worker(self.folder) as worker:
                self.offline = write_offline_report(
                    self.inventory,
                    self.read,
                    lang=self.lang,
                    folder=self.folder,
                    folder_name=folder_display_name(self.folder),
                    out_dir=self.out_dir,
                    drawer=worker,
                )
            write_report_files(self.offline, self.out_dir)
            from labwright.analysis.plan import analysis_digest

            # The analyst's roles, question and analyses (issue 13), before the
            # computed values (add_computed rebuilds the material's text).
            self.material.add("_analysis", analysis_digest(self.offline.ledger.analysis))
            add_computed(self.material, self.offline.ledger.to_dict().get("numbers", []))
            self._prompts = None  # the digest now includes the computed values
        return self.offline

    def folder_bibs(self) -> list[FolderBib]:
        """The folder's .bib files, read once; checking them starts in the background."""
        if self._folder_bibs is None:
            self._folder_bibs = _folder_bibs(self.folder, _bib_files(self))
            self.citations.start_folder(self._folder_bibs)
        return self._folder_bibs

    def current_draft(self) -> str:
        return self.draft if self.draft is not None else self.offline_report().tex


# --- helpers --------------------------------------------------------------------------


def _tex_available() -> bool:
    from labwright.latex.engine import resolve_engine

    return resolve_engine().available


def _sandbox_figure_maker(folder: Path, fig_dir: Path) -> Callable[[str, str], str | Path]:
    from labwright.sandbox import make_figure

    def make(name: str, code: str) -> str | Path:
        result = make_figure(f"llm-{name}", code, data_root=folder, out_dir=fig_dir)
        return result.path if result.path is not None else (result.error or "The figure failed.")

    return make


def _vision_describer(
    model: ChatModel, cancel: threading.Event | None
) -> Callable[[Path], str] | None:
    """read_image through the vision tier, only when a vision model is configured
    explicitly (a text-only main model would fail on image input)."""
    if not has_vision(model):
        return None

    def describe(path: Path) -> str:
        import base64

        from labwright.ingest.base import ReadError
        from labwright.ingest.read_image import image_facts

        try:  # decoded in a confined worker, never in the backend
            png = image_facts(path, path.parent, max_side=1024).thumbnail_png or b""
        except ReadError:
            return say("llm.image_unopened")
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        messages: list[Message] = [
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
                model.chat(messages, tier="vision", cancel=cancel, step="read_image").content
                or "(no description)"
            )
        except LLMCancelled:
            raise
        except LLMError as error:
            return say("llm.image_undescribed", reason=error.user_message)

    return describe


def _reference_tools(check: CitationCheck) -> tuple[AnyTool, ...]:
    """`check_reference` for exploration, when references may be looked up at all."""
    from labwright.agent.reference_tool import check_reference_tool
    from labwright.verify.settings import load_citation_settings

    return (check_reference_tool(check),) if load_citation_settings().network else ()


def _folder_bibs(folder: Path, paths: list[str]) -> list[FolderBib]:
    from labwright.ingest.encoding import decode_text

    bibs = []
    for rel in paths:
        decoded = decode_text((folder / rel).read_bytes())
        if decoded is not None:
            bibs.append(FolderBib(rel, decoded.text))
    return bibs


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


# --- the stages -----------------------------------------------------------------------


def _scan(ctx: AgentContext) -> Iterator[Event]:
    from labwright.agent.offline.build import scan_events

    problem = check_folder(ctx.folder)
    if problem is not None:
        raise StopRun(problem, say("action.give_data_folder"))
    yield from scan_events(ctx)
    ctx.folder_bibs()  # the folder's references are checked while the model writes
    if ctx.options.bibliography and "bibliography" not in ctx.options.off:
        ctx.citations.start_probe()  # so the bibliography step knows at once if it is offline
    yield ctx.language_step()


def _explore(ctx: AgentContext) -> Iterator[Event]:
    yield from explore(ctx.chat, ctx.explore_tools(), ctx.prompts().explore(), cancel=ctx.cancel)


def _figures(ctx: AgentContext) -> Iterator[Event]:
    """The model's figures from exploration, then the offline writer's defaults."""
    if ctx.tools is not None:
        for figure in ctx.tools.exploration.figures:
            made = FigureMade(
                name=figure["name"], path=figure["path"], source=figure.get("source", "")
            )
            ctx.figures.append(made)
            yield made
    report = ctx.offline_report()
    for made in report.figures:
        ctx.figures.append(made)
        yield made
    for warning in report.warnings:
        yield Warning_(message=warning)


def _gaps(ctx: AgentContext) -> Iterator[Event]:
    ctx.gaps = deterministic_gaps(ctx.inventory, ctx.read, {f.source for f in ctx.figures})
    answer = ctx.chat.chat(ctx.prompts().gaps(), tier="cheap", cancel=ctx.cancel, step="gaps")
    ctx.gaps += parse_model_gaps(answer.content)
    yield from _gaps_step(ctx)


def _gaps_step(ctx: AgentContext) -> Iterator[Event]:
    yield Step(
        stage="gaps",
        message=say(
            "llm.gaps", count=len(ctx.gaps), gaps="; ".join(g.message for g in ctx.gaps)[:500]
        ),
    )


def _draft(ctx: AgentContext) -> Iterator[Event]:
    from labwright.latex.sanitize import sanitize

    offline = ctx.offline_report()
    outcome = DraftOutcome()
    figure_names = [f"figures/{Path(f.path).name} ({f.source})" for f in ctx.figures]
    summary = ctx.tools.exploration.summary if ctx.tools is not None else {}
    try:
        yield from write_draft(
            ctx.chat,
            ctx.prompts().draft(summary, figure_names, [g.message for g in ctx.gaps], offline.tex),
            outcome,
            cancel=ctx.cancel,
        )
    finally:
        if outcome.text is not None:
            ctx.draft = sanitize(outcome.text, graphics_root=ctx.out_dir).text
            # Every computed figure and table, and the template's preamble,
            # survive whatever the model wrote (agent/figure_gate.py).
            gated = enforce_figures(ctx.draft, offline.tex, ctx.out_dir)
            ctx.draft, number_notes = _gate_numbers(ctx, gated.text)
            for note in gated.messages() + number_notes:
                yield Step(stage="draft", message=note)
            ctx.save(ctx.draft, "First draft", "generated")
    if outcome.text is None:
        ctx.problems.append(say("llm.draft_contract"))
        yield Warning_(message=ctx.problems[-1])
        yield from _offline_draft(ctx)


def _gate_numbers(ctx: AgentContext, text: str) -> tuple[str, list[str]]:
    """The number-tag gate (verify/tags.py) against the offline writer's
    ledger: the model keeps the tags of the numbers it copies; a tag it
    wrote or altered for a number the ledger does not vouch for is removed."""
    from labwright.verify import tags

    known = tags.known_from_record(ctx.offline_report().ledger.to_dict())
    gated = tags.gate(text, known)
    return gated.text, gated.notes()


def _offline_draft(ctx: AgentContext) -> Iterator[Event]:
    ctx.draft = ctx.offline_report().tex
    ctx.save(ctx.draft, "Offline report (the model's draft was not usable)", "generated")
    return iter(())


def _reflect_round(round_no: int) -> Callable[[AgentContext], Iterator[Event]]:
    def run(ctx: AgentContext) -> Iterator[Event]:
        from labwright.latex.sanitize import sanitize

        prompts = ctx.prompts()
        reflect_prompts = ReflectPrompts(
            review=prompts.review, scoped=prompts.scoped, whole=prompts.whole
        )
        result = RoundResult(draft=ctx.current_draft())
        yield from reflect_round(
            ctx.chat,
            reflect_prompts,
            ctx.current_draft(),
            result,
            round_no=round_no,
            cancel=ctx.cancel,
        )
        if result.gate is not None and result.gate.accepted:
            ctx.draft = sanitize(result.draft, graphics_root=ctx.out_dir).text
            ctx.draft = enforce_figures(ctx.draft, ctx.offline_report().tex, ctx.out_dir).text
            ctx.draft, number_notes = _gate_numbers(ctx, ctx.draft)
            for note in number_notes:
                yield Step(stage="reflect", message=note)
            ctx.save(ctx.draft, f"Reflection round {round_no}", "generated")
        if result.stop:
            ctx.reflect_stopped = True

    return run


def _stop_reflecting(ctx: AgentContext) -> Iterator[Event]:
    ctx.reflect_stopped = True
    return iter(())


def _reflection_pointless(ctx: AgentContext) -> bool:
    # The provider failed hard and the draft is the offline report: do not keep calling it.
    offline_draft = ctx.offline is not None and ctx.draft is ctx.offline.tex
    return ctx.reflect_stopped or (offline_draft and ctx.degraded)


def _bib_files(ctx: AgentContext) -> list[str]:
    return [
        e.path
        for e in ctx.inventory.files
        if e.path.lower().endswith(".bib") and not e.symlink_outside
    ]


def _bibliography(ctx: AgentContext, *, with_model: bool = True) -> Iterator[Event]:
    draft = ctx.current_draft()
    prompts = ctx.prompts()

    def ask_model(keys: list[str]) -> str:
        return (
            ctx.chat.chat(
                prompts.bibliography(keys, draft),
                tier="cheap",
                cancel=ctx.cancel,
                step="bibliography",
            ).content
            or ""
        )

    bib = BibOutcome()
    yield from build_bibliography(
        draft,
        ctx.folder_bibs(),
        ask_model if with_model else None,
        bib,
        check=ctx.citations,
        cancel=ctx.cancel,
    )
    if bib.draft is not None:
        draft = bib.draft  # the citations of dropped model entries are gone
    ctx.problems += [say("llm.citation_missing", key=k) for k in bib.missing]
    ctx.draft, bib_stem = _attach_bibliography(draft, bib.bib)
    ctx.bib = bib.bib
    if bib.bib.strip():
        (ctx.out_dir / f"{bib_stem}.bib").write_text(bib.bib, encoding="utf-8")


def _bibliography_offline(ctx: AgentContext) -> Iterator[Event]:
    return _bibliography(ctx, with_model=False)


def _compile(ctx: AgentContext) -> Iterator[Event]:
    from labwright.latex.template import NUMBERS_FILE, template_files

    files: dict[str, Path | bytes] = {p.name: p for p in template_files(ctx.lang)}  # type: ignore[arg-type]
    # The numbers' appendix written beside provenance.json (write_report_files):
    # with it each traced number links to its source entry.
    appendix = ctx.out_dir / NUMBERS_FILE
    if appendix.is_file() and not appendix.is_symlink():
        files[NUMBERS_FILE] = appendix
    fig_dir = ctx.out_dir / "figures"
    if fig_dir.is_dir():
        for figure in fig_dir.iterdir():
            if figure.is_file() and not figure.is_symlink():
                files[f"figures/{figure.name}"] = figure
    if ctx.bib.strip():
        files[f"{BIB_NAME}.bib"] = ctx.bib.encode("utf-8")
    ctx.compiled_from = ctx.current_draft()
    yield from compile_and_repair(
        ctx.compiled_from,
        files,
        ctx.out_dir / "builds",
        ctx.repaired,
        client=None if ctx.degraded else ctx.chat,
        messages_for=ctx.prompts().repair,
        max_rounds=ctx.options.max_repair_rounds,
        wall_budget_s=ctx.options.compile_budget_s,
        cancel=ctx.cancel,
        gate=lambda text: _gate_numbers(ctx, text)[0],
    )
    yield from _compiled(ctx)


def _compiled(ctx: AgentContext) -> Iterator[Event]:
    """Keep the best the compile and repair got to (also after a model failure)."""
    from labwright.latex.compile import write_record
    from labwright.latex.diagnose import humanize

    repaired = ctx.repaired
    if repaired.draft and repaired.draft != ctx.compiled_from:
        ctx.draft = repaired.draft
        ctx.save(ctx.draft, "Compile repair", "generated")
    result = repaired.result
    if result is None:
        return
    write_record(result, ctx.out_dir)  # export checks it beside main.pdf
    if result.pdf is not None:
        shutil.copyfile(result.pdf, ctx.out_dir / "main.pdf")
        ctx.pdf = ctx.out_dir / "main.pdf"
    findings = humanize(result.diagnostics)
    for finding in findings:
        yield Warning_(message=finding)
    if result.status != "clean":
        ctx.problems += findings or [say("run.compile_status", status=result.status)]


def _finish(ctx: AgentContext) -> Iterator[Event]:
    from labwright.verify.numbers import check_numbers
    from labwright.verify.score import score_report

    draft = ctx.current_draft()
    if not ctx.tex_available:
        ctx.problems.append(NO_TEX)
    tex_path = ctx.out_dir / MAIN_TEX
    tex_path.write_text(draft, encoding="utf-8")
    numbers = check_numbers(draft, ctx.material.values, ctx.material.text)
    (ctx.out_dir / NUMBER_CHECK_JSON).write_text(
        json.dumps(
            {"checked": numbers.checked, "unsourced": numbers.unsourced},
            ensure_ascii=False,
            indent=1,
        ),
        encoding="utf-8",
    )
    if numbers.unsourced:
        yield Warning_(
            message=say(
                "llm.unsourced_numbers",
                count=len(numbers.unsourced),
                numbers=", ".join(numbers.unsourced[:12]),
            )
        )
    yield from _citation_record(ctx)
    score = score_report(draft, ctx.bib if ctx.bib.strip() else None)
    yield GateDecision(
        gate="structure_score",
        accepted=score.score >= 0.75,
        reasons=[f"score {score.score:.2f}", *score.failed()],
    )
    pdf_path = str(ctx.pdf) if ctx.pdf is not None else None
    yield Done(
        ok=pdf_path is not None and not ctx.problems,
        pdf_path=pdf_path,
        tex_path=str(tex_path),
        problems=ctx.problems,
    )


def _citation_record(ctx: AgentContext) -> Iterator[Event]:
    """Every verdict into the build's citations.json; the folder's doubtful entries said once."""
    verdicts = ctx.citations.write(ctx.out_dir)
    ctx.citations.close()
    user = [v for v in verdicts if v.origin == "user"]
    absent = [v.key for v in user if v.verdict == "not_found"]
    corrected = [v.key for v in user if v.verdict == "corrected"]
    if absent:
        yield Warning_(
            message=f"{len(absent)} entr{'y' if len(absent) == 1 else 'ies'} of the folder's .bib "
            "could not be found in Crossref or OpenAlex; check "
            + ("it" if len(absent) == 1 else "them")
            + ": "
            + ", ".join(absent)
        )
    if corrected:
        yield Step(
            stage="bibliography",
            message=f"{len(corrected)} entr{'y' if len(corrected) == 1 else 'ies'} of the folder's .bib "
            "differ from the index's record; the proposed corrections are in the trust panel: "
            + ", ".join(corrected),
        )


# --- the table ------------------------------------------------------------------------


def _on(name: str) -> Callable[[AgentContext], bool]:
    return lambda ctx: name not in ctx.options.off


def agent_stages(reflect_rounds: int) -> tuple[Stage[AgentContext], ...]:
    """The LLM pipeline's stages; reflection is one stage per round."""
    reflect = tuple(
        Stage(
            "reflect",
            say("stage.reflect", round=n),
            _reflect_round(n),
            enabled=_on("reflect"),
            skip=_reflection_pointless,
            during=say("during.reflect", round=n),
            fallback=_stop_reflecting,
        )
        for n in range(1, max(0, reflect_rounds) + 1)
    )
    return (
        Stage("scan", say("stage.scan"), _scan, enabled=_on("scan")),
        Stage(
            "explore",
            say("stage.explore"),
            _explore,
            enabled=lambda ctx: ctx.options.explore and "explore" not in ctx.options.off,
            during=say("during.explore"),
        ),
        Stage("figures", say("stage.figures"), _figures, enabled=_on("figures")),
        Stage(
            "gaps",
            say("stage.gaps"),
            _gaps,
            enabled=lambda ctx: ctx.options.gap_check and "gaps" not in ctx.options.off,
            during=say("during.gaps"),
            fallback=_gaps_step,
        ),
        Stage(
            "draft",
            say("stage.draft"),
            _draft,
            enabled=_on("draft"),
            during=say("during.draft"),
            fallback=_offline_draft,
        ),
        *reflect,
        Stage(
            "bibliography",
            say("stage.bibliography"),
            _bibliography,
            enabled=lambda ctx: ctx.options.bibliography and "bibliography" not in ctx.options.off,
            during=say("during.bibliography"),
            fallback=_bibliography_offline,
        ),
        Stage(
            "compile",
            say("stage.compile"),
            _compile,
            enabled=lambda ctx: ctx.tex_available and "compile" not in ctx.options.off,
            during=say("during.repair"),
            fallback=_compiled,
            model_optional=True,  # compiles without repairs once degraded
        ),
    )


def agent_plan(options: AgentOptions, *, tex_available: bool) -> list[str]:
    """The milestone stages of a run with these options (the CLI's progress total)."""
    ctx = AgentContext(Path("."), Path("."), tex_available=tex_available, options=options)
    return [p.stage for p in plan_of(agent_stages(options.reflect_rounds), ctx)]


def run_agent(
    folder: Path,
    out_dir: Path,
    client: ChatModel,
    options: AgentOptions | None = None,
    *,
    cancel: threading.Event | None = None,
    save_version: VersionSink | None = None,
    tex_available: bool | None = None,
) -> Iterator[Event]:
    """Yield the run's events; the last one is exactly one Done."""
    options = options or AgentOptions()
    ctx = AgentContext(
        Path(folder),
        Path(out_dir),
        lang_option=options.lang,
        cancel=cancel,
        tex_available=_tex_available() if tex_available is None else tex_available,
        model=client,
        options=options,
        save_version=save_version,
    )
    with client.observe_usage(ctx.usage.put):
        yield from run_stages(agent_stages(options.reflect_rounds), ctx, _finish)
