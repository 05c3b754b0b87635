"""A provider that cannot be reached: the run is written offline at once and says so once.

Both ways a provider is not there are made on loopback (no test reaches the
internet): a port nothing listens on (refused at once) and a port whose
connections are never completed (its accept queue full, so the kernel drops
the SYN: the connect waits for its timeout, as with a firewalled address)."""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Generator, Iterator
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


def _waiting_probe(until: threading.Event, *, reachable: bool) -> Probe:
    """A probe whose answer comes only once `until` is set: the provider
    answers (anything) or its connection times out."""

    def get(url: str, timeout: httpx.Timeout) -> object:
        assert until.wait(60), "the run never went on while the probe waited"
        if reachable:
            return httpx.Response(401, request=httpx.Request("GET", url))
        raise httpx.ConnectTimeout("no answer")

    return Probe(_endpoint(1), get=get)


def _offline_that_signals(
    monkeypatch: pytest.MonkeyPatch, after: int, signal: threading.Event
) -> None:
    """The offline run as it is, setting `signal` once it has given `after` events."""
    from labwright.agent import choose

    real = choose._offline

    def offline(request: RunRequest) -> Generator[Event, None, None]:
        for n, event in enumerate(real(request), start=1):
            if n == after:
                signal.set()
            yield event

    monkeypatch.setattr(choose, "_offline", offline)


def test_the_offline_run_goes_on_while_the_probe_waits_and_its_warning_comes_first(
    pendulum: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider that never answers costs the run only the probe's wait
    beyond the offline work: the offline run has already given events when
    the probe times out, and the user still reads the warning first."""
    progressed = threading.Event()
    _offline_that_signals(monkeypatch, 2, progressed)
    probe = _waiting_probe(progressed, reachable=False)
    choice = PipelineChoice("llm", _endpoint(1), probe)
    events = list(choice.run(RunRequest(pendulum, tmp_path / "out", tex_available=False)))
    assert isinstance(events[0], Warning_) and events[0].text.key == "llm.unreachable_offline"
    assert [w.text.key for w in _warnings(events)].count("llm.unreachable_offline") == 1
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path and Path(done.tex_path).exists(), done
    assert sum(isinstance(e, Done) for e in events) == 1


def test_a_provider_that_answers_late_stops_the_offline_run_and_leaves_nothing_of_it(
    pendulum: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The offline run started while the probe waited is stopped when the
    provider answers after all, and what it wrote is removed: the model-backed
    run starts from an empty folder (files there before are kept)."""
    from labwright.agent import choose
    from labwright.agent.offline.build import build_offline

    out = tmp_path / "out"
    out.mkdir()
    (out / "kept.txt").write_text("the caller's", encoding="utf-8")
    progressed = threading.Event()
    probe = _waiting_probe(progressed, reachable=True)
    closed: list[bool] = []

    def offline() -> Generator[Event, None, None]:
        try:
            for n, event in enumerate(build_offline(pendulum, out, tex_available=False), 1):
                if n == 3:
                    progressed.set()
                yield event
        finally:
            closed.append(True)

    assert choose._held_until_answered(offline(), probe, out) == []
    assert closed == [True]
    assert sorted(p.name for p in out.iterdir()) == ["kept.txt"]
