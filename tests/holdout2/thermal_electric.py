"""Thermal and electrical folders of the second hold-out set."""

from __future__ import annotations

import numpy as np

from tests.holdout2.raw import named, utf8
from tests.labset import formats as fm
from tests.labset.folder import LabFolder, Truth


def thermos_lid_off(rng: np.random.Generator) -> LabFolder:
    """Newton's cooling from a logger export with comment lines; room
    temperature given in the notes; k and its time constant asked."""
    k, t_room, t0 = 0.0523, 21.4, 78.0
    t = np.arange(0.0, 61.0, 1.0)
    temp = t_room + (t0 - t_room) * np.exp(-k * t)
    cols: fm.Columns = {"Time (min)": t, "Temperature (deg C)": temp + rng.normal(0, 0.1, t.size)}
    comments = [
        "Vernier LabQuest 2 export",
        "Run 1",
        "Sensor: stainless steel temperature probe",
        "Sample interval: 60 s",
    ]
    notes = """
Newton's law of cooling

Hot water (about 80 C) in a mug with the lid off, probe in the middle, stirred gently
before each reading. Logger exported to cooling_run1.txt.
The room thermometer read 21.4 °C the whole time.

Newton's law: dT/dt = −k (T − T_room), i.e. T(t) = T_room + (T0 − T_room) e^{−kt}

Find the cooling constant k (in min^-1) and the time constant 1/k.
"""
    return LabFolder(
        name="thermos-lid-off",
        experiment="Newton's law of cooling",
        lang="en",
        files={
            "cooling_run1.txt": fm.logger_txt(
                cols, comments, {"Time (min)": 3, "Temperature (deg C)": 4}
            ),
            "notes.txt": utf8(notes),
        },
        truths=(
            Truth(("k", "cooling constant", "cooling rate constant", "冷却系数"), k, "1/min"),
            Truth(("tau", "τ", "time constant", "1/k", "时间常数"), 1 / k, "min"),
        ),
        controlled=named("cooling_run1.txt: Time (min)"),
        shapes=("logger-comments", "constant-in-notes", "deg-C-words"),
    )


def scope_capture_07(rng: np.random.Generator) -> LabFolder:
    """RC discharge from a scope capture in .mat with pre-trigger samples;
    EN/ZH notes; tau and C asked, R given."""
    r_ohm, c_f, u0 = 10.0e3, 45.2e-6, 4.96
    tau = r_ohm * c_f
    t = np.arange(-0.1, 2.4, 0.005)
    u = np.where(t < 0, u0, u0 * np.exp(-np.clip(t, 0, None) / tau))
    u = np.round((u + rng.normal(0, 0.015, t.size)) / 0.02) * 0.02  # 8-bit scope steps
    notes = """
RC discharge / RC 电路放电

Capacitor charged to about 5 V, then switched to discharge through R; scope (TBS1052)
capture saved as capture07.mat (t in s, u = capacitor voltage in V). Trigger at t = 0.
R = 10.0 kΩ ±1%   (电阻)

U = U0·e^(−t/RC)

Task 1: time constant τ        求时间常数
Task 2: capacitance C (nominal 47 µF printed on the can)   求电容并与标称值比较
"""
    return LabFolder(
        name="scope-capture-07",
        experiment="RC discharge",
        lang="en",
        files={"capture07.mat": fm.mat({"t": t, "u": u}), "notes.md": utf8(notes)},
        truths=(
            Truth(("tau", "τ", "time constant", "时间常数", "RC"), tau, "s"),
            Truth(("C", "capacitance", "电容"), c_f * 1e6, "uF"),
        ),
        controlled=named("capture07.mat: t"),
        shapes=("mat", "mixed-en-zh", "pre-trigger", "quantised"),
    )


def hall_probe_ge(rng: np.random.Generator) -> LabFolder:
    """Hall voltage against field from a JSON export with metadata; R_H and
    the carrier density asked; I and the thickness in the notes."""
    n_carriers = 1.10e21
    r_h = 1 / (n_carriers * 1.602176634e-19)
    current, thick = 5.00e-3, 0.50e-3
    b_mt = np.arange(-300.0, 301.0, 50.0)
    u_mv = r_h * current * b_mt * 1e-3 / thick * 1e3
    cols: fm.Columns = {"B_mT": b_mt, "U_H_mV": u_mv + rng.normal(0, 0.05, b_mt.size)}
    meta = {"sample": "n-Ge plate #3", "temperature_C": 21.0, "operator": "KL"}
    notes = """
Hall effect in n-type germanium

Constant control current I = 5.00 mA through the plate; field B from the electromagnet
(read on the teslameter); Hall voltage U_H is the average of the four readings with field
and current reversed (cancels the misalignment voltage). Export: hall.json (B in mT, U_H in mV).

plate thickness d = 0.50 mm

U_H = R_H·I·B/d

Determine the Hall coefficient R_H (m³/C) and the carrier density n = 1/(e·R_H).
"""
    return LabFolder(
        name="hall-probe-ge",
        experiment="Hall effect",
        lang="en",
        files={"hall.json": fm.json_records(cols, 5, meta), "notes.txt": utf8(notes)},
        truths=(
            Truth(("R_H", "RH", "Hall coefficient", "霍尔系数"), r_h, "m**3/C"),
            Truth(
                ("n", "carrier density", "carrier concentration", "载流子浓度"),
                n_carriers,
                "1/m**3",
            ),
        ),
        controlled=named("hall.json: B_mT"),
        shapes=("json-meta", "unit-in-name-suffix", "derived-quantity"),
    )


def iv_sweep_1n4148(rng: np.random.Generator) -> LabFolder:
    """Diode forward sweep from a source-meter, tab text with comments;
    ideality factor and saturation current, T given."""
    n_id, i_s, vt = 1.92, 3.1e-9, 8.617333e-5 * 295.0
    v = np.arange(0.30, 0.701, 0.02)
    i = i_s * (np.exp(v / (n_id * vt)) - 1)
    cols: fm.Columns = {"V_F(V)": v, "I_F(A)": i * (1 + rng.normal(0, 0.01, v.size))}
    comments = [
        "Keithley 2400 SourceMeter, forward sweep",
        "DUT: 1N4148 (small-signal Si)",
        "Compliance 10 mA",
        "columns: source voltage, measured current",
    ]
    notes = """
Diode I-V characteristic (forward bias)

Shockley equation: I = I_s [exp(qV/(n k T)) − 1]
Room T = 295 K; kT/q = 25.4 mV at this temperature.

Find the ideality factor n and the saturation current I_s.
"""
    return LabFolder(
        name="iv-sweep-1n4148",
        experiment="diode ideality factor",
        lang="en",
        files={"sweep.txt": fm.logger_txt(cols, comments, 5), "notes.txt": utf8(notes)},
        truths=(
            Truth(("n", "ideality factor", "ideality", "理想因子"), n_id, ""),
            Truth(("I_s", "Is", "I0", "saturation current", "反向饱和电流"), i_s, "A"),
        ),
        controlled=named("sweep.txt: V_F(V)"),
        shapes=("logger-comments", "tab", "unit-glued-parens"),
    )


def rlc_chuanlian(rng: np.random.Generator) -> LabFolder:
    """Series RLC resonance curve, Excel with a sweep sheet and a components
    sheet; mixed ZH/EN notes; f0 and Q asked."""
    inductance, cap, r_tot = 10.0e-3, 1.022e-7, 62.0
    f0 = 1 / (2 * np.pi * np.sqrt(inductance * cap))
    q = np.sqrt(inductance / cap) / r_tot
    f = np.array(
        [
            2000,
            2500,
            3000,
            3500,
            4000,
            4300,
            4500,
            4700,
            4800,
            4900,
            5000,
            5100,
            5200,
            5300,
            5500,
            5700,
            6000,
            6500,
            7000,
            8000,
            9000,
            10000,
        ],
        dtype=float,
    )
    u_max = 2.00 * 47.0 / r_tot
    u = u_max / np.sqrt(1 + q**2 * (f / f0 - f0 / f) ** 2)
    sweep: fm.Columns = {"f/Hz": f, "U_R/V": u * (1 + rng.normal(0, 0.005, f.size))}
    parts: fm.Columns = {"R/Ω": [47.0], "L/mH": [10.0], "C/μF": [0.100]}
    notes = """
RLC 串联谐振 (series RLC resonance)

信号发生器输出保持 U = 2.00 V（有效值），改变频率 f，用交流毫伏表测电阻 R 两端电压 U_R。
元件标称参数见表格第二页“元件”。

Resonance curve: U_R(f) = U_Rmax / √(1 + Q²(f/f0 − f0/f)²)

求：谐振频率 f0 和品质因数 Q（由通频带 Δf = f0/Q 或拟合求得）；与理论值 f0 = 1/(2π√(LC)) 比较。
注：电感线圈有直流电阻，约 15 Ω
"""
    return LabFolder(
        name="rlc-chuanlian",
        experiment="series RLC resonance",
        lang="zh",
        files={"谐振.xlsx": fm.xlsx({"扫频": sweep, "元件": parts}, 5), "说明.txt": utf8(notes)},
        truths=(
            Truth(("f0", "f_0", "resonant frequency", "resonance frequency", "谐振频率"), f0, "Hz"),
            Truth(("Q", "quality factor", "Q factor", "品质因数"), q, ""),
        ),
        controlled=named("谐振.xlsx: f/Hz"),
        shapes=("xlsx-sheets", "mixed-en-zh", "constants-sheet"),
    )


FOLDERS = (thermos_lid_off, scope_capture_07, hall_probe_ge, iv_sweep_1n4148, rlc_chuanlian)
