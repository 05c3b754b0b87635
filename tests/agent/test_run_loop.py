"""The run loop: one read per run, and every stage can be turned off.

These runs use the in-process function model (no socket) so that many runs
stay cheap; the fake-server end-to-end runs are in test_pipeline_e2e.py.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labwright.agent import pipeline as agent_pipeline
from labwright.agent.events import Done, Event, Milestone
from labwright.agent.offline.build import OFFLINE_STAGES, build_offline
from labwright.agent.offline.figures import fit_pairs_here
from labwright.agent.offline.render import FigureResult
from labwright.agent.pipeline import AgentOptions, agent_plan, run_agent
from labwright.agent.repair import RepairOutcome
from labwright.llm.errors import LLMServerError
from labwright.llm.model import Message, text_of
from labwright.testing.models import Answer, FunctionModel, Request, ToolTurn

from .conftest import HALLIDAY, default_report

AGENT_STAGES = ("scan", "explore", "figures", "gaps", "draft", "reflect", "bibliography", "compile")


def well_behaved(messages: Sequence[Message], request: Request) -> Answer:
    if request.tools:
        return ToolTurn(
            [("finish_exploration", {"experiment": "pendulum", "goal": "g", "key_findings": []})]
        )
    task = text_of(messages[-1])
    if "# Task: write the report" in task:
        return default_report([dict(m) for m in messages])
    if "# Task: what is missing" in task:
        return json.dumps({"gaps": ["the reaction time is not stated"]})
    if "# Task: review the draft" in task:
        return json.dumps({"changes": []})
    if "# Task: bibliography entries" in task:
        return HALLIDAY
    return "I do not know this task."


def failing(messages: Sequence[Message], request: Request) -> Answer:
    return LLMServerError("the provider answered 500")


def assert_one_run(events: list[Event], planned_total: int) -> Done:
    milestones = [e for e in events if isinstance(e, Milestone)]
    assert [m.index for m in milestones] == list(range(1, planned_total + 1))
    assert all(m.total == planned_total for m in milestones)
    assert sum(isinstance(e, Done) for e in events) == 1
    done = events[-1]
    assert isinstance(done, Done)
    return done


class _InProcessDrawer:
    """Fits here and draws nothing: the property is about the loop, not the figures."""

    def __init__(self, folder: Path | None = None) -> None:  # take_worker(folder)'s signature
        pass

    def __enter__(self) -> _InProcessDrawer:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def fit(self, pairs: list[Any], work_dir: Path) -> list[Any]:
        return fit_pairs_here(pairs)

    def render(self, plans: list[Any], folder: Path, out_dir: Path) -> Iterator[FigureResult]:
        for plan in plans:
            yield FigureResult(plan.key, False, None, "not drawn in this test")

    def release(self) -> None:
        pass

    def close(self) -> None:
        pass


def _fake_compile(
    draft: str, files: Any, build_root: Path, outcome: RepairOutcome, **_: Any
) -> Iterator[Event]:
    outcome.draft = draft
    return iter(())


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count every scan, read, language detection and material collection."""
    import labwright.agent.material as material
    import labwright.agent.offline.language as language
    import labwright.ingest.read as read
    import labwright.ingest.scan as scan

    counts: Counter[str] = Counter()

    def counting(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return fn(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(scan, "scan_folder", counting("scan", scan.scan_folder))
    monkeypatch.setattr(read, "read_folder", counting("read", read.read_folder))
    monkeypatch.setattr(
        language, "detect_language", counting("detect_lang", language.detect_language)
    )
    monkeypatch.setattr(
        material, "collect_material", counting("collect_material", material.collect_material)
    )
    return counts


def test_an_llm_run_scans_reads_detects_and_collects_once(
    pendulum: Path, tmp_path: Path, counted: Counter[str]
) -> None:
    model = FunctionModel(well_behaved)
    events = list(run_agent(pendulum, tmp_path / "out", model, tex_available=False))
    done = assert_one_run(events, len(agent_plan(AgentOptions(), tex_available=False)))
    assert done.tex_path is not None
    assert counted == {"scan": 1, "read": 1, "detect_lang": 1, "collect_material": 1}
    assert model.calls >= 4  # explore, gaps, draft, reflect, bibliography all asked the model


def test_an_offline_run_scans_reads_and_detects_once(
    pendulum: Path, tmp_path: Path, counted: Counter[str]
) -> None:
    events = list(build_offline(pendulum, tmp_path / "out", tex_available=False))
    assert_one_run(events, 4)
    assert counted == {"scan": 1, "read": 1, "detect_lang": 1}


@pytest.fixture(scope="module")
def small_folder() -> Iterator[Path]:
    examples = Path(__file__).resolve().parents[2] / "examples"
    with tempfile.TemporaryDirectory() as root:
        folder = Path(root) / "pendulum"
        shutil.copytree(examples / "pendulum", folder)
        yield folder


@pytest.fixture
def cheap_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    import labwright.agent.offline.render as render

    monkeypatch.setattr(render, "take_worker", _InProcessDrawer)
    monkeypatch.setattr(agent_pipeline, "compile_and_repair", _fake_compile)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    off=st.frozensets(st.sampled_from(AGENT_STAGES)),
    reflect_rounds=st.integers(0, 3),
    tex=st.booleans(),
    model_fails=st.booleans(),
)
def test_any_agent_stage_can_be_turned_off_and_the_total_is_what_runs(
    small_folder: Path,
    cheap_stages: None,
    off: frozenset[str],
    reflect_rounds: int,
    tex: bool,
    model_fails: bool,
) -> None:
    options = AgentOptions(reflect_rounds=reflect_rounds, off=off)
    planned = agent_plan(options, tex_available=tex)
    assert not set(planned) & off
    with tempfile.TemporaryDirectory() as out:
        model = FunctionModel(failing if model_fails else well_behaved)
        events = list(run_agent(small_folder, Path(out), model, options, tex_available=tex))
        done = assert_one_run(events, len(planned))
        assert done.tex_path is not None and Path(done.tex_path).is_file()
    ran = [e.stage for e in events if isinstance(e, Milestone) and "skipped" not in e.label]
    assert set(ran) <= set(planned)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(off=st.frozensets(st.sampled_from([s.name for s in OFFLINE_STAGES])))
def test_any_offline_stage_can_be_turned_off_and_the_total_is_what_runs(
    small_folder: Path, off: frozenset[str]
) -> None:
    import labwright.agent.offline.build as build

    stages = tuple(s for s in OFFLINE_STAGES if s.name not in off)
    original = build.take_worker
    build.take_worker = _InProcessDrawer  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as out:
            events = list(
                build_offline(small_folder, Path(out), tex_available=False, stages=stages)
            )
            total = len([s for s in stages if s.name != "compile"])  # no TeX: no compile
            done = assert_one_run(events, total)
            assert done.tex_path is not None and Path(done.tex_path).is_file()
    finally:
        build.take_worker = original
