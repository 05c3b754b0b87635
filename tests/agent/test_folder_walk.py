"""The data folder's walk through a real LLM build stays short and only goes down.

The run is the product's own path (`choose_pipeline("llm", endpoint).run`, as
the CLI and the server call it) with the real `openai` client talking to the
fake OpenAI-compatible server over a socket; a profiler records every
labwright function the folder reaches (tests/agent/folder_trace.py) from the
scan to the written main.tex.

Issue 12 measured the walk before the run loop: 37 stops in 18 modules, 5
climbs back up. The test holds the walk below 18 modules and refuses any call
edge that goes up the layer order (tests/layer_order.py), or across packages
of one layer.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from labwright.agent.choose import RunRequest, choose_pipeline
from labwright.agent.events import Done, Event
from labwright.testing.fake_openai import FakeOpenAI
from labwright.testing.pytest_plugin import fake_endpoint
from tests.layer_order import allowed, layer_name

from .conftest import ScriptedLab
from .folder_trace import FolderTrace, follow_folder

BEFORE_MODULES = 18  # issue 12, "Why": the walk made 37 stops in 18 modules

pytestmark = pytest.mark.smoke


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FolderTrace]:
    """One real build, traced; both tests read the same walk."""
    base = tmp_path_factory.mktemp("walk")
    folder = base / "pendulum"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "pendulum", folder)
    lab = ScriptedLab()
    with FakeOpenAI() as fake:
        fake.on_messages(lab.answer)
        choice = choose_pipeline("llm", fake_endpoint(fake))
        # The provider's answer first: the walk traced is the model-backed
        # pipeline's, not the offline run a run starts while the probe waits
        # (agent/choose.py), which it stops when the provider answers.
        assert choice.probe is not None and choice.probe.result() is None
        with follow_folder(folder) as trace:
            request = RunRequest(folder, base / "out", reflect_rounds=1)
            events: list[Event] = list(choice.run(request))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path is not None
    assert Path(done.tex_path).is_file()  # the walk ran to the written main.tex
    assert lab.calls.get("draft")  # and the model really wrote the draft
    yield trace


def test_the_folder_reaches_fewer_modules_than_before(walked: FolderTrace) -> None:
    modules = walked.modules()
    print(f"\nfolder walk: {len(walked.functions())} stops in {len(modules)} modules")
    for name in walked.functions():
        print(f"  {layer_name(name.split(':')[0]):13} {name}  x{walked.calls[name]}")
    # The walk reaches the reading of the data (the product must read the folder).
    assert any(m.startswith("labwright.ingest.") for m in modules)
    assert len(modules) < BEFORE_MODULES, modules


def test_no_call_on_the_walk_climbs_back_up(walked: FolderTrace) -> None:
    upward = sorted(
        f"{caller} ({layer_name(caller)}) -> {callee} ({layer_name(callee)})"
        for caller, callee in walked.edges
        if not allowed(caller, callee)
    )
    every = sorted(f"{a} -> {b}" for a, b in walked.all_edges if not allowed(a, b))
    print(f"\nfolder walk: {len(walked.edges)} call edges, {len(upward)} upward")
    print(f"whole run: {len(walked.all_edges)} call edges, {len(every)} upward")
    assert walked.edges and walked.all_edges  # the trace saw the calls
    assert not upward, "\n".join(upward)
    # Beyond the folder's own walk: no callback into a higher layer anywhere in the run.
    assert not every, "\n".join(every)
