"""Hold-out folders: mechanics and heat, phrased as handouts and notebooks are."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

TAU = 2 * np.pi


def compound_pendulum(rng: np.random.Generator) -> LabFolder:
    g, bar = 9.80, 1.000
    k = bar / np.sqrt(12)
    h = np.array([0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45])
    period = TAU * np.sqrt((k**2 + h**2) / (g * h)) * (1 + rng.normal(0, 0.002, h.size))
    notes = r"""
Lab 4 -- The physical (compound) pendulum

A uniform steel bar (length 1.000 m) hangs from a knife edge through one of the
holes drilled along it. For each hole we measured the distance h from the
centre of mass to the pivot and timed 10 oscillations (we divided by 10).

Theory: for a rigid body $T = 2\pi\sqrt{\frac{k^2 + h^2}{g h}}$, where k is the
radius of gyration about the centre of mass.

Find g and the radius of gyration k from the data. For a thin bar k should be
L/sqrt(12) = 0.289 m.
"""
    return LabFolder(
        "bar-on-knife-edge", "compound_pendulum", "en",
        {"lab4_notes.md": f.text(notes),
         "bar_periods.csv": f.csv({"h (m)": h, "T (s)": period}, {"h (m)": 3, "T (s)": 5})},
        (Truth(("g", "gravitational acceleration", "acceleration due to gravity"), g, "m/s^2"),
         Truth(("k", "radius of gyration"), k, "m")),
        shapes=("csv-units-in-header", "latex-formula"),
    )  # fmt: skip


def wire_young_zh(rng: np.random.Generator) -> LabFolder:
    e_mod, length, diameter, g = 2.00e11, 1.200, 0.50e-3, 9.80
    area = np.pi * diameter**2 / 4
    mass = np.arange(1, 9) * 0.500  # kg
    ext_mm = mass * g * length / (e_mod * area) * 1000 + rng.normal(0, 0.004, mass.size)
    notes = """
拉伸法测金属丝的杨氏模量

钢丝原长 L = 1.200 m，直径 d = 0.500 mm（螺旋测微器测 5 次取平均）。
每次增加一个 0.500 kg 的砝码，用光杠杆读出伸长量 ΔL。g 取 9.80 m/s²。

原理：E = F L / (S ΔL)，其中 F = m g，S = π d²/4。
要求：用作图法（ΔL–m 直线的斜率）求钢丝的杨氏模量 E，并与钢的公认值 2.0×10¹¹ Pa 比较。
"""
    return LabFolder(
        "gangsi-lashen", "young_modulus_wire", "zh",
        {"实验说明.txt": f.text(notes),
         "数据.csv": f.csv({"砝码质量 m/kg": mass, "伸长量 ΔL/mm": ext_mm},
                          {"砝码质量 m/kg": 3, "伸长量 ΔL/mm": 3})},
        (Truth(("E", "Young's modulus", "youngs modulus", "杨氏模量"), e_mod, "Pa"),),
        shapes=("zh-headers", "slash-units", "derived-from-slope-with-constants"),
    )  # fmt: skip


def incline_friction(rng: np.random.Generator) -> LabFolder:
    mu, g = 0.22, 9.81
    angle = np.array([20, 25, 30, 35, 40, 45, 50.0])
    rad = np.radians(angle)
    acc = g * (np.sin(rad) - mu * np.cos(rad)) + rng.normal(0, 0.03, angle.size)
    notes = """
Sliding block on an inclined plane

A wooden block slides down an aluminium track set at different angles theta.
A motion sensor at the top gave the acceleration a at each angle (average of
3 runs). Newton's 2nd law with kinetic friction gives

    a = g (sin(theta) - mu_k cos(theta))

Use g = 9.81 m/s^2. Determine the coefficient of kinetic friction mu_k.
(Tables give 0.2-0.6 for wood on metal; we expect something at the low end.)
"""
    return LabFolder(
        "track-angles", "incline_friction", "en",
        {"notes.txt": f.text(notes),
         "runs.csv": f.csv({"theta [deg]": angle, "a [m/s^2]": acc}, {"theta [deg]": 3, "a [m/s^2]": 4})},
        (Truth(("mu_k", "mu", "coefficient of kinetic friction", "coefficient of friction"), mu, ""),),
        controlled=("runs.csv: theta [deg]",),
        shapes=("square-bracket-units", "ascii-formula"),
    )  # fmt: skip


def spring_effective_mass(rng: np.random.Generator) -> LabFolder:
    k, m_eff = 25.0, 0.020
    mass = np.array([0.050, 0.100, 0.150, 0.200, 0.250, 0.300])
    t10 = 10 * TAU * np.sqrt((mass + m_eff) / k)
    trials = {f"10T trial {i} (s)": t10 + rng.normal(0, 0.06, mass.size) for i in (1, 2, 3)}
    notes = """
Mass-spring oscillator, effective mass of the spring

Hung masses m from 50 g to 300 g on the spring and timed 10 full oscillations,
three trials each (columns "10T trial 1..3"). Because the spring itself moves,

    T^2 = (4 pi^2 / k) (m + m_eff)

so a plot of T^2 against m is a straight line. Find the spring constant k and
the effective mass m_eff of the spring.
"""
    return LabFolder(
        "spring-ten-swings", "spring_effective_mass", "en",
        {"README.md": f.text(notes),
         "timings.csv": f.csv({"m (kg)": mass, **trials}, 4)},
        (Truth(("k", "spring constant"), k, "N/m"),
         Truth(("m_eff", "effective mass", "effective mass of the spring"), m_eff, "kg")),
        shapes=("csv-units-in-header", "repeat-columns", "ten-periods"),
    )  # fmt: skip


def thermistor_zh(rng: np.random.Generator) -> LabFolder:
    b_const, r25 = 3950.0, 10.0  # K, kOhm
    temp_c = np.arange(20, 91, 10.0)
    kelvin = temp_c + 273.15
    res = (
        r25 * np.exp(b_const * (1 / kelvin - 1 / 298.15)) * (1 + rng.normal(0, 0.005, temp_c.size))
    )
    notes = """
热敏电阻温度特性的研究

将 NTC 热敏电阻放入水浴中，从 20 ℃ 到 90 ℃ 每隔 10 ℃ 用数字万用表测电阻 R。
NTC 热敏电阻满足 R = R0·exp[B(1/T − 1/T0)]，T0 = 298.15 K（25 ℃），T 为热力学温度。

求材料常数 B 和 25 ℃ 时的电阻 R0（标称值 10 kΩ，B 标称 3950 K）。
"""
    return LabFolder(
        "reshi-dianzu", "thermistor", "zh",
        {"说明.md": f.text(notes),
         "ntc.csv": f.csv({"t/℃": temp_c, "R/kΩ": res}, {"t/℃": 3, "R/kΩ": 4}, encoding="gbk")},
        (Truth(("B", "material constant", "B constant", "材料常数", "B值"), b_const, "K"),
         Truth(("R0", "R_0", "resistance at 25", "零功率电阻"), r25, "kohm")),
        controlled=("ntc.csv: t/℃",),
        shapes=("gbk", "zh-notes", "celsius-for-kelvin-law"),
    )  # fmt: skip


def coffee_cooling(rng: np.random.Generator) -> LabFolder:
    k, ambient, t0 = 0.045, 21.5, 88.0  # 1/min, degC
    minutes = np.arange(0, 61, 3.0)
    temp = ambient + (t0 - ambient) * np.exp(-k * minutes) + rng.normal(0, 0.2, minutes.size)
    notes = """
Newton's law of cooling -- mug of hot water

Poured ~250 mL of hot water into a ceramic mug, put a thermometer in and read
it every 3 minutes. Room temperature was 21.5 C the whole time.

Newton: dT/dt = -k (T - T_room), i.e. T(t) = T_room + (T0 - T_room) e^(-kt).

Q: what is the cooling constant k? And the time constant 1/k in minutes?
"""
    return LabFolder(
        "mug-readings", "newton_cooling", "en",
        {"notebook.txt": f.text(notes),
         "mug.csv": f.csv({"time/min": minutes, "T/C": temp}, {"time/min": 3, "T/C": 3})},
        (Truth(("k", "cooling constant"), k, "1/min"),
         Truth(("tau", "time constant"), 1 / k, "min")),
        shapes=("slash-units", "constant-in-notes"),
    )  # fmt: skip


def vapour_pressure_gbk(rng: np.random.Generator) -> LabFolder:
    dh, r = 40.7e3, 8.314
    temp_c = np.array([50, 55, 60, 65, 70, 75, 80, 85, 90.0])
    kelvin = temp_c + 273.15
    p = (
        101.325
        * np.exp(-dh / r * (1 / kelvin - 1 / 373.15))
        * (1 + rng.normal(0, 0.006, temp_c.size))
    )
    notes = """
液体饱和蒸气压的测定（静态法）

测定不同温度下水的饱和蒸气压 p。根据克劳修斯-克拉佩龙方程
ln p = -ΔvapHm/(RT) + C，以 ln p 对 1/T 作图，由直线斜率求水的平均摩尔汽化焓 ΔvapHm。
文献值约为 40.7 kJ/mol。
"""
    return LabFolder(
        "zhengqiya-jingtai", "clausius_clapeyron", "zh",
        {"实验要求.txt": f.text(notes, encoding="gbk"),
         "蒸气压.csv": f.csv({"温度 (℃)": temp_c, "蒸气压 (kPa)": p},
                            {"温度 (℃)": 3, "蒸气压 (kPa)": 4}, encoding="gbk")},
        (Truth(("dHvap", "ΔvapHm", "ΔvapH", "enthalpy of vaporization", "摩尔汽化焓",
                "汽化焓", "平均摩尔汽化焓"), dh, "J/mol"),),
        controlled=("蒸气压.csv: 温度 (℃)",),
        shapes=("gbk", "zh-notes", "celsius-for-kelvin-law"),
    )  # fmt: skip


def seebeck(rng: np.random.Generator) -> LabFolder:
    s = 41.0e-6  # V/K
    dt = np.arange(0, 101, 10.0)
    volts_mv = s * dt * 1000 + rng.normal(0, 0.01, dt.size)
    notes = """
Thermocouple calibration (type K)

Reference junction in ice water, measuring junction in an oil bath. We stepped
the bath temperature and read the thermocouple voltage with a mV meter.
Over this range the emf is linear: V = S * dT, where S is the Seebeck
coefficient. Report S in microvolts per kelvin (type K is about 41 uV/K).
"""
    return LabFolder(
        "k-type-bath", "seebeck", "en",
        {"notes.md": f.text(notes),
         "emf.txt": f.logger_txt({"dT (K)": dt, "V (mV)": volts_mv},
                                 ["logger: Keithley 2000", "ref junction 0 C"], {"dT (K)": 3, "V (mV)": 4})},
        (Truth(("S", "Seebeck coefficient", "seebeck"), s, "V/K"),),
        controlled=("emf.txt: dT (K)",),
        shapes=("tab-with-comments",),
    )  # fmt: skip


FOLDERS = (compound_pendulum, wire_young_zh, incline_friction, spring_effective_mass,
           thermistor_zh, coffee_cooling, vapour_pressure_gbk, seebeck)  # fmt: skip
