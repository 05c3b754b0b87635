"""Starting a fresh sandbox child: `python -I script`, or the frozen executable
re-launching itself with LABWRIGHT_PYRUN naming the script.

A frozen app has no `python`; `sys.executable` is the app, which would start
the server if given `-I script`. `labwright/__main__.py` looks for
LABWRIGHT_PYRUN before anything else and runs only that script.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .env import scrubbed_env

PYRUN_ENV = "LABWRIGHT_PYRUN"

_CHILD_BOOTSTRAP = "from labwright.sandbox.child import main\nmain({job!r})\n"
_ZYGOTE_BOOTSTRAP = "from labwright.sandbox.zygote import main\nmain()\n"

#: The folder holding the `labwright` package this process runs.
_CODE_ROOT = str(Path(__file__).resolve().parent.parent.parent)


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def bootstrap_text(code: str) -> str:
    """`code` (an import of our child's entry point and its call) as a child's
    script that imports the very `labwright` this process runs. `python -I`
    ignores PYTHONPATH, so a checkout run with PYTHONPATH over another
    checkout's editable install started children on the other one's code,
    which the child's own Landlock rules (our package's folder) then refused
    to read mid-import: every figure failed with "killed by signal 9". The
    frozen app has one copy of the code and needs nothing."""
    if is_frozen():
        return code
    return f"import sys\nsys.path.insert(0, {_CODE_ROOT!r})\n{code}"


def python_command(script: Path, env: dict[str, str]) -> list[str]:
    """The argv that runs `script` in a fresh interpreter; may add to `env`."""
    if is_frozen():
        env[PYRUN_ENV] = str(script)
        return [sys.executable]
    return [sys.executable, "-I", str(script)]


def write_bootstrap(work_dir: Path, *, job_path: Path | None = None) -> Path:
    script = work_dir / ("run_child.py" if job_path else "run_zygote.py")
    text = bootstrap_text(
        _CHILD_BOOTSTRAP.format(job=str(job_path)) if job_path else _ZYGOTE_BOOTSTRAP
    )
    script.write_text(text, encoding="utf-8")
    return script


@dataclass
class ProcessOutcome:
    returncode: int | None
    timed_out: bool


def creationflags() -> int:
    """Windows: a new process group and no console window; 0 elsewhere."""
    if sys.platform == "win32":
        return subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW  # type: ignore[attr-defined,no-any-return]
    return 0


NEW_SESSION = os.name == "posix"  # the child leads its own session/process group


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's whole session/process group (it leads its own)."""
    if sys.platform == "win32":
        proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run_cold(job_path: Path, work_dir: Path, wall_seconds: float) -> ProcessOutcome:
    """Spawn a fresh interpreter for one job, with stdout/stderr into files in
    the work directory (the child's file-size limit bounds them)."""
    env = scrubbed_env(work_dir)
    script = write_bootstrap(work_dir, job_path=job_path)
    cmd = python_command(script, env)
    from .job import STDERR_FILE, STDOUT_FILE

    pass_fds: tuple[int, ...] = ()
    channel_ends = None
    if sys.platform.startswith("linux"):
        # The child hands its capped tmpfs back over this socket (isolate.py).
        from .isolate import FD_ENV, channel

        channel_ends = channel()
        pass_fds = (channel_ends[1].fileno(),)
        env[FD_ENV] = str(pass_fds[0])

    with (
        open(work_dir / STDOUT_FILE, "wb") as out,
        open(work_dir / STDERR_FILE, "wb") as err,
    ):
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd=str(work_dir),
            env=env,
            close_fds=True,
            pass_fds=pass_fds,
            start_new_session=NEW_SESSION,
            creationflags=creationflags(),
        )
    if channel_ends is not None:
        channel_ends[1].close()
    deadline = time.monotonic() + wall_seconds
    try:
        proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    # Kill the group even after a normal exit: nothing may outlive the run.
    kill_tree(proc)
    proc.wait()
    if channel_ends is not None:
        from .isolate import collect
        from .job import Job
        from .limits import Limits

        collect(channel_ends[0], str(work_dir), Limits.from_dict(Job.load(job_path).limits))
    return ProcessOutcome(None if timed_out else proc.returncode, timed_out)
