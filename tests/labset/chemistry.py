"""Chemistry: kinetics, equilibria, titrations, electrochemistry, calibration."""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

R, KB, H = 8.314462618, 1.380649e-23, 6.62607015e-34
KW = 1e-14


def first_order(rng: np.random.Generator) -> LabFolder:
    k = np.log(2) / 30.0  # 1/min
    t = np.arange(0, 121, 10.0)
    conc = 0.080 * np.exp(-k * t) * (1 + rng.normal(0, 0.01, t.size))
    notes = """
Kinetics of a first-order decomposition

The concentration of the reactant was followed by titration of samples taken
every 10 minutes. The reaction is first order. Determine the rate constant k
and the half-life.
"""
    return LabFolder(
        "first-order", "first_order_kinetics", "en",
        {"README.md": f.text(notes),
         "kinetics.csv": f.csv({"t (min)": t, "[A] (mol/L)": conc}, {"t (min)": 3, "[A] (mol/L)": 4})},
        (Truth(("k", "rate constant"), k, "1/min"),
         Truth(("t_half", "half-life", "half life", "t1/2"), 30.0, "min")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def second_order_zh(rng: np.random.Generator) -> LabFolder:
    k, a0 = 0.25, 0.050  # L/(mol min), mol/L
    t = np.arange(0, 241, 20.0)
    conc = 1 / (1 / a0 + k * t) * (1 + rng.normal(0, 0.008, t.size))
    notes = """
乙酸乙酯皂化反应速率常数的测定

该反应为二级反应（两反应物初始浓度相同，c0 = 0.050 mol/L），1/c = 1/c0 + k t。
由各时刻的浓度求反应速率常数 k。
"""
    return LabFolder(
        "second-order-zh", "second_order_kinetics", "zh",
        {"实验要求.txt": f.text(notes),
         "皂化.csv": f.semicolon_csv({"时间 t (min)": t, "浓度 c (mol/L)": conc},
                                    {"时间 t (min)": 3, "浓度 c (mol/L)": 4})},
        (Truth(("k", "rate constant", "速率常数", "反应速率常数"), k, "L/(mol*min)"),),
        shapes=("semicolon-decimal-comma", "zh-headers"),
    )  # fmt: skip


def arrhenius(rng: np.random.Generator) -> LabFolder:
    ea, a = 52e3, 1.0e7
    temp_c = np.array([15, 25, 35, 45, 55, 65.0])
    k = a * np.exp(-ea / (R * (temp_c + 273.15))) * (1 + rng.normal(0, 0.02, temp_c.size))
    notes = """
Activation energy

The rate constant k of the reaction was measured at six temperatures (°C).
Find the activation energy Ea and the pre-exponential factor A from the
Arrhenius equation k = A exp(−Ea/(R T)).
"""
    return LabFolder(
        "arrhenius", "arrhenius", "en",
        {"notes.md": f.text(notes),
         "rates.csv": f.csv({"T (°C)": temp_c, "k (1/s)": k}, {"T (°C)": 3, "k (1/s)": 4})},
        (Truth(("Ea", "E_a", "activation energy"), ea, "J/mol"),),
        shapes=("csv-units-in-header", "celsius-for-kelvin-law"),
    )  # fmt: skip


def eyring(rng: np.random.Generator) -> LabFolder:
    dh, ds = 60e3, -50.0
    temp = np.array([288, 298, 308, 318, 328, 338.0])
    k = KB * temp / H * np.exp(ds / R) * np.exp(-dh / (R * temp))
    k = k * (1 + rng.normal(0, 0.02, temp.size))
    notes = """
Activation parameters from the Eyring equation

Rate constants k at temperatures T. Use the Eyring equation
k = (k_B T/h) exp(ΔS‡/R) exp(−ΔH‡/(R T)) to find the enthalpy of activation
ΔH‡ and the entropy of activation ΔS‡.
"""
    return LabFolder(
        "eyring", "eyring", "en",
        {"README.md": f.text(notes),
         "eyring.csv": f.csv({"T (K)": temp, "k (1/s)": k}, {"T (K)": 4, "k (1/s)": 4})},
        (Truth(("dH", "ΔH‡", "enthalpy of activation", "activation enthalpy"), dh, "J/mol"),
         Truth(("dS", "ΔS‡", "entropy of activation", "activation entropy"), ds, "J/(mol*K)")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def _ph_weak_acid(volume_ml: np.ndarray, ca: float, va: float, cb: float, ka: float) -> np.ndarray:
    """pH of a weak acid titrated with a strong base, from the charge balance."""
    out = []
    for vb in volume_ml:
        total = (va + vb) / 1000
        acid, na = ca * va / 1000 / total, cb * vb / 1000 / total

        def balance(ph: float, acid: float = acid, na: float = na) -> float:
            h = 10.0**-ph
            return h + na - KW / h - acid * ka / (ka + h)

        out.append(brentq(balance, 0, 14))
    return np.array(out)


def titration_weak_acid(rng: np.random.Generator) -> LabFolder:
    ca, va, cb, pka = 0.100, 25.0, 0.100, 4.76
    vol = np.concatenate([np.arange(0, 22, 2.0), np.arange(22, 28.01, 0.5), np.arange(29, 41, 2.0)])
    ph = _ph_weak_acid(vol, ca, va, cb, 10**-pka) + rng.normal(0, 0.01, vol.size)
    notes = """
Titration of acetic acid with sodium hydroxide

25.00 mL of acetic acid solution was titrated with 0.1000 mol/L NaOH and the
pH read after each addition. Find the equivalence point (the volume of NaOH
at equivalence) and the pKa of acetic acid (pH at half-equivalence).
"""
    return LabFolder(
        "titration-acetic", "titration", "en",
        {"README.md": f.text(notes),
         "titration.csv": f.csv({"V NaOH (mL)": vol, "pH": ph}, {"V NaOH (mL)": 4, "pH": 4})},
        (Truth(("V_eq", "Ve", "equivalence volume", "equivalence point", "volume at equivalence"), 25.0, "mL"),
         Truth(("pKa", "pK_a"), pka, "")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def titration_strong_zh(rng: np.random.Generator) -> LabFolder:
    ca, va, cb = 0.0850, 20.0, 0.1000
    vol = np.concatenate([np.arange(0, 15, 1.0), np.arange(15, 19.01, 0.2), np.arange(20, 26, 1.0)])
    h = []
    for vb in vol:
        total = (va + vb) / 1000
        excess = (ca * va - cb * vb) / 1000 / total  # mol/L of H+ (negative: OH-)
        h.append((excess + np.sqrt(excess**2 + 4 * KW)) / 2)
    ph = -np.log10(np.array(h)) + rng.normal(0, 0.01, vol.size)
    notes = """
酸碱滴定：用 NaOH 标准溶液滴定盐酸

移取 20.00 mL 待测盐酸，用 0.1000 mol/L NaOH 标准溶液滴定，用 pH 计记录每次滴加后的 pH。
要求：确定滴定终点（等当点）所消耗的 NaOH 体积，并计算盐酸的浓度。
"""
    return LabFolder(
        "titration-hcl-zh", "titration", "zh",
        {"实验要求.docx.txt": f.text(notes),
         "滴定.xlsx": f.xlsx({"滴定数据": {"V(NaOH)/mL": vol, "pH": ph}})},
        (Truth(("V_eq", "Ve", "equivalence volume", "等当点体积", "终点体积", "等当点", "滴定终点"), 17.0, "mL"),
         Truth(("c_acid", "c(HCl)", "concentration of the acid", "盐酸浓度", "盐酸的浓度", "酸的浓度"), ca, "mol/L")),
        shapes=("xlsx", "zh-headers"),
    )  # fmt: skip


def henderson_hasselbalch(rng: np.random.Generator) -> LabFolder:
    pka = 7.21
    ratio = np.array([0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0])
    ph = pka + np.log10(ratio) + rng.normal(0, 0.01, ratio.size)
    notes = """
Phosphate buffers

Buffers were mixed from Na2HPO4 and NaH2PO4 at the ratios [HPO4²⁻]/[H2PO4⁻]
given, and their pH measured. Use the Henderson–Hasselbalch equation
pH = pKa + log10([A⁻]/[HA]) to find pKa2 of phosphoric acid.
"""
    return LabFolder(
        "buffer-pka", "henderson_hasselbalch", "en",
        {"README.md": f.text(notes),
         "buffers.csv": f.csv({"ratio [A-]/[HA]": ratio, "pH": ph}, {"ratio [A-]/[HA]": 3, "pH": 4})},
        (Truth(("pKa", "pK_a", "pKa2"), pka, ""),),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def nernst_zh(rng: np.random.Generator) -> LabFolder:
    e0, n, temp = 0.340, 2, 298.15
    conc = np.array([1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1])
    emf_mv = (e0 + R * temp / (n * 96485.33212) * np.log(conc)) * 1000 + rng.normal(
        0, 0.4, conc.size
    )
    notes = """
能斯特方程的验证

在 25 ℃ 下测量铜电极在不同 Cu²⁺ 浓度溶液中的电极电势 E（相对标准氢电极）。
E = E° + (RT/nF) ln c。要求：求标准电极电势 E° 和电极反应的电子转移数 n。
"""
    return LabFolder(
        "nernst-zh", "nernst", "zh",
        {"说明.txt": f.text(notes),
         "电极电势.csv": f.csv({"浓度 c (mol/L)": conc, "电势 E (mV)": emf_mv}, {"浓度 c (mol/L)": 3, "电势 E (mV)": 5})},
        (Truth(("E0", "E°", "standard potential", "标准电极电势", "标准电势"), e0, "V"),
         Truth(("n", "electrons", "电子转移数", "电子数"), float(n), "")),
        shapes=("zh-headers",),
    )  # fmt: skip


def langmuir(rng: np.random.Generator) -> LabFolder:
    qmax, kl = 45.0, 0.12
    ce = np.array([2, 5, 10, 20, 40, 60, 90, 120, 160.0])
    q = qmax * kl * ce / (1 + kl * ce) * (1 + rng.normal(0, 0.015, ce.size))
    notes = """
Adsorption of methylene blue on activated carbon

Equilibrium concentration Ce (mg/L) and amount adsorbed qe (mg/g). Fit the
Langmuir isotherm qe = qmax K Ce/(1 + K Ce): give the monolayer capacity qmax
and the Langmuir constant K.
"""
    return LabFolder(
        "langmuir", "langmuir", "en",
        {"notes.md": f.text(notes),
         "isotherm.json": f.json_records({"Ce (mg/L)": ce, "qe (mg/g)": q}, 5)},
        (Truth(("qmax", "q_max", "monolayer capacity", "maximum adsorption capacity"), qmax, "mg/g"),
         Truth(("K", "K_L", "langmuir constant"), kl, "L/mg")),
        shapes=("json",),
    )  # fmt: skip


def rates_at_temperatures_zh(rng: np.random.Generator) -> LabFolder:
    """One file per bath temperature: absorbance decaying (first order); the
    rate constant of each run, then the activation energy across the runs."""
    ea, a = 48e3, 2.0e6  # J/mol, 1/min
    files: dict[str, bytes] = {}
    for temp_c in (20, 25, 30, 35, 40):
        k = a * np.exp(-ea / (R * (temp_c + 273.15)))
        t = np.arange(0, 5 / k, 0.25 / k)
        absorbance = 0.90 * np.exp(-k * t) + 0.02 + rng.normal(0, 0.004, t.size)
        setpoint = np.full(t.size, float(temp_c))
        files[f"T{temp_c}C.csv"] = f.csv(
            {"t (min)": t, "A": absorbance, "水浴设定温度 (℃)": setpoint},
            {"t (min)": 4, "A": 4, "水浴设定温度 (℃)": 3},
        )
    files["实验说明.md"] = f.text("""
反应活化能的测定

在 20–40 ℃ 的五个水浴温度下，用分光光度计跟踪反应物的吸光度 A 随时间的变化，
每个温度一个文件（文件名中的数字为水浴温度）。反应对反应物为一级，A 最终趋于一个很小的残余值。
要求：求各温度下的速率常数 k，再由阿伦尼乌斯方程求反应的活化能 Ea。
""")
    return LabFolder(
        "activation-energy-runs-zh", "arrhenius_run_series", "zh", files,
        (Truth(("Ea", "E_a", "activation energy", "活化能"), ea, "J/mol"),),
        controlled=tuple(f"T{t}C.csv: 水浴设定温度 (℃)" for t in (20, 25, 30, 35, 40)),
        shapes=("many-run-files", "zh-headers", "set-point-column"),
    )  # fmt: skip


def beer_lambert_unknowns(rng: np.random.Generator) -> LabFolder:
    eps, path = 1.20e4, 1.00  # L/(mol cm), cm
    std_um = np.array([0, 5, 10, 20, 30, 40, 50.0])
    absorb = eps * path * std_um * 1e-6 + rng.normal(0, 0.003, std_um.size)
    unknown = {"U1": 12.0, "U2": 27.5, "U3": 41.0}
    u_abs = [eps * path * c * 1e-6 + rng.normal(0, 0.003) for c in unknown.values()]
    notes = """
Determination of an iron complex by absorbance (Beer–Lambert)

Standards of known concentration (sheet "standards") and three unknown samples
(sheet "unknowns", samples 1-3) were measured at 510 nm in a 1.00 cm cuvette.
Fit the calibration line A = ε l c, give the molar absorptivity ε, and find
the concentrations of the unknown samples.
"""
    return LabFolder(
        "beer-lambert-unknowns", "beer_lambert_calibration", "en",
        {"README.md": f.text(notes),
         "absorbance.xlsx": f.xlsx({"standards": {"c (uM)": std_um, "A": absorb},
                                    "unknowns": {"sample": [1.0, 2.0, 3.0], "A": u_abs}})},
        (Truth(("epsilon", "ε", "molar absorptivity", "molar absorption coefficient",
                "molar extinction coefficient"), eps, "L/(mol*cm)"),
         *(Truth(("c_" + k, "concentration of sample " + k[1], "sample " + k[1]), v * 1e-6, "mol/L")
           for k, v in unknown.items())),
        controlled=("absorbance.xlsx: sample",),
        shapes=("xlsx-several-sheets", "standards-and-unknowns"),
    )  # fmt: skip


def standard_addition_zh(rng: np.random.Generator) -> LabFolder:
    cx, slope = 4.2, 0.055  # mg/L in the measured solution; signal per mg/L
    added = np.array([0, 2, 4, 6, 8, 10.0])
    signal = slope * (cx + added) + rng.normal(0, 0.003, added.size)
    notes = """
标准加入法测定水样中的铜

向等体积水样中分别加入不同量的铜标准溶液（加入后浓度增量见表），测定原子吸收信号。
用标准加入法求水样中铜的浓度（mg/L）。
"""
    return LabFolder(
        "standard-addition-zh", "standard_addition", "zh",
        {"要求.md": f.text(notes),
         "标准加入.csv": f.csv({"加入浓度 (mg/L)": added, "吸光度": signal}, {"加入浓度 (mg/L)": 3, "吸光度": 4})},
        (Truth(("c_x", "c0", "concentration", "sample concentration", "水样中铜的浓度", "铜的浓度", "浓度", "未知浓度"), cx, "mg/L"),),
        shapes=("zh-headers",),
    )  # fmt: skip


def calibration_lod(rng: np.random.Generator) -> LabFolder:
    slope, intercept, sd = 0.0312, 0.0021, 0.0015
    conc = np.array([0.5, 1, 2, 4, 6, 8, 10.0])  # mg/L
    signal = intercept + slope * conc + rng.normal(0, sd, conc.size)
    unknown_true = 5.3
    reps = intercept + slope * unknown_true + rng.normal(0, sd, 3)
    notes = """
Fluorescence calibration of quinine

Calibration standards (calibration.csv) and three replicate readings of a
tonic-water sample diluted 1:20 (sample.csv). Fit the calibration line and
give the concentration of quinine in the diluted sample with its standard
error (inverse prediction).
"""
    return LabFolder(
        "quinine-calibration", "linear_calibration", "en",
        {"README.md": f.text(notes),
         "calibration.csv": f.csv({"c (mg/L)": conc, "F (a.u.)": signal}, {"c (mg/L)": 3, "F (a.u.)": 4}),
         "sample.csv": f.csv({"replicate": [1.0, 2.0, 3.0], "F (a.u.)": reps}, {"replicate": 1, "F (a.u.)": 4})},
        (Truth(("c_sample", "concentration", "sample concentration", "unknown concentration",
                "concentration of quinine", "c_unknown"), unknown_true, "mg/L"),),
        controlled=("sample.csv: replicate",),
        shapes=("standards-and-unknowns",),
    )  # fmt: skip


FOLDERS = (first_order, second_order_zh, arrhenius, eyring, titration_weak_acid,
           titration_strong_zh, henderson_hasselbalch, nernst_zh, langmuir,
           rates_at_temperatures_zh, beer_lambert_unknowns, standard_addition_zh,
           calibration_lod)  # fmt: skip
