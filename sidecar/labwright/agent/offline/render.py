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
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labwright.resources import is_frozen

if TYPE_CHECKING:
    import numpy as np

    from labwright.agent.offline.figures import FigurePlan
    from labwright.agent.offline.fits import FitResult

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
    """The worker process and its two requests: `fit(pairs, work_dir)` and
    `render(plans, folder, out_dir)`. Any failure of the process degrades to
    fitting here and to figures reported as not drawn; it never stops a build.
    """

    def __init__(self) -> None:
        env = dict(os.environ)
        env["MPLBACKEND"] = "Agg"
        # stderr goes to a file, not a pipe nobody drains: a chatty library
        # filling the pipe would otherwise block the worker forever.
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            worker_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
            env=env,
        )

    # -- plumbing -------------------------------------------------------------------
    def _send(self, request: dict[str, object]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()

    def _lines(self) -> Iterator[dict[str, object]]:
        """Replies, each within the timeout (the watchdog kills a hung worker,
        which ends the stream)."""
        assert self._proc.stdout is not None
        while True:
            timer = threading.Timer(_TIMEOUT_S, self._proc.kill)
            timer.start()
            try:
                line = self._proc.stdout.readline()
            finally:
                timer.cancel()
            if not line:
                return
            yield json.loads(line)

    def _last_error(self, fallback: str) -> str:
        try:
            self._stderr.seek(0)
            text = self._stderr.read().decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        return text.splitlines()[-1] if text else fallback

    # -- requests -------------------------------------------------------------------
    def fit(
        self, pairs: list[tuple[np.ndarray, np.ndarray]], work_dir: Path
    ) -> list[FitResult | None]:
        import numpy as np

        from labwright.agent.offline.fits import FitResult, fit_xy

        work_dir.mkdir(parents=True, exist_ok=True)
        path = work_dir / "_fit_job.npz"
        arrays: dict[str, Any] = {}
        for i, (x, y) in enumerate(pairs):
            arrays[f"x{i}"] = np.asarray(x, dtype=float)
            arrays[f"y{i}"] = np.asarray(y, dtype=float)
        try:
            np.savez(path, **arrays)
            self._send({"op": "fit", "arrays": str(path), "count": len(pairs)})
            reply = next(self._lines(), None)
            fits = reply.get("fits") if reply is not None else None
            if isinstance(fits, list):
                if len(fits) == len(pairs):
                    return [FitResult.from_dict(f) if f else None for f in fits]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        finally:
            path.unlink(missing_ok=True)
        return [fit_xy(x, y) for x, y in pairs]  # the worker failed: fit here

    def render(
        self, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]:
        import numpy as np

        from labwright.agent.offline.figures import to_job

        out_dir.mkdir(parents=True, exist_ok=True)
        spec, arrays = to_job(plans, str(folder))
        spec_path = out_dir / "_plot_job.json"
        arrays_path = out_dir / "_plot_job.npz"
        seen: set[str] = set()
        err = "the plotting process ended early"
        try:
            spec_path.write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
            np.savez(arrays_path, **arrays)  # type: ignore[arg-type]
            self._send(
                {
                    "op": "render",
                    "spec": str(spec_path),
                    "arrays": str(arrays_path),
                    "out_dir": str(out_dir),
                }
            )
            for msg in self._lines():
                if msg.get("done"):
                    break
                key = str(msg["key"])
                seen.add(key)
                path = out_dir / str(msg["file"]) if msg.get("ok") else None
                yield FigureResult(key, bool(msg.get("ok")), path, str(msg.get("error", "")))
        except (OSError, ValueError, KeyError) as exc:
            err = f"the plotting process failed ({type(exc).__name__})"
        finally:
            for p in (spec_path, arrays_path):
                p.unlink(missing_ok=True)
        for plan in plans:
            if plan.key not in seen:
                yield FigureResult(plan.key, False, None, self._last_error(err))

    def release(self) -> None:
        """No more requests: let the worker exit now, without waiting for it,
        so its shutdown overlaps the compile instead of following it."""
        stdin = self._proc.stdin
        if stdin is not None and not stdin.closed:
            try:
                stdin.close()
            except OSError:
                pass

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def close(self) -> None:
        """Ask politely (close stdin), then kill if it does not leave."""
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream and not stream.closed:
                try:
                    stream.close()
                except OSError:
                    pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._stderr.close()

    def __enter__(self) -> PlotWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
