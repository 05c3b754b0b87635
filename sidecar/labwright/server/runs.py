"""Runs: start a pipeline in a worker thread, persist its events, wake the streams.

Whether a run may start is decided by the store, atomically (one active run
per session); this module never checks-then-starts on its own. Each event is
appended to the store *before* live streams are woken, so a stream that reads
the store after a wake-up sees it, and a stream that reconnects later replays
it from the same rows: there is one ordered log, not a log plus a side channel.

Every run ends with a `done` event, whatever happened (finished, failed,
cancelled, interrupted by shutdown), so a client following the stream always
sees an end.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.agent.events import Done, Error, Event, UsageRecorded
from labwright.config import DataDir
from labwright.latex.bibfile import read_bibliography
from labwright.messages import Message, say
from labwright.safety import is_regular_file
from labwright.server.live import LiveHub
from labwright.server.pipeline import Mode, choose_pipeline
from labwright.server.settings import Pipeline, PipelineRequest
from labwright.store import Store
from labwright.store.artifacts import PDF_NAME, PDF_OWNER, run_dir
from labwright.store.errors import RunStateError
from labwright.store.models import VERSION_ORIGINS, Run

log = logging.getLogger(__name__)

CANCELLED: Message = say("run.cancelled")


@dataclass
class _Active:
    thread: threading.Thread
    cancel: threading.Event = field(default_factory=threading.Event)


def run_language(requested: str | None, session: str) -> str | None:
    """The language a run is asked to write in: the request's when it fixes
    one, else the session's, else None (the pipeline detects it)."""
    for choice in (requested, session):
        if choice in ("en", "zh"):
            return choice
    return None


class RunManager:
    def __init__(
        self, store: Store, data: DataDir, hub: LiveHub, pipeline: Pipeline | None = None
    ) -> None:
        self.store = store
        self.data = data
        # A fixed pipeline (tests) replaces the per-run choice between agent and offline.
        self.pipeline = pipeline
        self.hub = hub
        # Guards `_closing` and every write that ends or extends a run, so a
        # shutdown and a worker can never both write a final event.
        self._lock = threading.RLock()
        self._active: dict[int, _Active] = {}
        self._closing = False

    # --- public -------------------------------------------------------------

    def start(self, session_id: int, language: str | None, mode: Mode = "auto") -> Run:
        """Create the run (the store refuses a second active one) and start its thread.

        Raises NoModelError when `mode` is "llm" and no model is usable.
        """
        session = self.store.get_session(session_id)
        language = run_language(language, session.language)
        kind: str
        if self.pipeline is not None:
            pipeline, kind = self.pipeline, "offline" if mode == "auto" else mode
        else:
            pipeline, kind = choose_pipeline(mode)
        run = self.store.start_run(session_id, kind=kind, status="queued")
        active = _Active(
            threading.Thread(
                target=self._work,
                args=(run.id, session.id, Path(session.source_path), language, pipeline),
                name=f"labwright-run-{run.id}",
                daemon=True,
            )
        )
        with self._lock:
            if self._closing:
                self._finish(run.id, "interrupted", say("run.shutting_down"))
                return self.store.get_run(run.id)
            self._active[run.id] = active
        active.thread.start()
        return self.store.get_run(run.id)

    def start_task(self, session_id: int, kind: str, prepare: Callable[[Run], Pipeline]) -> Run:
        """A run of another kind (a chat turn, a recompile) with its own pipeline.

        `prepare(run)` runs before the thread starts and may refuse (raise): the
        run is then closed as failed and the error propagates to the caller.
        """
        session = self.store.get_session(session_id)
        run = self.store.start_run(session_id, kind=kind, status="queued")
        try:
            pipeline = prepare(run)
        except BaseException as exc:
            self._finish(run.id, "failed", str(exc) or say("run.could_not_start"))
            raise
        active = _Active(
            threading.Thread(
                target=self._work,
                args=(run.id, session.id, Path(session.source_path), None, pipeline),
                name=f"labwright-{kind}-{run.id}",
                daemon=True,
            )
        )
        with self._lock:
            if self._closing:
                self._finish(run.id, "interrupted", say("run.shutting_down"))
                return self.store.get_run(run.id)
            self._active[run.id] = active
        active.thread.start()
        return self.store.get_run(run.id)

    def cancel(self, run_id: int) -> Run:
        run = self.store.get_run(run_id)
        if not run.active:
            raise RunStateError("This run has already ended; start a new run instead.")
        self.store.request_cancel(run_id)
        with self._lock:
            active = self._active.get(run_id)
        if active is not None:
            active.cancel.set()
        else:
            # Not ours: a live process that owns it stops at its next event (it
            # polls the flag); a run whose process died is closed as interrupted.
            self.store.recover_interrupted()
            self.hub.notify(run_id)
        return self.store.get_run(run_id)

    def shutdown(self, reason: str) -> None:
        """`reason` completes "The run stopped because ..." (a `Message` to be translated)."""
        """Mark every active run interrupted now; worker threads stop at their next event."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            active = dict(self._active)
        for run_id, item in active.items():
            item.cancel.set()
            self._finish(run_id, "interrupted", say("run.stopped_because", reason=reason))
        self.hub.notify_all()

    def join(self, timeout: float | None = None) -> None:
        """Wait for worker threads (tests, orderly shutdown)."""
        with self._lock:
            threads = [a.thread for a in self._active.values()]
        for thread in threads:
            thread.join(timeout)

    # --- worker -------------------------------------------------------------

    def _emit(self, run_id: int, event: Event) -> bool:
        """Persist then wake. False when the run is no longer ours to write (shut down)."""
        with self._lock:
            if self._closing:
                return False
            self.store.append_event(run_id, event)
        self.hub.notify(run_id)
        return True

    def _finish(self, run_id: int, status: str, message: str, *, ended: bool = False) -> None:
        """Final events and status in one place; a second finish is a no-op.

        `ended`: the pipeline already yielded its own `done`, so only the status is set.
        """
        try:
            with self._lock:
                run = self.store.get_run(run_id)
                if not run.active:
                    return
                if status == "interrupted":
                    self.store.interrupt_run(run_id, message)
                elif status == "done" or ended:
                    error = "" if status in ("done", "cancelled") else message
                    self.store.finish_run(run_id, status, error=error)
                elif status == "cancelled":
                    # The user's own choice: one sentence in the final event, no error.
                    self.store.append_event(
                        run_id, Done(ok=False, outcome="cancelled", message=message)
                    )
                    self.store.finish_run(run_id, status, error="")
                else:
                    self.store.append_event(run_id, Error(message=message))
                    self.store.append_event(run_id, Done(ok=False, outcome="failed"))
                    self.store.finish_run(run_id, status, error=message)
        except RunStateError:
            pass
        finally:
            self.hub.notify(run_id)

    def _work(
        self,
        run_id: int,
        session_id: int,
        folder: Path,
        language: str | None,
        pipeline: Pipeline,
    ) -> None:
        item = self._active[run_id]
        self.data.session_paths(session_id, create=True)
        out_dir = run_dir(self.data, session_id, run_id)
        status: str = "failed"
        message: str = say("run.no_report")
        ended = False
        events: Iterator[Event] | None = None

        def save_version(content: str, summary: str, origin: str) -> object:
            known = origin if origin in VERSION_ORIGINS else "generated"
            # The run's .bib, once its bibliography step wrote one, is part of the version.
            return self.store.add_version(
                session_id,
                content,
                summary=summary,
                origin=known,
                run_id=run_id,
                bibliography=read_bibliography(content, out_dir),
            )

        request = PipelineRequest(
            folder=folder,
            out_dir=out_dir,
            lang=language,
            cancel=item.cancel,
            save_version=save_version,
        )
        try:
            self.store.mark_running(run_id)
            self.hub.notify(run_id)
            events = pipeline(request)
            for event in events:
                # The flag in the store lets another process (a CLI, a second
                # window) cancel this run too; the event is this process's fast path.
                if item.cancel.is_set() or self.store.get_run(run_id).cancel_requested:
                    status, message = "cancelled", CANCELLED
                    break
                if isinstance(event, Done):
                    event = self._register(run_id, session_id, out_dir, event)
                    ended = True
                    # A chat turn or a recompile ends without a new .tex of its own.
                    if event.outcome == "cancelled":
                        status = "cancelled"
                    elif event.tex_path or event.ok:
                        status = "done"
                    else:
                        message = event.problems[0] if event.problems else message
                elif isinstance(event, Error):
                    message = event.message  # the run's error, if it ends without a report
                elif isinstance(event, UsageRecorded):
                    self._record_usage(session_id, run_id, event)
                if not self._emit(run_id, event):
                    return  # shutdown already marked the run interrupted
        except Exception:  # the pipeline must never take the server down
            # The exception's class and text go to the log; the user gets one
            # plain sentence (issue 21: class names never reach the window).
            log.exception("run %s failed", run_id)
            status, ended = "failed", False
            message = say("run.crashed")
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:
                    log.exception("closing the pipeline of run %s failed", run_id)
            with self._lock:
                self._active.pop(run_id, None)
                if not self._closing:
                    self._finish(run_id, status, message, ended=ended)

    def _record_usage(self, session_id: int, run_id: int, event: UsageRecorded) -> None:
        self.store.record_usage(
            session_id,
            model=event.model,
            prompt_tokens=event.prompt_tokens,
            cached_tokens=event.cached_tokens,
            completion_tokens=event.completion_tokens,
            cost=event.cost,
            step=event.step,
            run_id=run_id,
        )

    def _register(self, run_id: int, session_id: int, out_dir: Path, done: Done) -> Done:
        """Turn a finished build into an immutable version; its files stay in the run's directory.

        The PDF is kept under a fixed name there, with a marker naming the one
        version it belongs to: a run that saved drafts along the way has several
        versions, and only the last one is what the PDF shows.
        """
        if not done.tex_path:
            return done
        content = Path(done.tex_path).read_text(encoding="utf-8")
        bibliography = read_bibliography(content, Path(done.tex_path).parent)
        if bibliography is None:
            bibliography = read_bibliography(content, out_dir)
        latest = self.store.latest_version(session_id)
        if (
            latest is not None
            and latest.run_id == run_id
            and latest.content == content
            and latest.bibliography == bibliography
        ):
            version = latest  # the pipeline saved this final text (and .bib) itself
        else:
            version = self.store.add_version(
                session_id,
                content,
                origin="generated",
                summary="Report generated from the data folder.",
                run_id=run_id,
                bibliography=bibliography,
            )
        pdf: Path | None = None
        if done.pdf_path and is_regular_file(Path(done.pdf_path)):
            pdf = out_dir / PDF_NAME
            if Path(done.pdf_path) != pdf:
                shutil.copyfile(done.pdf_path, pdf)
            (out_dir / PDF_OWNER).write_text(str(version.id), encoding="utf-8")
        return done.model_copy(
            update={"version_no": version.version_no, "pdf_path": str(pdf) if pdf else None}
        )
