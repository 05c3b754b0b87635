"""What runs inside the sandboxed process (cold spawn or fork-server child).

Sequence, identical in both modes:
  1. (cold only) import the plotting stack while still trusted;
  2. confine the process (OS layer) — before the untrusted bytes are even parsed;
  3. install the audit hook;
  4. check and compile the exact bytes (Layer 1), exec the compiled code object.
Exit codes: 0 ran, 2 setup failure, 3 policy rejection, 4 confinement failure,
1 the plotting code raised.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .job import Job

EXIT_OK = 0
EXIT_CODE_ERROR = 1
EXIT_SETUP = 2
EXIT_POLICY = 3
EXIT_CONFINE = 4

PREIMPORTS = ("numpy", "matplotlib", "matplotlib.pyplot")
WARM_PREIMPORTS = PREIMPORTS + (
    "pandas",
    "scipy",
    "scipy.optimize",
    "scipy.io",
    "scipy.stats",
    "scipy.signal",
    "scipy.interpolate",
    "matplotlib.ticker",
    "matplotlib.colors",
)


def preimport(modules: tuple[str, ...] = PREIMPORTS) -> None:
    import importlib

    os.environ.setdefault("MPLBACKEND", "Agg")
    for name in modules:
        importlib.import_module(name)
    import matplotlib

    matplotlib.use("Agg")


def run_job(job_path: str) -> int:
    """Run one job in this process; returns the exit code (never raises)."""
    from .job import Job

    try:
        job = Job.load(job_path)
        source = job.code_path.read_bytes()
        os.makedirs(os.path.join(job.work_dir, ".mpl"), exist_ok=True)
        os.chdir(job.work_dir)
        # A fork-server child inherited the zygote's HOME/TMPDIR; point them
        # (and tempfile's cached choice) at this job's directory.
        import tempfile

        from .env import scrubbed_env

        os.environ.update(scrubbed_env(job.work_dir))
        tempfile.tempdir = job.work_dir
    except Exception:  # noqa: BLE001 - report and stop
        traceback.print_exc()
        return EXIT_SETUP
    sock = os.environ.pop("LABWRIGHT_SANDBOX_FD", None)
    isolation = ""
    if job.confine and sys.platform.startswith("linux"):
        # Threads, bytes and files are capped per job (isolate.py): a tmpfs
        # over the work folder, handed to the parent, and a thread cap.
        from .isolate import prepare
        from .limits import Limits

        try:
            report = prepare(job.work_dir, Limits.from_dict(job.limits), _fd(sock), job.read_roots)
        except Exception as exc:  # noqa: BLE001
            print(f"sandbox: isolation failed: {exc}", file=sys.stderr)
            return EXIT_CONFINE
        isolation = report.describe()
    elif sock is not None and _fd(sock) is not None:
        os.close(int(sock))
    return _confined(job, source, isolation)


def _fd(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() else None


def _confined(job: Job, source: bytes, isolation: str) -> int:
    """Confine (when the job asks), then check and run the code.

    `source` was read before isolate.py covered the work folder with a tmpfs.
    """
    if job.confine:
        try:
            from .confine import confine
            from .limits import Limits

            confine(
                job.read_roots,
                job.work_dir,
                False,
                limits=Limits.from_dict(job.limits),
                isolation=isolation,
            )
        except Exception as exc:  # noqa: BLE001
            print(f"sandbox: confinement failed: {exc}", file=sys.stderr)
            return EXIT_CONFINE
    from .guard import forget_raw_handles

    forget_raw_handles()  # the confiner's libc handles: nothing of ours needs them now
    if job.audit_hook:
        from .guard import install_audit_hook

        install_audit_hook(job.read_roots, job.work_dir)
    from .policy import PolicyError, check_and_compile, compile_unchecked

    try:
        code = check_and_compile(source) if job.policy else compile_unchecked(source)
    except PolicyError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_POLICY
    except SyntaxError:
        traceback.print_exc(limit=0)
        return EXIT_CODE_ERROR
    namespace = _namespace(job)
    try:
        exec(code, namespace)  # noqa: S102 - the whole point, under confinement
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_CODE_ERROR
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        return EXIT_CODE_ERROR
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return EXIT_OK


def _namespace(job: object) -> dict[str, object]:
    import matplotlib.pyplot as plt
    import numpy as np

    from .guard import runtime_helpers
    from .primitives import make_primitives

    ns: dict[str, object] = {"__name__": "__main__", "np": np, "plt": plt}
    if job.policy:  # type: ignore[attr-defined]
        ns.update(runtime_helpers())  # the checks a policy-compiled code object calls
    ns.update(make_primitives(job.data_root))  # type: ignore[attr-defined]
    ns["OUT"] = str(job.out_path)  # type: ignore[attr-defined]
    return ns


def main(job_path: str) -> None:
    """Entry of the cold child (`python -I script` or the frozen dispatch)."""
    try:
        preimport()
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        os._exit(EXIT_SETUP)
    code = run_job(job_path)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
