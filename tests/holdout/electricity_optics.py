"""Hold-out folders: circuits and light."""

from __future__ import annotations

import numpy as np

from tests.holdout import folder_text as ft
from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

KB, Q = 1.380649e-23, 1.602176634e-19


def rc_scope(rng: np.random.Generator) -> LabFolder:
    r, c, v0 = 10e3, 0.47e-6, 5.0
    tau = r * c
    t = np.arange(0, 0.025, 0.0002)
    v = v0 * (1 - np.exp(-t / tau)) + rng.normal(0, 0.02, t.size)
    notes = """
Charging a capacitor through a resistor

Square wave from the function generator into R = 10 kOhm in series with the
capacitor; channel 1 of the scope across C. One rising edge was saved
(scope_export.csv).

V_C(t) = V0 (1 - exp(-t/RC))

1. Find the time constant tau from a fit.
2. From tau and R, work out the capacitance C. The capacitor is marked 0.47 uF.
"""
    return LabFolder(
        "scope-rising-edge", "rc_charging", "en",
        {"lab_sheet.txt": f.text(notes), "scope_export.csv": ft.scope_csv(t, v)},
        (Truth(("tau", "time constant"), tau, "s"),
         Truth(("C", "capacitance"), c, "F")),
        shapes=("scope-export-preamble", "units-row"),
    )  # fmt: skip


def diode_zh(rng: np.random.Generator) -> LabFolder:
    n, i_s, temp = 1.8, 2.0e-9, 300.0
    vt = KB * temp / Q
    volts = np.arange(0.30, 0.721, 0.03)
    current_ma = i_s * (np.exp(volts / (n * vt)) - 1) * 1000 * (1 + rng.normal(0, 0.02, volts.size))
    notes = """
二极管伏安特性

用恒压源给硅二极管加正向电压 U，测电流 I。室温 T = 300 K。
肖克利方程：I = Is [exp(qU/(n k T)) − 1]。
求理想因子 n 和反向饱和电流 Is。
"""
    return LabFolder(
        "erjiguan-zhengxiang", "diode", "zh",
        {"要求.md": f.text(notes),
         "伏安.xlsx": f.xlsx({"正向": {"U (V)": volts, "I (mA)": current_ma}}, 5)},
        (Truth(("n", "ideality factor", "理想因子"), n, ""),
         Truth(("Is", "I_s", "saturation current", "反向饱和电流", "饱和电流"), i_s, "A")),
        controlled=("伏安.xlsx: U (V)",),
        shapes=("xlsx", "zh-notes"),
    )  # fmt: skip


def rlc_q_factor(rng: np.random.Generator) -> LabFolder:
    f0, q, i0 = 1592.0, 8.0, 12.0  # Hz, -, mA
    freq = np.concatenate(
        [np.arange(800, 1400, 100.0), np.arange(1400, 1800, 40.0), np.arange(1800, 2801, 200.0)]
    )
    amp = (
        i0 / np.sqrt(1 + q**2 * (freq / f0 - f0 / freq) ** 2) * (1 + rng.normal(0, 0.01, freq.size))
    )
    notes = """
Series RLC resonance

Drove the series RLC circuit with a sine of fixed amplitude and swept the
frequency; the current amplitude I was read from the voltage across the 10 Ohm
sense resistor.

Near resonance I(f) = I0 / sqrt(1 + Q^2 (f/f0 - f0/f)^2).
Determine the resonant frequency f0 and the quality factor Q.
Expected f0 = 1/(2 pi sqrt(LC)) with L = 10 mH, C = 1.0 uF, i.e. about 1592 Hz.
"""
    return LabFolder(
        "series-sweep", "rlc_resonance", "en",
        {"notes.md": f.text(notes),
         "sweep.csv": f.semicolon_csv({"f (Hz)": freq, "I (mA)": amp}, {"f (Hz)": 5, "I (mA)": 4})},
        (Truth(("f0", "resonant frequency", "resonance frequency"), f0, "Hz"),
         Truth(("Q", "quality factor", "Q factor"), q, "")),
        controlled=("sweep.csv: f (Hz)",),
        shapes=("semicolon-decimal-comma",),
    )  # fmt: skip


def grating_zh(rng: np.random.Generator) -> LabFolder:
    lam, d = 632.8e-9, 1e-3 / 300
    order = np.array([1, 2, 3, 4, 5.0])
    theta = np.degrees(np.arcsin(order * lam / d)) + rng.normal(0, 0.03, order.size)
    notes = """
用透射光栅测光栅常数

用分光计测 He-Ne 激光（λ = 632.8 nm）第 1~5 级衍射角 θ。
光栅方程 d sinθ = k λ。
求光栅常数 d（以及每毫米刻线数），标称 300 线/mm。
"""
    return LabFolder(
        "guangshan-fenguangji", "grating", "zh",
        {"说明.txt": f.text(notes),
         "衍射角.csv": f.csv({"级次 k": order, "衍射角 θ (°)": theta}, {"级次 k": 1, "衍射角 θ (°)": 4})},
        (Truth(("d", "grating constant", "grating spacing", "光栅常数"), d, "m"),),
        controlled=("衍射角.csv: 级次 k",),
        shapes=("zh-headers", "degrees"),
    )  # fmt: skip


def newton_rings(rng: np.random.Generator) -> LabFolder:
    radius, lam = 1.00, 589.3e-9
    m = np.arange(5, 26, 2.0)
    diameter_mm = 2 * np.sqrt(m * radius * lam) * 1000 + rng.normal(0, 0.004, m.size)
    notes = """
Newton's rings

Sodium lamp (589.3 nm). Measured the diameters D of the dark rings with the
travelling microscope, ring numbers m = 5, 7, ..., 25. For dark rings
r_m^2 = m R lambda, with r = D/2, so D^2 = 4 R lambda m.

Determine the radius of curvature R of the lens.
"""
    return LabFolder(
        "sodium-rings", "newton_rings", "en",
        {"README.txt": f.text(notes),
         "rings.csv": f.csv({"m": m, "D (mm)": diameter_mm}, {"m": 2, "D (mm)": 4})},
        (Truth(("R", "radius of curvature"), radius, "m"),),
        controlled=("rings.csv: m",),
        shapes=("csv-units-in-header", "derived-variable"),
    )  # fmt: skip


def absorbance_unknowns_zh(rng: np.random.Generator) -> LabFolder:
    eps_l, blank = 0.0115, 0.004  # absorbance per mg/L
    std = np.array([0, 10, 20, 30, 40, 50.0])
    a_std = blank + eps_l * std + rng.normal(0, 0.002, std.size)
    unknown = {"样品1": 17.0, "样品2": 33.5}
    a_unk = [blank + eps_l * c + rng.normal(0, 0.002) for c in unknown.values()]
    notes = """
分光光度法测定水样中的铁含量（邻二氮菲法）

配制 0~50 mg/L 的铁标准溶液系列，在 510 nm 测吸光度，作标准曲线 A = a + b c（朗伯-比尔定律）。
两个水样在同样条件下测吸光度（工作簿第二张表）。
求两个水样的铁浓度 (mg/L)。
"""
    return LabFolder(
        "tie-hanliang", "calibration_unknowns", "zh",
        {"实验记录.md": f.text(notes),
         "吸光度.xlsx": f.xlsx({"标准系列": {"浓度 c (mg/L)": std, "吸光度 A": a_std},
                               "水样": {"样品编号": [1.0, 2.0], "吸光度 A": a_unk}}, 5)},
        tuple(Truth((name, "concentration of sample " + name[-1], "sample " + name[-1], "c" + name[-1]), c, "mg/L")
              for name, c in unknown.items()),
        controlled=("吸光度.xlsx: 浓度 c (mg/L)",),
        shapes=("xlsx-several-sheets", "standards-and-unknowns", "zh-headers"),
    )  # fmt: skip


FOLDERS = (rc_scope, diode_zh, rlc_q_factor, grating_zh, newton_rings, absorbance_unknowns_zh)
