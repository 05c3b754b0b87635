"""Linux confinement: resource limits, Landlock, then seccomp, on the calling process.

Order matters. Limits first (they need no privileges), then Landlock (needs
`open` to create its path rules), then seccomp last (it would otherwise have to
allow the Landlock syscalls). All three are inherited by threads started later
and cannot be lifted; threads that already exist would keep their rights, so we
refuse to confine a process that is not single-threaded.
"""

from __future__ import annotations

import os
import resource

from . import landlock, seccomp
from .limits import Limits


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
    # RLIMIT_NPROC is deliberately not lowered here: on Linux it counts every
    # process *and thread* of the user across the machine, so a small value
    # breaks thread creation at random; the seccomp filter already denies
    # process creation outright. macOS applies it (see macos.py).
    for which, value in pairs:
        soft, hard = resource.getrlimit(which)
        new = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (new, new))


def confine(
    read_roots: list[str],
    write_root: str,
    *,
    network: bool = False,
    allow_exec: bool = False,
    exec_roots: list[str] | None = None,
    rw_files: list[str] | None = None,
    limits: Limits | None = None,
) -> str:
    """Confine the calling process for good; returns a one-line description."""
    if thread_count() != 1:
        raise RuntimeError(
            "refusing to confine a multi-threaded process (existing threads would keep their rights)"
        )
    if limits is not None:
        apply_limits(limits)
    abi = landlock.restrict(
        read_roots,
        [write_root],
        exec_roots=exec_roots or (),
        rw_files=rw_files or ("/dev/null",),
        network=network,
    )
    seccomp.install(allow_exec=allow_exec)
    return f"landlock-abi{abi}+seccomp"
