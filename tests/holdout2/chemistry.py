"""Chemistry folders of the second hold-out set."""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from tests.holdout2.raw import gbk, named, utf8
from tests.labset import formats as fm
from tests.labset.folder import LabFolder, Truth

R_GAS = 8.314


def kristallviolett_gruppe4(rng: np.random.Generator) -> LabFolder:
    """Pseudo-first-order fading of crystal violet, semicolon CSV with decimal
    commas (a German locale), German header; k' and the half-life asked."""
    k, a0 = 0.0647, 1.25
    t = np.arange(0.0, 31.0, 1.0)
    a = a0 * np.exp(-k * t)
    a = a * (1 + rng.normal(0, 0.005, t.size)) + rng.normal(0, 0.004, t.size)
    cols: fm.Columns = {"Zeit t (min)": t, "Extinktion A590": a}
    notes = """
Kinetics of crystal violet fading with NaOH (pseudo-first order)

CV 2.5e-5 M, NaOH 0.020 M (large excess), 25 °C; absorbance at 590 nm read every minute in a
1 cm cuvette. The lab PC exports with the German locale, so the file has decimal commas
(Zeit = time, Extinktion = absorbance).

Rate law: rate = k'[CV], so  ln(A) = ln(A0) − k'·t

Find the pseudo-first-order rate constant k' (min⁻¹) and the half-life of the dye.
"""
    return LabFolder(
        name="kristallviolett-gruppe4",
        experiment="first-order kinetics",
        lang="en",
        files={"messung.csv": fm.semicolon_csv(cols, 4), "notes.txt": utf8(notes)},
        truths=(
            Truth(
                (
                    "k'",
                    "k",
                    "kobs",
                    "k_obs",
                    "rate constant",
                    "pseudo-first-order rate constant",
                    "速率常数",
                ),
                k,
                "1/min",
            ),
            Truth(
                ("t_half", "t½", "t1/2", "half-life", "half life", "半衰期"), np.log(2) / k, "min"
            ),
        ),
        controlled=named("messung.csv: Zeit t (min)"),
        shapes=("semicolon-decimal-comma", "foreign-header"),
    )


def zaohua_wendu(rng: np.random.Generator) -> LabFolder:
    """Arrhenius from second-order rate constants at six bath temperatures
    in degrees Celsius (a set-point); Ea and A asked."""
    ea = 47.3e3
    k25 = 6.45
    pre = k25 * np.exp(ea / (R_GAS * 298.15))
    temp_c = np.array([20.0, 25.0, 30.0, 35.0, 40.0, 45.0])
    k = pre * np.exp(-ea / (R_GAS * (temp_c + 273.15)))
    cols: fm.Columns = {"温度/℃": temp_c, "k/(L·mol⁻¹·min⁻¹)": k * (1 + rng.normal(0, 0.03, 6))}
    notes = """
乙酸乙酯皂化反应活化能的测定

在不同恒温槽温度下用电导法测得二级反应速率常数 k（各次的数据处理已在实验报告中完成），汇总于 k-T.csv。

阿伦尼乌斯公式：k = A·exp(−Ea/RT)，ln k 对 1/T 作图为直线，斜率 = −Ea/R。
R=8.314 J·mol⁻¹·K⁻¹（温度要换算成 K！）

求活化能 Ea（kJ/mol）和指前因子 A。文献值 Ea ≈ 46.1 kJ·mol⁻¹。
"""
    return LabFolder(
        name="zaohua-wendu",
        experiment="Arrhenius activation energy",
        lang="zh",
        files={"k-T.csv": fm.csv(cols, 4), "实验说明.txt": utf8(notes)},
        truths=(
            Truth(("Ea", "E_a", "activation energy", "活化能"), ea / 1e3, "kJ/mol"),
            Truth(
                ("A", "pre-exponential factor", "frequency factor", "指前因子"), pre, "L/(mol*min)"
            ),
        ),
        controlled=named("k-T.csv: 温度/℃"),
        shapes=("zh-headers", "celsius-set-point", "compound-unit-header"),
    )


def fei_fenguang(rng: np.random.Generator) -> LabFolder:
    """Beer-Lambert with iron standards in one file and three parallel
    readings of the sample in another (GBK); the sample's concentration and
    the molar absorptivity asked."""
    eps, m_fe, c_x = 1.10e4, 55.85, 1.137
    slope = eps * 1e-3 / m_fe  # absorbance per ug/mL in a 1 cm cell
    c_std = np.array([0.0, 0.4, 0.8, 1.2, 1.6, 2.0])
    std: fm.Columns = {
        "铁含量 c/(μg·mL⁻¹)": c_std,
        "吸光度 A": 0.004 + slope * c_std + rng.normal(0, 0.003, c_std.size),
    }
    sample: fm.Columns = {
        "编号": [1.0, 2.0, 3.0],
        "吸光度 A": 0.004 + slope * c_x + rng.normal(0, 0.003, 3),
    }
    notes = """
邻二氮菲分光光度法测定水样中的微量铁

λ = 510 nm，b = 1 cm 比色皿，以试剂空白为参比。
标准系列：用标准铁溶液配制 0–2.0 μg/mL，吸光度见 标准系列.csv
水样平行测定三次，见 试样.csv（吸光度），水样的显色、定容与标准相同。

朗伯-比尔定律 A = εbc

求：(1) 水样中铁的含量 c_x（μg/mL）；
    (2) 摩尔吸光系数 ε（L·mol⁻¹·cm⁻¹），M(Fe) = 55.85 g/mol；文献值 ε = 1.1×10⁴
"""
    return LabFolder(
        name="fei-fenguang",
        experiment="Beer-Lambert calibration and unknown",
        lang="zh",
        files={
            "标准系列.csv": fm.csv(std, 4),
            "试样.csv": fm.csv(sample, 4, encoding="gbk"),
            "要求.txt": utf8(notes),
        },
        truths=(
            Truth(
                (
                    "c_x",
                    "cx",
                    "水样中铁的含量",
                    "铁的含量",
                    "unknown concentration",
                    "concentration of the unknown",
                    "sample concentration",
                    "试样浓度",
                    "未知样浓度",
                ),
                c_x,
                "ug/mL",
            ),
            Truth(
                (
                    "ε",
                    "epsilon",
                    "eps",
                    "molar absorptivity",
                    "molar absorption coefficient",
                    "摩尔吸光系数",
                ),
                eps,
                "L/(mol*cm)",
            ),
        ),
        controlled=named("标准系列.csv: 铁含量 c/(μg·mL⁻¹)", "试样.csv: 编号"),
        shapes=("standards-and-unknowns", "gbk", "zh-headers", "index-column"),
    )


def _titration_ph(vb_ml: np.ndarray, ca: float, va_ml: float, cb: float, pka: float) -> np.ndarray:
    ka, kw = 10.0**-pka, 1e-14
    out = []
    for vb in vb_ml:
        vt = va_ml + vb
        c_acid, c_na = ca * va_ml / vt, cb * vb / vt

        def balance(ph: float, c_acid: float = c_acid, c_na: float = c_na) -> float:
            h = 10.0**-ph
            return h + c_na - kw / h - c_acid * ka / (ka + h)

        out.append(brentq(balance, 0.0, 14.0))
    return np.array(out)


def vinegar_titration_bench6(rng: np.random.Generator) -> LabFolder:
    """Potentiometric titration of diluted vinegar with NaOH, mixed EN/ZH
    notes; equivalence volume, pKa and the acid's concentration asked."""
    cb, va, pka, veq = 0.1000, 25.00, 4.76, 23.63
    ca = cb * veq / va
    vb = np.array(
        [
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            9,
            10,
            11,
            12,
            13,
            14,
            15,
            16,
            17,
            18,
            19,
            20,
            21,
            22,
            22.5,
            23.0,
            23.2,
            23.4,
            23.6,
            23.8,
            24.0,
            24.2,
            24.5,
            25.0,
            26.0,
            28.0,
            30.0,
            32.0,
            35.0,
        ]
    )
    ph = _titration_ph(vb, ca, va, cb, pka) + rng.normal(0, 0.015, vb.size)
    cols: fm.Columns = {"V(NaOH)/mL": vb, "pH": ph}
    notes = """
Potentiometric titration of vinegar / 食醋中醋酸含量的电位滴定

Diluted vinegar, 25.00 mL pipetted into a beaker, titrated with standard NaOH; pH meter
calibrated with buffers pH 4.00 and 6.86 before the run. Small additions near the jump.

已知 c(NaOH)=0.1000 mol·L⁻¹
HAc + OH⁻ → Ac⁻ + H₂O ; at half-neutralisation pH = pKa (Henderson–Hasselbalch)

Report:
 - equivalence volume V_eq (mL), steepest point / 二阶微商法
 - pKa of acetic acid (lit. 4.76)
 - c(HAc) in the diluted vinegar, mol/L
"""
    return LabFolder(
        name="vinegar-titration-bench6",
        experiment="acid-base titration",
        lang="en",
        files={"titration.csv": fm.csv(cols, 4), "notes.txt": utf8(notes)},
        truths=(
            Truth(
                (
                    "V_eq",
                    "Veq",
                    "equivalence volume",
                    "equivalence point",
                    "滴定终点体积",
                    "等当点体积",
                ),
                veq,
                "mL",
            ),
            Truth(("pKa", "pK_a"), pka, ""),
            Truth(
                (
                    "c(HAc)",
                    "c_HAc",
                    "cHAc",
                    "c_a",
                    "ca",
                    "acid concentration",
                    "concentration of acetic acid",
                    "醋酸浓度",
                ),
                ca,
                "mol/L",
            ),
        ),
        controlled=named("titration.csv: V(NaOH)/mL"),
        shapes=("mixed-en-zh", "titration-curve", "uneven-steps"),
    )


def diandao_kcl(rng: np.random.Generator) -> LabFolder:
    """Kohlrausch's law from raw conductivities on one sheet and the water's
    conductivity (to subtract) on another; the limiting molar conductivity
    asked."""
    lam0, kk, kappa_w = 149.9, 94.0, 1.3
    c = np.array([0.0005, 0.001, 0.002, 0.004, 0.006, 0.008, 0.010])
    kappa = (lam0 - kk * np.sqrt(c)) * c * 1000 + kappa_w  # uS/cm
    kcl: fm.Columns = {
        "c/(mol·L⁻¹)": c,
        "κ/(μS·cm⁻¹)": kappa * (1 + rng.normal(0, 0.003, c.size)),
    }
    water: fm.Columns = {"κ/(μS·cm⁻¹)": kappa_w + rng.normal(0, 0.1, 3)}
    notes = """
电导法测定 KCl 的极限摩尔电导率

25.0 ℃ 恒温，DDS-307 电导率仪（已用 0.01 mol/L KCl 标准溶液校正电导池常数）。
工作表 KCl：不同浓度 KCl 溶液的电导率；工作表 电导水：所用电导水的电导率（三次读数），计算时应扣除。

Λm = κ / c
科尔劳施经验式：Λm = Λm∞ − A√c

求 KCl 的极限摩尔电导率 Λm∞（S·cm²·mol⁻¹），文献值 149.9。
"""
    return LabFolder(
        name="diandao-kcl",
        experiment="Kohlrausch limiting molar conductivity",
        lang="zh",
        files={"电导.xlsx": fm.xlsx({"KCl": kcl, "电导水": water}, 5), "说明.txt": utf8(notes)},
        truths=(
            Truth(
                (
                    "Λm∞",
                    "Λ∞",
                    "Λ0",
                    "Lambda0",
                    "Lambda_m_inf",
                    "limiting molar conductivity",
                    "极限摩尔电导率",
                ),
                lam0,
                "S*cm**2/mol",
            ),
        ),
        controlled=named("电导.xlsx: c/(mol·L⁻¹)"),
        shapes=("xlsx-sheets", "background-sheet", "zh-headers", "derived-response"),
    )


def lingji_jiangjie(rng: np.random.Generator) -> LabFolder:
    """Zero-order degradation at one temperature; k0 and the (zero-order)
    half-life asked, and an activation energy that one temperature cannot give."""
    c0, k0 = 5.00, 0.0425
    t = np.arange(0.0, 49.0, 4.0)
    cols: fm.Columns = {"时间 t/h": t, "含量 c/(mg/mL)": c0 - k0 * t + rng.normal(0, 0.03, t.size)}
    notes = """
某药物溶液在 37 ℃ 恒温箱中的降解（零级反应）

每隔 4 h 取样，HPLC 测定含量，结果见 降解.csv。

零级反应：c = c0 - k0*t，半衰期 t1/2 = c0/(2k0)

要求：1. 求零级速率常数 k0；2. 求半衰期 t1/2；3. 求该降解反应的活化能 Ea。
（老师说第三问要结合别的组的数据……先空着）
"""
    return LabFolder(
        name="lingji-jiangjie",
        experiment="zero-order kinetics",
        lang="zh",
        files={"降解.csv": fm.csv(cols, 4, encoding="gbk"), "作业.txt": gbk(notes)},
        truths=(
            Truth(
                (
                    "k0",
                    "k₀",
                    "k_0",
                    "k",
                    "zero-order rate constant",
                    "rate constant",
                    "零级速率常数",
                    "速率常数",
                ),
                k0,
                "mg/(mL*h)",
            ),
            Truth(("t_half", "t½", "t1/2", "half-life", "半衰期"), c0 / (2 * k0), "h"),
            Truth(("Ea", "E_a", "activation energy", "活化能"), 0.0, "kJ/mol", answerable=False),
        ),
        controlled=named("降解.csv: 时间 t/h"),
        shapes=("gbk", "gbk-notes", "zh-headers", "unanswerable"),
    )


FOLDERS = (
    kristallviolett_gruppe4,
    zaohua_wendu,
    fei_fenguang,
    vinegar_titration_bench6,
    diandao_kcl,
    lingji_jiangjie,
)
