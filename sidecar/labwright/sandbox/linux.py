"""Linux confinement: resource limits, capabilities, Landlock, then seccomp.

Order matters. Limits first (they need no privileges), then every capability
is dropped (effective, permitted, inheritable, ambient and the bounding set:
as root the sandbox could otherwise chown, mknod or set FS_IMMUTABLE_FL), then
Landlock (needs `open` to create its path rules), then seccomp last (it would
otherwise have to allow the Landlock and capability syscalls). All are
inherited by threads started later and cannot be lifted; threads that already
exist would keep their rights, so we refuse to confine a process that is not
single-threaded.

Per-job caps on threads, bytes and files are set up before this, by
isolate.py (a tmpfs in a private mount namespace and a pids cgroup or a user
namespace's RLIMIT_NPROC).

What Landlock cannot see, and what closes it:
- stat/readlink/access of paths outside the read roots are not Landlock
  rights (it governs opening, creating, removing, executing). A filter cannot
  read the path a pointer refers to, so seccomp cannot limit them by path
  either. What remains visible is metadata (existence, size, times, link
  targets) of paths the job can name; contents stay closed, and the parts of
  the job's own tree it can write are a private tmpfs. Hiding the rest of the
  tree needs a pivot_root into bind mounts of the read roots (a leftover, see
  the devlog). inotify and fanotify, which leaked *activity* in outside
  folders, are denied by seccomp, as is dnotify (fcntl F_NOTIFY).
- Landlock ABI < 6 has no signal or abstract-socket scoping: seccomp allows
  kill/tgkill only to our own pid, denies tkill, rt_*sigqueueinfo, pidfd
  calls and fcntl F_SETOWN/F_SETSIG, and denies every socket call, so the
  floor for ABI 1-5 is the same set of acts refused, by the filter alone.
- Landlock ABI < 4 has no TCP rules: every socket call is denied by seccomp.
"""

from __future__ import annotations

import ctypes
import os
import resource

from . import landlock, seccomp
from .limits import Limits

_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_CAP_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def available() -> tuple[bool, str]:
    abi = landlock.abi_version()
    if abi < 1:
        return False, "the Linux kernel has no Landlock support (needs 5.13 or newer, enabled)"
    if not seccomp.supported():
        return False, "seccomp filters are not supported for this CPU architecture"
    if not _kernel_has_seccomp():
        return False, "the Linux kernel has no seccomp filter support"
    return True, f"Landlock ABI {abi} and seccomp-bpf"


def _kernel_has_seccomp() -> bool:
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            return any(line.startswith("Seccomp:") for line in fh)
    except OSError:
        return True  # no /proc to ask; installing the filter will tell


def thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def apply_limits(limits: Limits) -> None:
    pairs = [
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.address_space),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size),
        (resource.RLIMIT_CORE, 0),
    ]
    # RLIMIT_NPROC is not lowered here: on Linux it counts every process
    # *and thread* of the user across the machine (and never binds root), so
    # threads are capped per job by isolate.py instead; seccomp denies
    # process creation outright. macOS applies it (see macos.py).
    for which, value in pairs:
        soft, hard = resource.getrlimit(which)
        new = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (new, new))


def _cap_last() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return 63


def drop_capabilities() -> None:
    """Drop every capability for good: bounding set, ambient, then the sets.

    Dropping from the bounding set needs CAP_SETPCAP; a process without it
    (an ordinary user outside a user namespace) has nothing to drop there that
    matters, since no_new_privs keeps an execve from granting anything.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in range(_cap_last() + 1):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(_CAP_VERSION_3, 0)
    data = (_CapData * 2)()
    if libc.capset(ctypes.byref(header), ctypes.byref(data)) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")
    # Verify with capget, not /proc (absent after isolate.py's pivot).
    check = (_CapData * 2)()
    if libc.capget(ctypes.byref(_CapHeader(_CAP_VERSION_3, 0)), ctypes.byref(check)) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    held = [getattr(c, f) for c in check for f in ("effective", "permitted", "inheritable")]
    if any(held):
        raise OSError(f"capabilities still held after dropping them: {held}")


def confine(
    read_roots: list[str],
    write_root: str,
    *,
    network: bool = False,
    allow_exec: bool = False,
    exec_roots: list[str] | None = None,
    rw_files: list[str] | None = None,
    limits: Limits | None = None,
    isolation: str = "",
) -> str:
    """Confine the calling process for good; returns a one-line description."""
    if thread_count() != 1:
        raise RuntimeError(
            "refusing to confine a multi-threaded process (existing threads would keep their rights)"
        )
    if limits is not None:
        apply_limits(limits)
    drop_capabilities()
    abi = landlock.restrict(
        read_roots,
        [write_root],
        exec_roots=exec_roots or (),
        rw_files=rw_files or ("/dev/null",),
        network=network,
    )
    seccomp.install(allow_exec=allow_exec)
    desc = f"landlock-abi{abi}+nocaps+seccomp-allowlist"
    return f"{desc}+{isolation}" if isolation else desc
