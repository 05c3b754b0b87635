"""Run code in a sandboxed child and collect what it left behind.

Chooses the warm fork-server when it is up (POSIX), otherwise a cold spawn;
a failing fork-server falls back to a cold spawn for that run.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from labwright.safety import is_regular_file, read_regular

from .confine import python_read_roots, system_read_roots
from .fontcache import seed_mplconfig
from .job import CODE_FILE, STDERR_FILE, STDOUT_FILE, Job
from .limits import Limits
from .spawn import run_cold
from .tree import remove_tree

Mode = Literal["auto", "cold", "fork"]


@dataclass
class RunResult:
    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str
    work_dir: Path
    output: Path | None
    mode: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.output is not None


def new_work_dir() -> Path:
    """A fresh private directory; the only place the child may write."""
    return Path(tempfile.mkdtemp(prefix="lw-sandbox-")).resolve()


def read_roots_for(data_root: str | os.PathLike[str] | None, extra: list[str]) -> list[str]:
    roots = python_read_roots() + system_read_roots() + list(extra)
    if data_root is not None:
        roots.append(str(Path(data_root).resolve()))
    return roots


def _tail(path: Path, limit: int = 64 * 1024) -> str:
    # The child can replace any name in its work dir with a symlink to a secret
    # (or a FIFO that blocks us forever): every file it left behind is read with
    # safety.read_regular (no link followed, never blocking, regular files only).
    data = read_regular(path, limit=limit, tail=True)
    return data.decode("utf-8", errors="replace") if data else ""


def run_code(
    code: bytes | str,
    *,
    data_root: str | os.PathLike[str] | None,
    work_dir: Path | None = None,
    policy: bool = True,
    confine: bool = True,
    audit_hook: bool = True,
    limits: Limits | None = None,
    mode: Mode = "auto",
    extra_read_roots: list[str] | None = None,
) -> RunResult:
    """Run `code` in a child; the caller owns (and removes) `work_dir`.

    `policy=False`, `audit_hook=False` and `confine=False` exist for the test
    suite: the first two prove the OS layer contains payloads on its own, the
    last one proves (in control runs) that a payload has an effect when nothing
    stops it. Product code never switches confinement off.
    """
    limits = limits or Limits()
    work = Path(work_dir).resolve() if work_dir else new_work_dir()
    work.mkdir(parents=True, exist_ok=True)
    raw = code.encode("utf-8") if isinstance(code, str) else code
    (work / CODE_FILE).write_bytes(raw)
    job = Job(
        work_dir=str(work),
        data_root=str(Path(data_root).resolve()) if data_root is not None else None,
        read_roots=read_roots_for(data_root, extra_read_roots or []),
        policy=policy,
        confine=confine,
        audit_hook=audit_hook,
        limits=limits.to_dict(),
    )
    job_path = job.save()
    seed_mplconfig(work / ".mpl")
    used = "cold"
    outcome = None
    if mode in ("auto", "fork"):
        from .forkserver import ForkServerError, default_server

        server = default_server()
        if server is None and mode == "fork":
            raise ForkServerError("the fork-server is not available on this system")
        if server is not None:
            try:
                outcome = server.run(job_path, limits.wall_seconds)
                used = "fork"
            except ForkServerError:
                if mode == "fork":
                    raise
                outcome = None
    if outcome is None:
        outcome = run_cold(job_path, work, limits.wall_seconds)
    out = job.out_path
    return RunResult(
        returncode=outcome.returncode,
        timed_out=outcome.timed_out,
        stdout=_tail(work / STDOUT_FILE),
        stderr=_tail(work / STDERR_FILE),
        work_dir=work,
        output=out if is_regular_file(out) and out.stat().st_size > 0 else None,
        mode=used,
    )


class WorkDirNotRemoved(OSError):
    """A job's work folder (or part of it) could not be removed."""


def remove_work_dir(path: Path) -> None:
    """Remove a job's work folder; raise WorkDirNotRemoved when anything stays.

    Errors are collected, not ignored: a folder that survives (the attack run
    made one immutable with FS_IOC_SETFLAGS, which seccomp now refuses) is a
    finding, not noise. Callers log the error and carry on with the result.
    """
    # tree.remove_tree, not shutil.rmtree: that recurses per level on
    # Python 3.11, and a job's few thousand nested folders made it raise.
    errors = remove_tree(str(path))
    if sys.platform.startswith("linux"):
        from .isolate import remove_cgroup

        remove_cgroup(str(path))
    if errors or os.path.lexists(path):
        raise WorkDirNotRemoved(
            f"the sandbox work folder {path} could not be removed: {'; '.join(errors[:3])}"
        )
