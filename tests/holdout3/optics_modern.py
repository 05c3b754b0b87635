"""Optics and modern physics: refraction, Newton's rings, the Franck-Hertz
tube, a short-lived isotope."""

from __future__ import annotations

import numpy as np

from tests.holdout3._shapes import csv_with_units_row, rnd
from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth


def refraction_block(rng: np.random.Generator) -> LabFolder:
    n = 1.492
    i = np.arange(10.0, 81.0, 10.0)
    r = np.degrees(np.arcsin(np.sin(np.radians(i)) / n))
    r = rnd(r + rng.normal(0, 0.3, i.size), 0.5)
    notes = """
Refraction through a semicircular acrylic block

Ray box aimed at the centre of the flat face; angles read off the protractor disc
(0.5° divisions). Air on the incident side, n₁ = 1.000.

Snell's law: n₁ sin θ₁ = n₂ sin θ₂

Determine the refractive index of the acrylic, n₂. Data sheet value 1.49.
(The first column is the incidence angle, the second the refraction angle, second row = units.)
"""
    return LabFolder(
        name="optics-bench-a",
        experiment="Snell's law, refractive index",
        lang="en",
        files={
            "angles.csv": csv_with_units_row({"theta_i": i, "theta_r": r}, ["deg", "deg"]),
            "notes.txt": fmt.text(notes),
        },
        truths=(Truth(("n2", "n₂", "n", "refractive index", "index of refraction"), n, ""),),
        controlled=("angles.csv: theta_i",),
        shapes=("csv", "units row", "unicode formula"),
    )


def newton_rings_gbk(rng: np.random.Generator) -> LabFolder:
    R, lam, x0 = 0.865, 589.3e-9, 25.412
    m = np.arange(25, 5, -1).astype(float)
    D = np.sqrt(4 * m * R * lam - 0.05e-6) * 1000  # mm, a speck of dust at the contact
    left = rnd(x0 + D / 2 + rng.normal(0, 0.004, m.size), 0.001)
    right = rnd(x0 - D / 2 + rng.normal(0, 0.004, m.size), 0.001)
    notes = """
用牛顿环测平凸透镜的曲率半径

钠光灯 λ = 589.3 nm。读数显微镜单向移动（防止回程误差），依次记下第 25 级到第 6 级暗环
左、右两侧的位置。

D_m = |x左 − x右|，D_m² − D_n² = 4(m − n)Rλ

求透镜的曲率半径 R。
"""
    cols = {"环数 m": m, "左侧读数/mm": left, "右侧读数/mm": right}
    return LabFolder(
        name="niudunhuan-zu6",
        experiment="Newton's rings, radius of curvature (left/right readings)",
        lang="zh",
        files={"牛顿环.csv": fmt.csv(cols, 8, encoding="gbk"), "说明.txt": fmt.text(notes)},
        truths=(Truth(("R", "曲率半径", "radius of curvature"), R, "m"),),
        controlled=("牛顿环.csv: 环数 m",),
        shapes=("gbk", "chinese headers", "position readings (derived column)"),
    )


def franck_hertz_scan(rng: np.random.Generator) -> LabFolder:
    dU, U_first = 4.87, 6.97
    U = np.round(np.arange(0.0, 60.01, 0.25), 2)
    base = 0.02 * U**1.5
    peaks = np.zeros_like(U)
    for k in range(13):
        Uk = U_first + k * dU
        below = np.exp(-np.clip(Uk - U, 0, None) / 1.6)
        above = np.exp(-((np.clip(U - Uk, 0, None) / 0.6) ** 2))
        peaks = np.maximum(peaks, np.where(U <= Uk, below, above))
    current = base * (0.35 + 0.65 * peaks)
    current = np.round(current * (1 + rng.normal(0, 0.01, U.size)) + rng.normal(0, 0.02, U.size), 3)
    comments = ["Franck-Hertz control unit, Hg tube", "oven 180 C", "U2 (retarding) = 1.5 V"]
    notes = """
Franck-Hertz experiment (mercury)

Oven at about 180 °C, retarding voltage 1.5 V, the accelerating voltage was ramped 0-60 V by
the control unit and the collector current logged.

Successive maxima of the collector current are separated by the first excitation energy of Hg
divided by e.

Find the mean spacing ΔU between successive maxima, and hence the excitation energy in eV.
Literature: 4.89 eV.
"""
    return LabFolder(
        name="hg-tube-scan",
        experiment="Franck-Hertz peak spacing",
        lang="en",
        files={
            "fh.txt": fmt.logger_txt({"U_a/V": U, "I_A/nA": current}, comments, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(("ΔU", "dU", "delta U", "spacing", "peak spacing", "mean spacing"), dU, "V"),
            Truth(("E", "excitation energy", "first excitation energy", "E1"), dU, "eV"),
        ),
        controlled=("fh.txt: U_a/V", "fh.txt: U_a"),
        shapes=("tab logger", "# comments", "peaks"),
    )


def isotope_generator(rng: np.random.Generator) -> LabFolder:
    t_half = 2.60 * 60
    lam = np.log(2) / t_half
    gate = 15.0
    t = np.arange(0.0, 900.0, gate)
    bg_rate = 0.60
    expected = 60.0 / lam * (np.exp(-lam * t) - np.exp(-lam * (t + gate))) + bg_rate * gate
    counts = rng.poisson(expected).astype(float)
    bg = rng.poisson(bg_rate * 60, 12).astype(float)
    notes = """
Half-life of Ba-137m (isotope generator)

Eluted the Cs-137/Ba-137m generator, put the planchet under the GM tube at once and started
counting. Counter set to 15 s gates, recorded back to back; t is the start of each gate.
Background was counted before the run, 60 s per reading (background.csv).

N(t) = N0 e^(−λt) + B

Determine the half-life of Ba-137m in minutes. Accepted value 2.552 min.
"""
    return LabFolder(
        name="generator-run-nov",
        experiment="radioactive half-life with background",
        lang="en",
        files={
            "decay.csv": fmt.csv({"t (s)": t, "counts": counts}, 8),
            "background.csv": fmt.csv({"reading": np.arange(1.0, 13.0), "counts in 60 s": bg}, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(
                ("t1/2", "t½", "T1/2", "T½", "half-life", "half life", "半衰期"), t_half / 60, "min"
            ),
        ),
        controlled=("decay.csv: t (s)", "decay.csv: t", "background.csv: reading"),
        shapes=("csv", "background file", "counts"),
    )


FOLDERS = (refraction_block, newton_rings_gbk, franck_hertz_scan, isotope_generator)
