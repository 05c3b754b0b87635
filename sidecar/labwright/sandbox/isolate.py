"""Per-job caps that rlimits cannot give on Linux: threads, bytes and files.

Why not rlimits: RLIMIT_NPROC counts every task of the *user* machine-wide
(a desktop user has hundreds) and never binds uid 0 (the kernel exempts
INIT_USER); RLIMIT_FSIZE caps one file, not a job (the attack run wrote
1.24 GiB as many files under a 128 MiB per-file cap).

What we do instead, inside the sandbox child before it confines itself:

1. A private mount namespace (root: `unshare(CLONE_NEWNS)`; any other user:
   `unshare(CLONE_NEWUSER | CLONE_NEWNS)` with the user mapped to itself) and a
   tmpfs mounted over the job's work folder with `size=` (total bytes) and
   `nr_inodes=` (files and folders), `nosuid,nodev,noexec`. Everything the job
   writes lands there; the kernel refuses the byte or file over the cap with
   ENOSPC. Files cannot be made immutable or given device semantics there,
   and the whole tree disappears with the namespace.
2. Threads: a pids cgroup with `pids.max` when we are root (cgroup v1 `pids`
   hierarchy, or v2 where the controller is enabled for our cgroup); for any
   other user, RLIMIT_NPROC *inside the new user namespace*, where the kernel
   counts only the tasks of this namespace (ucounts, Linux >= 5.14), i.e. only
   this job's threads.
3. A fork: the *supervisor* (this trusted process, still unconfined) keeps the
   namespace alive, the *worker* confines itself and runs the job. When the
   worker has exited, the supervisor copies what it left (figure, markers) from
   the tmpfs to the real work folder, at most the cap's worth of bytes, never
   following a link, then removes the cgroup and exits with the worker's status.

Where a step is impossible (no user namespaces for this user, e.g. Ubuntu's
AppArmor restriction, or no writable pids cgroup for root), the job still
runs under Landlock + seccomp + rlimits and `IsolationReport.missing` says
what was not capped; `linux.confine` includes it in its description.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from .limits import Limits

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

CGROUP_PREFIX = "labwright-"
_COPY_CHUNK = 1 << 20


@dataclass
class IsolationReport:
    tmpfs: bool = False
    pids: str = ""  # "cgroup", "userns-nproc" or "" (not capped)
    missing: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = []
        if self.tmpfs:
            parts.append("tmpfs")
        if self.pids:
            parts.append(f"pids:{self.pids}")
        return "+".join(parts) + (
            f" (not capped: {', '.join(self.missing)})" if self.missing else ""
        )


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(res: int, what: str) -> None:
    if res != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _new_mount_namespace() -> bool:
    """Enter a private mount namespace; True when in a new user namespace too."""
    libc = _libc()
    if os.geteuid() == 0:
        _check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
        userns = False
    else:
        uid, gid = os.geteuid(), os.getegid()
        _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare(CLONE_NEWUSER|CLONE_NEWNS)")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"0 {uid} 1")
        _write("/proc/self/gid_map", f"0 {gid} 1")
        userns = True
    # Nothing we mount may propagate back to the host's namespace.
    _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount(MS_PRIVATE)")
    return userns


def _mount_tmpfs(path: str, limits: Limits) -> None:
    opts = f"size={int(limits.disk_bytes)},nr_inodes={int(limits.files)},mode=0700"
    _check(
        _libc().mount(
            b"tmpfs", path.encode(), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts.encode()
        ),
        "mount(tmpfs)",
    )


# ---- pids cgroup (root) ------------------------------------------------------


def _pids_parent() -> str | None:
    """The pids cgroup directory this process sits in, if we may create children."""
    try:
        with open("/proc/self/cgroup", encoding="ascii") as fh:
            lines = fh.read().splitlines()
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            mounts = fh.read().splitlines()
    except OSError:
        return None
    own_v1 = own_v2 = None
    for line in lines:
        hid, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            own_v1 = path
        if hid == "0":
            own_v2 = path
    for m in mounts:
        fields = m.split(" - ")
        if len(fields) != 2:
            continue
        left, right = fields[0].split(), fields[1].split()
        fstype, mnt, opts = right[0], left[4], right[2] if len(right) > 2 else ""
        if fstype == "cgroup" and own_v1 is not None and "pids" in opts.split(","):
            root = left[3]
            rel = own_v1[len(root) :] if own_v1.startswith(root) else own_v1
            cand = os.path.join(mnt, rel.lstrip("/"))
            if os.access(cand, os.W_OK):
                return cand
    for m in mounts:
        fields = m.split(" - ")
        if len(fields) == 2 and fields[1].split()[0] == "cgroup2" and own_v2 is not None:
            cand = os.path.join(fields[0].split()[4], own_v2.lstrip("/"))
            try:
                with open(os.path.join(cand, "cgroup.subtree_control"), encoding="ascii") as fh:
                    enabled = fh.read().split()
            except OSError:
                continue
            if "pids" in enabled and os.access(cand, os.W_OK):
                return cand
    return None


def cgroup_path(work_dir: str) -> str | None:
    parent = _pids_parent()
    if parent is None:
        return None
    return os.path.join(parent, CGROUP_PREFIX + os.path.basename(os.path.normpath(work_dir)))


def remove_cgroup(work_dir: str) -> None:
    """Remove the job's pids cgroup if it is still there (the supervisor was
    killed on a timeout). An empty cgroup is removed with rmdir."""
    path = cgroup_path(work_dir)
    if path and os.path.isdir(path):
        try:
            os.rmdir(path)
        except OSError as exc:
            print(f"labwright: could not remove cgroup {path}: {exc}", file=sys.stderr)


def _make_cgroup(work_dir: str, limits: Limits) -> str | None:
    path = cgroup_path(work_dir)
    if path is None:
        return None
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        _write(os.path.join(path, "pids.max"), str(int(limits.processes)))
    except OSError:
        os.rmdir(path)
        return None
    return path


# ---- copying the job's files out of the tmpfs ------------------------------


def _copy_out(src_fd: int, dst_fd: int, budget: list[int]) -> None:
    """Copy regular files, folders and links (as links) from src to dst.

    Never follows a link, never blocks on a FIFO, never replaces an existing
    name in dst (stdout.txt, stderr.txt and job.json there are ours).
    """
    for entry in os.scandir(src_fd):
        name = entry.name
        try:
            st = os.stat(name, dir_fd=src_fd, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                os.mkdir(name, 0o700, dir_fd=dst_fd)
            except FileExistsError:
                pass
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
            try:
                s2 = os.open(name, flags, dir_fd=src_fd)
            except OSError:
                continue
            try:
                d2 = os.open(name, flags, dir_fd=dst_fd)
            except OSError:
                os.close(s2)
                continue
            try:
                _copy_out(s2, d2, budget)
            finally:
                os.close(s2)
                os.close(d2)
        elif stat.S_ISLNK(st.st_mode):
            try:
                os.symlink(os.readlink(name, dir_fd=src_fd), name, dir_fd=dst_fd)
            except OSError:
                pass
        elif stat.S_ISREG(st.st_mode):
            _copy_file(src_fd, dst_fd, name, budget)


def _copy_file(src_fd: int, dst_fd: int, name: str, budget: list[int]) -> None:
    try:
        fin = os.open(
            name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=src_fd
        )
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fin).st_mode):
            return
        try:
            fout = os.open(
                name,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o600,
                dir_fd=dst_fd,
            )
        except OSError:
            return
        try:
            while budget[0] > 0:
                chunk = os.read(fin, min(_COPY_CHUNK, budget[0]))
                if not chunk:
                    break
                os.write(fout, chunk)
                budget[0] -= len(chunk)
        finally:
            os.close(fout)
    finally:
        os.close(fin)


# ---- the supervisor ---------------------------------------------------------


def _exit_like(status: int) -> int:
    """Return the worker's exit code, or die of the same signal it died of."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        return 128 + sig
    return os.waitstatus_to_exitcode(status)


def run_isolated(work_dir: str, limits: Limits, worker: Callable[[IsolationReport], int]) -> int:
    """Run `worker` in a forked process whose writes and threads are capped.

    `worker` gets the report (so confinement can describe it) and must confine
    itself; its return value is the exit code. Returns the exit code here.
    """
    report = IsolationReport()
    disk_fd = os.open(work_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    userns = False
    try:
        userns = _new_mount_namespace()
        _mount_tmpfs(work_dir, limits)
        report.tmpfs = True
    except OSError as exc:
        report.missing.append(f"bytes and files ({exc.strerror or exc})")
    if report.tmpfs:
        os.chdir(work_dir)  # the tmpfs root, not the folder it covers
        os.mkdir(os.path.join(work_dir, ".mpl"), 0o700)
    cgroup = _make_cgroup(work_dir, limits) if os.geteuid() == 0 else None
    if cgroup:
        report.pids = "cgroup"
    elif userns:
        report.pids = "userns-nproc"
    else:
        report.missing.append("threads")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            os.close(disk_fd)
            if cgroup:
                _write(os.path.join(cgroup, "cgroup.procs"), str(os.getpid()))
            elif userns:
                # Counted per (user namespace, uid): only this job's tasks,
                # plus the supervisor.
                n = int(limits.processes) + 1
                resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
            code = worker(report)
        except BaseException as exc:  # noqa: BLE001 - never return into the caller's stack
            print(f"sandbox: isolation failed: {exc}", file=sys.stderr)
            code = 4
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    try:
        if report.tmpfs:
            src = os.open(work_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                _copy_out(src, disk_fd, [int(limits.disk_bytes)])
            finally:
                os.close(src)
    except OSError as exc:
        print(f"sandbox: could not collect the job's files: {exc}", file=sys.stderr)
    finally:
        os.close(disk_fd)
        if cgroup:
            try:
                os.rmdir(cgroup)
            except OSError as exc:
                if exc.errno != errno.ENOENT:
                    print(f"sandbox: could not remove cgroup: {exc}", file=sys.stderr)
    return _exit_like(status)
