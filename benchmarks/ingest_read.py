"""What scan_folder + read_folder cost beside reading the same files with the
bare library calls, told the answers (delimiter, header row, sheet, variables).

The baseline is what a hand-written script does when it already knows each
file's shape: sha256 of every file, pandas.read_csv with the known separator
and header, pandas.read_excel, scipy.io.loadmat, numpy.load, Pillow open. The
ratio is the price of sniffing encodings, delimiters, headers and units, and
of building typed datasets with provenance. Both run in this process, same
files, best of N rounds.

    .venv/bin/python benchmarks/ingest_read.py [--rounds N] [--rows N]
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.io
from PIL import Image

from labwright.ingest import read_folder, scan_folder


def make_folder(root: Path, rows: int) -> None:
    t = np.arange(rows) * 1e-3
    frame = pd.DataFrame({"t (s)": t, "U (V)": np.sin(t), "I (mA)": np.cos(t)})
    frame.to_csv(root / "logger.csv", index=False, float_format="%.6f")
    frame.head(5000).to_excel(root / "sweep.xlsx", index=False)
    (root / "温度.csv").write_bytes(
        (
            "时间 (s),温度 (°C)\n" + "".join(f"{i},{20 + i * 0.01:.2f}\n" for i in range(2000))
        ).encode("gbk")
    )
    scipy.io.savemat(root / "scope.mat", {"t": t[:50_000], "V": np.exp(-t[:50_000]), "R": 1e3})
    np.save(root / "frame.npy", np.random.default_rng(0).random((512, 512)))
    Image.new("RGB", (1600, 1200), (30, 60, 90)).save(root / "photo.png")
    (root / "notes.md").write_text("# Aim\nMeasure the RC time constant.\n", encoding="utf-8")


def baseline(root: Path) -> None:
    for path in sorted(root.rglob("*")):
        hashlib.sha256(path.read_bytes()).hexdigest()
    pd.read_csv(root / "logger.csv", sep=",", header=0)
    pd.read_excel(root / "sweep.xlsx", header=0)
    pd.read_csv(root / "温度.csv", encoding="gbk")
    scipy.io.loadmat(root / "scope.mat")
    np.load(root / "frame.npy")
    with Image.open(root / "photo.png") as img:
        img.load()
        img.thumbnail((256, 256))
    (root / "notes.md").read_text(encoding="utf-8")


def labwright(root: Path) -> None:
    read_folder(root, scan_folder(root))


def best_of(rounds: int, fn: Callable[[Path], None], root: Path) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(root)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_folder(root, args.rows)
        labwright(root)  # warm imports for both sides
        baseline(root)
        ours = best_of(args.rounds, labwright, root)
        base = best_of(args.rounds, baseline, root)
    print(f"{'folder':<28}{'baseline s':>12}{'labwright s':>13}{'ratio':>8}")
    print(f"{f'7 files, {args.rows:,}-row CSV':<28}{base:>12.3f}{ours:>13.3f}{ours / base:>8.2f}x")


if __name__ == "__main__":
    main()
