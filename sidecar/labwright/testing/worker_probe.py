"""Handlers for the tests of the trusted worker: code that behaves like a
decoder gone wrong (hangs, crashes) or like an exploited one (tries to read,
write or run what it must not), run inside the real confined worker.

Only the test suite names these operations; the product never does.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

from labwright.sandbox.trusted_worker import WorkerContext


def attempt(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """Try one act and report what happened: {"done": bool, "detail": text}."""
    act, path = str(request["act"]), str(request.get("path", ""))
    try:
        if act == "read":
            with open(path, "rb") as fh:
                detail = fh.read(4096).decode("latin-1")
        elif act == "write":
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("written by the worker")
            detail = "written"
        elif act == "exec":
            detail = subprocess.run(["/bin/true"], check=False).returncode.__str__()
        elif act == "env":
            detail = "\n".join(f"{k}={v}" for k, v in os.environ.items())
        else:
            raise ValueError(act)
    except Exception as exc:  # noqa: BLE001 - the failure is the answer
        yield {"done": False, "detail": f"{type(exc).__name__}: {exc}"}
        return
    yield {"done": True, "detail": detail}


def hang(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """A decoder caught in a loop."""
    while True:
        time.sleep(0.5)
    yield {}  # pragma: no cover - never reached


def crash(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """A decoder that corrupts memory and takes the process down."""
    os.abort()
    yield {}  # pragma: no cover - never reached
