"""Electricity and circuits."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

TAU = 2 * np.pi


def ohm(rng: np.random.Generator) -> LabFolder:
    r = 47.0
    current_ma = np.linspace(10, 100, 10)
    voltage = r * current_ma / 1000 + rng.normal(0, 0.02, 10)
    notes = """
Ohm's law

The current through a resistor was set with the supply and the voltage across
it read with a digital multimeter. Find the resistance R.
"""
    return LabFolder(
        "ohm", "ohm", "en",
        {"README.md": f.text(notes),
         "resistor.xlsx": f.xlsx({"readings": {"I (mA)": current_ma, "U (V)": voltage},
                                  "meter": {"range (V)": [20.0], "resolution (V)": [0.01]}})},
        (Truth(("R", "resistance"), r, "ohm"),),
        shapes=("xlsx-several-sheets",),
    )  # fmt: skip


def rc_discharge(rng: np.random.Generator) -> LabFolder:
    r, c = 10e3, 100e-6
    tau = r * c
    t = np.arange(0, 5, 0.05)
    v = 9.0 * np.exp(-t / tau) + rng.normal(0, 0.02, t.size)
    notes = """
Discharge of a capacitor

A capacitor charged to about 9 V discharges through R = 10 kΩ; the scope
recorded the voltage (scope.mat: t in s, v in V). Find the time constant τ
of V = V0 e^(−t/τ), and from it the capacitance C = τ/R.
"""
    return LabFolder(
        "rc-discharge-lab", "rc_discharge", "en",
        {"notes.md": f.text(notes), "scope.mat": f.mat({"t": t, "v": v})},
        (Truth(("tau", "τ", "time constant"), tau, "s"),
         Truth(("C", "capacitance"), c, "F")),
        shapes=("mat", "constant-in-notes"),
    )  # fmt: skip


def rl_transient_zh(rng: np.random.Generator) -> LabFolder:
    r, ind, emf = 20.0, 0.5, 6.0
    tau = ind / r
    t_ms = np.arange(0, 150, 2.0)
    i_ma = emf / r * (1 - np.exp(-t_ms / 1000 / tau)) * 1000 + rng.normal(0, 1.5, t_ms.size)
    log = f.logger_txt(
        {"t (ms)": t_ms, "I (mA)": i_ma},
        ["数据采集器导出", "RL 电路通电瞬态", "采样间隔 2 ms"],
        {"t (ms)": 4, "I (mA)": 4},
    )
    notes = """
RL 电路的暂态过程

电源电动势 6.0 V，回路总电阻 R = 20.0 Ω。接通开关后记录电流 I 随时间 t 的变化，
I(t) = (E/R)(1 − e^(−t/τ))，τ = L/R。

要求：求时间常数 τ 和线圈的自感 L。
"""
    return LabFolder(
        "rl-transient-zh", "rl_transient", "zh",
        {"实验要求.txt": f.text(notes), "电流.txt": log},
        (Truth(("tau", "τ", "time constant", "时间常数"), tau, "s"),
         Truth(("L", "inductance", "自感", "电感", "自感系数"), ind, "H")),
        shapes=("logger-txt-comments", "constant-in-notes"),
    )  # fmt: skip


def rlc_resonance(rng: np.random.Generator) -> LabFolder:
    r, ind, cap, v = 50.0, 10e-3, 1e-6, 2.0
    freq = np.linspace(800, 2600, 31)
    w = TAU * freq
    current = v / np.sqrt(r**2 + (w * ind - 1 / (w * cap)) ** 2) * 1000
    current *= 1 + rng.normal(0, 0.008, freq.size)
    f0 = 1 / (TAU * np.sqrt(ind * cap))
    q = np.sqrt(ind / cap) / r
    notes = """
Series RLC resonance

A sine generator (2.0 V rms) drives a series RLC circuit; the rms current was
read at each frequency. Find the resonance frequency f0 and the quality factor
Q of the circuit from the resonance curve.
"""
    return LabFolder(
        "rlc-resonance", "rlc_resonance", "en",
        {"README.md": f.text(notes),
         "rlc.csv": f.csv({"f (Hz)": freq, "I (mA)": current}, {"f (Hz)": 5, "I (mA)": 4})},
        (Truth(("f0", "resonance frequency", "resonant frequency"), f0, "Hz"),
         Truth(("Q", "quality factor", "q factor"), q, "")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def diode(rng: np.random.Generator) -> LabFolder:
    i_s, n, vt = 5e-9, 1.9, 0.025420  # VT at 295 K
    v = np.linspace(0.25, 0.62, 16)
    i = i_s * (np.exp(v / (n * vt)) - 1) * (1 + rng.normal(0, 0.02, v.size))
    log = f.logger_txt(
        {"V_D [V]": v, "I_D [A]": i},
        ["I-V sweep, silicon diode 1N4148", "room temperature 295 K"],
        {"V_D [V]": 4, "I_D [A]": 4},
    )
    notes = """
Diode characteristic

Forward I–V curve of a silicon diode at 295 K (thermal voltage kT/e = 25.42 mV).
Fit the Shockley equation I = I_s (exp(V/(n V_T)) − 1) and give the
saturation current I_s and the ideality factor n.
"""
    return LabFolder(
        "diode", "shockley_diode", "en",
        {"notes.txt": f.text(notes), "iv_sweep.txt": log},
        (Truth(("I_s", "Is", "saturation current", "reverse saturation current"), i_s, "A"),
         Truth(("n", "ideality factor", "emission coefficient"), n, "")),
        shapes=("logger-txt-comments", "units-in-brackets"),
    )  # fmt: skip


def capacitor_charging_zh(rng: np.random.Generator) -> LabFolder:
    tau, v0 = 2.2, 5.0
    t = np.arange(0, 15, 0.25)
    v = v0 * (1 - np.exp(-t / tau)) + rng.normal(0, 0.02, t.size)
    notes = """
电容器充电

用 5 V 直流电源经电阻给电容器充电，记录电容两端电压 U 随时间 t 的变化。
求充电时间常数 τ 和充满电时的电压。
"""
    return LabFolder(
        "capacitor-charging-zh", "rc_charging", "zh",
        {"说明.txt": f.text(notes),
         "充电.json": f.json_records({"t_s": t, "U_V": v}, 5, {"单位": {"t_s": "s", "U_V": "V"}})},
        (Truth(("tau", "τ", "time constant", "时间常数"), tau, "s"),
         Truth(("V0", "U0", "final voltage", "充满电时的电压", "电源电压", "饱和电压"), v0, "V")),
        shapes=("json",),
    )  # fmt: skip


FOLDERS = (ohm, rc_discharge, rl_transient_zh, rlc_resonance, diode, capacitor_charging_zh)
