"""Landlock (Linux >= 5.13) through raw syscalls with ctypes.

Landlock lets an unprivileged process drop its own file-system and network
rights irreversibly; the rules survive `fork` and `execve`. We use it to say:
read only these trees, write only this directory, no TCP bind/connect, and
(ABI >= 6) no signals or abstract Unix sockets across the sandbox boundary.

ctypes keeps this dependency-free; the kernel interface is three syscalls and
two small structs (see linux/landlock.h).
"""

from __future__ import annotations

import ctypes
import os
import platform
from collections.abc import Iterable

# Syscall numbers are the same on x86_64 and aarch64 (generic table).
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1

# File-system rights, by the ABI that introduced them.
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
FS_IOCTL_DEV = 1 << 15  # ABI 5

NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1

SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1

_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}

#: Rights that make sense on a regular file (not a directory).
_FILE_ONLY = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV

READ = FS_READ_FILE | FS_READ_DIR
EXEC = FS_EXECUTE


class LandlockError(OSError):
    """Landlock is missing or refused a step."""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc: ctypes.CDLL | None = None


def _syscall() -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    fn = _libc.syscall
    fn.restype = ctypes.c_long
    return fn


def abi_version() -> int:
    """The kernel's Landlock ABI version, or 0 when unavailable."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        return 0
    try:
        res = _syscall()(
            ctypes.c_long(_SYS_CREATE_RULESET),
            None,
            ctypes.c_size_t(0),
            ctypes.c_uint32(_CREATE_RULESET_VERSION),
        )
    except (OSError, AttributeError):
        return 0
    return int(res) if res > 0 else 0


def _fs_rights(abi: int) -> int:
    best = 1
    for level in sorted(_FS_BY_ABI):
        if abi >= level:
            best = level
    return _FS_BY_ABI[best]


#: Never granted, not even in the work folder: device nodes (as root, a
#: character device re-opened the kernel log), FIFOs and socket files (they
#: can block or reach a reader outside), ioctls on devices.
NEVER = FS_EXECUTE | FS_MAKE_CHAR | FS_MAKE_BLOCK | FS_MAKE_FIFO | FS_MAKE_SOCK | FS_IOCTL_DEV


def write_rights(abi: int) -> int:
    """Create, write and remove files and folders; nothing in NEVER."""
    return _fs_rights(abi) & ~NEVER


def restrict(
    read_roots: Iterable[str],
    write_roots: Iterable[str],
    *,
    exec_roots: Iterable[str] = (),
    rw_files: Iterable[str] = (),
    network: bool = False,
    abi: int | None = None,
) -> int:
    """Irreversibly confine the calling process (all its threads must not exist
    yet or will keep their rights: call before starting threads).

    Returns the ABI version that was applied. Paths that do not exist are
    skipped (a missing font directory is not an error).
    """
    abi = abi_version() if abi is None else abi
    if abi < 1:
        raise LandlockError("Landlock is not available in this kernel")
    handled_fs = _fs_rights(abi)
    attr = _RulesetAttr(handled_fs, 0, 0)
    size = 8
    if abi >= 4:
        size = 16
        if not network:
            attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
    if abi >= 6:
        size = 24
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    sc = _syscall()
    ruleset = sc(
        ctypes.c_long(_SYS_CREATE_RULESET),
        ctypes.byref(attr),
        ctypes.c_size_t(size),
        ctypes.c_uint32(0),
    )
    if ruleset < 0:
        raise LandlockError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        plan: list[tuple[str, int]] = []
        plan += [(p, READ) for p in read_roots]
        plan += [(p, EXEC | READ) for p in exec_roots]
        plan += [(p, write_rights(abi) | READ) for p in write_roots]
        plan += [(p, FS_READ_FILE | FS_WRITE_FILE) for p in rw_files]
        for path, rights in plan:
            _add_path(sc, int(ruleset), path, rights & handled_fs)
        if _prctl_no_new_privs() != 0:
            raise LandlockError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if sc(ctypes.c_long(_SYS_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise LandlockError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(int(ruleset))
    return abi


def _add_path(sc: ctypes._CFuncPtr, ruleset: int, path: str, rights: int) -> None:  # type: ignore[name-defined]
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_ONLY
        beneath = _PathBeneathAttr(rights, fd)
        res = sc(
            ctypes.c_long(_SYS_ADD_RULE),
            ctypes.c_int(ruleset),
            ctypes.c_int(_RULE_PATH_BENEATH),
            ctypes.byref(beneath),
            ctypes.c_uint32(0),
        )
        if res < 0:
            raise LandlockError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)


def _prctl_no_new_privs() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(38, 1, 0, 0, 0))  # PR_SET_NO_NEW_PRIVS
