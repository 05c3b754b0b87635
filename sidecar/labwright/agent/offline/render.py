"""Client side of the plot worker: start it early, send one job, read results.

One subprocess per build: starting it costs a Python start plus the
matplotlib import, so the build starts it before reading the folder and the
import overlaps with reading and fitting.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from labwright.resources import is_frozen

if TYPE_CHECKING:
    from labwright.agent.offline.figures import FigurePlan

#: The hidden CLI subcommand a frozen binary re-launches itself with.
WORKER_SUBCOMMAND = "_plot-worker"
_TIMEOUT_S = 120


def worker_command() -> list[str]:
    if is_frozen():
        return [sys.executable, WORKER_SUBCOMMAND]
    return [sys.executable, "-m", "labwright.agent.offline.plot_worker"]


@dataclass
class FigureResult:
    key: str
    ok: bool
    path: Path | None
    error: str = ""


_prestarted: PlotWorker | None = None


def prestart_worker() -> None:
    """Start the plot worker now, before the caller's heavy imports, so that
    its matplotlib import overlaps them. The next build takes it over."""
    global _prestarted
    if _prestarted is None:
        _prestarted = PlotWorker()


def take_worker() -> PlotWorker:
    """The pre-started worker if there is one, else a new one."""
    global _prestarted
    worker, _prestarted = _prestarted, None
    return worker if worker is not None and worker.alive else PlotWorker()


def discard_worker() -> None:
    """Stop a pre-started worker that no build took over (bad input)."""
    global _prestarted
    worker, _prestarted = _prestarted, None
    if worker is not None:
        worker.close()


class PlotWorker:
    """`with PlotWorker() as w: ...; for r in w.render(plans, folder, out): ...`"""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["MPLBACKEND"] = "Agg"
        env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
        self._proc = subprocess.Popen(
            worker_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env,
        )

    def render(
        self, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]:
        import numpy as np

        from labwright.agent.offline.figures import to_job

        out_dir.mkdir(parents=True, exist_ok=True)
        spec, arrays = to_job(plans, str(folder))
        spec_path = out_dir / "_plot_job.json"
        arrays_path = out_dir / "_plot_job.npz"
        spec_path.write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
        np.savez(arrays_path, **arrays)
        request = {"spec": str(spec_path), "arrays": str(arrays_path), "out_dir": str(out_dir)}
        assert self._proc.stdin is not None and self._proc.stdout is not None
        seen: set[str] = set()
        try:
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.close()
            for line in self._proc.stdout:
                msg = json.loads(line)
                if msg.get("done"):
                    break
                seen.add(msg["key"])
                path = out_dir / msg["file"] if msg.get("ok") else None
                yield FigureResult(msg["key"], bool(msg.get("ok")), path, msg.get("error", ""))
        except (BrokenPipeError, json.JSONDecodeError, OSError) as exc:
            err = f"the plotting process failed ({type(exc).__name__})"
        else:
            err = "the plotting process ended early"
        finally:
            for p in (spec_path, arrays_path):
                p.unlink(missing_ok=True)
        try:
            self._proc.wait(timeout=_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        stderr = (self._proc.stderr.read() if self._proc.stderr else "").strip()
        for plan in plans:
            if plan.key not in seen:
                detail = stderr.splitlines()[-1] if stderr else err
                yield FigureResult(plan.key, False, None, detail)

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream and not stream.closed:
                stream.close()

    def __enter__(self) -> PlotWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
