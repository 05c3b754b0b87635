"""The trusted worker process: our own plotting and image code, confined.

One long-lived process per data folder (see `trusted.TrustedWorker`, the
backend's side). It runs only code Labwright wrote (no AST policy), but under
the same operating-system confinement as model code: it imports the plotting
stack while still unconfined, then confines itself for good (read: Python,
system libraries, fonts, TeX fonts, the data folder and a read-only inbox the
backend writes requests into; write: its own work directory only), installs
the audit hook and only then reads its first request. A decoder bug hit by a
hostile image therefore runs with the rights of a sandboxed plot, and it can
crash or hang only this process, never the backend.

Protocol: stdin carries one JSON line per request, `{"op": "module:function",
...}`; stdout carries a `{"ready": ...}` line once, then for each request the
handler's reply lines followed by `{"end": true}` (or `{"error": text}` and
`{"end": true}` when the handler raised). The handler is a generator
`fn(request, context) -> Iterator[dict]` in a `labwright.` module.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

EXIT_OK = 0
EXIT_SETUP = 2
EXIT_CONFINE = 4

#: What the worker imports before it confines itself: the image decoder, so
#: that reading a folder's images is answered at once.
DEFAULT_PREIMPORTS = ("numpy", "PIL.Image", "PIL.PngImagePlugin", "PIL.JpegImagePlugin")
#: What it imports afterwards, in a thread beside the requests (the image
#: reads are answered meanwhile): the plotting stack. The fitting library is
#: imported by the first fit request: a build that analyses with statsmodels
#: has scipy.optimize in the backend already and fits there
#: (render.PlotWorker.fit), and warming it here too cost those builds
#: ~0.2 s of CPU while the machine was busiest. The PDF backend is imported
#: by the first `savefig` of a PDF otherwise (~0.06 s, after the analysis, on
#: the way to the compile's end), and the drawing code with it.
DEFAULT_WARM = (
    "matplotlib",
    "matplotlib.pyplot",
    "matplotlib.backends.backend_pdf",
    "labwright.agent.offline.plot_worker",
)


@dataclass(frozen=True)
class WorkerContext:
    """What a handler may use: its writable directory and the data folder."""

    out_dir: str
    data_root: str | None


Handler = Callable[[dict[str, Any], WorkerContext], Iterator[dict[str, Any]]]


def resolve_handler(op: str) -> Handler:
    """`module:function` inside the labwright package; nothing else is callable."""
    module_name, _, function = op.partition(":")
    if not module_name.startswith("labwright.") or not function or function.startswith("_"):
        raise ValueError(f"unknown operation {op!r}")
    module = importlib.import_module(module_name)
    handler = getattr(module, function, None)
    if not callable(handler):
        raise ValueError(f"unknown operation {op!r}")
    return handler  # type: ignore[no-any-return]


def _preimport(modules: list[str]) -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    for name in modules:
        importlib.import_module(name)
    if "matplotlib" in sys.modules:
        import matplotlib

        matplotlib.use("Agg")


def _write(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()


def _warm_in_background(modules: tuple[str, ...]) -> None:
    """Import `modules` in a thread while requests are served.

    One at a time between requests was not enough: importing pyplot takes
    ~0.2 s, and a build's fit request, which arrived in the middle of it,
    waited for the whole import. A thread lets the request run at once (the
    imports give up the GIL every few milliseconds); a handler that needs a
    module still being imported waits on that module's import lock only.
    """
    if not modules:
        return

    def warm() -> None:
        try:
            _preimport(list(modules))
        except Exception:  # noqa: BLE001 - the handler's own import reports it
            traceback.print_exc()

    threading.Thread(target=warm, name="warm-imports", daemon=True).start()


def serve(
    stdin: Any,
    out: TextIO,
    context: WorkerContext,
    idle_seconds: float | None = None,
    warm: tuple[str, ...] = (),
) -> int:
    """Answer requests until stdin closes (or stays idle for `idle_seconds`),
    importing the `warm` modules meanwhile."""
    fd = stdin.fileno() if hasattr(stdin, "fileno") else None
    _warm_in_background(warm)
    while True:
        if idle_seconds is not None and fd is not None:
            ready, _, _ = select.select([fd], [], [], idle_seconds)
            if not ready:
                return EXIT_OK  # nobody asked for a while: free the memory
        line = stdin.readline()
        if not line:
            return EXIT_OK
        if isinstance(line, bytes):
            line = line.decode("utf-8")
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            for message in resolve_handler(str(request.get("op", "")))(request, context):
                _write(out, message)
        except Exception as exc:  # noqa: BLE001 - one bad request must not end the worker
            traceback.print_exc()
            _write(out, {"error": f"{type(exc).__name__}: {exc}"})
        _write(out, {"end": True})


def main(config_path: str) -> None:
    """Entry of the worker process (`python -I bootstrap` or the frozen dispatch)."""
    # One folder's requests, then the process exits (idle, or with its build).
    from labwright.collector import pace_for_one_job

    pace_for_one_job()
    # The protocol gets its own copy of fd 1; fd 1 itself then points at
    # stderr, so a library that prints cannot corrupt the reply stream.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    try:
        with open(config_path, encoding="utf-8") as fh:
            config = json.load(fh)
        work = config["work_dir"]
        os.chdir(work)
        import tempfile

        tempfile.tempdir = work
        _preimport(list(config.get("preimports", DEFAULT_PREIMPORTS)))
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        _write(out, {"fatal": "the plotting process could not start"})
        os._exit(EXIT_SETUP)
    confined = "none"
    if config.get("confine"):
        try:
            from .confine import confine
            from .limits import Limits

            confined = confine(
                config["read_roots"], work, False, limits=Limits.from_dict(config["limits"])
            )
        except Exception as exc:  # noqa: BLE001
            print(f"sandbox: confinement failed: {exc}", file=sys.stderr)
            _write(out, {"fatal": "the plotting process could not be confined"})
            os._exit(EXIT_CONFINE)
    from .guard import forget_raw_handles, install_audit_hook

    forget_raw_handles()
    if config.get("audit_hook", True):
        install_audit_hook(config["read_roots"], work)
    _write(out, {"ready": True, "confined": confined})
    context = WorkerContext(out_dir=work, data_root=config.get("data_root"))
    code = serve(
        sys.stdin.buffer,
        out,
        context,
        config.get("idle_seconds"),
        tuple(config.get("warm", DEFAULT_WARM)),
    )
    out.flush()
    sys.stderr.flush()
    # Every reply is flushed; skip the interpreter's teardown of matplotlib and
    # scipy (~0.15 s), which a build would otherwise wait for.
    os._exit(code)
