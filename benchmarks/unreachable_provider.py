"""A run with a model provider that cannot be reached, against an offline run.

For each example: the wall time of `python -m labwright build FOLDER` as a
user runs it, offline, and with `--base-url` pointing at a provider that
cannot be reached, measured in the same run and interleaved so machine load
hits all alike. Two ways a provider is not there, both on this machine (no
test or benchmark reaches the internet):

- closed: a port nothing listens on (the connection is refused at once);
- blackholed: a port whose connections are never answered (a listening
  socket whose accept queue is kept full, so the kernel drops every further
  SYN: the client waits for its connect timeout, as with a firewalled or
  unrouted address).

Prints the medians, each ratio against offline, and how often the
"cannot be reached" warning was printed (it must be once per run, and no
per-stage "the model failed" warning). The goal: at most 1.2x offline.

    python benchmarks/unreachable_provider.py [--repeat 3] [EXAMPLE ...]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOAL = 1.2
DEFAULT_EXAMPLES = ("pendulum", "plant-growth-zh", "rc-discharge")
WARNING = ("cannot be reached", "无法连接模型服务")
PER_STAGE = ("The model failed during", "模型在")


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@contextmanager
def _blackholed_port() -> Iterator[int]:
    """A loopback port whose new connections are never completed: a listener
    with a backlog of 0 that never accepts, its queue filled by connections
    of our own, so the kernel drops the SYNs that follow."""
    with ExitStack() as stack:
        server = stack.enter_context(socket.socket())
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port: int = server.getsockname()[1]
        for _ in range(8):  # fill the queue until a connect no longer completes
            filler = stack.enter_context(socket.socket())
            filler.settimeout(0.3)
            try:
                filler.connect(("127.0.0.1", port))
            except OSError:
                break
        else:
            raise SystemExit("could not make a port that drops connections on this machine")
        yield port


def _run(folder: Path, work: Path, tag: str, base_url: str | None) -> tuple[float, str]:
    out = work / f"{tag}.pdf"
    command = [sys.executable, "-m", "labwright", "build", str(folder), "-o", str(out)]
    if base_url:
        command += ["--base-url", base_url, "--model", "any-model"]
    env = {**os.environ, "LABWRIGHT_HOME": str(work / "home")}
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=work, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or not out.exists():
        raise SystemExit(f"build of {folder.name} ({tag}) failed:\n{proc.stderr[-3000:]}")
    out.unlink()
    return elapsed, proc.stdout + proc.stderr


def _count(text: str, phrases: tuple[str, ...]) -> int:
    return sum(1 for line in text.splitlines() if any(p in line for p in phrases))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = args.examples or list(DEFAULT_EXAMPLES)
    print(
        f"{'example':<16} {'offline s':>9} {'closed s':>9} {'ratio':>6} "
        f"{'blackholed s':>12} {'ratio':>6}   warnings (closed, blackholed)"
    )
    worst, warnings_ok = 0.0, True
    with _blackholed_port() as dropped:
        cases = {
            "closed": f"http://127.0.0.1:{_closed_port()}/v1",
            "blackholed": f"http://127.0.0.1:{dropped}/v1",
        }
        for name in names:
            folder = EXAMPLES / name
            times: dict[str, list[float]] = {"offline": [], **{c: [] for c in cases}}
            said: dict[str, list[tuple[int, int]]] = {c: [] for c in cases}
            with tempfile.TemporaryDirectory(prefix=f"lw-unreach-{name}-") as tmp:
                work = Path(tmp)
                for i in range(args.repeat):  # interleaved: the same load for all
                    times["offline"].append(_run(folder, work, f"offline{i}", None)[0])
                    for case, url in cases.items():
                        elapsed, text = _run(folder, work, f"{case}{i}", url)
                        times[case].append(elapsed)
                        said[case].append((_count(text, WARNING), _count(text, PER_STAGE)))
            med = {k: statistics.median(v) for k, v in times.items()}
            ratios = {c: med[c] / med["offline"] for c in cases}
            worst = max(worst, *ratios.values())
            once = {c: all(w == 1 and p == 0 for w, p in said[c]) for c in cases}
            warnings_ok = warnings_ok and all(once.values())
            shown = ", ".join(f"{'once' if once[c] else said[c]}" for c in cases)
            print(
                f"{name:<16} {med['offline']:>9.2f} {med['closed']:>9.2f} {ratios['closed']:>6.2f} "
                f"{med['blackholed']:>12.2f} {ratios['blackholed']:>6.2f}   {shown}"
            )
    verdict = "meets" if worst <= GOAL and warnings_ok else "misses"
    print(
        f"worst ratio {worst:.2f}, warning once per run: {'yes' if warnings_ok else 'no'}"
        f" -> {verdict} the goal (<= {GOAL}x offline, one warning)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
