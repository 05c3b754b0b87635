"""Attacks on the OS layer (issue 11, classes 2-6), each checked by its effect.

Every payload runs with Layer 1 and the audit hook switched off, in cold and
in fork-server mode, so only the kernel confinement (seccomp allow-list,
dropped capabilities, Landlock, the per-job tmpfs and thread cap) stands in
the way. Tripwires observe the world, not the payload's error: a victim
process's limits, nice value, affinity and liveness; the SysV IPC tables; a
victim file's mode, times, owner and xattrs; thread, byte and file counts;
the work folder after removal. Control runs without confinement show that
each tripwire fires.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from labwright.sandbox.forkserver import default_server
from labwright.sandbox.limits import Limits
from labwright.sandbox.runner import RunResult, remove_work_dir, run_code

from . import clock_witness, plain
from .conftest import requires_confinement

pytestmark = [pytest.mark.smoke, requires_confinement]

_MIB = 1024 * 1024
LIMITS = Limits(
    wall_seconds=40.0, processes=32, disk_bytes=24 * _MIB, files=256, file_size=16 * _MIB
)
IS_ROOT = os.geteuid() == 0

_LIBC = "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"


# The payloads create their objects under these keys, so that segments other
# processes on the machine create meanwhile (an X server's MIT-SHM) are not
# taken for the payload's.
_KEYS = {"shm": 0x4C570001, "msg": 0x4C570002, "sem": 0x4C570003}


def _sysv() -> set[str]:
    """(kind, id) of every SysV IPC object carrying one of the payloads' keys."""
    out: set[str] = set()
    for kind, key in _KEYS.items():
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        out |= {
            f"{kind}:{line.split()[1]}"
            for line in lines
            if line.strip() and int(line.split()[0]) == key
        }
    return out


def _remove_sysv(objects: set[str]) -> None:
    for obj in objects:
        kind, ident = obj.split(":")
        flag = {"shm": "-m", "msg": "-q", "sem": "-s"}[kind]
        subprocess.run(["ipcrm", flag, ident], check=False, capture_output=True)


def _xattrs(path: Path) -> dict[str, bytes]:
    try:
        return {k: os.getxattr(path, k) for k in os.listxattr(path)}
    except OSError:
        return {}


def _zygote_state() -> tuple[str, int] | None:
    """The fork-server zygote's limits and nice value (a parent of fork jobs)."""
    server = default_server()
    proc = getattr(server, "_proc", None)
    if proc is None or proc.poll() is not None:
        return None
    limits = Path(f"/proc/{proc.pid}/limits").read_text(encoding="ascii")
    return limits, os.getpriority(os.PRIO_PROCESS, proc.pid)


@dataclass
class World:
    root: Path
    data: Path
    victim_file: Path
    victim: subprocess.Popen[bytes]

    def tokens(self) -> dict[str, str]:
        return {
            "@VICTIM@": str(self.victim.pid),
            "@VFILE@": str(self.victim_file),
            "@DATA@": str(self.data),
            "@ROOT@": str(self.root),
        }

    def snapshot(self) -> dict[str, object]:
        # A payload that kills the victim or moves the file away (its control
        # run does) must show as a change, not break the snapshot.
        return {**self._victim_state(), **self._file_state(), **{
            "our limits": [resource.getrlimit(r) for r in (resource.RLIMIT_NOFILE, resource.RLIMIT_AS, resource.RLIMIT_NPROC, resource.RLIMIT_CPU)],
            "our nice": os.getpriority(os.PRIO_PROCESS, 0),
            "zygote": _zygote_state(),
            "data listing": sorted(os.listdir(self.data)),
            "root devices": sorted(
                p.name for p in self.root.rglob("*") if p.exists() and (p.is_char_device() or p.is_block_device())
            ),
        }}  # fmt: skip

    def _victim_state(self) -> dict[str, object]:
        pid = self.victim.pid
        if self.victim.poll() is not None:
            return {"victim alive": False}
        return {
            "victim alive": True,
            "victim limits": Path(f"/proc/{pid}/limits").read_text(encoding="ascii"),
            "victim nice": os.getpriority(os.PRIO_PROCESS, pid),
            "victim affinity": os.sched_getaffinity(pid),
            "victim scheduler": os.sched_getscheduler(pid),
            "victim stopped": Path(f"/proc/{pid}/stat").read_text(encoding="ascii").split(")")[1].split()[0] in ("T", "t"),
        }  # fmt: skip

    def _file_state(self) -> dict[str, object]:
        try:
            st = os.stat(self.victim_file)
        except FileNotFoundError:
            return {"file present": False}
        return {
            "file present": True,
            "file mode": stat.S_IMODE(st.st_mode),
            "file times": (st.st_mtime_ns, st.st_ctime_ns),
            "file owner": (st.st_uid, st.st_gid),
            "file xattrs": _xattrs(self.victim_file),
            "file content": self.victim_file.read_bytes(),
        }


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "d.csv").write_text("x\n1\n", encoding="utf-8")
    vfile = tmp_path / "victim.txt"
    vfile.write_text("victim\n", encoding="utf-8")
    os.chmod(vfile, 0o600)
    os.utime(vfile, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    try:
        os.setxattr(vfile, "user.lw", b"1")
    except OSError:
        pass  # a file system without user xattrs: the xattr check still compares
    os.symlink("/etc/passwd", tmp_path / "outlink")
    victim = subprocess.Popen(["sleep", "600"])
    w = World(tmp_path, data, vfile, victim)
    try:
        yield w
    finally:
        victim.kill()
        victim.wait()


@pytest.fixture(scope="module")
def fork_server_up() -> None:
    if default_server() is None:
        pytest.skip("fork-server not available on this platform")


def _run(world: World, code: str, mode: str, *, confine: bool = True) -> tuple[RunResult, Path]:
    for key, value in world.tokens().items():
        code = code.replace(key, value)
    work = world.root / "work"
    res = run_code(
        code, data_root=world.data, work_dir=work, policy=False, audit_hook=False,
        confine=confine, limits=LIMITS, mode=mode,  # type: ignore[arg-type]
    )  # fmt: skip
    return res, work


def _tree_stats(work: Path) -> tuple[int, int, list[str]]:
    """(bytes, entries, device nodes) of what the job left in its folder."""
    total = entries = 0
    devices = []
    for p in work.rglob("*"):
        st = p.lstat()
        entries += 1
        if stat.S_ISREG(st.st_mode):
            total += st.st_size
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            devices.append(p.name)
    return total, entries, devices


# Bytes and entries that are ours, not the job's (job.json, code.py, the
# bootstrap, stdout/stderr and the font-cache seed).
_OVERHEAD_BYTES = 4 * _MIB
_OVERHEAD_ENTRIES = 16

# (id, class, payload). Payloads print LEAKED when an act they attempt
# succeeded; the effect checks below do not rely on that.
PAYLOADS: list[tuple[str, str, str]] = [
    # --- class 2: other processes
    ("prlimit-victim", "processes",
     "import resource\nresource.prlimit(@VICTIM@, resource.RLIMIT_NOFILE, (7, 7))\nprint('LEAKED')"),
    ("prlimit-parent", "processes",
     "import resource, os\nresource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (7, 7))\nprint('LEAKED')"),
    ("prlimit-parent-as", "processes",
     "import resource, os\nresource.prlimit(os.getppid(), resource.RLIMIT_AS, (10**8, 10**8))"),
    ("setpriority-victim", "processes", "import os\nos.setpriority(os.PRIO_PROCESS, @VICTIM@, 19)"),
    ("setpriority-user", "processes", "import os\nos.setpriority(os.PRIO_USER, os.getuid(), 19)"),
    ("setaffinity-victim", "processes", "import os\nos.sched_setaffinity(@VICTIM@, {0})"),
    ("setscheduler-victim", "processes",
     "import os\nos.sched_setscheduler(@VICTIM@, os.SCHED_IDLE, os.sched_param(0))"),
    ("sigstop-victim", "processes", "import os, signal\nos.kill(@VICTIM@, signal.SIGSTOP)"),
    # union sigval by value: one pointer-sized argument, so the types are explicit.
    ("sigqueue-victim", "processes", _LIBC +
     "libc.sigqueue.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_void_p)\n"
     "print('LEAKED' if libc.sigqueue(@VICTIM@, 15, None) == 0 else 'no')"),
    ("fcntl-setown-victim", "processes",
     "import fcntl\nf = open('x', 'w')\nfcntl.fcntl(f, fcntl.F_SETOWN, @VICTIM@)\nprint('LEAKED')"),
    # --- class 3: SysV IPC
    ("shmget", "ipc", _LIBC + "i = libc.shmget(0x4C570001, 1 << 20, 0o1600)\nprint('LEAKED' if i >= 0 else 'no')"),
    ("msgget", "ipc", _LIBC + "i = libc.msgget(0x4C570002, 0o1600)\nprint('LEAKED' if i >= 0 else 'no')"),
    ("semget", "ipc", _LIBC + "i = libc.semget(0x4C570003, 1, 0o1600)\nprint('LEAKED' if i >= 0 else 'no')"),
    # --- class 4: metadata of files outside the job, device nodes, immutability
    ("chmod-outside", "metadata", "import os\nos.chmod('@VFILE@', 0o777)"),
    ("utime-outside", "metadata", "import os\nos.utime('@VFILE@', (0, 0))"),
    ("setxattr-outside", "metadata", "import os\nos.setxattr('@VFILE@', 'user.lw', b'2')"),
    ("removexattr-outside", "metadata", "import os\nos.removexattr('@VFILE@', 'user.lw')"),
    ("chown-outside", "metadata", "import os\nos.chown('@VFILE@', 1, 1)"),
    ("mknod-kmsg", "metadata",
     "import os, stat\nos.mknod('kmsg', stat.S_IFCHR | 0o600, os.makedev(1, 11))\n"
     "print('LEAKED', open('kmsg', 'rb').read(64))"),
    ("mknod-outside", "metadata",
     "import os, stat\nos.mknod('@ROOT@/nullnode', stat.S_IFCHR | 0o666, os.makedev(1, 3))"),
    ("immutable-work", "metadata",
     "import fcntl, struct\nopen('stuck', 'w').close()\nfd = open('stuck', 'rb')\n"
     "fcntl.ioctl(fd, 0x40086602, struct.pack('l', 0x10))\nprint('LEAKED')"),
    # --- class 5: information leaks
    ("inotify-data", "leak",
     _LIBC + "fd = libc.inotify_init1(0)\nw = libc.inotify_add_watch(fd, b'@DATA@', 0xfff)\n"
     "print('LEAKED' if fd >= 0 and w >= 0 else 'no')"),
    ("fanotify", "leak", _LIBC + "fd = libc.fanotify_init(0, 0)\nprint('LEAKED' if fd >= 0 else 'no')"),
    ("dnotify-data", "leak",
     "import fcntl, os\nfd = os.open('@DATA@', os.O_RDONLY)\nfcntl.fcntl(fd, fcntl.F_NOTIFY, 0x3f)\nprint('LEAKED')"),
    ("stat-outside", "leak",
     "import os\nst = os.stat('@VFILE@')\nprint('LEAKED', st.st_size, st.st_mtime)"),
    ("readlink-outside", "leak",
     "import os\nprint('LEAKED', os.readlink('@ROOT@/outlink'))"),
    ("listdir-outside", "leak", "import os\nprint('LEAKED', os.listdir('@ROOT@'))"),
    ("access-etc", "leak", "import os\nprint('LEAKED' if os.access('/etc/passwd', os.F_OK) else 'no')"),
    ("syslog-read", "leak",
     _LIBC + "b = ctypes.create_string_buffer(4096)\nn = libc.klogctl(3, b, 4096)\nprint('LEAKED' if n > 0 else 'no')"),
    ("clock-settime-same", "leak",
     "import time\ntime.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME))\nprint('LEAKED')"),
    # --- class 6: limits
    ("thread-bomb", "limits",
     "import threading, time\nn = 0\ntry:\n    for _ in range(300):\n"
     "        threading.Thread(target=time.sleep, args=(4,), daemon=True).start()\n        n += 1\n"
     "finally:\n    open('threads.txt', 'w').write(str(threading.active_count()))"),
    ("bytes-many-files", "limits",
     "for i in range(8):\n    with open(f'b{i}', 'wb') as f:\n        f.write(b'x' * (8 << 20))"),
    ("files-many", "limits", "for i in range(2000):\n    open(f'f{i}', 'w').close()"),
]  # fmt: skip

_IDS = [p[0] for p in PAYLOADS]


def _effects(world: World, before: dict[str, object], ipc_before: set[str],
             res: RunResult, work: Path) -> list[str]:  # fmt: skip
    found: list[str] = []
    after = world.snapshot()
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) != after.get(key):
            found.append(f"{key} changed: {before.get(key)!r} -> {after.get(key)!r}")
    new_ipc = _sysv() - ipc_before
    if new_ipc:
        found.append(f"SysV IPC objects left behind: {sorted(new_ipc)}")
        _remove_sysv(new_ipc)
    if "LEAKED" in res.stdout:
        found.append("the payload reports an act that should have been refused")
    total, entries, devices = _tree_stats(work)
    if devices:
        found.append(f"device nodes created: {devices}")
    if total > LIMITS.disk_bytes + _OVERHEAD_BYTES:
        found.append(f"{total} bytes written, cap {LIMITS.disk_bytes}")
    if entries > LIMITS.files + _OVERHEAD_ENTRIES:
        found.append(f"{entries} files created, cap {LIMITS.files}")
    threads = work / "threads.txt"
    if threads.is_file() and not threads.is_symlink():
        count = int(threads.read_text(encoding="ascii") or 0)
        if count > LIMITS.processes:
            found.append(f"{count} live threads, cap {LIMITS.processes}")
    try:
        remove_work_dir(work)
    except OSError as exc:
        found.append(f"work folder left behind: {exc}")
        subprocess.run(["chattr", "-R", "-i", str(work)], check=False, capture_output=True)
        remove_work_dir(work)
    return found


def test_suite_covers_classes_2_to_6() -> None:
    assert {p[1] for p in PAYLOADS} == {"processes", "ipc", "metadata", "leak", "limits"}
    assert len(set(_IDS)) == len(_IDS)


@pytest.mark.parametrize("mode", ["cold", "fork"])
@pytest.mark.parametrize(("name", "cls", "code"), PAYLOADS, ids=_IDS)
def test_os_attack_contained(
    world: World, fork_server_up: None, mode: str, name: str, cls: str, code: str
) -> None:
    before = world.snapshot()
    ipc_before = _sysv()
    res, work = _run(world, code, mode)
    assert res.mode == mode
    effects = _effects(world, before, ipc_before, res, work)
    assert effects == [], f"{name} had an effect: {effects}"
    assert not work.exists()


# Payloads whose control is witnessed, not performed. The only clock
# clock-settime-same can set is the host's real-time clock: a time namespace
# virtualises only CLOCK_MONOTONIC and CLOCK_BOOTTIME
# (test_a_time_namespace_cannot_hold_the_clock_settime_control), CAP_SYS_TIME
# in a user namespace does not cover it, and as nobody the call is refused,
# which shows nothing. So its control runs unconfined as root under plain's
# bounds with a seccomp filter of the test's own that hands each clock-setting
# call to a witness in the test process, which records the request and
# answers as the kernel would, never performing it (tests/sandbox/clock_witness.py).
# Each maps to the call the witness must see set CLOCK_REALTIME.
_WITNESSED_CONTROL: dict[str, str] = {"clock-settime-same": "clock_settime"}
_NEEDS_ROOT = ("chown-outside", "mknod-outside", "mknod-kmsg", "immutable-work", "fanotify",
               "syslog-read")  # fmt: skip
# Unconfined as root these would reach beyond the test: the parent is the
# shared zygote, PRIO_USER is every root process. They run as nobody under
# plain's bounds instead, against a parent or victim of their own.
_BOUNDED_CONTROL: dict[str, str] = {
    "prlimit-parent": "witness",
    "prlimit-parent-as": "witness",
    "setpriority-user": "victim",
}
_CONTROLS = [
    n for n in _IDS
    if n not in _WITNESSED_CONTROL and n not in _BOUNDED_CONTROL
    and (IS_ROOT or n not in _NEEDS_ROOT)
]  # fmt: skip


def test_controls_cover_every_payload() -> None:
    """Every payload has a control, of one kind or another: plain (unconfined,
    as root where it needs root), bounded as nobody, or witnessed."""
    kinds = [set(_CONTROLS), set(_BOUNDED_CONTROL), set(_WITNESSED_CONTROL)]
    assert all(not a & b for i, a in enumerate(kinds) for b in kinds[i + 1 :])
    assert set(_WITNESSED_CONTROL) == {"clock-settime-same"}
    # Not as root, the _NEEDS_ROOT controls cannot run (as root they are plain).
    assert set().union(*kinds) | (set() if IS_ROOT else set(_NEEDS_ROOT)) == set(_IDS)


_CLONE_NEWTIME = 0x80


def test_a_time_namespace_cannot_hold_the_clock_settime_control() -> None:
    """The reason clock-settime-same's control is witnessed, not performed,
    checked where it can be: a fresh time namespace takes offsets for the
    monotonic and boot clocks but refuses one for CLOCK_REALTIME, the clock
    the payload sets, so a performed control would set the machine's own clock."""
    libc = ctypes.CDLL(None, use_errno=True)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child unshares; the test process stays where it is
        os.close(read_end)
        answers = []
        if libc.unshare(_CLONE_NEWTIME) != 0:
            answers.append(f"unshare {os.strerror(ctypes.get_errno())}")
        else:
            for clock in ("monotonic", "boottime", "realtime"):
                try:
                    fd = os.open("/proc/self/timens_offsets", os.O_WRONLY)
                    try:
                        os.write(fd, f"{clock} 5 0".encode("ascii"))
                    finally:
                        os.close(fd)
                    answers.append(f"{clock} ok")
                except OSError as exc:
                    answers.append(f"{clock} {exc.errno}")
        os.write(write_end, ";".join(answers).encode("ascii"))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        answers = pipe.read().decode("ascii").split(";")
    os.waitpid(pid, 0)
    if answers[0].startswith("unshare"):
        pytest.skip(f"no time namespace here: {answers[0]}")
    assert answers == ["monotonic ok", "boottime ok", f"realtime {errno.EINVAL}"]


@pytest.mark.parametrize("name", _CONTROLS)
def test_control_effect_without_confinement(world: World, fork_server_up: None, name: str) -> None:
    if name == "setaffinity-victim" and len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: pinning to CPU 0 changes nothing")
    code = next(p[2] for p in PAYLOADS if p[0] == name)
    before = world.snapshot()
    ipc_before = _sysv()
    res, work = _run(world, code, "fork", confine=False)
    assert _effects(world, before, ipc_before, res, work), f"control run of {name} had no effect"


@pytest.mark.skipif(not plain.available(), reason="a control as another user needs root")
@pytest.mark.parametrize("name", sorted(_BOUNDED_CONTROL))
def test_bounded_control_as_nobody(world: World, name: str) -> None:
    """Against a parent (a witness) or a victim of the job's own user."""
    code = next(p[2] for p in PAYLOADS if p[0] == name)
    with plain.control_work_dir() as work, plain.victim_of() as victim:
        code = code.replace("@VICTIM@", str(victim.pid))
        nice = os.getpriority(os.PRIO_PROCESS, victim.pid)
        res = plain.run_plain(code, work, witness=_BOUNDED_CONTROL[name] == "witness")
        effects = ["the payload reports an act"] if "LEAKED" in res.stdout else []
        if os.getpriority(os.PRIO_PROCESS, victim.pid) != nice:
            effects.append("the victim's nice value changed")
    assert effects, f"bounded control run of {name} had no effect: {res.stderr[-600:]}"


@pytest.mark.parametrize("name", sorted(_WITNESSED_CONTROL))
def test_witnessed_control(tmp_path: Path, name: str) -> None:
    """Unconfined as root, Layer 1 off: the witness sees the kernel would
    have set the real-time clock, the payload's tripwire fires, and the
    machine's clock was not stepped (the witness performs nothing)."""
    missing = clock_witness.missing_for_control()
    if missing:
        pytest.skip(missing)
    code = next(p[2] for p in PAYLOADS if p[0] == name)
    work = tmp_path / "work"
    work.mkdir()
    run = clock_witness.run_witnessed(code, work)
    assert run.listener_received, run.result.stderr[-600:]
    assert run.effects, (
        f"witnessed control of {name} had no effect: {run.requests} {run.result.stderr[-600:]}"
    )
    asked = [r for r in run.requests if r.sets_realtime and r.syscall == _WITNESSED_CONTROL[name]]
    assert len(asked) == 1, run.requests
    # The time asked for is the clock's own ("the same"), read from the
    # caller's memory: a little before the witness received the request.
    assert asked[0].time is not None
    lag = asked[0].seen_ns - (asked[0].time[0] * 10**9 + asked[0].time[1])
    assert -(10**6) < lag < 5 * 10**9, lag
    assert abs(run.clock_step_ns) < clock_witness.STEP_BOUND_NS, run.clock_step_ns


_TRY_LOCK = (
    "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR)\n"
    "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n"
    "    sys.exit(3)"
)


@pytest.mark.skipif(not plain.available(), reason="a control as another user needs root")
def test_controls_as_nobody_exclude_each_other_across_sessions() -> None:
    """Another test session (a process of its own) cannot start a control
    while one is running here: their `kill -1` would reach ours."""
    lock = str(plain._UID_LOCK)
    with plain.control_work_dir():
        held = subprocess.run([sys.executable, "-c", _TRY_LOCK, lock], check=False)
    free = subprocess.run([sys.executable, "-c", _TRY_LOCK, lock], check=False)
    assert (held.returncode, free.returncode) == (3, 0)
