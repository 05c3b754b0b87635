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
3. The child points its stdout/stderr at files on the tmpfs (the inherited
   ones are host files), sends a descriptor of the tmpfs root to its parent
   (the zygote, or the backend for a cold spawn) over an inherited Unix
   socket, closes the socket, and confines itself. When the child has
   exited, the parent appends the tail of each stream to the host files and
   copies what the job left (figure, markers) from the tmpfs to the real
   work folder: iteratively, at most COPY_MAX_DEPTH folders deep, `files`
   entries and `disk_bytes` bytes, regular files and folders only (links
   refused); then it drops the descriptor (the tmpfs goes with it) and
   removes the cgroup. Nothing a job leaves there can make the copy raise
   into the zygote's loop or the backend.

Where a step is impossible (no user namespaces for this user, e.g. Ubuntu's
AppArmor restriction, or no writable pids cgroup for root), the job still
runs under Landlock + seccomp + rlimits and `IsolationReport.missing` says
what was not capped; `linux.confine` includes it in its description.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import resource
import socket
import stat
import sys
from collections.abc import Iterable
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
    minimal_root: bool = False
    missing: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = []
        if self.tmpfs:
            parts.append("tmpfs")
        if self.minimal_root:
            parts.append("pivot")
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


# ---- a root that holds only what the job may read ----------------------------

MS_BIND = 0x1000
MNT_DETACH = 2
_ROOT_DIR = ".lw-root"
_DEVICES = ("/dev/null", "/dev/urandom")


def _graft(new_root: str, path: str, bound: list[str], depth: int = 0) -> None:
    """Make `path` resolve inside `new_root` as it does now: symlinked
    components become the same symlinks, the real tree a recursive bind mount."""
    if depth > 16:
        raise OSError(40, f"too many levels of links in {path}")
    cur = "/"
    parts = [p for p in os.path.normpath(path).split("/") if p]
    for i, comp in enumerate(parts):
        nxt = os.path.join(cur, comp)
        if os.path.islink(nxt):
            link = new_root + nxt
            os.makedirs(os.path.dirname(link), exist_ok=True)
            if not os.path.lexists(link):
                os.symlink(os.readlink(nxt), link)
            rest = os.path.join(os.path.realpath(nxt), *parts[i + 1 :])
            _graft(new_root, rest, bound, depth + 1)
            return
        cur = nxt
    real = cur
    if not os.path.exists(real) or any(real == b or real.startswith(b + "/") for b in bound):
        return
    target = new_root + real
    if os.path.isdir(real):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600))
    _check(
        _libc().mount(real.encode(), target.encode(), None, MS_BIND | MS_REC, None),
        f"bind mount of {real}",
    )
    bound.append(real)


def _pivot_to_minimal_root(work_dir: str, read_roots: list[str]) -> None:
    libc = _libc()
    new_root = os.path.join(work_dir, _ROOT_DIR)
    os.mkdir(new_root, 0o700)
    _check(
        libc.mount(b"tmpfs", new_root.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                   b"size=4m,nr_inodes=8192,mode=0755"),
        "mount(root tmpfs)",
    )  # fmt: skip
    bound: list[str] = []
    for root in sorted(set(read_roots) | set(_DEVICES), key=len):
        _graft(new_root, root, bound)
    # The job's own tmpfs, without the new root mounted inside it.
    target = new_root + work_dir
    os.makedirs(target, exist_ok=True)
    _check(libc.mount(work_dir.encode(), target.encode(), None, MS_BIND, None), "bind work")
    os.chdir(new_root)
    from .seccomp import table

    # pivot_root(".", "."): the old root ends up stacked on the new one and
    # is detached right away (no put_old directory needed).
    _check(0 if libc.syscall(table()["pivot_root"], b".", b".") == 0 else -1, "pivot_root")
    _check(libc.umount2(b".", MNT_DETACH), "umount2(old root)")
    os.chdir("/")
    os.chdir(work_dir)


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
    """The job's pids cgroup: named after the work folder's whole path.

    Named after the folder's base name once, two jobs in folders called
    "work" (two test runs, or two callers' work folders) shared one cgroup:
    one job's clean-up removed it between the other's mkdir and join, a third
    job's mkdir made a fresh one at pids.max "max", and a thread bomb joined
    it before its cap was written (63 live threads under a cap of 32). One
    folder holds one job at a time, so its path names one job.
    """
    parent = _pids_parent()
    if parent is None:
        return None
    real = os.path.realpath(work_dir)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return os.path.join(parent, CGROUP_PREFIX + digest)


def remove_cgroup(work_dir: str) -> None:
    """Remove the job's pids cgroup if it is still there (the parent that
    should have collected the job died first). An empty cgroup is rmdir'ed."""
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

#: Folder depth the copy-out descends to. A job made a chain of 1,500 nested
#: folders: a recursive copy raised RecursionError in the parent (escaping
#: run_code in cold mode, killing the warm zygote in fork mode) and left a
#: ~1,000-level tree behind. A figure needs no deep tree; deeper levels stay
#: in the tmpfs and vanish with it.
COPY_MAX_DEPTH = 16
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _open_below(root_fd: int, parts: tuple[str, ...]) -> int:
    """Open the folder `parts` below `root_fd`, one component at a time,
    never following a link; the caller closes the descriptor."""
    fd = os.dup(root_fd)
    try:
        for part in parts:
            nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def _copy_out(src_fd: int, dst_fd: int, budget: list[int], entries: int) -> None:
    """Copy regular files and folders from src to dst, breadth first.

    Iterative, with caps on depth (COPY_MAX_DEPTH), entries (`entries`) and
    bytes (`budget[0]`); at most four descriptors are open at a time. Links
    are refused (never followed, never recreated), FIFOs and devices skipped,
    and an existing name in dst is never replaced (stdout.txt, stderr.txt and
    job.json there are ours).
    """
    pending: list[tuple[str, ...]] = [()]
    seen = 0
    while pending and seen < entries and budget[0] > 0:
        parts = pending.pop(0)
        try:
            src = _open_below(src_fd, parts)
        except OSError:
            continue
        try:
            try:
                dst = _open_below(dst_fd, parts)
            except OSError:
                continue
            try:
                with os.scandir(src) as listing:
                    for entry in listing:
                        seen += 1
                        if seen > entries or budget[0] <= 0:
                            break
                        _copy_entry(src, dst, entry.name, parts, pending, budget)
            finally:
                os.close(dst)
        finally:
            os.close(src)


def _copy_entry(
    src: int,
    dst: int,
    name: str,
    parts: tuple[str, ...],
    pending: list[tuple[str, ...]],
    budget: list[int],
) -> None:
    try:
        st = os.stat(name, dir_fd=src, follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        if len(parts) >= COPY_MAX_DEPTH:
            return
        try:
            os.mkdir(name, 0o700, dir_fd=dst)
        except FileExistsError:
            pass
        except OSError:
            return
        pending.append((*parts, name))
    elif stat.S_ISREG(st.st_mode):
        _copy_file(src, dst, name, budget)


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
            _copy_bytes(fin, fout, budget)
        finally:
            os.close(fout)
    finally:
        os.close(fin)


def _copy_bytes(fin: int, fout: int, budget: list[int]) -> None:
    while budget[0] > 0:
        chunk = os.read(fin, min(_COPY_CHUNK, budget[0]))
        if not chunk:
            break
        os.write(fout, chunk)
        budget[0] -= len(chunk)


# ---- the job's output streams -------------------------------------------------

#: What of each output stream the parent keeps: runner reads this much of
#: the tail too.
STREAM_TAIL = 64 * 1024


def _streams_to_tmpfs(work_dir: str) -> None:
    """Point fds 1 and 2 at files on the job's tmpfs.

    The inherited stdout/stderr are files the parent opened on the host
    disk: a job reserved 200 MiB on each with fallocate(FALLOC_FL_KEEP_SIZE)
    past the file-size limit (seccomp now refuses that mode too). On the
    tmpfs, output counts against the job's byte cap; `collect` appends the
    tail of each stream to the host file.
    """
    from .job import STDERR_FILE, STDOUT_FILE

    sys.stdout.flush()
    sys.stderr.flush()
    for name, target in ((STDOUT_FILE, 1), (STDERR_FILE, 2)):
        fd = os.open(
            os.path.join(work_dir, name),
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        os.dup2(fd, target)
        os.close(fd)


def _append_stream_tails(root: int, disk: int) -> None:
    """Append the last STREAM_TAIL bytes of the job's streams on its tmpfs to
    the host files (which hold what was written before the tmpfs)."""
    from .job import STDERR_FILE, STDOUT_FILE

    for name in (STDOUT_FILE, STDERR_FILE):
        try:
            fin = os.open(
                name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=root
            )
        except OSError:
            continue
        try:
            st = os.fstat(fin)
            if not stat.S_ISREG(st.st_mode):
                continue
            os.lseek(fin, max(0, st.st_size - STREAM_TAIL), os.SEEK_SET)
            flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
            try:
                fout = os.open(name, flags, dir_fd=disk)
            except OSError:
                continue
            try:
                _copy_bytes(fin, fout, [STREAM_TAIL])
            finally:
                os.close(fout)
        finally:
            os.close(fin)


# ---- handing the tmpfs to the parent -----------------------------------------

#: The environment variable naming the descriptor (a Unix socket inherited
#: from the parent) over which the child sends its tmpfs root.
FD_ENV = "LABWRIGHT_SANDBOX_FD"


def prepare(
    work_dir: str, limits: Limits, sock_fd: int | None, read_roots: Iterable[str] = ()
) -> IsolationReport:
    """In the sandbox child, before it confines itself: cover the work folder
    with a capped tmpfs, cap threads, and hand the tmpfs root to the parent.

    With `read_roots`, the child then pivots into a root that holds only
    those trees (bind mounts), its work folder and /dev/null, /dev/urandom:
    stat, readlink and access of any other path fail with ENOENT, which
    Landlock cannot give (it has no right for them) and seccomp cannot
    (it cannot read a path argument).

    The parent (the fork-server's zygote, or the backend for a cold spawn)
    receives a descriptor of the tmpfs root over `sock_fd` and copies the job's
    files out after the child has exited (`collect`): an open descriptor keeps
    the tmpfs alive after its mount namespace is gone. This costs no extra
    process (a supervisor fork of a process with the plotting stack loaded
    measured ~80 ms).
    """
    report = IsolationReport()
    from .linux import thread_count

    if thread_count() != 1:
        # Checked here, while /proc is still visible: a thread that exists
        # before confinement would keep its rights (and its namespaces).
        raise RuntimeError("refusing to isolate a multi-threaded process")
    userns = False
    try:
        userns = _new_mount_namespace()
        if sock_fd is None:
            # Started without a parent that collects (a hand-run child): a
            # tmpfs would take the figure with it when the child exits.
            report.missing.append("bytes and files (no parent to collect them)")
        else:
            _mount_tmpfs(work_dir, limits)
            report.tmpfs = True
    except OSError as exc:
        report.missing.append(f"bytes and files ({exc.strerror or exc})")
    if report.tmpfs:
        os.chdir(work_dir)  # the tmpfs root, not the folder it covers
        os.mkdir(os.path.join(work_dir, ".mpl"), 0o700)
    # Before the pivot: finding our cgroup needs /proc.
    cgroup = _make_cgroup(work_dir, limits) if os.geteuid() == 0 else None
    if cgroup:
        _write(os.path.join(cgroup, "cgroup.procs"), str(os.getpid()))
        report.pids = "cgroup"
    elif userns:
        # Counted per (user namespace, uid): only this job's tasks.
        n = int(limits.processes)
        resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
        report.pids = "userns-nproc"
    else:
        report.missing.append("threads")
    if sock_fd is not None:
        try:
            if report.tmpfs:
                _streams_to_tmpfs(work_dir)
                root = os.open(work_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                try:
                    with socket.socket(fileno=os.dup(sock_fd)) as sock:
                        socket.send_fds(sock, [b"r"], [root])
                finally:
                    os.close(root)
        finally:
            os.close(sock_fd)  # the untrusted code never holds the socket
    roots = list(read_roots)
    if report.tmpfs and roots:
        try:
            _pivot_to_minimal_root(work_dir, roots)
            report.minimal_root = True
        except OSError as exc:
            report.missing.append(f"hidden outside paths ({exc.strerror or exc})")
    return report


def channel() -> tuple[socket.socket, socket.socket]:
    """(parent end, child end) for `prepare`/`collect`; the child end is inheritable."""
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    child.set_inheritable(True)
    return parent, child


def collect(parent_end: socket.socket, work_dir: str, limits: Limits) -> None:
    """In the parent, after the child has exited: copy the job's files from
    its tmpfs into the real work folder (at most `disk_bytes`), drop the tmpfs
    and the job's cgroup. Problems are reported on stderr, never raised."""
    root = None
    try:
        parent_end.setblocking(False)
        try:
            _msg, fds, _flags, _addr = socket.recv_fds(parent_end, 16, 4)
        except (BlockingIOError, OSError):
            fds = []
        for extra in fds[1:]:
            os.close(extra)
        root = fds[0] if fds else None
        if root is not None:
            disk = os.open(work_dir, _DIR_FLAGS)
            try:
                _append_stream_tails(root, disk)
                _copy_out(root, disk, [int(limits.disk_bytes)], int(limits.files))
            finally:
                os.close(disk)
    except Exception as exc:  # noqa: BLE001 - a job's tree must never kill the zygote
        print(f"labwright: could not collect the sandbox job's files: {exc}", file=sys.stderr)
    finally:
        if root is not None:
            os.close(root)
        parent_end.close()
        remove_cgroup(work_dir)
