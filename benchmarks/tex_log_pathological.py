"""Pathological TeX log lines (review of issue 11): each kind of 10,000-character
line that could make a diagnosis pattern backtrack, timed per line against an
ordinary 10,000-character line in the same run. A ratio near 1 means linear.

Usage: python benchmarks/tex_log_pathological.py [--lines 200]
"""

from __future__ import annotations

import argparse
import time

from labwright.latex.diagnose import MAX_LINE, diagnose

CASES = {
    "ordinary": "x" * MAX_LINE,
    "bang-file-tick": "! " + "File `" * 2000,
    "fle-file-tick": "main.tex:1: " + "File `" * 2000,
    "bang-picture": "! " + "Unable to load picture or PDF file '" * 400,
    "citation": "Citation `" * 1200,
    "reference": "Reference `a' on page " * 600,
    "font": 'The font "' * 1200,
    "font-loadable": 'Font \\x="' * 1200,
    "missing-char": "Missing character: There is no " + " in font " * 1000,
    "context-lines": "! x\n" + "l." * 5000,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200)
    args = parser.parse_args()
    per_line: dict[str, float] = {}
    for name, line in CASES.items():
        log = "\n".join([line[:MAX_LINE]] * args.lines)
        t = time.perf_counter()
        diagnose(log, budget_s=None)
        per_line[name] = (time.perf_counter() - t) / args.lines
    base = per_line["ordinary"]
    print(f"{'line kind':16s} {'ms/line':>8s} {'x ordinary':>10s}")
    for name, value in per_line.items():
        print(f"{name:16s} {value * 1000:8.3f} {value / base:10.1f}")
    worst = max(per_line, key=per_line.__getitem__)
    print(f"worst: {worst}, {per_line[worst] * 1000:.2f} ms per 10,000-character line "
          f"= {per_line[worst] * 10_000:.1f} s for a 100 MB log of it")  # fmt: skip


if __name__ == "__main__":
    main()
