"""One run loop for every pipeline: a table of stages over a run context.

A pipeline is a tuple of `Stage(name, label, enabled, run)`. Before the run,
`plan_of` keeps the enabled stages: that list *is* the milestone plan, so the
plan cannot disagree with what runs (the seed had a separate plan module that
had to repeat every stage decision; turning the gap check off there made
`progress.start("gaps")` raise). During the run, `run_stages` handles, once
for all pipelines: cancellation between stages, milestones, a model failure
degrading to the offline result (with the stage's own fallback), the usage of
each billed model call as an event, a stage stopping the run with a sentence,
and the single `Done` at the end.

What a run reads is read once: `RunContext` scans the folder, reads it,
detects the language and collects the material lazily and caches them, so a
stage that is turned off never leaves a later stage without its input, and no
stage can read the folder a second time.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from labwright.agent.events import Done, Error, Event, Step, UsageRecorded, Warning_
from labwright.agent.plan import PlannedStage, Progress
from labwright.llm.errors import LLMCancelled, LLMConnectionError, LLMError
from labwright.messages import Message, say

if TYPE_CHECKING:
    from labwright.agent.material import Material
    from labwright.agent.offline.language import Detected
    from labwright.ingest.types import Inventory, ReadResult
    from labwright.llm.usage import UsageRecord

CANCELLED = say("run.cancelled")


def check_folder(folder: Path) -> Message | None:
    """One sentence saying why `folder` cannot be used, or None when it can."""
    if not folder.exists():
        return say("folder.missing", folder=str(folder))
    if not folder.is_dir():
        return say("folder.is_file", folder=str(folder))
    try:
        has_any = any(True for _ in _visible(folder))
    except OSError as exc:
        return say("folder.unreadable", folder=str(folder), reason=exc.strerror or str(exc))
    if not has_any:
        return say("folder.empty", folder=str(folder))
    return None


def no_data_sentence(folder: Path, read: ReadResult) -> tuple[Message, Message]:
    """(message, action) of a folder with nothing to report on.

    When data files were there but none could be used, the sentence is the
    reason of the (first) file, so a 0-byte CSV is named as what it is
    instead of "add CSV files"; those files' own skip warnings are then not
    shown separately (see `data_skips`).
    """
    from labwright.agent.offline.text import folder_display_name

    data = data_skips(read)
    if len(data) == 1:
        return say("folder.only_file_unusable", reason=data[0]), say("action.fix_data_file")
    if data:
        return (
            say("folder.no_file_usable", count=len(data), reason=data[0]),
            say("action.fix_data_file"),
        )
    return say("folder.no_data", folder=folder_display_name(folder)), say("action.add_data")


def data_skips(read: ReadResult) -> list[str]:
    """The reasons of the skipped files that would have been data (not notes or
    unknown types), one per file."""
    from labwright.ingest.scan import bucket_for

    seen: set[str] = set()
    out: list[str] = []
    for skipped in read.skipped:
        if skipped.source in seen or bucket_for(skipped.source) not in ("data", "images"):
            continue
        seen.add(skipped.source)
        out.append(skipped.reason)
    return out


def _visible(folder: Path) -> Iterator[Path]:
    for entry in folder.iterdir():
        if not entry.name.startswith("."):
            yield entry


class StopRun(Exception):
    """A stage cannot go on and the run ends here (message: one plain sentence)."""

    def __init__(self, message: Message, action: Message) -> None:
        super().__init__(message)
        self.message = message
        self.action = action


class _Cancelled(Exception):
    pass


@dataclass
class RunContext:
    """What one run knows: its inputs, what was read (once), and what it produced."""

    folder: Path
    out_dir: Path
    lang_option: str | None = None
    cancel: threading.Event | None = None
    tex_available: bool = False
    problems: list[str] = field(default_factory=list)
    degraded: bool = False
    #: Set when a model call could not reach the provider: the later model
    #: stages then take their offline result at once, without a warning each.
    unreachable: bool = False
    pdf: Path | None = None  # set by a compile stage that produced one
    #: What the model client reports for each billed call. The client puts
    #: records into this queue (a usage sink of the llm layer's own kind), so
    #: the lower layer never calls back into the run's context.
    usage: queue.SimpleQueue[UsageRecord] = field(default_factory=queue.SimpleQueue, repr=False)

    # -- read once ---------------------------------------------------------------

    @cached_property
    def inventory(self) -> Inventory:
        from labwright.ingest.scan import scan_folder

        return scan_folder(self.folder)

    @cached_property
    def read(self) -> ReadResult:
        from labwright.ingest.read import read_folder

        return read_folder(self.folder, self.inventory)

    @cached_property
    def detected(self) -> Detected:
        """The report language and what it was decided from (the one detector)."""
        from labwright.agent.offline.language import detect_language, names_of

        names = names_of((f.path for f in self.inventory.files), self.read)
        return detect_language(self.read.documents, names, chosen=self.lang_option)

    @property
    def lang(self) -> str:
        return self.detected.lang

    def language_step(self) -> Step:
        """The log line that says which language the report is written in, and why."""
        return Step(
            stage="scan",
            message=say(
                "step.language",
                lang=say(f"lang.{self.detected.lang}"),
                basis=say(f"lang.basis.{self.detected.basis}"),
            ),
        )

    @cached_property
    def material(self) -> Material:
        """The digest the model reads and the values numbers may come from."""
        from labwright.agent.material import collect_material

        return collect_material(self.inventory, self.read)

    def require_data(self) -> None:
        """Stop with one sentence when nothing in the folder can be reported on."""
        if not self.read.datasets and not self.read.images:
            raise StopRun(*no_data_sentence(self.folder, self.read))

    # -- during the run ------------------------------------------------------------

    @property
    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def drain_usage(self) -> Iterator[UsageRecorded]:
        """The usage records so far as events, in the order of the calls."""
        while True:
            try:
                record = self.usage.get_nowait()
            except queue.Empty:
                return
            yield UsageRecorded(
                step=record.step or "",
                model=record.model,
                prompt_tokens=record.usage.prompt_tokens,
                cached_tokens=record.usage.cached_prompt_tokens,
                completion_tokens=record.usage.completion_tokens,
                cost=record.cost,
            )

    def degrade(self, during: str, error: LLMError) -> Warning_:
        if isinstance(error, LLMCancelled):
            raise _Cancelled
        self.degraded = True
        self.unreachable = self.unreachable or isinstance(error, LLMConnectionError)
        message = say("llm.degraded", stage=during, reason=error.user_message)
        self.problems.append(message)
        return Warning_(message=message)


C = TypeVar("C", bound=RunContext)

StageBody = Callable[[C], Iterator[Event]]


def _always(ctx: RunContext) -> bool:
    return True


@dataclass(frozen=True)
class Stage(Generic[C]):
    """One milestone of a pipeline.

    `enabled` is decided once, before the run (it makes the plan); `skip` is
    asked when the stage's turn comes (reflection converged) and turns its
    milestone into a skipped one. `during` names the stage in a degradation
    warning; `fallback` runs after a model failure, to put the offline result
    in place of what the model should have produced; `model_optional` stages
    run on without the model after the provider was lost.
    """

    name: str
    label: Message
    run: StageBody[C]
    enabled: Callable[[C], bool] = _always
    skip: Callable[[C], bool] | None = None
    during: Message | None = None
    fallback: StageBody[C] | None = None
    #: The stage does its own work without the model once the run is
    #: degraded (the compile: XeLaTeX without the model's repairs), so a lost
    #: provider must not skip it.
    model_optional: bool = False


def plan_of(stages: Sequence[Stage[C]], ctx: C) -> list[PlannedStage]:
    """The milestone plan: the enabled stages, in table order."""
    return [PlannedStage(s.name, s.label) for s in stages if s.enabled(ctx)]


def run_stages(
    stages: Sequence[Stage[C]],
    ctx: C,
    finish: Callable[[C], Iterator[Event]],
) -> Iterator[Event]:
    """Run the enabled stages in order, then `finish` (which yields the one `Done`)."""
    enabled = [s for s in stages if s.enabled(ctx)]
    progress = Progress(plan_of(stages, ctx))
    try:
        for stage in enabled:
            if ctx.cancelled:
                raise _Cancelled
            if stage.skip is not None and stage.skip(ctx):
                yield from progress.skip_next()
                continue
            yield from progress.next_()
            yield from _guarded(stage, ctx)
        if ctx.cancelled:
            raise _Cancelled
        yield from _released(ctx, finish(ctx), progress)
    except _Cancelled:
        yield from progress.finish()
        yield from ctx.drain_usage()
        yield Done(ok=False, outcome="cancelled", message=CANCELLED)
    except StopRun as stop:
        yield from progress.finish()
        yield from ctx.drain_usage()
        yield Error(message=stop.message, action=stop.action)
        yield Done(ok=False, outcome="failed")


def _released(ctx: RunContext, events: Iterator[Event], progress: Progress) -> Iterator[Event]:
    """Usage events first, then the event; milestones left over before the final Done."""
    for event in events:
        yield from ctx.drain_usage()
        if isinstance(event, Done):
            yield from progress.finish()
        yield event


def _guarded(stage: Stage[C], ctx: C) -> Iterator[Event]:
    if ctx.unreachable and stage.during is not None and not stage.model_optional:
        # A model stage after the provider was lost: its offline result, said once already.
        if stage.fallback is not None:
            yield from _released(ctx, stage.fallback(ctx), _NO_PROGRESS)
        yield from ctx.drain_usage()
        return
    try:
        yield from _released(ctx, stage.run(ctx), _NO_PROGRESS)
    except LLMCancelled:
        raise _Cancelled from None
    except LLMError as error:
        yield from ctx.drain_usage()
        yield ctx.degrade(stage.during or stage.label, error)
        if stage.fallback is not None:
            yield from _released(ctx, stage.fallback(ctx), _NO_PROGRESS)
    yield from ctx.drain_usage()


_NO_PROGRESS = Progress([])
