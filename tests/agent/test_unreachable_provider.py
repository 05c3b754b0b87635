"""A provider that cannot be reached: the run is written offline at once and says so once.

Both ways a provider is not there are made on loopback (no test reaches the
internet): a port nothing listens on (refused at once) and a port whose
connections are never completed (its accept queue full, so the kernel drops
the SYN: the connect waits for its timeout, as with a firewalled address)."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from labwright.agent.choose import PipelineChoice, RunRequest
from labwright.agent.events import Done, Event, Warning_
from labwright.agent.pipeline import AgentOptions, run_agent
from labwright.llm.client import LLMClient
from labwright.llm.providers import Endpoint, TierModels
from labwright.llm.reach import Probe, unreachable
from labwright.llm.retry import RetryPolicy
from labwright.testing import fake_openai


def _endpoint(port: int) -> Endpoint:
    return Endpoint("custom", f"http://127.0.0.1:{port}/v1", TierModels(main="m"), api_key="k")


def _ours(monkeypatch: pytest.MonkeyPatch, port: int) -> None:
    """The model-call guard lets requests through only to this process's own
    fake servers; these loopback ports are this test's own too."""
    monkeypatch.setattr(fake_openai, "RUNNING", fake_openai.RUNNING | {f"127.0.0.1:{port}"})


@pytest.fixture
def closed_port(monkeypatch: pytest.MonkeyPatch) -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    _ours(monkeypatch, port)
    return port


@pytest.fixture
def dropped_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    with ExitStack() as stack:
        server = stack.enter_context(socket.socket())
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port: int = server.getsockname()[1]
        for _ in range(8):
            filler = stack.enter_context(socket.socket())
            filler.settimeout(0.3)
            try:
                filler.connect(("127.0.0.1", port))
            except OSError:
                break
        else:
            pytest.skip("this kernel completes every loopback connection")
        _ours(monkeypatch, port)
        yield port


@pytest.fixture
def pendulum(examples_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    return folder


def test_a_closed_port_is_unreachable_because_refused(closed_port: int) -> None:
    why = unreachable(_endpoint(closed_port))
    assert why is not None and why.key == "llm.refused"


def test_a_port_that_never_completes_the_connection_is_unreachable(dropped_port: int) -> None:
    why = Probe(_endpoint(dropped_port)).result()
    assert why is not None and why.key == "llm.no_answer"


def test_any_http_answer_means_the_provider_is_there() -> None:
    def answers(url: str, timeout: httpx.Timeout) -> object:
        return httpx.Response(404, request=httpx.Request("GET", url))

    def slow(url: str, timeout: httpx.Timeout) -> object:
        raise httpx.ReadTimeout("connected, no answer yet")

    assert unreachable(_endpoint(1), get=answers) is None
    assert unreachable(_endpoint(1), get=slow) is None


def _warnings(events: list[Event]) -> list[Warning_]:
    return [e for e in events if isinstance(e, Warning_)]


@pytest.mark.parametrize("case", ["closed_port", "dropped_port"])
def test_an_unreachable_provider_gives_the_offline_report_and_one_warning(
    case: str, request: pytest.FixtureRequest, pendulum: Path, tmp_path: Path
) -> None:
    port: int = request.getfixturevalue(case)
    choice = PipelineChoice("llm", _endpoint(port))
    events = list(choice.run(RunRequest(pendulum, tmp_path / "out", tex_available=False)))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, done
    warnings = _warnings(events)
    assert [w.text.key for w in warnings].count("llm.unreachable_offline") == 1
    assert not any(w.text.key == "llm.degraded" for w in warnings)
    unreach = next(w for w in warnings if w.text.key == "llm.unreachable_offline")
    assert unreach.link == "settings" and "custom" in unreach.message
    assert not any("llm.degraded" in p for p in done.problems)


def test_a_provider_lost_mid_run_degrades_once_and_the_later_stages_go_offline(
    closed_port: int, pendulum: Path, tmp_path: Path
) -> None:
    """Past the probe (it answered, then the provider went away): the first
    model stage's failure is said once; the later model stages take their
    offline result without trying the provider again."""
    client = LLMClient(_endpoint(closed_port), retry=RetryPolicy(max_retries=1, base=0.001))
    calls = 0
    real = client._openai.chat.completions.create

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    client._openai.chat.completions.create = counting  # type: ignore[method-assign]
    with client:
        events = list(
            run_agent(pendulum, tmp_path / "out", client, AgentOptions(), tex_available=False)
        )
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, done
    degraded = [w for w in _warnings(events) if w.text.key == "llm.degraded"]
    assert len(degraded) == 1, [w.message for w in degraded]
    assert calls <= 2  # the first stage's call and its one retry, nothing after


def test_the_analysis_is_imported_while_the_probe_waits(
    dropped_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connect wait of a provider that never answers is spent importing
    what the run needs either way, not added to the offline run after it."""
    from labwright.agent import choose

    seen: list[bool] = []
    probe = Probe(_endpoint(dropped_port))
    monkeypatch.setattr(choose, "_import_the_analysis", lambda: seen.append(probe.answered))
    choice = PipelineChoice("llm", _endpoint(dropped_port), probe)
    assert choice.unreachable() is not None
    assert seen == [False]  # imported while the probe had no answer yet
    assert choice.unreachable() is not None and seen == [False]  # once: answered now
