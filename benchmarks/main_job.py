"""The main job's cost against TeX itself, per example.

For each example folder: the wall time of the whole offline build as a user
runs it (`python -m labwright build FOLDER -o ...`, a fresh process: start-up,
reading, fitting, plotting, writing, compiling), against two bare XeLaTeX
passes of the very .tex that build produced, measured in the same run and
interleaved so machine load hits both alike. Prints, per example, the
medians of wall and CPU time (user + system of the whole process tree) and
both ratios, then the worst of each against the target: a ratio of at most
1.3. On a shared machine the CPU ratio is the steadier one (other load
stretches wall time, not our CPU seconds); the wall ratio is what a user feels.

    python benchmarks/main_job.py [--repeat 3] [--baseline CHECKOUT] [EXAMPLE ...]

With `--baseline`, each round also builds with another checkout's code
(`CHECKOUT/sidecar` first on PYTHONPATH; children get the same code, see
sandbox/spawn.bootstrap_text), interleaved with this one's builds and the
bare passes, and prints its ratios on a second line: a before/after of a
change measured in the same run, under the same load. A checkout made with
`git worktree add` or `git archive REV sidecar knowledge | tar -x -C DIR`
will do (bytecode is compiled for it as for this one).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOAL = 1.3


def _compile_bytecode(baseline: Path | None = None) -> None:
    """Bytecode for labwright's modules, as an installed package has (pip
    compiles at install time; the frozen app carries it). An editable install
    under PYTHONDONTWRITEBYTECODE would otherwise compile every module from
    source in every process and measure that instead of the build."""
    import compileall

    import labwright

    compileall.compile_dir(Path(labwright.__file__).parent, quiet=1, workers=0)
    if baseline is not None:
        compileall.compile_dir(baseline / "sidecar" / "labwright", quiet=1, workers=0)


def _final_tex(folder: Path, work: Path) -> Path:
    """Build once in-process and keep the sources (not the outputs) of main.tex."""
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    build = work / "build"
    events = list(build_offline(folder, build))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, done
    src = work / "bare-src"
    src.mkdir()
    for name in ("main.tex", "labwright-report.cls"):
        shutil.copy(build / name, src / name)
    shutil.copytree(build / "figures", src / "figures")
    return src / "main.tex"


def _cpu() -> float:
    """CPU seconds (user + system) of all finished child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _time_build(folder: Path, work: Path, i: int, code: Path | None = None) -> tuple[float, float]:
    """One build as a user runs it; with `code`, that checkout's sidecar."""
    out = work / f"run{i}{'-baseline' if code else ''}.pdf"
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code / "sidecar")
    cpu = _cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "labwright", "build", str(folder), "-o", str(out)],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or not out.exists():
        raise SystemExit(f"build of {folder.name} failed:\n{proc.stderr}")
    return elapsed, _cpu() - cpu


def _time_bare(tex: Path, work: Path, i: int) -> tuple[float, float]:
    run = work / f"bare{i}"
    shutil.copytree(tex.parent, run)
    xelatex = shutil.which("xelatex")
    if xelatex is None:
        raise SystemExit("xelatex is not on PATH; install TeX (see labwright doctor).")
    cpu = _cpu()
    start = time.perf_counter()
    for _ in range(2):
        subprocess.run(
            [xelatex, "-interaction=nonstopmode", "-no-shell-escape", "main.tex"],
            cwd=run,
            capture_output=True,
        )
    elapsed = time.perf_counter() - start
    if not (run / "main.pdf").exists():
        raise SystemExit(f"bare xelatex failed in {run}")
    return elapsed, _cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="another checkout to build with too, interleaved (before/after in one run)",
    )
    args = parser.parse_args()
    baseline: Path | None = args.baseline.resolve() if args.baseline else None
    if baseline is not None and not (baseline / "sidecar" / "labwright").is_dir():
        raise SystemExit(f"{baseline} has no sidecar/labwright")
    names = args.examples or sorted(
        p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
    )
    print(f"target: build <= {GOAL}x two bare XeLaTeX passes (medians of {args.repeat} runs)")
    print(
        f"{'example':<16} {'build s':>8} {'2x xelatex s':>13} {'ratio':>6}   "
        f"{'build cpu s':>11} {'2x xelatex cpu s':>16} {'cpu ratio':>9}"
    )
    _compile_bytecode(baseline)
    worst: dict[str, tuple[float, str]] = {"wall": (0.0, ""), "cpu": (0.0, "")}
    for name in names:
        folder = EXAMPLES / name
        with tempfile.TemporaryDirectory(prefix=f"lw-bench-{name}-") as tmp:
            work = Path(tmp)
            tex = _final_tex(folder, work)
            builds, bares, befores = [], [], []
            for i in range(args.repeat):  # interleaved: same load for all
                if baseline is not None:
                    befores.append(_time_build(folder, work, i, baseline))
                builds.append(_time_build(folder, work, i))
                bares.append(_time_bare(tex, work, i))
            b = statistics.median(t for t, _ in builds)
            x = statistics.median(t for t, _ in bares)
            bc = statistics.median(c for _, c in builds)
            xc = statistics.median(c for _, c in bares)
            ratios = {"wall": b / x, "cpu": bc / xc}
            for what, r in ratios.items():
                if r > worst[what][0]:
                    worst[what] = (r, name)
            print(
                f"{name:<16} {b:>8.2f} {x:>13.2f} {ratios['wall']:>6.2f}   "
                f"{bc:>11.2f} {xc:>16.2f} {ratios['cpu']:>9.2f}",
                flush=True,
            )
            if befores:
                b0 = statistics.median(t for t, _ in befores)
                b0c = statistics.median(c for _, c in befores)
                print(
                    f"{'  (baseline)':<16} {b0:>8.2f} {x:>13.2f} {b0 / x:>6.2f}   "
                    f"{b0c:>11.2f} {xc:>16.2f} {b0c / xc:>9.2f}",
                    flush=True,
                )
    for what, (r, name) in worst.items():
        verdict = "meets" if r <= GOAL else "misses"
        print(f"worst {what} ratio {r:.2f} ({name}) {verdict} the target of <= {GOAL}x")
    print("(cpu = user + system seconds of the process tree; less sensitive to other load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
