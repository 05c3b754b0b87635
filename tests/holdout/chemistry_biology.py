"""Hold-out folders: kinetics, solutions, titration, enzymes, growth."""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from tests.holdout import folder_text as ft
from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

R = 8.314462618


def crystal_violet(rng: np.random.Generator) -> LabFolder:
    k, a0 = 2.5e-3, 0.85  # 1/s
    t = np.arange(0, 1201, 60.0)
    absorb = a0 * np.exp(-k * t) + rng.normal(0, 0.004, t.size)
    notes = """
Kinetics of the fading of crystal violet in NaOH

Excess NaOH, so the reaction is pseudo-first order in crystal violet. The
absorbance at 590 nm (proportional to [CV]) was recorded every minute.

ln A = ln A0 - k_obs t

Report the pseudo-first-order rate constant k_obs (in s^-1) and the half-life.
"""
    return LabFolder(
        "cv-fading", "first_order_kinetics", "en",
        {"procedure.md": f.text(notes),
         "absorbance.csv": f.csv({"t (s)": t, "A590": absorb}, {"t (s)": 4, "A590": 4})},
        (Truth(("k_obs", "k", "rate constant", "pseudo-first-order rate constant"), k, "1/s"),
         Truth(("t_half", "half-life", "half life", "t1/2"), np.log(2) / k, "s")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def arrhenius_zh(rng: np.random.Generator) -> LabFolder:
    ea, a = 65.0e3, 3.0e9
    temp_c = np.array([20, 25, 30, 35, 40, 45.0])
    k = a * np.exp(-ea / (R * (temp_c + 273.15))) * (1 + rng.normal(0, 0.02, temp_c.size))
    notes = """
不同温度下蔗糖水解速率常数的测定

在 20~45 ℃ 六个温度下测定反应的速率常数 k。
阿伦尼乌斯公式 k = A e^(−Ea/RT)，即 ln k = ln A − Ea/(RT)。
由 ln k ~ 1/T 直线求活化能 Ea 和指前因子 A。
"""
    return LabFolder(
        "zhetang-shuijie", "arrhenius", "zh",
        {"实验说明.txt": f.text(notes),
         "速率常数.csv": f.csv({"温度/℃": temp_c, "k/min⁻¹": k}, {"温度/℃": 3, "k/min⁻¹": 4})},
        (Truth(("Ea", "E_a", "activation energy", "活化能"), ea, "J/mol"),
         Truth(("A", "pre-exponential factor", "指前因子", "频率因子"), a, "1/min")),
        controlled=("速率常数.csv: 温度/℃",),
        shapes=("zh-headers", "slash-units", "celsius-for-kelvin-law"),
    )  # fmt: skip


def _ph(volume_ml: np.ndarray, ca: float, va: float, cb: float, ka: float) -> np.ndarray:
    out = []
    for vb in volume_ml:
        total = (va + vb) / 1000
        acid, na = ca * va / 1000 / total, cb * vb / 1000 / total

        def balance(ph: float, acid: float = acid, na: float = na) -> float:
            h = 10.0**-ph
            return h + na - 1e-14 / h - acid * ka / (ka + h)

        out.append(brentq(balance, 0, 14))
    return np.array(out)


def titration_headerless(rng: np.random.Generator) -> LabFolder:
    ca, va, cb, pka = 0.0856, 25.00, 0.1000, 4.76
    veq = ca * va / cb
    vol = np.concatenate([np.arange(0, 18, 2.0), np.arange(18, 25.01, 0.4), np.arange(26, 36, 2.0)])
    ph = _ph(vol, ca, va, cb, 10**-pka) + rng.normal(0, 0.01, vol.size)
    notes = """
Potentiometric titration of vinegar (acetic acid)

25.00 mL of diluted vinegar titrated with 0.1000 M NaOH, pH meter calibrated
at pH 4 and 7. The meter saved the readings to titr01.dat: first column is the
volume of NaOH added (mL), second column the pH.

Find the equivalence point volume, the concentration of acetic acid in the
diluted vinegar, and the pKa of acetic acid (pH at half-equivalence).
"""
    return LabFolder(
        "vinegar-meter", "titration_weak_acid", "en",
        {"notes.md": f.text(notes), "titr01.dat": ft.headerless([vol, ph], 4)},
        (Truth(("V_eq", "Veq", "equivalence volume", "equivalence point volume",
                "equivalence point"), veq, "mL"),
         Truth(("pKa", "pK_a"), pka, ""),
         Truth(("c_acid", "c", "concentration", "concentration of acetic acid", "c_a", "ca"),
               ca, "mol/L")),
        shapes=("headerless", "columns-described-in-notes"),
    )  # fmt: skip


def freezing_point(rng: np.random.Generator) -> LabFolder:
    kf, molar, water = 1.86, 180.0, 0.0250  # K kg/mol, g/mol, kg
    grams = np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    dt = kf * grams / molar / water + rng.normal(0, 0.006, grams.size)
    notes = """
Molar mass by freezing-point depression

Different masses w of an unknown sugar were dissolved in 25.0 g of water
each and the freezing-point depression dT measured with a Beckmann
thermometer. dT = Kf * b, with the molality b = (w/M)/m_water and
Kf = 1.86 K kg/mol for water.

Find the molar mass M of the sugar.
"""
    return LabFolder(
        "beckmann-sugar", "freezing_point_depression", "en",
        {"notes.txt": f.text(notes),
         "depression.csv": f.csv({"w (g)": grams, "dT (K)": dt}, {"w (g)": 3, "dT (K)": 3})},
        (Truth(("M", "molar mass"), molar, "g/mol"),),
        controlled=("depression.csv: w (g)",),
        shapes=("derived-from-slope-with-constants",),
    )  # fmt: skip


def enzyme_replicates_zh(rng: np.random.Generator) -> LabFolder:
    km, vmax = 2.4, 38.0  # mM, umol/min
    s = np.array([0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0])
    true = vmax * s / (km + s)
    reps = {f"v{i} (μmol/min)": true * (1 + rng.normal(0, 0.03, s.size)) for i in (1, 2, 3)}
    notes = """
蔗糖酶米氏常数的测定

不同底物浓度 [S] 下测初速度 v，每个浓度平行测定三次（v1、v2、v3）。
米氏方程：v = Vmax[S]/(Km + [S])。
求米氏常数 Km 和最大反应速度 Vmax，并作 Lineweaver-Burk 双倒数图。
"""
    return LabFolder(
        "zhetangmei", "michaelis_menten", "zh",
        {"实验报告要求.md": f.text(notes),
         "初速度.xlsx": f.xlsx({"Sheet1": {"[S] (mM)": s, **reps}}, 5)},
        (Truth(("Km", "K_m", "michaelis constant", "米氏常数"), km, "mM"),
         Truth(("Vmax", "V_max", "maximum rate", "最大反应速度", "最大速率"), vmax, "umol/min")),
        controlled=("初速度.xlsx: [S] (mM)",),
        shapes=("xlsx", "repeat-columns", "zh-notes"),
    )  # fmt: skip


def bacterial_doubling(rng: np.random.Generator) -> LabFolder:
    mu, od0 = np.log(2) / 0.5, 0.02  # 1/h
    t = np.arange(0, 3.01, 0.25)
    od = od0 * np.exp(mu * t) * (1 + rng.normal(0, 0.02, t.size))
    notes = """
E. coli growth curve (LB, 37 C, shaking)

OD600 read every 15 min during the exponential phase only (we stopped before
OD 1). Exponential growth N = N0 e^(mu t).

What is the specific growth rate mu and the doubling time (in minutes)?
"""
    return LabFolder(
        "ecoli-od600", "exponential_growth", "en",
        {"README.md": f.text(notes),
         "od.csv": f.csv({"time (h)": t, "OD600": od}, {"time (h)": 3, "OD600": 4})},
        (Truth(("mu", "specific growth rate", "growth rate", "r"), mu, "1/h"),
         Truth(("t_d", "doubling time", "generation time", "t_double"), 30.0, "min")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def ic50_zh(rng: np.random.Generator) -> LabFolder:
    ic50, hill = 2.5, 1.2  # uM
    conc = 10.0 ** np.arange(-2, 2.01, 0.5)
    inhibition = 100 / (1 + (ic50 / conc) ** hill) + rng.normal(0, 2.0, conc.size)
    notes = """
药物对酶活性的抑制：IC50 测定

不同浓度的抑制剂下测定酶活性，换算为抑制率（%）。
用四参数逻辑（Hill）方程拟合剂量-效应曲线：
抑制率 = Bottom + (Top − Bottom)/(1 + (IC50/c)^h)
求半数抑制浓度 IC50 和 Hill 系数 h。
"""
    return LabFolder(
        "yizhi-quxian", "dose_response", "zh",
        {"说明.md": f.text(notes),
         "抑制率.csv": f.csv({"浓度 c (μM)": conc, "抑制率 (%)": inhibition},
                            {"浓度 c (μM)": 4, "抑制率 (%)": 3})},
        (Truth(("IC50", "EC50", "半数抑制浓度"), ic50, "uM"),
         Truth(("h", "n", "hill coefficient", "Hill系数", "hill slope"), hill, "")),
        controlled=("抑制率.csv: 浓度 c (μM)",),
        shapes=("zh-headers", "log-spaced"),
    )  # fmt: skip


def q10_respiration(rng: np.random.Generator) -> LabFolder:
    q10, r20 = 2.3, 1.8  # -, umol CO2 / (g h)
    temp = np.array([5, 10, 15, 20, 25, 30, 35.0])
    rate = r20 * q10 ** ((temp - 20) / 10) * (1 + rng.normal(0, 0.03, temp.size))
    notes = """
Temperature dependence of germinating-pea respiration

CO2 production rate of 20 g of germinating peas measured in a respirometer
at 7 temperatures (water bath).

The temperature coefficient Q10 is defined by R(T) = R20 * Q10^((T - 20)/10).
Calculate Q10 for the pea respiration. (Typical biological value: 2-3.)
"""
    return LabFolder(
        "pea-respirometer", "q10", "en",
        {"handout.txt": f.text(notes),
         "respiration.csv": f.csv({"T (C)": temp, "rate (umol/g/h)": rate}, {"T (C)": 3, "rate (umol/g/h)": 4})},
        (Truth(("Q10", "Q_10", "temperature coefficient"), q10, ""),),
        controlled=("respiration.csv: T (C)",),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


FOLDERS = (crystal_violet, arrhenius_zh, titration_headerless, freezing_point,
           enzyme_replicates_zh, bacterial_doubling, ic50_zh, q10_respiration)  # fmt: skip
