"""A document that writes a ~100 MB TeX log: is it diagnosed within the wall
budget, and does the backend's memory stay under 300 MB while compiling it?

Each scenario runs in a fresh Python process (peak RSS of *that* process is
the backend's memory; TeX's own memory is not the backend's) and prints one
JSON line. Scenarios, all in this run:

* baseline  -- a small ordinary report (the backend's floor);
* huge      -- compile_tex on the 100 MB-log document (this code);
* old-way   -- the same document the way the code worked before issue 11:
               all terminal output collected by communicate(), the whole log
               read into one string (run with --no-old-way to skip it).

Usage: python benchmarks/tex_log.py [--mb 100] [--no-old-way]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from labwright.latex.compile import WALL_BUDGET_S, compile_tex, paranoid_env, _xelatex_argv
from labwright.latex.diagnose import diagnose_file
from labwright.latex.engine import resolve_engine
mode, tex = sys.argv[1], Path(sys.argv[2])
start = time.monotonic()
out = {"mode": mode}
if mode == "old-way":
    import subprocess
    engine = resolve_engine()
    proc = subprocess.Popen(_xelatex_argv(engine, tex.name, xdv=True), cwd=tex.parent,
                            env=paranoid_env(engine), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    terminal, _ = proc.communicate()
    log = (tex.parent / (tex.stem + ".log")).read_text(encoding="utf-8", errors="replace")
    out["terminal_mb"] = len(terminal) / 1e6
    out["log_mb"] = len(log) / 1e6
else:
    result = compile_tex(tex, max_passes=1)
    log = tex.parent / (tex.stem + ".log")
    out["status"] = result.status
    out["log_mb"] = log.stat().st_size / 1e6 if log.exists() else 0.0
    t = time.monotonic()
    d = diagnose_file(log)
    out["diagnose_s"] = time.monotonic() - t
    out["truncated"] = d.truncated
    out["errors"] = d.error_count
    out["wall_budget_s"] = WALL_BUDGET_S
out["elapsed_s"] = time.monotonic() - start
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def _huge_doc(mb: int) -> str:
    # \message writes to the terminal and the log; 1,000 characters each,
    # so `mb` MB takes mb*1000 messages. One undefined command per 10,000
    # gives the diagnosis real errors to find along the way.
    chunk = "x" * 990
    n = mb * 1000
    return (
        "\\documentclass{article}\n\\begin{document}\n"
        "\\newcount\\n \\n=0\n"
        f"\\loop\\message{{{chunk}}}\\advance\\n by 1 "
        "\\ifnum\\numexpr\\n-(\\n/10000)*10000\\relax=0 \\undefinedcommand\\fi"
        f"\\ifnum\\n<{n} \\repeat\n"
        "Done.\n\\end{document}\n"
    )


def _small_doc() -> str:
    return (
        "\\documentclass{article}\n\\begin{document}\n\\section{Aim}\\label{s}"
        "A small report, see Section~\\ref{s}.\n\\end{document}\n"
    )


def _run(mode: str, source: str, root: Path) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix=f"{mode}-", dir=root))
    tex = folder / "main.tex"
    tex.write_text(source, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, mode, str(tex)],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-2000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100, help="log size to produce (MB)")
    parser.add_argument("--no-old-way", action="store_true", help="skip the pre-issue-11 run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="labwright-texlog-") as tmp:
        root = Path(tmp)
        base = _run("baseline", _small_doc(), root)
        huge = _run("huge", _huge_doc(args.mb), root)
        old = None if args.no_old_way else _run("old-way", _huge_doc(args.mb), root)
    print(
        f"{'scenario':<10} {'log MB':>8} {'diagnose s':>11} {'peak RSS MB':>12} {'elapsed s':>10}"
    )
    for row in (base, huge, old):
        if row is None:
            continue
        diag = f"{row['diagnose_s']:.2f}" if "diagnose_s" in row else "-"
        print(
            f"{row['mode']:<10} {row['log_mb']:>8.1f} {diag:>11} "
            f"{row['peak_rss_mb']:>12.0f} {row['elapsed_s']:>10.1f}"
        )
    budget = float(huge["wall_budget_s"])  # type: ignore[arg-type]
    diag_s = float(huge["diagnose_s"])  # type: ignore[arg-type]
    rss = float(huge["peak_rss_mb"])  # type: ignore[arg-type]
    print(
        f"\ndiagnose of a {huge['log_mb']:.0f} MB log: {diag_s:.2f} s = "
        f"{diag_s / budget:.3f} x the {budget:.0f} s wall budget "
        f"({'within' if diag_s < budget else 'OVER'}; truncated={huge['truncated']})"
    )
    print(
        f"backend peak RSS while compiling it: {rss:.0f} MB = "
        f"{rss / float(base['peak_rss_mb']):.2f} x the small-report baseline "  # type: ignore[arg-type]
        f"({'under' if rss < 300 else 'OVER'} 300 MB)"
    )
    if old is not None:
        print(
            f"pre-issue-11 way on the same document: peak RSS {float(old['peak_rss_mb']):.0f} MB "  # type: ignore[arg-type]
            f"= {float(old['peak_rss_mb']) / rss:.1f} x this code"  # type: ignore[arg-type]
        )


if __name__ == "__main__":
    main()
