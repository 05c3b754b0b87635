"""seccomp-bpf: a hand-built syscall filter, loaded with prctl through ctypes.

Landlock decides *which files*; this filter decides *which kinds of act*: no
sockets at all (Landlock's network rules cover TCP only, and a Unix socket
path like a container daemon's is not a file open), no new programs, no new
processes (threads are allowed: `clone` with CLONE_THREAD), no ptrace or
cross-process memory access, no kernel attack surface a plot never needs
(io_uring, bpf, userfaultfd, keyrings, namespaces, module loading).

Denied calls fail with EPERM rather than killing the process, so the Python
error reaches the model as an ordinary traceback. `clone3` fails with ENOSYS:
its flags sit in user memory that a filter cannot read, and glibc falls back
to `clone` on ENOSYS.

The filter is a plain list of (code, jt, jf, k) instructions; with ~60
syscalls it stays far below the kernel's 4096-instruction limit.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

_LD_W_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_JSET = 0x45
_RET = 0x06

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

_OFF_NR = 0
_OFF_ARCH = 4
_OFF_ARG0_LO = 16
_OFF_ARG0_HI = 20

CLONE_THREAD = 0x00010000

_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}

# Syscalls a confined child never needs. Numbers from the kernel's tables.
_X86_64 = {
    "socket": 41, "connect": 42, "accept": 43, "sendto": 44, "bind": 49, "listen": 50,
    "socketpair": 53, "accept4": 288, "clone": 56, "fork": 57, "vfork": 58, "execve": 59,
    "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
    "ptrace": 101, "syslog": 103, "uselib": 134, "personality": 135, "ustat": 136,
    "pivot_root": 155, "chroot": 161, "acct": 163, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170, "setdomainname": 171,
    "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176, "quotactl": 179,
    "lookup_dcookie": 212, "kexec_load": 246, "add_key": 248, "request_key": 249,
    "keyctl": 250, "migrate_pages": 256, "unshare": 272, "move_pages": 279,
    "perf_event_open": 298, "name_to_handle_at": 303, "open_by_handle_at": 304, "setns": 308,
    "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "finit_module": 313,
    "bpf": 321, "execveat": 322, "userfaultfd": 323, "pidfd_send_signal": 424,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438,
    "process_madvise": 440, "mount_setattr": 442,
}  # fmt: skip
_AARCH64 = {
    "socket": 198, "socketpair": 199, "bind": 200, "listen": 201, "accept": 202,
    "connect": 203, "sendto": 206, "accept4": 242, "clone": 220, "execve": 221,
    "kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138,
    "rt_tgsigqueueinfo": 240, "ptrace": 117, "syslog": 116, "personality": 92,
    "pivot_root": 41, "chroot": 51, "acct": 89, "mount": 40, "umount2": 39,
    "swapon": 224, "swapoff": 225, "reboot": 142, "sethostname": 161, "setdomainname": 162,
    "init_module": 105, "delete_module": 106, "quotactl": 60, "lookup_dcookie": 18,
    "kexec_load": 104, "add_key": 217, "request_key": 218, "keyctl": 219,
    "migrate_pages": 238, "unshare": 97, "move_pages": 239, "perf_event_open": 241,
    "name_to_handle_at": 264, "open_by_handle_at": 265, "setns": 268,
    "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "finit_module": 273,
    "bpf": 280, "execveat": 281, "userfaultfd": 282, "pidfd_send_signal": 424,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438,
    "process_madvise": 440, "mount_setattr": 442,
}  # fmt: skip

_PROCESS_CREATION = {"clone", "fork", "vfork", "execve", "execveat"}
_SIGNALS = {"kill", "tgkill"}


def supported() -> bool:
    return platform.system() == "Linux" and platform.machine() in _ARCH


def _ins(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k & 0xFFFFFFFF)


def build_filter(*, allow_exec: bool, own_pid: int) -> bytes:
    """The BPF program as bytes (8 bytes per instruction)."""
    machine = platform.machine()
    table = _X86_64 if machine == "x86_64" else _AARCH64
    deny = RET_ERRNO | errno.EPERM
    prog = [
        _ins(_LD_W_ABS, 0, 0, _OFF_ARCH),
        _ins(_JEQ, 1, 0, _ARCH[machine]),
        _ins(_RET, 0, 0, RET_KILL_PROCESS),
        _ins(_LD_W_ABS, 0, 0, _OFF_NR),
    ]
    if machine == "x86_64":
        # The x32 ABI shares the arch value; its numbers carry bit 30.
        prog += [_ins(_JGE, 0, 1, 0x40000000), _ins(_RET, 0, 0, deny)]
    for name, nr in table.items():
        if allow_exec and name in _PROCESS_CREATION | {"clone3"}:
            continue
        if name == "clone":
            # Threads yes, processes no.
            prog += [
                _ins(_JEQ, 0, 4, nr),
                _ins(_LD_W_ABS, 0, 0, _OFF_ARG0_LO),
                _ins(_JSET, 0, 1, CLONE_THREAD),
                _ins(_RET, 0, 0, RET_ALLOW),
                _ins(_RET, 0, 0, deny),
            ]
        elif name == "clone3":
            prog += [_ins(_JEQ, 0, 1, nr), _ins(_RET, 0, 0, RET_ERRNO | errno.ENOSYS)]
        elif name in _SIGNALS:
            # Signals only to ourselves (pid == own pid, or 0 = own process group;
            # the child leads its own session so the group holds nobody else).
            prog += [
                _ins(_JEQ, 0, 7, nr),
                _ins(_LD_W_ABS, 0, 0, _OFF_ARG0_HI),
                _ins(_JEQ, 0, 3, 0),
                _ins(_LD_W_ABS, 0, 0, _OFF_ARG0_LO),
                _ins(_JEQ, 2, 0, own_pid),
                _ins(_JEQ, 1, 0, 0),
                _ins(_RET, 0, 0, deny),
                _ins(_RET, 0, 0, RET_ALLOW),
            ]
        else:
            prog += [_ins(_JEQ, 0, 1, nr), _ins(_RET, 0, 0, deny)]
    prog.append(_ins(_RET, 0, 0, RET_ALLOW))
    return b"".join(prog)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(*, allow_exec: bool = False) -> None:
    """Load the filter into the calling thread (children inherit it)."""
    if not supported():
        raise OSError(errno.ENOSYS, "seccomp filter not supported on this platform")
    program = build_filter(allow_exec=allow_exec, own_pid=os.getpid())
    buf = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    # PR_SET_SECCOMP = 22, SECCOMP_MODE_FILTER = 2
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
