"""Client side of the offline writer's drawing: fits and figures through the
sandbox's trusted worker (`labwright.sandbox.trusted`).

One confined worker per build and data folder. The CLI starts it before its
own heavy imports, so matplotlib's import overlaps the folder read; the
folder's images were already decoded by the same worker while reading.
Requests are a JSON spec plus an .npz of arrays (`figures.to_job`); the
drawing code is `plot_worker`. Anything the worker leaves is checked here
before it becomes a figure of the report.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labwright.agent.offline import plot_worker

# Imported for its name only: PyInstaller must see the handlers' module, which
# the worker imports by name.
from labwright.messages import say
from labwright.sandbox import trusted

if TYPE_CHECKING:
    import numpy as np

    from labwright.agent.offline.figures import FigurePlan
    from labwright.analysis.fits import FitResult

log = logging.getLogger(__name__)

_FIT = f"{plot_worker.__name__}:fit"
_RENDER = f"{plot_worker.__name__}:render"
_MAGIC = {".png": (b"\x89PNG\r\n\x1a\n",), ".jpg": (b"\xff\xd8\xff",), ".pdf": (b"%PDF",)}
_MAX_FIGURE_BYTES = 64 * 1024 * 1024
#: A worker that dies while drawing is replaced this often per render.
_RESTARTS = 2


@dataclass
class FigureResult:
    key: str
    ok: bool
    path: Path | None
    error: str = ""


def prestart_worker(folder: Path) -> None:
    """Start the folder's worker now, before the caller's heavy imports, so
    that its matplotlib import overlaps them. The next build takes it over."""
    trusted.prestart(folder)


def take_worker(folder: Path | None = None) -> PlotWorker:
    """The folder's running worker if there is one, else a new one."""
    return PlotWorker(folder, worker=trusted.take(folder))


def discard_worker() -> None:
    """Stop workers that no build took over (bad input)."""
    trusted.discard(all_folders=True)


def _fandol_font() -> str | None:
    """The TeX distribution's CJK font, for figures with Chinese labels on a
    system without a CJK font of its own (looked up here: the worker may not
    run programs)."""
    from labwright.latex.engine import resolve_engine

    kpse = resolve_engine().kpsewhich
    if kpse is None:
        return None
    try:
        out = subprocess.run(
            [str(kpse), "FandolHei-Regular.otf"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out if out and Path(out).is_file() else None


class PlotWorker:
    """Fits and figures for one build, drawn in the trusted worker. Any
    failure of the process degrades to fitting here and to figures reported
    as not drawn; it never stops a build."""

    def __init__(self, folder: Path | None = None, *, worker: trusted.TrustedWorker | None = None):
        # A worker from `trusted.take` is shared with the folder read and is
        # handed back; one started here (or after a crash) is ours to close.
        self._shared = worker
        self._worker = worker if worker is not None else trusted.TrustedWorker(folder)

    def _replace(self, folder: Path | None) -> trusted.TrustedWorker:
        self._drop()
        self._worker = trusted.TrustedWorker(folder)
        return self._worker

    def _drop(self) -> None:
        if self._worker is self._shared:
            self._shared = None
            trusted.give_back(self._worker)
        else:
            self._worker.close()

    def _for_folder(self, folder: Path) -> trusted.TrustedWorker:
        """The worker reads only its own data folder: another folder needs another worker."""
        if self._worker.data_root != str(Path(folder).resolve()) or not self._worker.alive:
            return self._replace(folder)
        return self._worker

    # -- requests -------------------------------------------------------------------
    def fit(
        self, pairs: list[tuple[np.ndarray, np.ndarray]], work_dir: Path | None = None
    ) -> list[FitResult | None]:
        import numpy as np

        from labwright.analysis.fits import FitResult, fit_xy

        if "scipy.optimize" in sys.modules:
            # An analysis has already loaded it here (statsmodels does): fit
            # at once; the worker would first have to import it too.
            return [fit_xy(x, y) for x, y in pairs]
        worker = self._worker
        path = worker.inbox_path(".npz")
        arrays: dict[str, Any] = {}
        for i, (x, y) in enumerate(pairs):
            arrays[f"x{i}"] = np.asarray(x, dtype=float)
            arrays[f"y{i}"] = np.asarray(y, dtype=float)
        try:
            np.savez(path, **arrays)
            for reply in worker.request(_FIT, {"arrays": str(path), "count": len(pairs)}):
                fits = reply.get("fits")
                if isinstance(fits, list) and len(fits) == len(pairs):
                    return [FitResult.from_dict(f) if f else None for f in fits]
        except (OSError, ValueError, KeyError, TypeError, trusted.WorkerError):
            pass
        finally:
            path.unlink(missing_ok=True)
        return [fit_xy(x, y) for x, y in pairs]  # the worker failed: fit here

    def render(
        self, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]:
        out_dir.mkdir(parents=True, exist_ok=True)
        remaining = list(plans)
        for attempt in range(_RESTARTS + 1):
            if not remaining:
                return
            done, crashed = yield from self._render_once(remaining, folder, out_dir)
            remaining = [p for p in remaining if p.key not in done]
            if crashed is None or not remaining:
                break
            # The figure being drawn took the worker down: report it, then
            # draw the rest in a fresh worker.
            first = remaining.pop(0)
            yield FigureResult(first.key, False, None, crashed)
            if attempt < _RESTARTS:
                self._replace(folder)
        for plan in remaining:
            yield FigureResult(plan.key, False, None, say("fig.reason.stopped"))

    def _render_once(
        self, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Generator[FigureResult, None, tuple[set[str], str | None]]:
        """Yield what one worker draws; return the keys it answered and, when
        it stopped or failed on the way, one sentence saying so."""
        import numpy as np

        from labwright.agent.offline.figures import to_job

        worker = self._for_folder(folder)
        spec, arrays = to_job(plans, str(Path(folder).resolve()))
        files = {p.key: p.file_name for p in plans}
        spec_path, arrays_path = worker.inbox_path(".json"), worker.inbox_path(".npz")
        request: dict[str, Any] = {"spec": str(spec_path), "arrays": str(arrays_path)}
        font_copy: Path | None = None
        done: set[str] = set()
        try:
            if any(plot_worker.has_cjk(plot_worker.spec_texts(s)) for s in spec["figures"]):
                font = _fandol_font()
                if font is not None:
                    # The worker may read only its inbox and system fonts; a
                    # TinyTeX tree elsewhere is not among them.
                    font_copy = worker.inbox_path(Path(font).suffix)
                    shutil.copyfile(font, font_copy)
                    request["cjk_font"] = str(font_copy)
            spec_path.write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
            named: dict[str, Any] = dict(arrays)  # savez's stubs read ** as its flags
            np.savez(arrays_path, **named)
            for msg in worker.request(_RENDER, request):
                key = str(msg.get("key", ""))
                if key not in files or key in done:
                    continue
                done.add(key)
                yield self._collect(worker, key, files[key], msg, out_dir)
        except trusted.WorkerError as exc:
            log.warning("the plotting process stopped: %s", exc)
            return done, say("fig.reason.stopped")
        except (OSError, ValueError):
            log.exception("the plotting process failed")
            return done, say("fig.reason.worker_failed")
        finally:
            for p in (spec_path, arrays_path, font_copy):
                if p is not None:
                    p.unlink(missing_ok=True)
        return done, None

    @staticmethod
    def _collect(
        worker: trusted.TrustedWorker, key: str, name: str, msg: dict[str, Any], out_dir: Path
    ) -> FigureResult:
        """Move a figure the worker wrote into the build, if it is what we asked for."""
        if not msg.get("ok"):
            # The worker's own text names an exception class: it goes to the
            # log, the user reads one plain reason.
            log.warning("figure %s not drawn: %s", key, str(msg.get("error", ""))[:300])
            return FigureResult(key, False, None, say("fig.reason.draw_failed"))
        data = worker.take_output(name, _MAX_FIGURE_BYTES)
        magic = _MAGIC.get(Path(name).suffix.lower(), ())
        if data is None or not data.startswith(magic):
            return FigureResult(key, False, None, say("fig.reason.no_image"))
        dest = out_dir / name
        # Replaced in one step: an early compile (offline/early.py) may be
        # reading the blank stand-in at this path right now.
        part = out_dir / f".{name}.part"
        part.write_bytes(data)
        os.replace(part, dest)
        return FigureResult(key, True, dest)

    def release(self) -> None:
        """No more requests: let the worker exit now, without waiting for it,
        so its shutdown overlaps the writing and the compile (not when another
        build still uses it)."""
        if self._worker is not self._shared or self._worker.users <= 1:
            self._worker.release()

    @property
    def alive(self) -> bool:
        return self._worker.alive

    def kill(self) -> None:
        """Stop the process at once (tests of a dead worker)."""
        self._worker.kill()

    def close(self) -> None:
        self._drop()

    def __enter__(self) -> PlotWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
