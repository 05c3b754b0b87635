"""Mechanics and acoustics: pendulums, springs, a wire, a resonance tube, a
turntable."""

from __future__ import annotations

import numpy as np

from tests.holdout3._shapes import rnd
from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth

G_NAMES = (
    "g", "acceleration due to gravity", "gravitational acceleration",
    "local acceleration due to gravity", "acceleration of free fall", "重力加速度",
)  # fmt: skip


def pendulum_stopwatch(rng: np.random.Generator) -> LabFolder:
    g = 9.803
    L_cm = np.array([40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 110.0])
    T = 2 * np.pi * np.sqrt(L_cm / 100 / g)
    trials = {f"t{i} (s)": rnd(20 * T + rng.normal(0, 0.15, L_cm.size), 0.01) for i in (1, 2, 3)}
    notes = r"""
Simple pendulum -- Lab 3 (Tuesday group)

Timed 20 full oscillations for each string length, three times each, with a hand stopwatch.
Length measured from the point of suspension to the centre of the bob with a metre rule.
Amplitude kept small (< 10 deg) throughout.

Theory: $T = 2\pi\sqrt{L/g}$, so $T^2$ against $L$ should be a straight line through the
origin with gradient $4\pi^2/g$.

mass of the bob 0.050 kg (shouldn't matter)
Sam re-did the 110 cm trial 2 because he forgot to reset the watch, the value in the table is the re-do.

To find: the local acceleration due to gravity g, and compare it with the accepted 9.81 m/s^2.
"""
    return LabFolder(
        name="phys1-lab3-tue",
        experiment="simple pendulum (time for 20 swings)",
        lang="en",
        files={
            "timings.csv": fmt.csv({"L (cm)": L_cm, **trials}, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(Truth(G_NAMES, g, "m/s^2"),),
        controlled=("timings.csv: L (cm)", "timings.csv: L"),
        shapes=("csv", "units in headers", "repeat columns", "latex formula"),
    )


def spring_static_gbk(rng: np.random.Generator) -> LabFolder:
    k, L0, g = 24.6, 12.40, 9.80
    m_g = np.arange(0.0, 501.0, 50.0)
    L = L0 + m_g / 1000 * g / k * 100
    load = rnd(L + rng.normal(0, 0.04, m_g.size), 0.01)
    unload = rnd(L + 0.03 + rng.normal(0, 0.04, m_g.size), 0.01)
    notes = """
实验二  弹簧劲度系数的测定（静态拉伸法）

将弹簧竖直悬挂，依次加挂砝码（每个 m = 50.0 g），记录指针在米尺上所指的刻度；
全部加完后再逐个取下，记录卸载时的读数（数据见 弹簧.csv）。

原理：胡克定律 F = k·Δx，即 mg = k(L − L₀)
取 g = 9.80 m/s²

要求：用最小二乘法求弹簧的劲度系数 k（N/m）以及弹簧原长 L₀。
备注：第3组的米尺零点有点歪，读数已经校正过了。
"""
    cols = {"砝码质量/g": m_g, "加载时长度/cm": load, "卸载时长度/cm": unload}
    return LabFolder(
        name="wuli-shiyan-2",
        experiment="Hooke's law, static loading",
        lang="zh",
        files={"弹簧.csv": fmt.csv(cols, 8, encoding="gbk"), "说明.txt": fmt.text(notes)},
        truths=(
            Truth(("k", "劲度系数", "弹簧劲度系数", "spring constant", "stiffness"), k, "N/m"),
            Truth(
                ("L0", "L₀", "L_0", "原长", "弹簧原长", "natural length", "unstretched length"),
                L0,
                "cm",
            ),
        ),
        controlled=("弹簧.csv: 砝码质量/g", "弹簧.csv: 砝码质量"),
        shapes=("gbk", "chinese headers", "units in headers", "repeat columns"),
    )


def compound_bar(rng: np.random.Generator) -> LabFolder:
    g, kg = 9.807, 1.000 / np.sqrt(12)
    h_cm = np.arange(5.0, 46.0, 5.0)
    h = h_cm / 100
    T = 2 * np.pi * np.sqrt((kg**2 + h**2) / (g * h))
    t1 = rnd(10 * T + rng.normal(0, 0.05, h.size), 0.01)
    t2 = rnd(10 * T + rng.normal(0, 0.05, h.size), 0.01)
    notes = r"""
Physical (compound) pendulum -- metre bar with holes

The bar (L = 1.000 m) was hung from the knife edge through each hole in turn.
h is the distance from the pivot to the centre of mass (the 50 cm mark).
Timed 10 oscillations, twice for each hole (columns 10T_1, 10T_2).

$$T = 2\pi \sqrt{\frac{k^2 + h^2}{g\,h}}$$

where k is the radius of gyration about the centre of mass.

Find g and k. For a uniform bar k should be $L/\sqrt{12}$ = 28.9 cm.
"""
    cols = {"h/cm": h_cm, "10T_1/s": t1, "10T_2/s": t2}
    return LabFolder(
        name="metre-bar-holes",
        experiment="compound pendulum",
        lang="en",
        files={"bar.csv": fmt.csv(cols, 8), "README.md": fmt.text(notes)},
        truths=(
            Truth(G_NAMES, g, "m/s^2"),
            Truth(("k", "radius of gyration", "K"), kg, "m"),
        ),
        controlled=("bar.csv: h/cm", "bar.csv: h"),
        shapes=("csv", "units in headers", "repeat columns", "latex formula", "n periods"),
    )


def wire_extension(rng: np.random.Generator) -> LabFolder:
    E, L, d, g = 1.95e11, 1.052, 0.500e-3, 9.80
    m = np.arange(1.0, 9.0, 1.0)
    dL_mm = m * g * L / (E * np.pi * d**2 / 4) * 1000
    up = rnd(0.350 + dL_mm + rng.normal(0, 0.008, m.size), 0.001)
    down = rnd(0.356 + dL_mm + rng.normal(0, 0.008, m.size), 0.001)
    notes = """
拉伸法测定金属丝的杨氏模量

钢丝原长 L = 105.2 cm（米尺测量）；直径用千分尺在不同位置测了 5 次：
0.498, 0.501, 0.500, 0.502, 0.499 mm
伸长量用千分表直接读取（表中为千分表读数，不是伸长量）。g=9.80 m/s²

E = F·L / (S·ΔL)，其中 S = πd²/4

用逐差法或作图法求钢丝的杨氏模量 E，并与参考值 2.0×10¹¹ Pa 比较。
"""
    cols = {"荷重 m/kg": m, "加载读数 x/mm": up, "减载读数 x/mm": down}
    return LabFolder(
        name="lashen-gangsi",
        experiment="Young's modulus of a wire (dial gauge)",
        lang="zh",
        files={"yangs.csv": fmt.csv(cols, 8), "实验记录.txt": fmt.text(notes)},
        truths=(Truth(("E", "Y", "杨氏模量", "Young's modulus", "Young modulus"), E / 1e9, "GPa"),),
        controlled=("yangs.csv: 荷重 m/kg", "yangs.csv: 荷重 m"),
        shapes=("csv", "chinese headers", "repeat columns", "constants as a list"),
    )


def resonance_tube(rng: np.random.Generator) -> LabFolder:
    T_c, e = 24.0, 1.05
    v = 331.3 + 0.606 * T_c
    f = np.array([256.0, 288.0, 320.0, 341.3, 384.0, 426.7, 480.0, 512.0])
    lam_cm = v / f * 100
    L1 = rnd(lam_cm / 4 - e + rng.normal(0, 0.3, f.size), 0.1)
    L2 = rnd(3 * lam_cm / 4 - e + rng.normal(0, 0.3, f.size), 0.1)
    notes = """
Speed of sound -- resonance tube  共鸣管法测声速

Tuning forks (frequencies as stamped on them) held over the open end; the water level was lowered
until the first and then the second resonance. L is measured from the top of the tube to the water.

first resonance:  L1 + e = λ/4
second resonance: L2 + e = 3λ/4,   v = fλ
e = end correction 末端修正

Room temp 24.0 °C, so we expect v = 331.3 + 0.606·t  (t in °C).
Find v and the end correction e.
"""
    cols = {"f (Hz)": f, "L1 (cm)": L1, "L2 (cm)": L2}
    return LabFolder(
        name="forks-and-tube",
        experiment="speed of sound, resonance tube",
        lang="en",
        files={"tube.csv": fmt.csv(cols, 8), "notes.txt": fmt.text(notes)},
        truths=(
            Truth(("v", "speed of sound", "声速", "c", "velocity of sound"), v, "m/s"),
            Truth(("e", "end correction", "末端修正"), e, "cm"),
        ),
        controlled=("tube.csv: f (Hz)", "tube.csv: f"),
        shapes=("csv", "units in headers", "mixed en/zh"),
    )


def falling_mass_turntable(rng: np.random.Generator) -> LabFolder:
    inertia, tau_f, r, h, g = 4.20e-3, 3.0e-3, 0.0250, 0.800, 9.80
    m_g = np.array([20.0, 40.0, 60.0, 80.0, 100.0])
    m = m_g / 1000
    a = (m * g * r - tau_f) / (inertia / r + m * r)
    t = np.sqrt(2 * h / a)
    trials = {f"t{i} [s]": rnd(t + rng.normal(0, 0.04, m.size), 0.01) for i in (1, 2, 3)}
    notes = """
Rotational dynamics: moment of inertia of the turntable

A string wound round the axle (radius r = 2.50 cm) goes over a light pulley to a hanging
mass m. Released from rest, the mass falls through h = 80.0 cm and we timed the fall
(three times for each mass).

a = 2h/t^2
torque balance: m(g - a) r - tau_f = I a / r

Find the moment of inertia I of the turntable and the frictional torque tau_f.
g = 9.80 m/s^2
"""
    return LabFolder(
        name="turntable-group2",
        experiment="moment of inertia by a falling mass",
        lang="en",
        files={"falls.csv": fmt.csv({"m [g]": m_g, **trials}, 8), "notes.txt": fmt.text(notes)},
        truths=(
            Truth(("I", "moment of inertia"), inertia, "kg*m^2"),
            Truth(("tau_f", "τ_f", "τf", "frictional torque", "friction torque"), tau_f, "N*m"),
        ),
        controlled=("falls.csv: m [g]", "falls.csv: m"),
        shapes=("csv", "units in headers", "repeat columns"),
    )


FOLDERS = (
    pendulum_stopwatch,
    spring_static_gbk,
    compound_bar,
    wire_extension,
    resonance_tube,
    falling_mass_turntable,
)
