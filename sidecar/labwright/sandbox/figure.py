"""`make_figure`: the agent's plotting tool, and its trusted twin for our own code."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .confine import confinement_available
from .limits import Limits
from .policy import ALLOWED_IMPORTS, PolicyError, check_and_compile
from .runner import Mode, WorkDirNotRemoved, read_regular, remove_work_dir, run_code

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
STDERR_TAIL = 1500

USAGE = (
    "Allowed imports: "
    + ", ".join(sorted(ALLOWED_IMPORTS))
    + ". `np` and `plt` are already imported. Read data with srcpath('file.csv') "
    "(list files with listdir() or walkfiles()), and save the figure with plt.savefig(OUT)."
)


@dataclass(frozen=True)
class FigureResult:
    """Either `path` (a PNG in out_dir) or `error` (text the model can act on)."""

    path: Path | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.path is not None


def _fail(message: str, stderr: str = "") -> FigureResult:
    text = f"{message} {USAGE}"
    if stderr.strip():
        text += "\nLast lines of stderr:\n" + stderr[-STDERR_TAIL:]
    return FigureResult(None, text)


def make_figure(
    name: str,
    code: str | bytes,
    *,
    data_root: str | os.PathLike[str] | None,
    out_dir: str | os.PathLike[str],
    timeout: float = 90.0,
    mode: Mode = "auto",
    trusted: bool = False,
    limits: Limits | None = None,
) -> FigureResult:
    """Run plotting code in the sandbox and store its PNG as out_dir/<name>.png.

    Model-written code (`trusted=False`) passes the static policy and runs
    only where the OS confinement is available. `trusted=True` is for code we
    wrote (the offline writer): no policy, and it still runs unconfined on a
    system without confinement, but confined wherever confinement exists.
    """
    if not _NAME.match(name):
        return _fail(f"The figure name {name!r} is invalid; use letters, digits, '-' or '_'.")
    available, reason = confinement_available()
    if not trusted:
        if not available:
            return FigureResult(
                None,
                f"Model-written code cannot run because this system offers no sandbox ({reason}). "
                "Use the offline figures, or run Labwright on a system with sandbox support.",
            )
        try:
            check_and_compile(code)
        except PolicyError as exc:
            return FigureResult(None, f"{exc}\nSave with plt.savefig(OUT).")
    limits = limits or Limits(wall_seconds=timeout)
    result = run_code(
        code,
        data_root=data_root,
        policy=not trusted,
        confine=available,
        limits=limits,
        mode=mode,
    )
    try:
        if result.timed_out:
            return _fail(
                f"The code ran longer than {limits.wall_seconds:g} s and was stopped; "
                "plot less data or simplify the computation.",
                result.stderr,
            )
        if result.returncode != 0:
            return _fail(
                f"The code failed (exit status {result.returncode}); fix the error below.",
                result.stderr,
            )
        if result.output is None:
            return _fail("The code ran but saved no figure; call plt.savefig(OUT) at the end.")
        # Read without following links: OUT could be a symlink to a private image.
        data = read_regular(result.output, limit=limits.file_size)
        if not data or not data.startswith(_PNG_MAGIC):
            return _fail("The saved file is not a PNG; call plt.savefig(OUT) without format=.")
        dest_dir = Path(out_dir)
        dest_dir.mkdir(parents=True, exist_ok=True)
        dest = dest_dir / f"{name}.png"
        dest.write_bytes(data)
        return FigureResult(dest)
    finally:
        try:
            remove_work_dir(result.work_dir)
        except WorkDirNotRemoved as exc:  # reported, never hides the figure's outcome
            logging.getLogger(__name__).error("%s", exc)


def run_trusted_figure(
    name: str,
    code: str,
    *,
    data_root: str | os.PathLike[str] | None,
    out_dir: str | os.PathLike[str],
    timeout: float = 120.0,
) -> FigureResult:
    """Plot with code Labwright itself wrote (offline writer) in a subprocess.

    Same child, same primitives (srcpath/listdir/walkfiles/OUT, np/plt
    preloaded), confined when the system supports it; never refused for lack
    of confinement.
    """
    return make_figure(
        name, code, data_root=data_root, out_dir=out_dir, timeout=timeout, trusted=True
    )
