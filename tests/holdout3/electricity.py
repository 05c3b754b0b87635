"""Circuits and semiconductors: an RC discharge, a resistor, a diode, a Hall
probe."""

from __future__ import annotations

import numpy as np

from tests.holdout3._shapes import rnd
from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth

E_CHARGE = 1.602176634e-19
K_B = 1.380649e-23


def rc_discharge(rng: np.random.Generator) -> LabFolder:
    R, C = 10.0e3, 45.1e-6
    tau = R * C
    t = np.arange(0.0, 2.501, 0.05)
    U = 4.98 * np.exp(-t / tau)
    U = rnd(U + rng.normal(0, 0.01, t.size), 0.001)
    notes = """
RC circuit - discharge of a capacitor

Charged C to about 5 V from the supply, then flipped the switch so it discharges through the
resistor; the voltage across C was logged by the datalogger (sampling 20 Hz).

R = 10.0 kΩ (±1 %), the capacitor's label says 47 µF ±10 %.
Expected: U(t) = U0·e^(−t/RC)

Please determine the time constant τ and from it the capacitance C. Does C agree with the label?
"""
    return LabFolder(
        name="circuits-wk5",
        experiment="RC discharge",
        lang="en",
        files={
            "discharge.csv": fmt.semicolon_csv({"t [s]": np.round(t, 2), "U_C [V]": U}, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(("tau", "τ", "time constant", "RC"), tau, "s"),
            Truth(("C", "capacitance"), C * 1e6, "uF"),
        ),
        controlled=("discharge.csv: t [s]", "discharge.csv: t"),
        shapes=("semicolon", "decimal comma", "units in brackets"),
    )


def resistor_one_temperature(rng: np.random.Generator) -> LabFolder:
    R = 47.3
    U = np.arange(0.0, 5.01, 0.5)
    current = rnd(U / R * 1000 + rng.normal(0, 0.04, U.size), 0.01)
    notes = """
伏安法测电阻

用直流稳压电源给金属膜电阻加电压，每隔 0.5 V 记录一次电流（电流表 20 mA 档）。
实验在室温（约 20 ℃）下进行，电阻一直放在桌上。

欧姆定律 U = IR

要求：求电阻值 R，以及该电阻的温度系数 α。
"""
    return LabFolder(
        name="dianxue-fuan",
        experiment="Ohm's law (temperature coefficient asked, one temperature)",
        lang="zh",
        files={"伏安.csv": fmt.csv({"U/V": U, "I/mA": current}, 8), "要求.txt": fmt.text(notes)},
        truths=(
            Truth(("R", "电阻", "电阻值", "resistance"), R, "ohm"),
            Truth(
                ("α", "alpha", "温度系数", "电阻的温度系数", "temperature coefficient"),
                0.0,
                "1/K",
                answerable=False,
            ),
        ),
        controlled=("伏安.csv: U/V", "伏安.csv: U"),
        shapes=("csv", "units in headers", "honesty"),
    )


def diode_sweep(rng: np.random.Generator) -> LabFolder:
    n, Is, T = 1.85, 2.0e-9, 295.0
    VT = K_B * T / E_CHARGE
    V = np.round(np.arange(0.300, 0.751, 0.025), 3)
    current_mA = Is * np.expm1(V / (n * VT)) * 1000
    current_mA = current_mA * (1 + rng.normal(0, 0.015, V.size))
    comments = ["SMU sweep, 1N4148, forward", "compliance 20 mA", "NPLC 1"]
    notes = """
Diode I-V (1N4148), forward bias

Swept the voltage with the source-measure unit and recorded the current.

Shockley: I = I_s [exp(eV / (n k_B T)) − 1]
T = 295 K (lab thermometer)

Q: what are the ideality factor n and the saturation current I_s?
(an ideal diode has n = 1; small-signal silicon diodes are usually 1.5–2)
"""
    cols = {"V_D (V)": V, "I_D (mA)": np.array([float(f"{x:.4g}") for x in current_mA])}
    return LabFolder(
        name="iv-sweep-1n4148",
        experiment="diode ideality factor",
        lang="en",
        files={"sweep.txt": fmt.logger_txt(cols, comments, 8), "notes.txt": fmt.text(notes)},
        truths=(
            Truth(("n", "ideality factor", "η", "emission coefficient"), n, ""),
            Truth(("I_s", "Is", "I0", "saturation current", "reverse saturation current"), Is, "A"),
        ),
        controlled=("sweep.txt: V_D (V)", "sweep.txt: V_D"),
        shapes=("tab logger", "# comments", "units in parentheses"),
    )


def hall_four_readings(rng: np.random.Generator) -> LabFolder:
    n_carriers, B, d = 1.0e22, 0.400, 1.00e-3
    RH = 1 / (n_carriers * E_CHARGE)
    Is = np.arange(1.0, 10.01, 1.0)  # mA
    VH = RH * Is / 1000 * B / d * 1000  # mV
    Vo = 0.03 * Is

    def noise() -> np.ndarray:
        return rng.normal(0, 0.008, Is.size)

    V1 = rnd(VH + Vo + noise(), 0.01)
    V2 = rnd(-VH - Vo + noise(), 0.01)
    V3 = rnd(VH - Vo + noise(), 0.01)
    V4 = rnd(-VH + Vo + noise(), 0.01)
    notes = """
霍尔效应实验

样品厚度 d = 1.00 mm，电磁铁气隙中的磁感应强度 B = 0.400 T（特斯拉计测得）。
为消除副效应，对每个工作电流 I_s 改变电流和磁场的方向各测一次：
V1(+B,+I)、V2(+B,−I)、V3(−B,−I)、V4(−B,+I)，取 V_H = (V1 − V2 + V3 − V4)/4。

U_H = R_H·I_s·B/d

求霍尔系数 R_H 以及载流子浓度 n（n = 1/(e·R_H)）。
"""
    cols = {"I_s/mA": Is, "V1/mV": V1, "V2/mV": V2, "V3/mV": V3, "V4/mV": V4}
    return LabFolder(
        name="huoer-b04",
        experiment="Hall coefficient and carrier density",
        lang="zh",
        files={"hall.csv": fmt.csv(cols, 8), "实验说明.txt": fmt.text(notes)},
        truths=(
            Truth(("R_H", "RH", "霍尔系数", "Hall coefficient"), RH, "m^3/C"),
            Truth(
                ("n", "载流子浓度", "carrier concentration", "carrier density"), n_carriers, "1/m^3"
            ),
        ),
        controlled=("hall.csv: I_s/mA", "hall.csv: I_s"),
        shapes=("csv", "units in headers", "sign-reversal readings"),
    )


FOLDERS = (rc_discharge, resistor_one_temperature, diode_sweep, hall_four_readings)
