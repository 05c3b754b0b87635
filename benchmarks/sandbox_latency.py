"""Per-figure latency: cold `python -I` subprocess vs the warm fork-server.

Baseline (the seed system's method): a fresh `python -I script.py` per
figure with a from-scratch environment. To be fair to it, its matplotlib
font cache is kept warm across runs (a cold font cache would add seconds).
We also print our own cold path (fresh interpreter + confinement) and the
warm fork-server path (fork + the same confinement). All in the same run.

Three workloads: a minimal figure (the process model's own cost), a typical
line plot, and a two-panel figure. Drawing time is the same in every mode,
so it sets a floor under the ratio for the heavier figures.

Usage: .venv/bin/python benchmarks/sandbox_latency.py [--figures N]
Target: warm / cold <= 0.15.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from labwright.sandbox.env import scrubbed_env
from labwright.sandbox.forkserver import default_server, shutdown_default_server
from labwright.sandbox.runner import remove_work_dir, run_code

# Nearly no drawing: what the process model itself costs per figure.
MINIMAL = """
plt.figure(figsize=(1, 1))
plt.savefig(OUT, dpi=10)
"""

# A typical report figure: one data series with labels, saved at 150 dpi.
LINE = """
x = np.linspace(0, 10, 200)
plt.plot(x, np.sin(x), 'o-', ms=3, label='measured')
plt.xlabel('t (s)')
plt.ylabel('U (V)')
plt.legend()
plt.savefig(OUT, dpi=150)
"""

# A heavier one: two panels, mathtext legend, histogram.
PLOT = """
x = np.linspace(0, 10, 500)
fig, ax = plt.subplots(1, 2, figsize=(8, 3))
ax[0].plot(x, np.sin(x) * np.exp(-x / 5), label=r'$\\sin(x)e^{-x/5}$')
ax[0].legend()
ax[1].hist(np.random.default_rng(0).normal(size=2000), bins=30)
fig.savefig(OUT, dpi=100)
"""

_BASELINE = "import numpy as np\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nOUT = {out!r}\n"


def baseline_once(mpl_dir: Path, plot: str) -> float:
    work = Path(tempfile.mkdtemp(prefix="lw-bench-"))
    script = work / "plot.py"
    script.write_text(_BASELINE.format(out=str(work / "f.png")) + plot, encoding="utf-8")
    env = scrubbed_env(work)
    env["MPLCONFIGDIR"] = str(mpl_dir)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-I", str(script)], env=env, cwd=work, check=True,
        stdin=subprocess.DEVNULL, capture_output=True, timeout=300,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    assert (work / "f.png").stat().st_size > 0
    shutil.rmtree(work, ignore_errors=True)
    return elapsed


def sandbox_once(mode: str, plot: str) -> float:
    start = time.perf_counter()
    res = run_code(plot, data_root=None, mode=mode)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    assert res.ok and res.mode == mode, res.stderr
    remove_work_dir(res.work_dir)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--figures", type=int, default=8)
    args = parser.parse_args()
    mpl_dir = Path(tempfile.mkdtemp(prefix="lw-bench-mpl-"))
    baseline_once(mpl_dir, LINE)  # warm the baseline's font cache; not counted
    sandbox_once("cold", LINE)  # builds our font-list seed; not counted
    t0 = time.perf_counter()
    if default_server() is None:
        sys.exit("fork-server unavailable on this platform")
    print(f"fork-server start (once): {time.perf_counter() - t0:.2f} s")
    sandbox_once("fork", LINE)  # first request; not counted
    ratios = []
    for label, plot in (("minimal figure", MINIMAL), ("line plot", LINE), ("two-panel", PLOT)):
        rows: dict[str, list[float]] = {
            "cold python -I (seed)": [],
            "cold confined": [],
            "warm fork-server": [],
        }
        for _ in range(args.figures):  # interleaved, so machine load hits all three alike
            rows["cold python -I (seed)"].append(baseline_once(mpl_dir, plot))
            rows["cold confined"].append(sandbox_once("cold", plot))
            rows["warm fork-server"].append(sandbox_once("fork", plot))
        base = statistics.median(rows["cold python -I (seed)"])
        print(f"\n[{label}] {args.figures} figures per method")
        print(f"{'method':<24}{'median s':>10}{'min s':>8}{'max s':>8}{'ratio':>8}")
        for name, values in rows.items():
            med = statistics.median(values)
            print(f"{name:<24}{med:>10.3f}{min(values):>8.3f}{max(values):>8.3f}{med / base:>8.3f}")
        ratio = statistics.median(rows["warm fork-server"]) / base
        best = min(rows["warm fork-server"]) / min(rows["cold python -I (seed)"])
        ratios.append(ratio)
        print(
            f"warm / cold = {ratio:.3f} by median, {best:.3f} by best run "
            f"(target <= 0.15 by median): {'met' if ratio <= 0.15 else 'NOT met'}"
        )
    shutdown_default_server()
    shutil.rmtree(mpl_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
