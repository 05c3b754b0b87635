"""Plan first: the milestone list is fixed before a run starts.

Every milestone event carries `index`, `total` and an explicit stage name, so
the progress bar has its denominator from the first second and an early stop
(reflection converging after one round) never mislabels the stages after it.
The plan is not decided here: it is the enabled part of a pipeline's stage
table (labwright.agent.run.plan_of), so it cannot disagree with what runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.agent.events import Milestone, Text
from labwright.messages import Message, say


@dataclass(frozen=True)
class PipelineConfig:
    """What decides the shape of a run. `tex_available` is probed once by the caller."""

    tex_available: bool
    reflect_rounds: int = 2
    explore: bool = True
    gap_check: bool = True


@dataclass(frozen=True)
class PlannedStage:
    stage: str
    label: Message  # the stage's name, catalogued (stage.*)


def plan_pipeline(config: PipelineConfig) -> list[PlannedStage]:
    """The LLM pipeline's milestones, derived from its stage table (agent/pipeline.py)."""
    from labwright.agent.pipeline import AgentContext, AgentOptions, agent_stages
    from labwright.agent.run import plan_of

    options = AgentOptions(
        reflect_rounds=config.reflect_rounds, explore=config.explore, gap_check=config.gap_check
    )
    ctx = AgentContext(Path("."), Path("."), tex_available=config.tex_available, options=options)
    return plan_of(agent_stages(options.reflect_rounds), ctx)


@dataclass
class Progress:
    """Hands out milestones in plan order; skipping stages keeps indices consecutive.

    `start(stage)` emits the next planned milestone of that stage, first emitting
    (as skipped) any planned milestones before it, so indices stay consecutive
    and every label matches its stage. `finish()` emits whatever is left so a
    run that stops early still reaches `total`.
    """

    plan: list[PlannedStage]
    _next: int = field(default=0)

    @property
    def total(self) -> int:
        return len(self.plan)

    def _emit(self, position: int, skipped: bool = False) -> Milestone:
        planned = self.plan[position]
        label = say("stage.skipped", stage=planned.label) if skipped else planned.label
        return Milestone(
            index=position + 1,
            total=self.total,
            stage=planned.stage,
            label=label,
            skipped=skipped,
            text=Text.of(planned.label),
        )

    def start(self, stage: str) -> Iterator[Milestone]:
        for position in range(self._next, self.total):
            if self.plan[position].stage == stage:
                for skipped in range(self._next, position):
                    yield self._emit(skipped, skipped=True)
                self._next = position + 1
                yield self._emit(position)
                return
        raise ValueError(f"stage {stage!r} is not left in the plan")

    def next_(self) -> Iterator[Milestone]:
        """The next planned milestone, started (the run loop walks the plan in order)."""
        if self._next < self.total:
            yield self._emit(self._next)
            self._next += 1

    def skip_next(self) -> Iterator[Milestone]:
        if self._next < self.total:
            yield self._emit(self._next, skipped=True)
            self._next += 1

    def skip(self, stage: str) -> Iterator[Milestone]:
        """Mark every remaining milestone of `stage` as skipped (e.g. reflection converged)."""
        while self._next < self.total and self.plan[self._next].stage == stage:
            yield self._emit(self._next, skipped=True)
            self._next += 1

    def finish(self) -> Iterator[Milestone]:
        while self._next < self.total:
            yield self._emit(self._next, skipped=True)
            self._next += 1
