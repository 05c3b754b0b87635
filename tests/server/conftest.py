"""Fixtures for the server tests: an app per test, a test keychain, a scripted pipeline.

The scripted pipeline stands in for the offline writer where a test is about
the server's own behaviour (concurrency, resume, cancellation): it yields real
events from `labwright.agent.events` and can be held at a gate so a test
controls exactly when a run advances. The real offline writer is exercised by
the real-process test (test_process.py).
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import keyring
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from labwright.agent.events import Done, Event, Milestone, Step
from labwright.server.app import create_app
from labwright.server.settings import Pipeline, PipelineRequest, ServerSettings
from labwright.testing.memory_keyring import MemoryKeyring

PORT = 48123  # in-process tests never bind it; it only has to match the Host header
BASE = f"http://127.0.0.1:{PORT}"


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@dataclass
class ScriptedPipeline:
    """Yields `steps` progress events, then writes a tiny .tex and PDF and yields done.

    With `gate` set, it waits for the gate before every event after the first,
    so a test can hold a run in the "running" state as long as it needs.
    """

    steps: int = 5
    gate: threading.Event | None = None
    started: threading.Event = field(default_factory=threading.Event)
    fail: bool = False
    delay: float = 0.0  # seconds between steps, so appends interleave with a client's reads

    def __call__(self, request: PipelineRequest) -> Iterator[Event]:
        total = self.steps + 1
        yield Milestone(index=1, total=total, stage="scan", label="Reading the folder")
        self.started.set()
        for i in range(self.steps):
            if self.gate is not None:
                self.gate.wait(10)
            if self.delay:
                time.sleep(self.delay)
            yield Step(stage="scan", message=f"step {i + 1} of {request.folder.name}")
        if self.fail:
            raise RuntimeError("scripted failure")
        request.out_dir.mkdir(parents=True, exist_ok=True)
        tex = request.out_dir / "main.tex"
        tex.write_text(CONTENT, encoding="utf-8")
        figures = request.out_dir / "figures"
        figures.mkdir(exist_ok=True)
        (figures / "fig1.png").write_bytes(_PNG)
        pdf = request.out_dir / "main.pdf"
        pdf.write_bytes(b"%PDF-1.4\n% scripted\n%%EOF\n")
        yield Milestone(index=total, total=total, stage="compile", label="Compiling")
        yield Done(ok=True, pdf_path=str(pdf), tex_path=str(tex))


CONTENT = (
    "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
    "\\section{Results}\nThe period is 2.01 s.\n"
    "\\includegraphics{figures/fig1.png}\n\\end{document}\n"
)

# A valid 1x1 PNG.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000005000174a0e3f10000000049454e44ae426082"
)


@pytest.fixture
def token() -> str:
    return secrets.token_urlsafe(32)


@pytest.fixture
def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


AppFactory = Callable[..., tuple[FastAPI, TestClient]]


@pytest.fixture
def make_client(token: str, tmp_path: Path) -> Iterator[AppFactory]:
    """Build an app (optionally with a pipeline) and a TestClient aimed at 127.0.0.1:PORT."""
    made: list[tuple[FastAPI, TestClient]] = []

    def factory(pipeline: Pipeline | None = None, **kw: object) -> tuple[FastAPI, TestClient]:
        settings = ServerSettings(token=token, port=PORT, pipeline=pipeline, **kw)  # type: ignore[arg-type]
        app = create_app(settings)
        client = TestClient(app, base_url=BASE)
        made.append((app, client))
        return app, client

    yield factory
    for app, client in made:
        app.state.runs.shutdown("the test ended")
        app.state.runs.join(5)
        client.close()
        app.state.ctx.store.close()


@pytest.fixture
def data_folder(tmp_path: Path) -> Path:
    """A small data folder the tests own (never the repository's examples)."""
    folder = tmp_path / "experiment"
    folder.mkdir()
    (folder / "data.csv").write_text("t (s),x (m)\n0,0\n1,1.1\n2,3.9\n", encoding="utf-8")
    (folder / "notes.md").write_text("Aim: measure x over time.\n", encoding="utf-8")
    return folder


def free_loopback_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


@dataclass
class World:
    """Ids of one session with a finished run, a built version and a pending proposal."""

    session_id: int
    run_id: int
    version_no: int
    proposal_id: int
    figure: str = "fig1.png"
    provider: str = "deepseek"
    upload_id: str = "0" * 32
    #: A reference of the version's bibliography the citation check corrected.
    cite_key: str = "ref1"

    def params(self) -> dict[str, object]:
        return {
            "session_id": self.session_id,
            "run_id": self.run_id,
            "version_no": self.version_no,
            "proposal_id": self.proposal_id,
            "name": self.figure,
            "provider": self.provider,
            "upload_id": self.upload_id,
            "key": self.cite_key,
        }


_BIB = "@article{ref1, author={Doe, Jane}, title={A seeded work}, journal={J}, year={2014}}\n"
#: The citation check's record of the seeded build: ref1's year corrected.
_VERDICTS = {
    "network": "on",
    "verdicts": [
        {
            "key": "ref1",
            "verdict": "corrected",
            "reason": "Crossref holds this work, but its year differs.",
            "origin": "user",
            "file": "refs.bib",
            "differences": [{"field": "year", "entry": "2014", "record": "2015"}],
            "proposal": {
                "entry": "@article{ref1, author={Doe, Jane}, title={A seeded work}, journal={J}, year={2015}}",
                "diff": "",
            },
        }
    ],
}


def seed_world(app: FastAPI, folder: Path) -> World:
    """Put a realistic state into the app's store directly (no HTTP involved)."""
    from labwright.store.artifacts import run_dir

    store = app.state.ctx.store
    data = app.state.ctx.data
    session = store.create_session(
        str(folder), inventory=[{"path": "data.csv", "size": 10, "bucket": "data"}], title="t"
    )
    run = store.start_run(session.id, kind="offline")
    store.append_event(run.id, Milestone(index=1, total=1, stage="scan"))
    store.append_event(run.id, Done(ok=True))
    store.finish_run(run.id, "done")
    version = store.add_version(session.id, CONTENT, run_id=run.id, bibliography=_BIB)
    vdir = run_dir(data, session.id, run.id)
    vdir.mkdir(parents=True)
    (vdir / "citations.json").write_text(json.dumps(_VERDICTS), encoding="utf-8")
    (vdir / "figures").mkdir()
    (vdir / "figures" / "fig1.png").write_bytes(_PNG)
    (vdir / "report.pdf").write_bytes(b"%PDF-1.4\n% seeded\n%%EOF\n")
    (vdir / "report.version").write_text(str(version.id), encoding="utf-8")
    (vdir / "main.tex").write_text(CONTENT, encoding="utf-8")
    (vdir / "report.log").write_text(
        "This is XeTeX\n! Undefined control sequence.\nl.5 \\foo\n", encoding="utf-8"
    )
    start = CONTENT.index("2.01")
    proposal = store.propose_edit(session.id, version.id, start, start + 4, "2.02")
    upload = data.root / "uploads" / ("a" * 32) / "data"  # an unfinished browser upload
    upload.mkdir(parents=True)
    (upload / "data.csv").write_text("t,x\n1,2\n", encoding="utf-8")
    return World(session.id, run.id, version.version_no, proposal.id, upload_id="a" * 32)


@dataclass
class LiveServer:
    app: FastAPI
    base_url: str
    token: str

    def client(self, **kw: object) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=30,
            **kw,  # type: ignore[arg-type]
        )


LiveFactory = Callable[..., LiveServer]


@pytest.fixture
def live_server(token: str) -> Iterator[LiveFactory]:
    """A real uvicorn server on a real loopback socket, in a thread of this test."""
    import uvicorn

    running: list[tuple[uvicorn.Server, threading.Thread, FastAPI]] = []

    def factory(pipeline: Pipeline | None = None) -> LiveServer:
        sock = free_loopback_socket()
        port = sock.getsockname()[1]
        app = create_app(ServerSettings(token=token, port=port, pipeline=pipeline))
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        running.append((server, thread, app))
        return LiveServer(app, f"http://127.0.0.1:{port}", token)

    yield factory
    for server, thread, app in running:
        app.state.runs.shutdown("the test ended")
        server.should_exit = True
        thread.join(10)
        app.state.runs.join(5)
        app.state.ctx.store.close()
