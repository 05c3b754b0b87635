"""How long the HTTP API adds to an offline build, measured against the bare pipeline.

For each example folder, through a real `labwright serve --port 0` child process
(token on stdin, handshake, bearer header, SSE over a loopback socket):

  * create a session -> first progress event on the run's event stream
  * create a session -> the `done` event of the finished offline report

and, in the same run, the same two times for `build_offline` called directly
in this process (no server, no store). The ratio shows the API's overhead.

    .venv/bin/python benchmarks/api_latency.py [--rounds N] [examples/pendulum ...]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def _start_sidecar(token: str, home: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "LABWRIGHT_HOME": str(home)}
    child = subprocess.Popen(
        [sys.executable, "-m", "labwright", "serve", "--port", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(token.encode() + b"\n")
    child.stdin.flush()
    port = json.loads(child.stdout.readline())["port"]
    return child, f"http://127.0.0.1:{port}"


def through_api(client: httpx.Client, folder: Path) -> tuple[float, float]:
    t0 = time.perf_counter()
    sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
    run_id = client.post(f"/api/sessions/{sid}/runs", json={}).json()["id"]
    first = done = None
    with client.stream("GET", f"/api/runs/{run_id}/events") as response:
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            now = time.perf_counter() - t0
            if first is None and event["type"] in ("milestone", "step"):
                first = now
            if event["type"] == "done":
                done = now
                break
    assert first is not None and done is not None
    return first, done


def direct(folder: Path) -> tuple[float, float]:
    from labwright.agent.offline.build import build_offline

    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        first = done = None
        for event in build_offline(folder, Path(out) / "build"):
            now = time.perf_counter() - t0
            if first is None and event.type in ("milestone", "step"):
                first = now
            if event.type == "done":
                done = now
        assert first is not None and done is not None
        return first, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    folders = args.folders or sorted(
        p for p in (ROOT / "examples").iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
    )
    token = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory() as home:
        child, base = _start_sidecar(token, Path(home))
        try:
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=base, headers=headers, timeout=600) as client:
                # One warm-up each so neither side pays first-import costs in the numbers.
                through_api(client, folders[0])
                direct(folders[0])
                print(
                    f"{'example':<16} {'first event: api / direct':>28} {'report: api / direct':>26}"
                )
                for folder in folders:
                    for _ in range(args.rounds):
                        a_first, a_done = through_api(client, folder)
                        d_first, d_done = direct(folder)
                        print(
                            f"{folder.name:<16} {a_first * 1000:9.0f} ms / {d_first * 1000:6.0f} ms"
                            f" {a_done:9.2f} s / {d_done:5.2f} s  (x{a_done / d_done:.2f})"
                        )
        finally:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
