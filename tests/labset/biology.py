"""Biology and pharmacology."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth


def michaelis_menten_zh(rng: np.random.Generator) -> LabFolder:
    vmax, km = 1.80, 2.5  # uM/s, mM
    s = np.array([0.25, 0.5, 1, 2, 4, 8, 16, 32.0])
    reps = {
        f"v{i} (μM/s)": vmax * s / (km + s) * (1 + rng.normal(0, 0.03, s.size)) for i in (1, 2, 3)
    }
    notes = """
酶促反应动力学：米氏常数的测定

在不同底物浓度 [S] 下测定蔗糖酶催化反应的初速度 v，每个浓度重复测定三次（v1、v2、v3）。
按米氏方程 v = Vmax·[S]/(Km + [S]) 拟合，求米氏常数 Km 和最大反应速率 Vmax，并作 Lineweaver–Burk 双倒数图。
"""
    return LabFolder(
        "michaelis-menten-zh", "michaelis_menten", "zh",
        {"实验说明.txt": f.text(notes),
         "初速度.csv": f.csv({"[S] (mM)": s, **reps}, {"[S] (mM)": 3, **{k: 4 for k in reps}})},
        (Truth(("Km", "K_m", "michaelis constant", "米氏常数"), km, "mM"),
         Truth(("Vmax", "V_max", "maximum rate", "maximum velocity", "最大反应速率", "最大速率"), vmax, "uM/s")),
        shapes=("replicate-columns", "zh-headers"),
    )  # fmt: skip


def michaelis_menten_logger(rng: np.random.Generator) -> LabFolder:
    vmax, km = 12.0, 0.80  # uM/min, mM
    s = np.array([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4])
    v = vmax * s / (km + s) * (1 + rng.normal(0, 0.025, s.size))
    log = f.logger_txt(
        {"S_mM": s, "v0_uM_per_min": v},
        ["plate reader export", "S_mM: substrate concentration (mM)",
         "v0_uM_per_min: initial rate (uM/min)"],
        {"S_mM": 3, "v0_uM_per_min": 4},
    )  # fmt: skip
    notes = """
Alkaline phosphatase kinetics. Initial rates at seven substrate concentrations.
Fit v = Vmax S/(Km + S); report Km and Vmax.
"""
    return LabFolder(
        "phosphatase-kinetics", "michaelis_menten", "en",
        {"README": f.text(notes), "rates.txt": log},
        (Truth(("Km", "K_m", "michaelis constant"), km, "mM"),
         Truth(("Vmax", "V_max", "maximum rate", "maximum velocity"), vmax, "uM/min")),
        shapes=("logger-txt-comments", "units-in-comments"),
    )  # fmt: skip


def hill(rng: np.random.Generator) -> LabFolder:
    n, p50 = 2.7, 26.0
    p = np.array([5, 10, 15, 20, 25, 30, 40, 50, 70, 100.0])
    y = p**n / (p50**n + p**n) + rng.normal(0, 0.008, p.size)
    notes = """
Oxygen binding of haemoglobin

Fractional saturation Y against oxygen partial pressure pO2 (mmHg). Fit the
Hill equation Y = pO2^n/(P50^n + pO2^n) and give the Hill coefficient n and
P50.
"""
    return LabFolder(
        "hill-haemoglobin", "hill", "en",
        {"notes.md": f.text(notes),
         "binding.csv": f.csv({"pO2 (mmHg)": p, "Y": y}, {"pO2 (mmHg)": 3, "Y": 4})},
        (Truth(("n", "n_H", "hill coefficient"), n, ""),
         Truth(("P50", "K", "K_d", "half-saturation pressure"), p50, "mmHg")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def logistic_growth_zh(rng: np.random.Generator) -> LabFolder:
    r, k, n0 = 0.65, 1.20, 0.02
    t = np.arange(0, 20.5, 1.0)
    od = k / (1 + (k - n0) / n0 * np.exp(-r * t)) + rng.normal(0, 0.01, t.size)
    notes = """
大肠杆菌生长曲线

每小时测定一次培养液的 OD600。按 logistic 模型 N(t) = K / (1 + ((K − N0)/N0)·e^(−r t)) 拟合，
求比生长速率 r 和环境容纳量 K。
"""
    return LabFolder(
        "logistic-growth-zh", "logistic_growth", "zh",
        {"说明.md": f.text(notes),
         "生长曲线.csv": f.csv({"时间 (h)": t, "OD600": od}, {"时间 (h)": 3, "OD600": 4})},
        (Truth(("r", "growth rate", "比生长速率", "生长速率"), r, "1/h"),
         Truth(("K", "carrying capacity", "环境容纳量", "最大容纳量"), k, "")),
        shapes=("zh-headers",),
    )  # fmt: skip


def dose_response(rng: np.random.Generator) -> LabFolder:
    bottom, top, ec50, slope = 5.0, 100.0, 3.2, 1.3
    dose = 10 ** np.linspace(-2, 2, 9)
    mean = bottom + (top - bottom) / (1 + (ec50 / dose) ** slope)
    reps = {f"response {i} (%)": mean + rng.normal(0, 2.0, dose.size) for i in (1, 2, 3)}
    notes = """
Dose–response of an agonist

Responses (% of maximum) at nine concentrations, three replicates each (sheet
"plate 1"). Fit a four-parameter logistic curve and give the EC50 and the
Hill slope.
"""
    return LabFolder(
        "dose-response", "dose_response", "en",
        {"README.md": f.text(notes),
         "assay.xlsx": f.xlsx({"plate 1": {"concentration (uM)": dose, **reps}})},
        (Truth(("EC50", "ec50", "half maximal effective concentration"), ec50, "uM"),
         Truth(("hill slope", "n", "slope", "hill coefficient", "n_H"), slope, "")),
        shapes=("xlsx", "replicate-columns"),
    )  # fmt: skip


def exponential_growth(rng: np.random.Generator) -> LabFolder:
    doubling = 2.5  # h
    r = np.log(2) / doubling
    t = np.arange(0, 12.1, 1.0)
    cells = 2.0e4 * np.exp(r * t) * (1 + rng.normal(0, 0.03, t.size))
    notes = """
Yeast growth in the exponential phase

Cell density counted with a haemocytometer every hour during exponential
growth. Find the specific growth rate and the doubling time.
"""
    return LabFolder(
        "yeast-doubling", "exponential_growth", "en",
        {"notes.txt": f.text(notes),
         "counts.csv": f.csv({"t (h)": t, "cells (1/mL)": cells}, {"t (h)": 3, "cells (1/mL)": 5})},
        (Truth(("r", "mu", "growth rate", "specific growth rate"), r, "1/h"),
         Truth(("t_d", "doubling time", "generation time"), doubling, "h")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def factorial_zh(rng: np.random.Generator) -> LabFolder:
    """Two factors, three replicates: the best condition and the interaction."""
    temps, cats = (60.0, 70.0, 80.0), ("A", "B")
    means = {(60.0, "A"): 62.0, (70.0, "A"): 71.0, (80.0, "A"): 74.0,
             (60.0, "B"): 65.0, (70.0, "B"): 80.0, (80.0, "B"): 76.0}  # fmt: skip
    rows_t, rows_c, rows_y = [], [], []
    for t in temps:
        for c in cats:
            for _ in range(3):
                rows_t.append(t)
                rows_c.append(1.0 if c == "A" else 2.0)
                rows_y.append(means[(t, c)] + rng.normal(0, 1.5))
    notes = """
双因素实验：反应温度与催化剂种类对产率的影响

温度取 60、70、80 ℃ 三个水平，催化剂取 1 号、2 号两种，每个组合重复 3 次。
要求：用双因素方差分析检验温度、催化剂及其交互作用的影响，列出各组合的平均产率，并指出产率最高的条件。
"""
    return LabFolder(
        "factorial-zh", "factorial", "zh",
        {"实验设计.txt": f.text(notes),
         "产率.xlsx": f.xlsx({"数据": {"温度 (℃)": rows_t, "催化剂": rows_c, "产率 (%)": rows_y}})},
        (Truth(("best", "best condition", "最优条件", "最高产率", "best cell mean", "最佳条件"), 80.0, "percent"),),
        controlled=("产率.xlsx: 温度 (℃)",),
        shapes=("xlsx", "zh-headers", "set-point-column"),
    )  # fmt: skip


FOLDERS = (michaelis_menten_zh, michaelis_menten_logger, hill, logistic_growth_zh, dose_response,
           exponential_growth, factorial_zh)  # fmt: skip
