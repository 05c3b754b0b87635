"""Physical and analytical chemistry: kinetics, a calibration with unknowns,
a potentiometric titration, an adsorption isotherm."""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from tests.holdout3._shapes import rnd
from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth

R_GAS = 8.314462618


def crystal_violet(rng: np.random.Generator) -> LabFolder:
    k = 0.0853  # 1/min
    t = np.arange(0.0, 30.1, 2.0)
    A = 0.812 * np.exp(-k * t)
    A = rnd(A + rng.normal(0, 0.004, t.size), 0.001)
    notes = """
结晶紫与 NaOH 反应的动力学（分光光度法）

[OH⁻] 大大过量，反应对结晶紫为准一级反应。在 590 nm 处每隔 2 min 读一次吸光度。

ln A = ln A₀ − k′t

求：表观速率常数 k′ 及半衰期 t₁/₂。
（比色皿 1 cm，室温 24 ℃）
"""
    return LabFolder(
        name="huaxue-dongli-03",
        experiment="first-order kinetics (absorbance)",
        lang="zh",
        files={"cv.csv": fmt.csv({"时间/min": t, "吸光度A": A}, 8), "记录.txt": fmt.text(notes)},
        truths=(
            Truth(
                (
                    "k′",
                    "k'",
                    "k",
                    "速率常数",
                    "表观速率常数",
                    "rate constant",
                    "pseudo-first-order rate constant",
                ),
                k,
                "1/min",
            ),
            Truth(("t₁/₂", "t1/2", "t½", "半衰期", "half-life", "half life"), np.log(2) / k, "min"),
        ),
        controlled=("cv.csv: 时间/min", "cv.csv: 时间"),
        shapes=("csv", "chinese headers", "units in headers"),
    )


def arrhenius_two_runs(rng: np.random.Generator) -> LabFolder:
    Ea, A = 52.3e3, 1.2e7
    t = np.arange(15.0, 46.0, 5.0)
    k = A * np.exp(-Ea / (R_GAS * (t + 273.15)))

    def run() -> np.ndarray:
        return np.array([float(f"{x:.3g}") for x in k * np.exp(rng.normal(0, 0.03, t.size))])

    notes = """
Experiment 7 — Temperature dependence of the rate constant / 反应速率常数与温度的关系

Rate constants from the half-life method at seven bath temperatures (thermostat ±0.1 °C);
two independent runs on different days (sheets "Run 1" and "Run 2").

Arrhenius: k = A exp(−Ea/RT)  →  ln k = ln A − Ea/(R T)
R=8.314 J mol⁻¹ K⁻¹

求活化能 Ea（kJ/mol）和指前因子 A。Literature: Ea ≈ 53 kJ/mol.
"""
    sheets = {
        "Run 1": {"T / °C": t, "k / s^-1": run()},
        "Run 2": {"T / °C": t, "k / s^-1": run()},
    }
    return LabFolder(
        name="exp7-bath-series",
        experiment="Arrhenius activation energy",
        lang="zh",
        files={"rates.xlsx": fmt.xlsx(sheets), "notes.md": fmt.text(notes)},
        truths=(
            Truth(("Ea", "E_a", "activation energy", "活化能"), Ea / 1000, "kJ/mol"),
            Truth(("A", "pre-exponential factor", "指前因子", "frequency factor"), A, "1/s"),
        ),
        controlled=("rates.xlsx: T / °C", "rates.xlsx: T"),
        shapes=("xlsx", "several sheets", "mixed en/zh"),
    )


def iron_phenanthroline(rng: np.random.Generator) -> LabFolder:
    slope, icpt = 0.1985, 0.004
    c = np.array([0.0, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0])
    A = rnd(icpt + slope * c + rng.normal(0, 0.003, c.size), 0.001)
    c1, c2 = 3.10, 5.62
    u1 = rnd(icpt + slope * c1 + rng.normal(0, 0.003, 3), 0.001)
    u2 = rnd(icpt + slope * c2 + rng.normal(0, 0.003, 3), 0.001)
    notes = """
邻二氮菲分光光度法测定水样中的微量铁

在 510 nm 下，以试剂空白为参比，测定系列标准溶液的吸光度，绘制标准曲线
（朗伯-比尔定律 A = εbc），再测定两份水样，各平行测定三次（工作表“待测样”）。

求两份水样中铁的含量（mg/L）。
"""
    sheets = {
        "标准溶液": {"Fe浓度 (mg/L)": c, "吸光度 A": A},
        "待测样": {"样品1": u1, "样品2": u2},
    }
    sample = ("sample", "unknown", "水样", "c")
    return LabFolder(
        name="fenguang-tie",
        experiment="Beer-Lambert calibration with unknowns",
        lang="zh",
        files={"铁标准曲线.xlsx": fmt.xlsx(sheets), "实验要求.txt": fmt.text(notes)},
        truths=(
            Truth(("样品1", *(f"{s}1" for s in sample), *(f"{s} 1" for s in sample)), c1, "mg/L"),
            Truth(("样品2", *(f"{s}2" for s in sample), *(f"{s} 2" for s in sample)), c2, "mg/L"),
        ),
        controlled=("铁标准曲线.xlsx: Fe浓度 (mg/L)", "铁标准曲线.xlsx: Fe浓度"),
        shapes=("xlsx", "several sheets", "standards and unknowns", "chinese headers"),
    )


def _titration_ph(Vb: np.ndarray, Ca: float, Va: float, Cb: float, pKa: float) -> np.ndarray:
    Ka, Kw = 10**-pKa, 1e-14
    out = []
    for v in Vb:
        Vt = Va + v
        na, ca = Cb * v / Vt, Ca * Va / Vt

        def balance(logh: float, na: float = na, ca: float = ca) -> float:
            h = 10**logh
            return h + na - Kw / h - ca * Ka / (Ka + h)

        out.append(-brentq(balance, -14.5, 0.0))
    return np.array(out)


def acetic_titration_gbk(rng: np.random.Generator) -> LabFolder:
    Cb, Va, Veq, pKa = 0.1000, 25.00, 21.35, 4.76
    Ca = Cb * Veq / Va
    Vb = np.array([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 19, 20, 20.5, 20.8, 21.0, 21.1, 21.2,
                   21.3, 21.4, 21.5, 21.6, 22.0, 22.5, 23, 24, 26, 28, 30], dtype=float)  # fmt: skip
    pH = rnd(_titration_ph(Vb, Ca, Va, Cb, pKa) + rng.normal(0, 0.015, Vb.size), 0.01)
    notes = """
实验四 醋酸的电位滴定

移取 25.00 mL 醋酸试液于烧杯中，用 NaOH 标准溶液滴定，pH 计记录每次加入后的 pH。
已知 c(NaOH)=0.1000 mol·L⁻¹

数据处理：用一阶微商法（ΔpH/ΔV）确定化学计量点体积 V_ep，由半中和点的 pH 求醋酸的 pKa，
并计算醋酸的浓度。文献值 pKa = 4.76
"""
    return LabFolder(
        name="实验四_电位滴定",
        experiment="potentiometric titration of a weak acid",
        lang="zh",
        files={
            "滴定.csv": fmt.csv({"V(NaOH)/mL": Vb, "pH": pH}, 8, encoding="gbk"),
            "实验要求.txt": fmt.text(notes),
        },
        truths=(
            Truth(
                (
                    "V_ep",
                    "Vep",
                    "Veq",
                    "V_eq",
                    "equivalence volume",
                    "化学计量点体积",
                    "计量点体积",
                    "终点体积",
                    "end point volume",
                ),
                Veq,
                "mL",
            ),
            Truth(("pKa", "pK_a"), pKa, ""),
            Truth(
                (
                    "c(HAc)",
                    "c_HAc",
                    "醋酸的浓度",
                    "醋酸浓度",
                    "c",
                    "concentration of acetic acid",
                    "acid concentration",
                    "c_a",
                ),
                Ca,
                "mol/L",
            ),
        ),
        controlled=("滴定.csv: V(NaOH)/mL", "滴定.csv: V(NaOH)"),
        shapes=("gbk", "chinese folder name", "titration"),
    )


def dye_on_carbon(rng: np.random.Generator) -> LabFolder:
    qmax, KL = 48.5, 0.12
    Ce = np.array([2.1, 4.5, 8.0, 13.2, 21.0, 34.5, 52.0, 78.0, 110.0, 150.0])
    q = qmax * KL * Ce / (1 + KL * Ce)
    q = np.round(q * (1 + rng.normal(0, 0.025, Ce.size)), 2)
    notes = """
Adsorption of methylene blue on activated carbon (25 °C)

0.100 g of carbon shaken with 50 mL of dye solution of different initial concentrations for 24 h;
equilibrium concentration from the absorbance at 664 nm; q_e = (C0 − Ce)V/m already worked out.

Langmuir isotherm: qe = qmax·KL·Ce / (1 + KL·Ce)

Find qmax, KL, and the enthalpy of adsorption ΔH_ads.
"""
    return LabFolder(
        name="mb-carbon-iso",
        experiment="Langmuir isotherm (adsorption enthalpy asked, one temperature)",
        lang="en",
        files={
            "isotherm.csv": fmt.csv({"Ce [mg/L]": Ce, "qe [mg/g]": q}, 8),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(
                ("qmax", "q_max", "q_m", "qm", "maximum adsorption capacity", "monolayer capacity"),
                qmax,
                "mg/g",
            ),
            Truth(("KL", "K_L", "Langmuir constant"), KL, "L/mg"),
            Truth(
                ("ΔH_ads", "ΔHads", "enthalpy of adsorption", "adsorption enthalpy"),
                0.0,
                "kJ/mol",
                answerable=False,
            ),
        ),
        shapes=("csv", "units in brackets", "honesty"),
    )


FOLDERS = (
    crystal_violet,
    arrhenius_two_runs,
    iron_phenanthroline,
    acetic_titration_gbk,
    dye_on_carbon,
)
