"""Runs over a real socket: the one-active-run race and SSE resume without loss or repeats."""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import LiveFactory, ScriptedPipeline


def _session(client: httpx.Client, folder: Path) -> int:
    response = client.post("/api/sessions", json={"path": str(folder)})
    assert response.status_code == 201
    return int(response.json()["id"])


def _frames(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """SSE events of one connection, parsed as they arrive (keep-alive comments skipped)."""
    frame: dict[str, str] = {}
    for line in response.iter_lines():
        if line == "":
            if "data" in frame:
                yield {"id": int(frame["id"]), **json.loads(frame["data"])}
            frame = {}
            continue
        if line.startswith(":"):
            continue  # comment / keep-alive ping
        field, _, value = line.partition(":")
        frame[field] = value[1:] if value.startswith(" ") else value


def _read_sse(response: httpx.Response, limit: int | None = None) -> list[dict[str, Any]]:
    """Up to `limit` events (then the caller drops the connection), or all until the end."""
    return list(itertools.islice(_frames(response), limit))


def test_two_concurrent_starts_give_one_200_and_one_409(
    live_server: LiveFactory, data_folder: Path
) -> None:
    gate = threading.Event()
    server = live_server(ScriptedPipeline(steps=2, gate=gate))
    with server.client() as setup:
        sid = _session(setup, data_folder)
    barrier = threading.Barrier(2)
    results: list[httpx.Response] = []
    lock = threading.Lock()

    def start() -> None:
        with server.client() as client:
            barrier.wait()
            response = client.post(f"/api/sessions/{sid}/runs", json={})
            with lock:
                results.append(response)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(r.status_code for r in results) == [200, 409]
    conflict = next(r for r in results if r.status_code == 409)
    assert conflict.json()["detail"]
    store = server.app.state.ctx.store
    assert len(store.list_runs(sid)) == 1  # the loser created nothing
    gate.set()


def test_sse_reconnect_receives_every_event_exactly_once(
    live_server: LiveFactory, data_folder: Path
) -> None:
    gate = threading.Event()
    steps = 40
    server = live_server(ScriptedPipeline(steps=steps, gate=gate, delay=0.02))
    with server.client() as client:
        sid = _session(client, data_folder)
        run_id = client.post(f"/api/sessions/{sid}/runs", json={}).json()["id"]

    received: list[dict[str, Any]] = []
    last = 0
    connections = 0
    released = False
    while True:
        connections += 1
        headers = {"Last-Event-ID": str(last)} if last else {}
        with server.client() as client:
            with client.stream("GET", f"/api/runs/{run_id}/events", headers=headers) as response:
                assert response.status_code == 200
                # Take a few events, then hang up mid-stream (the with-block closes the socket).
                batch = _read_sse(response, limit=None if connections >= 6 else connections)
        received.extend(batch)
        if batch:
            last = batch[-1]["id"]
        if not released:
            gate.set()  # let the run race ahead while we are disconnected
            released = True
        if received and received[-1]["type"] == "done":
            break
        assert connections < 50, "the stream never reached done"

    seqs = [e["id"] for e in received]
    assert seqs == list(range(1, len(seqs) + 1)), "an event was missed or repeated"
    assert [e["seq"] for e in received] == seqs
    assert received[-1]["type"] == "done"
    persisted = server.app.state.ctx.store.events_after(run_id)
    assert [e.seq for e in persisted] == seqs
    assert len(seqs) == steps + 3  # milestone, steps, milestone, done
    assert connections >= 3


def test_live_follow_sees_events_as_they_are_appended(
    live_server: LiveFactory, data_folder: Path
) -> None:
    gate = threading.Event()
    server = live_server(ScriptedPipeline(steps=3, gate=gate))
    with server.client() as client:
        sid = _session(client, data_folder)
        run_id = client.post(f"/api/sessions/{sid}/runs", json={}).json()["id"]
        with client.stream("GET", f"/api/runs/{run_id}/events") as response:
            frames = _frames(response)
            first = [next(frames)]
            assert first[0]["type"] == "milestone"
            gate.set()  # events appended from now on arrive live on this connection
            rest = list(frames)
    assert [e["id"] for e in first + rest] == list(range(1, 7))
    assert rest[-1]["type"] == "done"
    with server.client() as client:
        assert client.get(f"/api/runs/{run_id}").json()["status"] == "done"


def test_shutdown_interrupts_the_active_run_and_ends_its_stream(
    live_server: LiveFactory, data_folder: Path
) -> None:
    gate = threading.Event()
    server = live_server(ScriptedPipeline(steps=5, gate=gate))
    with server.client() as client:
        sid = _session(client, data_folder)
        run_id = client.post(f"/api/sessions/{sid}/runs", json={}).json()["id"]
        with client.stream("GET", f"/api/runs/{run_id}/events") as response:
            frames = _frames(response)
            assert next(frames)["type"] == "milestone"
            server.app.state.runs.shutdown("the window closed")
            rest = list(frames)  # the stream ends by itself
        gate.set()
    assert [e["type"] for e in rest] == ["error", "done"]
    assert rest[-1]["payload"]["ok"] is False
    store = server.app.state.ctx.store
    server.app.state.runs.join(10)
    assert store.get_run(run_id).status == "interrupted"
    # The worker, released afterwards, wrote nothing more.
    assert [e.type for e in store.events_after(run_id)][-2:] == ["error", "done"]
    assert store.list_versions(sid) == []
