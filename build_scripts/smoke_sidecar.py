"""Smoke-test a frozen sidecar on any OS (the release workflow runs it):
start it as the shell does, check the handshake, build a folder to a PDF
through the API, then close stdin and check it exits within 5 s.

    python build_scripts/smoke_sidecar.py build/sidecar/dist/labwright-sidecar examples/pendulum
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx


def main() -> int:
    bundle, folder = Path(sys.argv[1]), Path(sys.argv[2]).resolve()
    exe = bundle / ("labwright-sidecar.exe" if os.name == "nt" else "labwright-sidecar")
    home = Path(tempfile.mkdtemp(prefix="lw-smoke-"))
    token = secrets.token_hex(32)
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", "0", "--parent-pid", str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "LABWRIGHT_HOME": str(home)},
    )
    assert proc.stdin and proc.stdout and proc.stderr
    threading.Thread(target=proc.stderr.read, daemon=True).start()  # drain
    proc.stdin.write(token.encode() + b"\n")
    proc.stdin.flush()
    handshake = json.loads(proc.stdout.readline())
    print(f"handshake after {time.monotonic() - t0:.2f}s: port {handshake['port']}")
    try:
        headers = {"Authorization": f"Bearer {token}"}
        base = f"http://127.0.0.1:{handshake['port']}"
        with httpx.Client(base_url=base, headers=headers, timeout=300) as client:
            sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
            run = client.post(f"/api/sessions/{sid}/runs", json={"mode": "offline"}).json()
            deadline = time.monotonic() + 600
            while (status := client.get(f"/api/runs/{run['id']}").json()["status"]) in (
                "queued",
                "running",
            ):
                if time.monotonic() > deadline:
                    raise SystemExit("the build did not finish in 10 minutes")
                time.sleep(0.5)
            if status != "done":
                raise SystemExit(f"the build ended {status}")
            versions = client.get(f"/api/sessions/{sid}/versions").json()
            pdf = client.get(f"/api/sessions/{sid}/versions/{versions[-1]['version_no']}/pdf")
            if not pdf.content.startswith(b"%PDF"):
                raise SystemExit("no PDF came back")
            print(f"PDF: {len(pdf.content)} bytes after {time.monotonic() - t0:.1f}s")
        closed = time.monotonic()
        proc.stdin.close()
        proc.wait(timeout=5)
        print(f"exited {proc.returncode} {time.monotonic() - closed:.2f}s after stdin closed")
        return 0
    finally:
        if proc.poll() is None:
            proc.kill()


if __name__ == "__main__":
    sys.exit(main())
