"""The seccomp allow-list: its tables, and what a confined process observes."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.sandbox import seccomp
from labwright.sandbox.syscall_numbers import AARCH64, X86_64

from .conftest import requires_confinement

_X86_HEADER = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")
_GENERIC_HEADER = Path("/usr/include/asm-generic/unistd.h")


def test_allow_and_deny_do_not_overlap() -> None:
    allowed = set(seccomp.allowed_names(allow_exec=True))
    denied = set(seccomp.denied_names())
    assert not allowed & denied
    for name in ("shmget", "msgget", "mknod", "mknodat", "chmod", "fchmod", "fchmodat",
                 "chown", "fchownat", "utimensat", "setxattr", "inotify_init1",
                 "fanotify_init", "settimeofday", "clock_settime", "adjtimex", "syslog",
                 "setpriority", "sched_setaffinity", "sched_setscheduler", "memfd_create"):  # fmt: skip
        assert name in denied and name not in allowed


def test_every_name_has_a_number() -> None:
    for name in seccomp.allowed_names(allow_exec=True) + seccomp.denied_names():
        assert name in X86_64 or name in AARCH64, name


@pytest.mark.skipif(not _X86_HEADER.exists(), reason="x86_64 kernel headers not installed")
def test_x86_64_numbers_match_the_kernel_headers() -> None:
    header = dict(
        (m.group(1), int(m.group(2)))
        for m in re.finditer(r"#define __NR_(\w+)\s+(\d+)", _X86_HEADER.read_text(encoding="ascii"))
    )
    for name, nr in X86_64.items():
        if name in header:
            assert header[name] == nr, name


@pytest.mark.skipif(not _GENERIC_HEADER.exists(), reason="generic kernel headers not installed")
def test_aarch64_numbers_match_the_generic_table() -> None:
    text = _GENERIC_HEADER.read_text(encoding="ascii")
    plain = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define __NR_(\w+)\s+(\d+)", text)}
    n3264 = {
        m.group(1): int(m.group(2)) for m in re.finditer(r"#define __NR3264_(\w+)\s+(\d+)", text)
    }
    for m in re.finditer(r"#define __NR_(\w+)\s+__NR3264_(\w+)", text):
        if m.group(2) in n3264:
            plain.setdefault(m.group(1), n3264[m.group(2)])
    for name, nr in AARCH64.items():
        if name in plain:
            assert plain[name] == nr, name


def test_filter_fits_the_kernel_limit() -> None:
    if not seccomp.supported():
        pytest.skip("seccomp not supported here")
    for allow_exec in (False, True):
        prog = seccomp.build_filter(allow_exec=allow_exec, own_pid=1234)
        assert len(prog) % 8 == 0 and len(prog) // 8 < 4096


_PROBE = r"""
import ctypes, errno, json, os, sys
from labwright.sandbox.confine import confine, python_read_roots, system_read_roots
work = sys.argv[1]
confine(python_read_roots() + system_read_roots(), work, False)
libc = ctypes.CDLL(None, use_errno=True)
def call(*args):
    ctypes.set_errno(0)
    r = libc.syscall(*args)
    return errno.errorcode.get(ctypes.get_errno(), "0") if r < 0 else "ok"
class Hdr(ctypes.Structure):
    _fields_ = [("v", ctypes.c_uint32), ("pid", ctypes.c_int)]
class Data(ctypes.Structure):
    _fields_ = [("e", ctypes.c_uint32), ("p", ctypes.c_uint32), ("i", ctypes.c_uint32)]
d = (Data * 2)()
fd = os.open(work, os.O_RDONLY)
ff = os.open(os.path.join(work, "f"), os.O_CREAT | os.O_RDWR, 0o600)
ts = (ctypes.c_long * 2)()
out = {
    "capget_self": call(125, ctypes.byref(Hdr(0x20080522, 0)), ctypes.byref(d)),
    "fallocate_0": call(285, ff, 0, 0, 4096),
    "fallocate_keep_size": call(285, ff, 1, 0, 4096),
    "clock_monotonic": call(228, 1, ts),
    "clock_own_cpu": call(228, 2, ts),
    "clock_pid1_cpu": call(228, ((~1) << 3) | 2, ts),
    "clock_getres_pid1": call(229, ((~1) << 3) | 2, ts),
    "clock_nanosleep_pid1": call(230, ((~1) << 3) | 2, 1, ts, None),
    "no_new_privs": libc.prctl(39, 0, 0, 0, 0),
    "unlisted": call(148, 0, 0),          # sched_rr_get_interval: not listed -> ENOSYS
    "getpriority": call(140, 0, 0),       # denied -> EPERM
    "shmget": call(29, 0, 4096, 0o1600),
    "ioctl_getflags": call(16, fd, 0x80086601, 0),
    "ioctl_tcgets": call(16, 0, 0x5401, 0),  # allowed (ENOTTY on a non-tty is fine)
    "prlimit_self": call(302, 0, 7, 0, ctypes.byref((ctypes.c_uint64 * 2)())),
    "prlimit_pid1": call(302, 1, 7, 0, ctypes.byref((ctypes.c_uint64 * 2)())),
    "kill_pid1": call(62, 1, 0),
    "fcntl_notify": call(72, fd, 1026, 1),
}
print(json.dumps(out))
"""


@requires_confinement
@pytest.mark.smoke
@pytest.mark.skipif(platform.machine() != "x86_64", reason="probe uses x86_64 syscall numbers")
def test_confined_process_sees_the_allow_list(tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["capget_self"] == "EPERM"  # the pid is in memory the filter cannot see
    assert out["fallocate_0"] == "ok"
    assert out["fallocate_keep_size"] == "EPERM"
    assert out["clock_monotonic"] == out["clock_own_cpu"] == "ok"
    assert out["clock_pid1_cpu"] == out["clock_getres_pid1"] == "EPERM"
    assert out["clock_nanosleep_pid1"] == "EPERM"
    assert out["no_new_privs"] == 1
    assert out["unlisted"] == "ENOSYS"
    assert out["getpriority"] == "EPERM"
    assert out["shmget"] == "EPERM"
    assert out["ioctl_getflags"] == "EPERM"
    assert out["ioctl_tcgets"] in ("ok", "ENOTTY")
    assert out["prlimit_self"] == "ok"
    assert out["prlimit_pid1"] == "EPERM"
    assert out["kill_pid1"] == "EPERM"
    assert out["fcntl_notify"] == "EPERM"
