"""Control runs under resource limits alone, as an unprivileged user.

Some payloads cannot be run with confinement simply off: a fork or thread
bomb, or a memory bomb, would exhaust the shared machine, and `kill -1` or
`setpriority(PRIO_USER)` as root reach every process of the machine. Their
control runs here instead: a fresh interpreter with the sandbox's namespace
(np, plt, the data helpers, OUT) and none of its confinement (no Landlock,
seccomp, tmpfs or cgroup), under resource limits that are looser than the
ones the confined run is held to, so the payload shows its effect, but
bounded, so the effect stays small: RLIMIT_NPROC (it counts the user's tasks,
hence the separate uid), RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_CPU and a wall
clock. The job runs as CONTROL_UID (nobody), which owns nothing on the
machine but what the control itself starts, in a process group of its own
(or a victim's, when that group is the target) that is killed afterwards.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from labwright.sandbox.env import scrubbed_env
from labwright.sandbox.job import CODE_FILE, OUT_FILE, STDERR_FILE, STDOUT_FILE
from labwright.sandbox.runner import RunResult, remove_work_dir

CONTROL_UID = 65534
_MIB = 1024 * 1024


@dataclass(frozen=True)
class Bounds:
    """The limits a control run is held to (looser than the confined run's)."""

    tasks: int = 128
    address_space: int = 4096 * _MIB
    file_size: int = 64 * _MIB
    cpu_seconds: int = 10
    wall_seconds: float = 12.0


_BOOT = """\
import ctypes, fcntl, json, mmap, os, resource, signal, socket, struct, sys, threading, time
spec = json.loads(sys.argv[1])
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from labwright.sandbox.primitives import make_primitives
ns = {"__name__": "__main__", "np": np, "plt": plt, "OUT": spec["out"]}
ns.update(make_primitives(spec["data"]))
source = open(spec["code"], "rb").read()
# Limits last: importing the plotting stack maps ~1 GiB and starts no task.
for name, value in spec["limits"].items():
    resource.setrlimit(getattr(resource, name), (value, value))
# The user last, by the started interpreter itself: it lives under /root
# (mode 0700), so nobody could not exec it; what the payloads import is
# imported above.
if spec["uid"] is not None:
    os.setgroups([])
    os.setgid(spec["uid"])
    os.setuid(spec["uid"])
if spec["witness"]:
    # The payload's parent is this witness, not the test: it reports a
    # change to its own limits or nice value the payload made.
    def state():
        return open("/proc/self/limits").read(), os.getpriority(os.PRIO_PROCESS, 0)
    before = state()
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        if state() != before:
            print("LEAKED: the payload changed its parent's limits or nice value", flush=True)
        os._exit(0)
exec(compile(source, "code.py", "exec"), ns)
"""


def _state(pid: str) -> list[str] | None:
    """The fields of /proc/pid/stat after the command, or None if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except OSError:
        return None


def foreign_processes(uid: int) -> list[int]:
    """Live pids owned by `uid` (none expected; zombies wait for a reaper)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
        fields = _state(entry)
        if owner == uid and fields is not None and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in os.listdir("/proc"):
        fields = _state(entry) if entry.isdigit() else None
        if fields is not None and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            members.append(int(entry))
    return members


def _kill_group(pgid: int, spare: set[int]) -> None:
    """SIGKILL every member of the group but `spare`, until none is left."""
    for _ in range(200):
        members = [p for p in _group_members(pgid) if p not in spare]
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


#: One control as CONTROL_UID at a time on the machine, across test sessions
#: (several worktrees share it): a `kill -1` or PRIO_USER control reaches
#: every task of that uid, and RLIMIT_NPROC counts them all, so a second
#: session's control would be killed, reniced or counted by the first's.
_UID_LOCK = Path(tempfile.gettempdir()) / f"labwright-control-uid-{CONTROL_UID}.lock"


@contextmanager
def _one_control_at_a_time() -> Iterator[None]:
    fd = os.open(_UID_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed
        yield
    finally:
        os.close(fd)


@contextmanager
def control_work_dir() -> Iterator[Path]:
    """A work folder the control's user can reach (pytest's temp root is 0700),
    held under the machine-wide control lock for as long as it exists."""
    with _one_control_at_a_time():
        work = Path(tempfile.mkdtemp(prefix="lw-control-"))
        os.chmod(work, 0o755)
        os.chown(work, CONTROL_UID, CONTROL_UID)
        try:
            yield work
        finally:
            try:
                remove_work_dir(work)
            except OSError:
                subprocess.run(["rm", "-rf", str(work)], check=False)


@contextmanager
def victim_of(uid: int = CONTROL_UID) -> Iterator[subprocess.Popen[bytes]]:
    """A `sleep` owned by `uid`, leading a process group of its own in our
    session (a control job may join that group). Taken inside
    control_work_dir, so no other session's control runs meanwhile."""
    if foreign_processes(uid):
        raise RuntimeError(f"uid {uid} already owns processes here; a control would reach them")
    victim = subprocess.Popen(
        ["sleep", "600"], user=uid, group=uid, extra_groups=[], process_group=0
    )
    try:
        yield victim
    finally:
        victim.kill()
        victim.wait()


def run_plain(
    code: str,
    work: Path,
    *,
    bounds: Bounds = Bounds(),
    data_root: Path | None = None,
    uid: int | None = CONTROL_UID,
    process_group: int = 0,
    witness: bool = False,
    env: dict[str, str] | None = None,
    launcher: Sequence[str] = (),
    pass_fds: Sequence[int] = (),
) -> RunResult:
    """Run `code` unconfined but bounded; every task it started is gone after.

    `process_group` 0 gives the job a group of its own; another value puts
    it into that (existing) group, e.g. a victim's. With `witness`, the
    payload runs in a child of a throwaway parent that reports (LEAKED on
    stdout) whether its limits or nice value changed. `env` adds to the
    sandbox's scrubbed environment. `launcher` is a command put before the
    interpreter's: it prepares the process and then executes the rest of its
    command line (clock_witness loads its filter so); `pass_fds` stay open
    for it.
    """
    (work / CODE_FILE).write_text(code, encoding="utf-8")
    os.makedirs(work / ".mpl", exist_ok=True)
    if uid is not None:
        for p in (work / CODE_FILE, work / ".mpl"):
            os.chown(p, uid, uid)
    limits = {
        "RLIMIT_NPROC": bounds.tasks,
        "RLIMIT_AS": bounds.address_space,
        "RLIMIT_FSIZE": bounds.file_size,
        "RLIMIT_CPU": bounds.cpu_seconds,
        "RLIMIT_CORE": 0,
    }
    spec = {
        "code": str(work / CODE_FILE),
        "out": str(work / OUT_FILE),
        "data": str(data_root) if data_root is not None else None,
        "limits": limits,
        "uid": uid,
        "witness": witness,
    }
    child_env = {**scrubbed_env(work), **(env or {})}
    # The interpreter must import this checkout's labwright (the worktree's
    # venv names it in a .pth; PYTHONPATH is kept for a plain checkout).
    if "PYTHONPATH" in os.environ:
        child_env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    timed_out = False
    with open(work / STDOUT_FILE, "wb") as out, open(work / STDERR_FILE, "wb") as err:
        proc = subprocess.Popen(
            [*launcher, sys.executable, "-c", _BOOT, json.dumps(spec)],
            cwd=work,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            process_group=process_group,
            pass_fds=tuple(pass_fds),
        )
        pgid = proc.pid if process_group == 0 else process_group
        spare = {pgid} if process_group != 0 else set()
        try:
            proc.wait(timeout=bounds.wall_seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            proc.wait()
        finally:
            _kill_group(pgid, spare)
    return RunResult(
        returncode=proc.returncode,
        timed_out=timed_out,
        stdout=(work / STDOUT_FILE).read_text(encoding="utf-8", errors="replace")[-65536:],
        stderr=(work / STDERR_FILE).read_text(encoding="utf-8", errors="replace")[-65536:],
        work_dir=work,
        output=None,
        mode="plain",
    )


def available() -> bool:
    """Starting a job as another user needs root (as the suite runs in CI)."""
    return os.geteuid() == 0
