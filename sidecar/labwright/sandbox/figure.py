"""`make_figure`: the agent's plotting tool (model-written code).

Our own drawing code runs in the trusted worker instead (`trusted.py`): same
process stack and confinement, no policy, one process for a whole build.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from labwright.safety import read_regular

from .confine import confinement_available
from .limits import Limits
from .policy import ALLOWED_IMPORTS, PolicyError, check_and_compile
from .runner import Mode, RunResult, WorkDirNotRemoved, remove_work_dir, run_code

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
    limits: Limits | None = None,
) -> FigureResult:
    """Run model-written plotting code in the sandbox and store its PNG as
    out_dir/<name>.png. The code passes the static policy and runs only where
    the OS confinement is available."""
    if not _NAME.match(name):
        return _fail(f"The figure name {name!r} is invalid; use letters, digits, '-' or '_'.")
    available, reason = confinement_available()
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
        code, data_root=data_root, policy=True, confine=True, limits=limits, mode=mode
    )
    return collect_figure(result, name, out_dir, limits)


def collect_figure(
    result: RunResult, name: str, out_dir: str | os.PathLike[str], limits: Limits
) -> FigureResult:
    """Turn what a run left behind into a FigureResult, without trusting it;
    the run's work folder is removed."""
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
