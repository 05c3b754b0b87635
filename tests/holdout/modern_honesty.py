"""Hold-out folders: modern physics, and folders where one question has no answer."""

from __future__ import annotations

import numpy as np

from tests.holdout import folder_text as ft
from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

H, C, E = 6.62607015e-34, 299792458.0, 1.602176634e-19
TAU = 2 * np.pi


def decay_background(rng: np.random.Generator) -> LabFolder:
    half, n0, bg = 153.0, 900.0, 4.0  # s, counts per 10 s at t=0, counts per 10 s
    lam = np.log(2) / half
    t = np.arange(0, 900, 30.0)
    counts = rng.poisson(n0 * np.exp(-lam * t) + bg)
    background = rng.poisson(bg, 30)
    notes = """
Half-life of Ba-137m (isotope generator)

The eluate was put under the GM tube and the counts in 10 s intervals were
recorded every 30 s (decay.csv). Before the elution we counted the background
for 30 intervals of 10 s (background.csv).

N(t) = N0 exp(-lambda t) + B. Subtract the background and determine the decay
constant and the half-life. Literature: 153 s.
"""
    return LabFolder(
        "generator-eluate", "decay_with_background", "en",
        {"notes.md": f.text(notes),
         "decay.csv": f.csv({"t (s)": t, "counts per 10 s": counts}, {"t (s)": 4, "counts per 10 s": 6}),
         "background.csv": f.csv({"interval": np.arange(1, 31.0), "counts per 10 s": background}, 6)},
        (Truth(("t_half", "half-life", "half life", "t1/2"), half, "s"),
         Truth(("lambda", "decay constant", "λ"), lam, "1/s")),
        shapes=("background-file", "poisson-counts"),
    )  # fmt: skip


def photoelectric_nm_zh(rng: np.random.Generator) -> LabFolder:
    work_ev = 2.10
    lam_nm = np.array([365.0, 405.0, 436.0, 546.0, 577.0])
    stop_v = H * C / (lam_nm * 1e-9) / E - work_ev + rng.normal(0, 0.01, lam_nm.size)
    notes = """
光电效应测普朗克常量

汞灯经滤光片得到 5 条谱线，测各波长下的截止电压 Ua。
爱因斯坦光电方程 eUa = hν − W，ν = c/λ。
以 Ua 对 ν 作图，由斜率求普朗克常量 h，由截距求逸出功 W（eV），并与 h 的公认值 6.626×10⁻³⁴ J·s 比较。
"""
    return LabFolder(
        "guangdian-hg", "photoelectric", "zh",
        {"实验内容.txt": f.text(notes),
         "截止电压.csv": f.csv({"波长 λ (nm)": lam_nm, "截止电压 Ua (V)": stop_v},
                             {"波长 λ (nm)": 4, "截止电压 Ua (V)": 4})},
        (Truth(("h", "Planck constant", "Planck's constant", "普朗克常量"), H, "J*s"),
         Truth(("W", "W0", "work function", "逸出功"), work_ev, "eV")),
        controlled=("截止电压.csv: 波长 λ (nm)",),
        shapes=("zh-headers", "wavelength-for-frequency"),
    )  # fmt: skip


def lamp_exponent(rng: np.random.Generator) -> LabFolder:
    n, a = 4.0, 2.2e-12
    temp = np.array([1200, 1400, 1600, 1800, 2000, 2200, 2400.0])
    power = a * temp**n * (1 + rng.normal(0, 0.02, temp.size))
    notes = """
Stefan-Boltzmann law for a tungsten filament

Electrical power P into the lamp vs the filament temperature T (from the
resistance ratio R/R_300 and the tungsten tables). If the filament radiates
like a grey body P = a T^n. Fit log P against log T and find the exponent n;
Stefan-Boltzmann predicts n = 4.
"""
    return LabFolder(
        "filament-power", "stefan_boltzmann", "en",
        {"README.md": f.text(notes),
         "filament.csv": f.csv({"T (K)": temp, "P (W)": power}, {"T (K)": 4, "P (W)": 4})},
        (Truth(("n", "exponent", "power-law exponent"), n, ""),),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def spring_static_honesty(rng: np.random.Generator) -> LabFolder:
    k = 32.0
    load = np.arange(1, 9) * 0.49
    ext_cm = load / k * 100 + rng.normal(0, 0.05, load.size)
    notes = """
Hooke's law

Loads F added one at a time, extension x of the spring read from the metre
rule with a pointer. F = k x.

(a) Find the spring constant k.
(b) Find the mass of the spring itself.
"""
    return LabFolder(
        "pointer-and-rule", "hooke", "en",
        {"notes.txt": f.text(notes),
         "hooke.csv": ft.units_row_csv(["F", "x"], ["N", "cm"], [load, ext_cm], 4)},
        (Truth(("k", "spring constant"), k, "N/m"),
         Truth(("mass of the spring", "m_spring", "spring mass", "mass"), 0.0, "kg", answerable=False)),
        controlled=("hooke.csv: F",),
        shapes=("units-row", "honesty"),
    )  # fmt: skip


def pendulum_drag_honesty_zh(rng: np.random.Generator) -> LabFolder:
    g = 9.79
    length = np.array([40.0, 55.0, 70.0, 85.0, 100.0, 115.0])  # cm
    period = TAU * np.sqrt(length / 100 / g) * (1 + rng.normal(0, 0.003, length.size))
    notes = """
单摆测重力加速度

改变摆长 l，测单摆周期 T（摆角小于 5°）。T = 2π√(l/g)。
1. 求当地重力加速度 g。
2. 求摆球所受空气阻力的阻尼系数。
"""
    return LabFolder(
        "danbai-zuni", "pendulum", "zh",
        {"实验要求.md": f.text(notes),
         "单摆.csv": f.csv({"摆长 l/cm": length, "周期 T/s": period}, {"摆长 l/cm": 4, "周期 T/s": 4})},
        (Truth(("g", "重力加速度", "gravitational acceleration"), g, "m/s^2"),
         Truth(("阻尼系数", "damping coefficient", "空气阻力的阻尼系数"), 0.0, "1/s", answerable=False)),
        controlled=("单摆.csv: 摆长 l/cm",),
        shapes=("zh-headers", "slash-units", "honesty"),
    )  # fmt: skip


FOLDERS = (decay_background, photoelectric_nm_zh, lamp_exponent, spring_static_honesty,
           pendulum_drag_honesty_zh)  # fmt: skip
