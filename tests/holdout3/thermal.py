"""Heat and temperature: cooling, a lamp filament, a thermistor, a
thermocouple, vapour pressure."""

from __future__ import annotations

import numpy as np

from tests.holdout3._shapes import headerless, rnd
from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth

R_GAS = 8.314462618


def beaker_cooling(rng: np.random.Generator) -> LabFolder:
    k, Ts, T0 = 1.9e-3, 22.4, 78.0
    t = np.arange(0.0, 2400.0, 30.0)
    T = Ts + (T0 - Ts) * np.exp(-k * t)
    T = rnd(T + rng.normal(0, 0.12, t.size), 0.1)
    notes = """
Newton's law of cooling

A beaker of hot water (about 200 mL) left to cool on the bench with the probe in the middle,
no lid. Logged automatically every 30 s.

Newton: dT/dt = -k (T - T_s), so T(t) = T_s + (T_0 - T_s) exp(-k t)

We didn't have a second thermometer for the room, so T_s should come out of the fit
(the wall thermostat said 22 °C).

Find the cooling constant k (per second) and the surrounding temperature T_s.
"""
    comments = ["Logger: PS-2125 temperature probe", "sample interval 30 s", "start 10:42:05"]
    return LabFolder(
        name="beaker-bench-log",
        experiment="Newton's law of cooling",
        lang="en",
        files={
            "cooling.txt": fmt.logger_txt({"time[s]": t, "temp[°C]": T}, comments, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(("k", "cooling constant", "cooling rate constant"), k, "1/s"),
            Truth(
                (
                    "T_s",
                    "Ts",
                    "surrounding temperature",
                    "ambient temperature",
                    "room temperature",
                    "T_env",
                    "T_amb",
                ),
                Ts,
                "degC",
            ),
        ),
        controlled=("cooling.txt: time[s]", "cooling.txt: time"),
        shapes=("tab logger", "# comments", "units in brackets"),
    )


def lamp_radiation(rng: np.random.Generator) -> LabFolder:
    n, c = 3.87, 1.4e-12
    T = np.arange(1200.0, 2601.0, 100.0)
    P = c * T**n
    R = 6.26 * (T / 2600) ** 1.2
    current = np.sqrt(P / R)
    V = current * R
    V = rnd(V * (1 + rng.normal(0, 0.004, T.size)), 0.01)
    current = rnd(current * (1 + rng.normal(0, 0.004, T.size)), 0.001)
    Tm = rnd(T + rng.normal(0, 8, T.size), 1)
    notes = """
Stefan-Boltzmann law with a tungsten filament lamp

Raised the lamp voltage in steps. At each step V and I were read off the meters and the
filament temperature was worked out from its resistance (ratio to the cold resistance, tungsten tables).

lamp.dat has no header: column 1 = V in volts, column 2 = I in amps, column 3 = T in kelvin.

Radiated power P = VI ∝ T^n (conduction losses are small this hot).
Find the exponent n from a log-log plot. Stefan-Boltzmann predicts n = 4.
"""
    rows = np.column_stack([V, current, Tm])
    return LabFolder(
        name="lamp-series",
        experiment="Stefan-Boltzmann exponent (lamp)",
        lang="en",
        files={
            "lamp.dat": headerless(rows, ["{:6.2f}", "{:6.3f}", "{:5.0f}"]),
            "notes.txt": fmt.text(notes),
        },
        truths=(Truth(("n", "exponent", "power-law exponent", "power"), n, ""),),
        shapes=("headerless", "derived column"),
    )


def thermistor_bath(rng: np.random.Generator) -> LabFolder:
    B, R25 = 3920.0, 10.3
    t = np.arange(20.0, 91.0, 5.0)
    R = R25 * np.exp(B * (1 / (t + 273.15) - 1 / 298.15))
    R = R * (1 + rng.normal(0, 0.005, t.size))
    R = np.round(R, 3)
    notes = """
NTC 热敏电阻温度特性的测量

将热敏电阻放入油浴中，用数字万用表测电阻，温度由水银温度计读出（升温过程）。

R_T = R_25·exp[B(1/T − 1/T_25)]，T 用热力学温度，T_25 = 298.15 K

求材料常数 B 以及 25 ℃ 时的阻值 R_25。厂家标称：B = 3950 K，R25 = 10 kΩ。
"""
    cols = {"温度 T/℃": t, "电阻 R/kΩ": R}
    return LabFolder(
        name="reming-youyu",
        experiment="NTC thermistor B constant",
        lang="zh",
        files={"thermistor.csv": fmt.semicolon_csv(cols, 8), "记录.txt": fmt.text(notes)},
        truths=(
            Truth(("B", "材料常数", "B constant", "B value", "B值"), B, "K"),
            Truth(("R25", "R_25", "R₂₅", "25 ℃ 时的阻值", "25℃时的阻值"), R25, "kohm"),
        ),
        controlled=("thermistor.csv: 温度 T/℃", "thermistor.csv: 温度 T"),
        shapes=("semicolon", "decimal comma", "chinese headers"),
    )


def thermocouple_mat(rng: np.random.Generator) -> LabFolder:
    S = 40.7  # µV/K
    Th = np.arange(0.0, 201.0, 10.0)
    Tc = rnd(rng.normal(0.0, 0.05, Th.size), 0.1)
    E = 0.012 + S * (Th - Tc) / 1000 + rng.normal(0, 0.005, Th.size)
    notes = """
Thermocouple calibration (type K)

Cold junction in ice/water, hot junction in the heated aluminium block, block temperature
from the reference Pt100.  thermo.mat holds Th (°C), Tc (°C) and E (mV).

E = S (Th - Tc)

Determine the Seebeck coefficient S in µV/K. Reference tables give about 41 µV/K near room temperature.
"""
    return LabFolder(
        name="tc-calib-k",
        experiment="Seebeck coefficient of a thermocouple",
        lang="en",
        files={
            "thermo.mat": fmt.mat({"Th": Th, "Tc": Tc, "E": np.round(E, 3)}),
            "notes.txt": fmt.text(notes),
        },
        truths=(Truth(("S", "Seebeck coefficient", "thermopower", "α", "alpha"), S, "uV/K"),),
        controlled=("thermo.mat: Th",),
        shapes=("mat", "units in notes"),
    )


def vapour_pressure_static(rng: np.random.Generator) -> LabFolder:
    dH, Tb = 41.8e3, 372.9
    p_atm = 101.12
    t = np.arange(50.0, 96.0, 5.0)
    p = 101.325 * np.exp(-dH / R_GAS * (1 / (t + 273.15) - 1 / Tb))
    dp = rnd(p - p_atm + rng.normal(0, 0.05, t.size), 0.01)
    t_read = rnd(t + rng.normal(0, 0.05, t.size), 0.1)
    notes = """
静态法测定液体（水）的饱和蒸气压

用等压计，在不同温度下调节使 U 形管两侧液面相平，读取数字压力计的读数 Δp（相对于大气压，为负值）。
当天大气压 101.12 kPa，p = p大气 + Δp

克劳修斯-克拉佩龙方程：ln(p/[p]) = −ΔvapHm/(RT) + C

求水在实验温度范围内的平均摩尔汽化热 ΔvapHm，以及正常沸点 Tb。
文献值 ΔvapHm = 40.66 kJ/mol（100 ℃）。
"""
    cols = {"温度/℃": t_read, "压力计读数 Δp/kPa": dp}
    return LabFolder(
        name="zhengqiya-jingtai",
        experiment="Clausius-Clapeyron, static vapour pressure",
        lang="zh",
        files={"vp.csv": fmt.csv(cols, 8), "说明.txt": fmt.text(notes)},
        truths=(
            Truth(
                (
                    "ΔvapHm",
                    "ΔvapH",
                    "ΔHvap",
                    "ΔH_vap",
                    "摩尔汽化热",
                    "平均摩尔汽化热",
                    "enthalpy of vaporization",
                    "enthalpy of vaporisation",
                    "molar enthalpy of vaporization",
                    "molar enthalpy of vaporisation",
                    "heat of vaporization",
                    "L",
                ),
                dH / 1000,
                "kJ/mol",
            ),
            Truth(("Tb", "T_b", "正常沸点", "normal boiling point", "boiling point"), Tb, "K"),
        ),
        controlled=("vp.csv: 温度/℃", "vp.csv: 温度"),
        shapes=("csv", "chinese headers", "gauge pressure (derived column)"),
    )


FOLDERS = (
    beaker_cooling,
    lamp_radiation,
    thermistor_bath,
    thermocouple_mat,
    vapour_pressure_static,
)
