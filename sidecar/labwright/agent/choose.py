"""The one choice between the offline writer and the model-backed pipeline.

The CLI and the server both come here (the seed decided it in three places,
each with its own fallback rules). Callers resolve the endpoint their own way
(the CLI from --base-url/--model or the settings, the server from the
settings) and pass it in; this module decides and runs.

Heavy modules are imported lazily so that starting the server (and its
handshake) does not wait for matplotlib, pandas, scipy or openai to load.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from labwright.agent.events import Event, Warning_
from labwright.llm.model import ChatModel
from labwright.llm.providers import Endpoint
from labwright.messages import Message, say

if TYPE_CHECKING:
    from labwright.llm.reach import Probe

Mode = Literal["auto", "offline", "llm"]
Kind = Literal["offline", "llm"]

# (content, summary, origin): how a pipeline hands an intermediate version to the store.
VersionSink = Callable[[str, str, str], object]


class NoModelError(Exception):
    """An LLM run was asked for, but no provider is usable (message: one sentence)."""


NO_MODEL = say("llm.no_model")


@dataclass(frozen=True)
class RunRequest:
    """The inputs of one run: the user's folder (read-only) and the run's output directory."""

    folder: Path
    out_dir: Path
    lang: str | None = None
    cancel: threading.Event | None = None  # set when the run should stop at the next step
    save_version: VersionSink | None = None
    tex_available: bool | None = None  # None: probed when the run starts
    reflect_rounds: int = 2
    #: Write the analysis compendium (analysis/) beside main.tex before the
    #: compile, so the appendix names each number's script line in the first
    #: compile (issue 23; `labwright build --zip`). The offline writer honours
    #: it; a model-backed run leaves it to the caller (compendium_build.py).
    compendium: bool = False


@dataclass(frozen=True)
class PipelineChoice:
    """A model-backed choice asks whether its provider can be reached from the
    moment it is made (`probe`, llm/reach.py), so the answer is there by the
    time the run needs it; when the answer is no, the run is the offline
    writer's and says so once (each model stage failing in turn cost ~7x the
    offline time and repeated the warning per stage). A run that starts
    before the answer does its offline work meanwhile (`_held_until_answered`)."""

    kind: Kind
    endpoint: Endpoint | None = None
    probe: Probe | None = field(default=None, compare=False, repr=False)

    def unreachable(self) -> Message | None:
        """Why this choice's provider cannot be reached, or None (waits for the probe)."""
        if self.kind != "llm" or self.endpoint is None:
            return None
        probe = self.probe
        if probe is None:  # made without choose_pipeline
            from labwright.llm.reach import Probe

            probe = Probe(self.endpoint)
            object.__setattr__(self, "probe", probe)
        if not probe.answered:
            _import_the_analysis()  # while the probe waits on the network
        return probe.result()

    def _unreachable_warning(self) -> Warning_:
        why = self.unreachable()
        assert self.endpoint is not None and why is not None
        return Warning_(
            message=say("llm.unreachable_offline", provider=self.endpoint.provider, reason=why),
            link="settings",
        )

    def plan(self, *, tex_available: bool, reflect_rounds: int = 2) -> list[str]:
        """The milestone stages a run of this kind will show."""
        # Imported before the probe is asked: both kinds need it, and the
        # probe's wait passes meanwhile.
        from labwright.agent.offline.build import plan_offline

        if self.kind == "offline" or self.unreachable() is not None:
            return [s.stage for s in plan_offline(tex_available=tex_available)]
        from labwright.agent.pipeline import AgentOptions, agent_plan

        return agent_plan(AgentOptions(reflect_rounds=reflect_rounds), tex_available=tex_available)

    def run(self, request: RunRequest, model: ChatModel | None = None) -> Iterator[Event]:
        """The run's events. A model-backed run opens (and closes) a client unless given one."""
        if self.kind == "offline":
            yield from _offline(request)
            return
        if model is None and self.probe is not None and not self.probe.answered:
            offline = _offline(request)
            held = _held_until_answered(offline, self.probe, request.out_dir)
            if self.probe.result() is not None:
                yield self._unreachable_warning()
                yield from held
                yield from offline
                return
        elif model is None and self.unreachable() is not None:
            yield self._unreachable_warning()
            yield from _offline(request)
            return
        from labwright.agent.pipeline import AgentOptions, run_agent

        options = AgentOptions(lang=request.lang, reflect_rounds=max(0, request.reflect_rounds))
        if model is not None:
            yield from run_agent(
                request.folder,
                request.out_dir,
                model,
                options,
                cancel=request.cancel,
                save_version=request.save_version,
                tex_available=request.tex_available,
            )
            return
        from labwright.llm.client import LLMClient

        assert self.endpoint is not None, "an llm choice has an endpoint"
        with LLMClient(self.endpoint) as client:
            yield from run_agent(
                request.folder,
                request.out_dir,
                client,
                options,
                cancel=request.cancel,
                save_version=request.save_version,
                tex_available=request.tex_available,
            )


def _offline(request: RunRequest) -> Generator[Event, None, None]:
    from labwright.agent.offline.build import build_offline

    yield from build_offline(
        request.folder,
        request.out_dir,
        lang=request.lang,
        tex_available=request.tex_available,
        compendium=request.compendium,
    )


def _held_until_answered(
    offline: Generator[Event, None, None], probe: Probe, out_dir: Path
) -> list[Event]:
    """The offline run, started while the probe waits, and its events held
    until the answer is in: a provider that never answers then costs the
    run nothing but the probe's wait beyond the offline work (issue 21: at
    most 1.2x the offline run), and the warning still comes first. When the
    provider answers after all, the offline run is stopped and what it wrote
    is removed, so the model-backed run starts from an empty folder; that
    costs it at most one offline step, seconds beside its model calls."""
    before = set(out_dir.iterdir()) if out_dir.is_dir() else set()
    held: list[Event] = []
    for event in offline:
        held.append(event)
        if probe.answered:
            break
    if probe.result() is None:
        offline.close()  # stops its early compile and its drawing worker
        for made in set(out_dir.iterdir()) - before if out_dir.is_dir() else ():
            if made.is_dir() and not made.is_symlink():
                shutil.rmtree(made, ignore_errors=True)
            else:
                made.unlink(missing_ok=True)
        return []
    return held


def _import_the_analysis() -> None:
    """Import what either pipeline's analysis needs (the fitting stack, the
    catalogue): ~1 s of work that a provider which never answers would
    otherwise add to the offline run as its connect wait (the probe waits in
    its thread meanwhile, without the GIL). Nothing is wasted when the
    provider answers: the model-backed run analyses the data with the same
    code first."""
    import labwright.analysis.kinds  # noqa: F401
    import labwright.analysis.plan  # noqa: F401
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.lmfit_import import import_lmfit

    import_lmfit()
    catalogue()


def choose_pipeline(mode: Mode, endpoint: Endpoint | None) -> PipelineChoice:
    """ "auto" runs the model when there is one, else offline; "llm" without one is refused."""
    if mode == "offline":
        return PipelineChoice("offline")
    if endpoint is None:
        if mode == "llm":
            raise NoModelError(NO_MODEL)
        return PipelineChoice("offline")
    from labwright.llm.reach import Probe

    return PipelineChoice("llm", endpoint, Probe(endpoint))
