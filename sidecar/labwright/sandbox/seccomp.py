"""seccomp-bpf: an ALLOW-LIST of system calls, loaded with prctl through ctypes.

Landlock decides *which files*; this filter decides *which kinds of act*. It
lists the calls the plotting stack (CPython, numpy/OpenBLAS, pandas, scipy,
matplotlib/Agg, Pillow) makes after confinement, as traced over the
legitimate plot corpus with `scripts/trace_sandbox_syscalls.py`, plus the few
a Python runtime needs on paths the corpus does not take (threads, sleeps,
signals to itself, tracebacks). Everything else is refused.

Actions:
- a call in `ALLOW` runs (some only with the arguments checked below);
- a call in `DENY` fails with EPERM: the acts the issue names (sockets,
  SysV IPC, other processes, metadata, device nodes, inotify, clocks, syslog,
  namespaces, ...). EPERM rather than killing the process, so the payload's
  Python traceback reaches the model as an ordinary error and the test suite
  can see the call was refused; the call never runs either way;
- any other call fails with ENOSYS, the answer of a kernel that lacks it:
  a newer glibc then falls back to an older call that is listed (as it does
  for `clone3` -> `clone`), instead of failing hard.

Argument filters (a filter sees only the six register values, never memory
behind a pointer):
- `clone`: only with CLONE_THREAD and without any CLONE_NEW* flag (threads
  yes, processes and namespaces no); `clone3` gets ENOSYS (its flags live in
  user memory), so glibc uses `clone`;
- `kill`, `tgkill`, `prlimit64`, `sched_getaffinity`: the pid argument must
  be 0 or our own pid (prlimit64 on another process lowered the backend's
  limits in the attack run);
- `ioctl`: only the terminal/fd requests in `IOCTL_ALLOWED` (no
  FS_IOC_SETFLAGS, which set FS_IMMUTABLE_FL on the work folder);
- `fcntl`: no F_SETOWN/F_SETSIG (SIGIO to other processes), F_NOTIFY
  (dnotify, a directory watch) or F_SETLEASE;
- `prctl`: only the read-only options and thread naming in `PRCTL_ALLOWED`;
- `fallocate`: mode 0 only. With FALLOC_FL_KEEP_SIZE a job reserved 200 MiB
  on each of its inherited stdout/stderr files past RLIMIT_FSIZE (the size
  stays 0, so the file-size limit never sees it); mode 0 grows the file and
  is held to RLIMIT_FSIZE like a write;
- `clock_gettime`, `clock_getres`, `clock_nanosleep`: non-negative clock ids
  only. A negative id names the CPU clock of another pid or thread
  (MAKE_PROCESS_CPUCLOCK), and a scan of them listed every live pid on the
  host, which the pivoted root without /proc is meant to hide; the clocks a
  runtime reads (REALTIME, MONOTONIC, own PROCESS/THREAD_CPUTIME) are >= 0.

The `exec` profile (the TeX launcher, which must run xetex, xdvipdfmx and
sh) adds `EXEC_EXTRA`: process creation without namespaces, execve, wait.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
from collections.abc import Iterable

from .syscall_numbers import AARCH64, X86_64

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

CLONE_THREAD = 0x00010000
# CLONE_NEWTIME | NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
CLONE_NAMESPACES = (
    0x00000080
    | 0x00020000
    | 0x02000000
    | 0x04000000
    | 0x08000000
    | 0x10000000
    | 0x20000000
    | 0x40000000
)

_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}

# ---- The allow-list: one table, a comment per group. ------------------------
ALLOW: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Memory: the allocator, numpy buffers, loading extension modules (dlopen
    # maps with PROT_EXEC), OpenBLAS's NUMA hints on its own pages.
    ("memory", ("brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "msync",
                "mbind", "get_mempolicy", "set_mempolicy")),
    # File I/O on descriptors; which files can be opened is Landlock's job.
    ("fd-io", ("read", "write", "pread64", "pwrite64", "readv", "writev", "preadv",
               "pwritev", "lseek", "close", "close_range", "dup", "dup2", "dup3",
               "flock", "fsync", "fdatasync", "fadvise64", "ftruncate", "fallocate", "sendfile",
               "copy_file_range", "poll", "ppoll", "select", "pselect6", "pipe", "pipe2")),
    # Path operations. Opening, creating, renaming, linking and removing are
    # checked by Landlock (writes only beneath the work folder, which is a
    # size- and inode-capped tmpfs). stat/readlink are not covered by Landlock:
    # see linux.py for what limits them.
    ("paths", ("open", "openat", "creat", "fstat", "newfstatat", "stat", "lstat", "statx",
               "fstatfs", "statfs", "getdents64", "getcwd", "chdir", "fchdir", "access",
               "faccessat", "faccessat2", "readlink", "readlinkat", "mkdir", "mkdirat",
               "unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2", "link",
               "linkat", "symlink", "symlinkat", "truncate", "umask")),
    # Facts about this process only (no pid argument, or checked below).
    ("self", ("getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid",
              "getresuid", "getresgid", "getgroups", "getpgrp", "uname", "sysinfo",
              "getrusage", "times", "getrlimit", "prlimit64", "sched_getaffinity",
              "sched_yield", "getcpu", "getrandom")),
    # Clocks are read, never set (vDSO covers most reads; these are fallbacks).
    ("time", ("clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep",
              "clock_nanosleep")),
    # Threads (capped by linux.py) and exit.
    ("threads", ("clone", "clone3", "set_robust_list", "rseq", "set_tid_address", "futex",
                 "exit", "exit_group", "arch_prctl")),
    # Signals: handlers and masks for itself; sending only to itself.
    ("signals", ("rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
                 "rt_sigpending", "rt_sigtimedwait", "rt_sigsuspend", "kill", "tgkill")),
    # Argument-filtered multiplexers (see the module docstring).
    ("filtered", ("ioctl", "fcntl", "prctl")),
)  # fmt: skip

#: Only for the `exec` profile (TeX): run the TeX programs and sh.
EXEC_EXTRA: tuple[str, ...] = ("execve", "vfork", "fork", "wait4", "waitid", "setpgid")

# ---- Denied with EPERM (named so they read as a refusal, and tested). -------
DENY: tuple[tuple[str, tuple[str, ...]], ...] = (
    # No network, no Unix sockets (a socket path such as a container daemon's
    # is not a file open, so Landlock does not see it).
    ("sockets", ("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
                 "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
                 "shutdown", "getsockopt", "setsockopt", "getsockname", "getpeername")),
    # SysV IPC outlives the job and reaches other processes' segments; POSIX
    # message queues likewise.
    ("ipc", ("shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl",
             "semget", "semop", "semctl", "semtimedop", "mq_open", "mq_unlink",
             "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr")),
    # Other processes: creation, tracing, memory, signals, limits, scheduling.
    ("processes", ("execveat", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
                   "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill",
                   "rt_sigqueueinfo", "rt_tgsigqueueinfo", "setpriority", "getpriority",
                   "sched_setaffinity", "sched_setscheduler", "sched_setparam",
                   "sched_setattr", "sched_getattr", "sched_getparam", "sched_getscheduler",
                   "ioprio_set", "ioprio_get", "migrate_pages", "move_pages",
                   "process_madvise", "setrlimit", "setsid",
                   # capget takes its pid inside a struct the filter cannot
                   # read: it read other processes' capability sets and
                   # answered "no such process" for missing pids. Our own
                   # sets are checked before the filter is loaded (linux.py).
                   "capget")),
    # Device nodes and metadata of any file (mode, owner, times, xattrs).
    ("metadata", ("mknod", "mknodat", "chmod", "fchmod", "fchmodat", "fchmodat2", "chown",
                  "fchown", "lchown", "fchownat", "utime", "utimes", "utimensat",
                  "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
                  "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
                  "file_setattr")),
    # Watching files outside the job.
    ("watch", ("inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
               "fanotify_init", "fanotify_mark")),
    # Clocks and the kernel log.
    ("clock-log", ("settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "syslog")),
    # Mounts, namespaces, identity.
    ("namespaces", ("mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount",
                    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "unshare",
                    "setns", "setuid", "setgid", "setreuid", "setregid", "setresuid",
                    "setresgid", "setfsuid", "setfsgid", "setgroups", "capset")),
    # Kernel attack surface a plot never needs.
    ("kernel", ("bpf", "io_uring_setup", "io_uring_enter", "io_uring_register",
                "userfaultfd", "add_key", "request_key", "keyctl", "init_module",
                "finit_module", "delete_module", "kexec_load", "kexec_file_load",
                "perf_event_open", "reboot", "swapon", "swapoff", "acct", "quotactl",
                "name_to_handle_at", "open_by_handle_at", "personality", "memfd_create",
                "memfd_secret", "uselib", "ustat", "lookup_dcookie", "iopl", "ioperm",
                "sethostname", "setdomainname")),
)  # fmt: skip

#: ioctl requests that may pass (terminal queries from isatty and
#: get_terminal_size, FIONREAD, non-blocking and close-on-exec flags).
IOCTL_ALLOWED: dict[str, int] = {
    "TCGETS": 0x5401, "TIOCGWINSZ": 0x5413, "FIONREAD": 0x541B, "FIONBIO": 0x5421,
    "FIONCLEX": 0x5450, "FIOCLEX": 0x5451, "TCGETS2": 0x802C542A,
}  # fmt: skip
#: fcntl commands that may pass: dup, fd and status flags, record locks.
FCNTL_ALLOWED: dict[str, int] = {
    "F_DUPFD": 0, "F_GETFD": 1, "F_SETFD": 2, "F_GETFL": 3, "F_SETFL": 4, "F_GETLK": 5,
    "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37, "F_OFD_SETLKW": 38,
    "F_DUPFD_CLOEXEC": 1030, "F_GET_SEALS": 1034,
}  # fmt: skip
#: prctl options that may pass: reads, and naming one's own thread.
PRCTL_ALLOWED: dict[str, int] = {
    "PR_GET_DUMPABLE": 3, "PR_SET_NAME": 15, "PR_GET_NAME": 16, "PR_GET_SECCOMP": 21,
    "PR_CAPBSET_READ": 23, "PR_GET_NO_NEW_PRIVS": 39, "PR_SET_VMA": 0x53564D41,
}  # fmt: skip

_PID_ARG0 = frozenset({"kill", "tgkill", "prlimit64", "sched_getaffinity"})
_CLOCK_ARG0 = frozenset({"clock_gettime", "clock_getres", "clock_nanosleep"})


def supported() -> bool:
    return platform.system() == "Linux" and platform.machine() in _ARCH


def table() -> dict[str, int]:
    return X86_64 if platform.machine() == "x86_64" else AARCH64


def allowed_names(*, allow_exec: bool) -> list[str]:
    names = [n for _group, members in ALLOW for n in members]
    if allow_exec:
        names += EXEC_EXTRA
    return names


def denied_names() -> list[str]:
    return [n for _group, members in DENY for n in members]


def _ins(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _arg(index: int, high: bool = False) -> int:
    """Offset of an argument's low (or high) 32-bit word in seccomp_data."""
    return 16 + 8 * index + (4 if high else 0)


def _one_of(index: int, values: Iterable[int], *, deny: int, check_high: bool) -> list[bytes]:
    """Allow when argument `index` equals one of `values`, else `deny`.

    With `check_high`, the upper 32 bits must be zero as well (for pids; for
    ioctl/fcntl/prctl commands the kernel itself uses only the low 32 bits).
    """
    vals = sorted(set(values))
    body: list[bytes] = []
    if check_high:
        # hi != 0 -> jump over the value checks to the deny return.
        body += [_ins(_LD_W_ABS, 0, 0, _arg(index, high=True)),
                 _ins(_JEQ, 0, len(vals) + 1, 0)]  # fmt: skip
    body.append(_ins(_LD_W_ABS, 0, 0, _arg(index)))
    for i, v in enumerate(vals):
        body.append(_ins(_JEQ, len(vals) - i, 0, v))  # -> RET ALLOW
    body += [_ins(_RET, 0, 0, deny), _ins(_RET, 0, 0, RET_ALLOW)]
    return body


def _non_negative(index: int, *, deny: int) -> list[bytes]:
    """Allow when argument `index`, a 32-bit int (clockid_t), is >= 0."""
    return [
        _ins(_LD_W_ABS, 0, 0, _arg(index)),
        _ins(_JSET, 0, 1, 0x80000000),  # sign bit -> deny
        _ins(_RET, 0, 0, deny),
        _ins(_RET, 0, 0, RET_ALLOW),
    ]


def _clone_body(*, deny: int, threads_only: bool) -> list[bytes]:
    body = [
        _ins(_LD_W_ABS, 0, 0, _arg(0)),
        _ins(_JSET, 0, 1, CLONE_NAMESPACES),  # any namespace flag -> deny
        _ins(_RET, 0, 0, deny),
    ]
    if threads_only:
        body += [_ins(_JSET, 1, 0, CLONE_THREAD), _ins(_RET, 0, 0, deny)]
    body.append(_ins(_RET, 0, 0, RET_ALLOW))
    return body


def build_filter(*, allow_exec: bool, own_pid: int) -> bytes:
    """The BPF program as bytes (8 bytes per instruction)."""
    machine = platform.machine()
    numbers = table()
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
    for name in allowed_names(allow_exec=allow_exec):
        nr = numbers.get(name)
        if nr is None:
            continue  # a legacy call this architecture does not have
        if name == "clone3":
            body = [_ins(_RET, 0, 0, RET_ERRNO | errno.ENOSYS)]
        elif name == "clone":
            body = _clone_body(deny=deny, threads_only=not allow_exec)
        elif name in _PID_ARG0:
            body = _one_of(0, (0, own_pid), deny=deny, check_high=True)
        elif name in _CLOCK_ARG0:
            body = _non_negative(0, deny=deny)
        elif name == "fallocate":
            body = _one_of(1, (0,), deny=deny, check_high=False)
        elif name == "ioctl":
            body = _one_of(1, IOCTL_ALLOWED.values(), deny=deny, check_high=False)
        elif name == "fcntl":
            body = _one_of(1, FCNTL_ALLOWED.values(), deny=deny, check_high=False)
        elif name == "prctl":
            body = _one_of(0, PRCTL_ALLOWED.values(), deny=deny, check_high=False)
        else:
            body = [_ins(_RET, 0, 0, RET_ALLOW)]
        prog.append(_ins(_JEQ, 0, len(body), nr))
        prog += body
    for name in denied_names():
        nr = numbers.get(name)
        if nr is not None and not (allow_exec and name in EXEC_EXTRA):
            prog += [_ins(_JEQ, 0, 1, nr), _ins(_RET, 0, 0, deny)]
    prog.append(_ins(_RET, 0, 0, RET_ERRNO | errno.ENOSYS))
    if len(prog) > 4096:
        raise ValueError("seccomp program longer than the kernel's limit")
    return b"".join(prog)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(*, allow_exec: bool = False) -> None:
    """Load the filter into the calling thread (children and threads inherit it).

    Sets no_new_privs first (required for an unprivileged filter, and it keeps
    a set-uid program from regaining anything after an allowed execve).
    """
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
