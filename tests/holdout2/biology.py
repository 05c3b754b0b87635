"""Biology and biochemistry folders of the second hold-out set."""

from __future__ import annotations

import numpy as np

from tests.holdout2.raw import named, units_row, utf8
from tests.labset import formats as fm
from tests.labset.folder import LabFolder, Truth

KM_NAMES = ("Km", "K_m", "Michaelis constant", "米氏常数")
VMAX_NAMES = ("Vmax", "V_max", "maximum rate", "maximum velocity", "最大反应速率")


def pnpp_plate_reader(rng: np.random.Generator) -> LabFolder:
    """Michaelis-Menten, three wells per substrate concentration, the units
    on a row under the header."""
    km, vmax = 0.42, 38.5
    s = np.array([0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 2.0, 3.5, 5.0])
    v = vmax * s / (km + s)
    cols: fm.Columns = {"S": s}
    for i in (1, 2, 3):
        cols[f"v_{i}"] = v * (1 + rng.normal(0, 0.04, s.size))
    notes = """
Alkaline phosphatase with pNPP - initial rates

Rates from the slope of A405 over the first 2 min (ε405 = 18 000 M⁻¹cm⁻¹ already applied);
three wells per substrate concentration. Second row of the csv holds the units.

Michaelis-Menten: v = Vmax*S/(Km+S)

Find Km and Vmax (the kit insert says Km ~ 0.5 mM).
"""
    return LabFolder(
        name="pnpp-plate-reader",
        experiment="Michaelis-Menten",
        lang="en",
        files={
            "rates.csv": units_row(cols, ["mM", "uM/min", "uM/min", "uM/min"], 4),
            "notes.txt": utf8(notes),
        },
        truths=(Truth(KM_NAMES, km, "mM"), Truth(VMAX_NAMES, vmax, "uM/min")),
        controlled=named("rates.csv: S"),
        shapes=("units-row", "repeat-columns", "ascii-law"),
    )


def shengzhang_quxian_3ping(rng: np.random.Generator) -> LabFolder:
    """Bacterial growth curve in three flasks, Chinese headers; the logistic
    rate and the doubling time asked."""
    mu, cap, t_mid = 0.82, 1.45, 4.8
    t = np.arange(0.0, 10.01, 0.5)
    od = cap / (1 + np.exp(-mu * (t - t_mid)))
    cols: fm.Columns = {"培养时间/h": t}
    for i in (1, 2, 3):
        cols[f"OD600 第{i}瓶"] = od * (1 + rng.normal(0, 0.03, t.size)) + rng.normal(
            0, 0.003, t.size
        )
    notes = """
大肠杆菌生长曲线的测定（比浊法）

37 ℃、180 r/min 摇床培养，每 30 min 取样测 OD600（超过 0.8 的样品稀释后测定，已乘回稀释倍数）。
三个平行瓶。

用 Logistic 方程拟合：OD = K / (1 + exp(−μ(t − t_m)))

求比生长速率 μ（h⁻¹）和对数期的代时（倍增时间）t_d = ln2/μ。
"""
    return LabFolder(
        name="shengzhang-quxian-3ping",
        experiment="bacterial growth",
        lang="zh",
        files={"OD.csv": fm.csv(cols, 4, encoding="gbk"), "实验记录.md": utf8(notes)},
        truths=(
            Truth(("mu", "μ", "r", "specific growth rate", "growth rate", "比生长速率"), mu, "1/h"),
            Truth(
                ("t_d", "td", "doubling time", "generation time", "代时", "倍增时间"),
                np.log(2) / mu,
                "h",
            ),
        ),
        controlled=named("OD.csv: 培养时间/h"),
        shapes=("gbk", "zh-headers", "repeat-columns"),
    )


def inhibitor_series(rng: np.random.Generator) -> LabFolder:
    """Competitive inhibition: one file per inhibitor concentration, the
    concentration only in the file name; Km, Vmax and Ki asked."""
    km, vmax, ki = 0.62, 52.0, 6.5
    s = np.array([0.1, 0.2, 0.4, 0.8, 1.5, 3.0, 6.0])
    files: dict[str, bytes] = {}
    for inhib in (0.0, 5.0, 15.0):
        v = vmax * s / (km * (1 + inhib / ki) + s)
        cols: fm.Columns = {"[S] (mM)": s, "v (nmol/min)": v * (1 + rng.normal(0, 0.03, s.size))}
        files[f"I_{inhib:g}uM.csv"] = fm.csv(cols, 4)
    notes = """
Tyrosinase / L-DOPA with kojic acid as inhibitor

Initial rates (dopachrome at 475 nm) at seven L-DOPA concentrations, repeated at three inhibitor
concentrations. One file per inhibitor concentration; the concentration is in the file name
(I_5uM.csv = 5 µM kojic acid).

Competitive: v = Vmax·[S] / (Km·(1 + [I]/Ki) + [S])

Determine Vmax, Km and the inhibition constant Ki.
"""
    files["notes.txt"] = utf8(notes)
    return LabFolder(
        name="inhibitor-series",
        experiment="competitive inhibition",
        lang="en",
        files=files,
        truths=(
            Truth(KM_NAMES, km, "mM"),
            Truth(VMAX_NAMES, vmax, "nmol/min"),
            Truth(("Ki", "K_i", "inhibition constant", "抑制常数"), ki, "uM"),
        ),
        controlled=named("I_0uM.csv: [S] (mM)", "I_5uM.csv: [S] (mM)", "I_15uM.csv: [S] (mM)"),
        shapes=("run-files", "parameter-in-file-name", "unicode-law"),
    )


FOLDERS = (pnpp_plate_reader, shengzhang_quxian_3ping, inhibitor_series)
