"""Derive the sandbox's syscall allow-list from the legitimate plot corpus.

Runs tests/sandbox/test_legit.py (and any extra test paths given) with every
sandbox child started under `strace -f`, in cold and in fork-server mode, and
prints the syscalls (and ioctl requests, prctl options, fcntl commands) made
*after* the seccomp filter was installed, by the confined process and its
threads. Compare the output with the table in sidecar/labwright/sandbox/seccomp.py
when the plotting stack changes (a new numpy, matplotlib or Pillow).

Usage: .venv/bin/python scripts/trace_sandbox_syscalls.py [pytest paths...]
Needs strace. The current filter is enforced while tracing, so calls it
refuses are listed separately ("refused": ENOSYS for unlisted calls, EPERM for
denied ones); a legitimate script that needs one of them fails in the test run
and shows up there.
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_LINE = re.compile(r"^(\d+)\s+(?:<\.\.\. (\w+) resumed>|(\w+)\()(.*)$")


def plugin_patch(log_dir: str, mode: str) -> None:
    """Imported inside pytest: wrap the child's argv in strace, force the mode."""
    from labwright.sandbox import figure, forkserver, runner, spawn, tex

    original = spawn.python_command
    counter = iter(range(1_000_000))

    def traced(script: Path, env: dict[str, str]) -> list[str]:
        log = os.path.join(log_dir, f"trace-{os.getpid()}-{next(counter)}.log")
        return ["strace", "-f", "-qq", "-s", "48", "-o", log, *original(script, env)]

    spawn.python_command = traced  # type: ignore[assignment]
    forkserver.python_command = traced  # type: ignore[assignment]
    tex.python_command = traced  # type: ignore[assignment]
    run = runner.run_code

    def forced(*args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs["mode"] = mode
        return run(*args, **kwargs)

    runner.run_code = forced  # type: ignore[assignment]
    figure.run_code = forced  # type: ignore[assignment]


def parse(log: Path) -> tuple[collections.Counter[str], dict[str, set[str]]]:
    """Syscalls of confined tasks: the task that installed the filter and every
    task it created afterwards (threads)."""
    confined: set[str] = set()
    calls: collections.Counter[str] = collections.Counter()
    args: dict[str, set[str]] = collections.defaultdict(set)
    for raw in log.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _LINE.match(raw)
        if not m:
            continue
        pid, resumed, name, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        call = resumed or name
        if call is None:
            continue
        if pid not in confined:
            if call == "seccomp" or (call == "prctl" and "PR_SET_SECCOMP" in rest):
                if "= 0" in rest or "resumed" not in raw:
                    confined.add(pid)
            continue
        calls[call] += 1
        if "= -1 ENOSYS" in rest or "= -1 EPERM" in rest:
            calls["refused:" + call] += 1
        if call in ("clone", "clone3"):
            ret = re.search(r"= (\d+)", rest)
            if ret:
                confined.add(ret.group(1))
        if call in ("ioctl", "fcntl", "prctl", "madvise", "futex", "mmap", "mprotect",
                    "socket", "prlimit64", "sched_getaffinity", "clone"):  # fmt: skip
            parts = rest.split(", ")
            key = (
                parts[1]
                if call in ("ioctl", "fcntl", "futex", "madvise") and len(parts) > 1
                else parts[0]
            )
            if call in ("mmap", "mprotect"):
                key = parts[2] if len(parts) > 2 else rest
            args[call].add(key.split(")")[0][:60])
    return calls, args


def main() -> None:
    if shutil.which("strace") is None:
        sys.exit("strace is not installed")
    paths = sys.argv[1:] or ["tests/sandbox/test_legit.py"]
    total: collections.Counter[str] = collections.Counter()
    allargs: dict[str, set[str]] = collections.defaultdict(set)
    for mode in ("cold", "fork"):
        log_dir = tempfile.mkdtemp(prefix=f"lw-trace-{mode}-")
        plugin = Path(log_dir) / "lw_trace_plugin.py"
        plugin.write_text(
            "import sys\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "from trace_sandbox_syscalls import plugin_patch\n"
            f"plugin_patch({log_dir!r}, {mode!r})\n",
            encoding="utf-8",
        )
        env = dict(os.environ, PYTHONPATH=log_dir)
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "lw_trace_plugin",
             "-p", "no:cacheprovider", *paths],
            env=env, check=False,
        )  # fmt: skip
        for log in Path(log_dir).glob("trace-*.log"):
            calls, args = parse(log)
            total.update(calls)
            for k, v in args.items():
                allargs[k] |= v
        shutil.rmtree(log_dir, ignore_errors=True)
    print(f"{len(total)} syscalls after confinement:")
    for name, count in sorted(total.items()):
        print(f"  {name:<24}{count:>9}")
    for name, values in sorted(allargs.items()):
        print(f"{name}: {sorted(values)}")


if __name__ == "__main__":
    main()
