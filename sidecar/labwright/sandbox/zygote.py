"""The fork-server's zygote: a trusted process that has already imported the
plotting stack and forks one child per request.

It starts from the scrubbed environment, so it holds no secrets that a child
could inherit. It never runs untrusted code itself: each forked child leaves
the zygote's session, rewires its stdio to files in its own work directory,
closes every other descriptor (including the request pipes), and then goes
through exactly the cold child's `run_job` — confinement first.

Protocol on stdin/stdout: one JSON line per request {"job": path,
"wall": seconds} and one JSON line per reply {"returncode": n|null,
"timed_out": bool}. The zygote's own fd 1 is redirected to stderr so that
import-time prints cannot corrupt the protocol.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time


def _warm_up() -> None:
    from .child import WARM_PREIMPORTS, preimport

    preimport(WARM_PREIMPORTS)
    import io

    import matplotlib.pyplot as plt
    import numpy as np

    # Draw a representative figure once, so that font files, glyph and
    # mathtext caches, and the Agg paths are loaded before any fork: each
    # child then starts with them in (copy-on-write) memory.
    rng = np.random.default_rng(0)
    fig, axes = plt.subplots(1, 3, figsize=(8, 3))
    x = np.linspace(0, 1, 50)
    axes[0].plot(x, x**2, "o-", label=r"$\alpha x^2 \sin(\omega t) e^{-t/\tau}$")
    axes[0].errorbar(x[::10], x[::10], yerr=0.1, fmt="s", capsize=2)
    axes[0].legend()
    axes[0].set_xlabel("x (s)")
    axes[0].set_ylabel(r"$\chi^{\prime\prime}$")
    axes[1].hist(rng.normal(size=500), bins=20)
    axes[1].set_yscale("log")
    image = axes[2].imshow(rng.random((8, 8)))
    fig.colorbar(image, ax=axes[2])
    fig.suptitle("warm-up")
    fig.tight_layout()
    fig.savefig(io.BytesIO(), format="png", dpi=100)
    plt.close(fig)
    import gc

    # Move everything imported so far out of the collector's sight: a child's
    # first collection would otherwise touch (and copy) every page.
    gc.collect()
    gc.freeze()


def _child(job_path: str, stdout_path: str, stderr_path: str, sock_fd: int) -> None:
    code = 2
    try:
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        fd_in = os.open(os.devnull, os.O_RDONLY)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        fd_out = os.open(stdout_path, flags, 0o600)
        fd_err = os.open(stderr_path, flags, 0o600)
        os.dup2(fd_in, 0)
        os.dup2(fd_out, 1)
        os.dup2(fd_err, 2)
        # fd 3: the socket over which isolate.prepare hands its tmpfs to us.
        os.dup2(sock_fd, 3)
        # Every other descriptor, up to the hard limit (a fixed 65536 left
        # any above it open); Linux closes them with one close_range call.
        os.closerange(4, _fd_ceiling())
        os.environ["LABWRIGHT_SANDBOX_FD"] = "3"
        from .child import run_job

        code = run_job(job_path)
    except BaseException:  # noqa: BLE001 - nothing may escape into the zygote loop
        code = 2
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _fd_ceiling() -> int:
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return 2**31 - 1 if hard == resource.RLIM_INFINITY else int(hard)


def _wait(pid: int, wall: float) -> tuple[int | None, bool]:
    deadline = time.monotonic() + wall
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        # Linux >= 5.3: a descriptor that becomes readable when the child
        # exits, so the reply goes out at once instead of at the next poll.
        try:
            fd = pidfd_open(pid)
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                select.select([fd], [], [], wall)
            finally:
                os.close(fd)
    delay = 0.002
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() >= deadline:
            for kill in (
                lambda: os.killpg(pid, signal.SIGKILL),
                lambda: os.kill(pid, signal.SIGKILL),
            ):
                try:
                    kill()
                except OSError:
                    pass
            os.waitpid(pid, 0)
            return None, True
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def main() -> None:
    proto_out = os.dup(1)
    os.dup2(2, 1)
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the backend
    _warm_up()
    from .isolate import channel, collect
    from .job import STDERR_FILE, STDOUT_FILE, Job
    from .limits import Limits

    os.write(proto_out, b'{"ready": true}\n')
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            os._exit(0)
        try:
            request = json.loads(line)
            job_path = str(request["job"])
            wall = float(request["wall"])
            job = Job.load(job_path)
            work = job.work_dir
            limits = Limits.from_dict(job.limits)
        except Exception as exc:  # noqa: BLE001
            os.write(proto_out, (json.dumps({"error": str(exc)}) + "\n").encode())
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        parent_end, child_end = channel()
        pid = os.fork()
        if pid == 0:
            _child(
                job_path,
                os.path.join(work, STDOUT_FILE),
                os.path.join(work, STDERR_FILE),
                child_end.fileno(),
            )
        child_end.close()
        returncode, timed_out = _wait(pid, wall)
        collect(parent_end, work, limits)
        reply = {"returncode": returncode, "timed_out": timed_out}
        os.write(proto_out, (json.dumps(reply) + "\n").encode())
