"""Biochemistry, microbiology, pharmacology: enzyme kinetics, an inhibitor
series, a growth curve, a dose-response plate."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as fmt
from tests.labset.folder import LabFolder, Truth

KM_NAMES = ("Km", "K_m", "Michaelis constant")


def invertase_json(rng: np.random.Generator) -> LabFolder:
    Km, Vmax = 2.4, 0.82
    S = np.array([0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
    v = Vmax * S / (Km + S)
    reps = {
        f"v_rep{i}": np.round(
            v * (1 + rng.normal(0, 0.03, S.size)) + rng.normal(0, 0.004, S.size), 4
        )
        for i in (1, 2, 3)
    }
    meta = {
        "enzyme": "invertase (yeast, crude prep B)",
        "temperature_C": 30,
        "units": {"S_mM": "mM sucrose", "v_rep*": "umol glucose / min"},
    }
    notes = """
Invertase kinetics (BIO 2xx, practical 4)

Initial rates by the DNS assay at eight sucrose concentrations, each in triplicate.
Rates are in µmol glucose per min, [S] in mM (see the header of the json).

Model: v = Vmax*S/(Km+S)

Estimate Km and Vmax by non-linear regression (a Lineweaver-Burk plot for comparison if you like).
Our demonstrator said Km for this prep should be about 2.5 mM.
"""
    return LabFolder(
        name="bio2-prac4",
        experiment="Michaelis-Menten (replicates)",
        lang="en",
        files={
            "invertase.json": fmt.json_records({"S_mM": S, **reps}, 6, meta),
            "notes.txt": fmt.text(notes),
        },
        truths=(
            Truth(KM_NAMES, Km, "mM"),
            Truth(("Vmax", "V_max", "maximum rate", "maximum velocity"), Vmax, "umol/min"),
        ),
        controlled=("invertase.json: S_mM", "invertase.json: S"),
        shapes=("json", "units in metadata", "repeat columns", "ascii formula"),
    )


def phosphatase_inhibitor_runs(rng: np.random.Generator) -> LabFolder:
    Km, Vmax, Ki = 1.5, 12.0, 32.0
    S = np.array([0.2, 0.4, 0.8, 1.6, 3.2, 6.4])
    files: dict[str, bytes] = {}
    for inhibitor in (0, 20, 50):
        v = Vmax * S / (Km * (1 + inhibitor / Ki) + S)
        v = np.round(v * (1 + rng.normal(0, 0.035, S.size)), 3)
        files[f"rates_I{inhibitor}uM.csv"] = fmt.csv({"[S] (mM)": S, "v (uM/min)": v}, 8)
    notes = """
Inhibition of alkaline phosphatase by phosphate

pNPP as substrate, read at 405 nm, initial rates converted to µM/min.
Three runs; the inhibitor (phosphate) concentration is in the file name (0, 20 and 50 µM).

competitive inhibition: v = Vmax [S] / (Km (1 + [I]/Ki) + [S])

Detemine Km and the inhibition constant Ki (global fit, or Lineweaver-Burk / Dixon, your choice).
"""
    files["notes.txt"] = fmt.text(notes)
    return LabFolder(
        name="alp-pi-runs",
        experiment="competitive inhibition Ki",
        lang="en",
        files=files,
        truths=(
            Truth(KM_NAMES, Km, "mM"),
            Truth(("Ki", "K_i", "inhibition constant"), Ki, "uM"),
        ),
        controlled=("rates_I: [S] (mM)", "rates_I: [S]"),
        shapes=("csv", "file per run", "parameter in file name"),
    )


def ecoli_flasks(rng: np.random.Generator) -> LabFolder:
    td, K, N0 = 31.0, 1.35, 0.020
    r = np.log(2) / td
    t = np.arange(0.0, 481.0, 20.0)
    N = K / (1 + (K / N0 - 1) * np.exp(-r * t))
    sheets = {}
    for flask in "ABC":
        od = N * (1 + rng.normal(0, 0.03, t.size)) + rng.normal(0, 0.003, t.size)
        sheets[f"flask {flask}"] = {"time (min)": t, "OD600": np.round(np.abs(od), 3)}
    notes = """
E. coli growth curve / 大肠杆菌生长曲线

LB, 37 °C, 200 rpm; 1 mL sampled every 20 min and read at 600 nm (blank-corrected already).
Three flasks, one per sheet.

In the exponential phase N = N0·2^(t/td); over the whole run the curve is logistic.

要求：计算指数期的代时（doubling time, td），以 min 为单位。Textbook: ~20–30 min in LB.
"""
    return LabFolder(
        name="ecoli-flasks",
        experiment="bacterial doubling time",
        lang="zh",
        files={"growth.xlsx": fmt.xlsx(sheets), "notes.txt": fmt.text(notes)},
        truths=(
            Truth(("td", "t_d", "doubling time", "代时", "generation time", "倍增时间"), td, "min"),
        ),
        controlled=("growth.xlsx: time (min)", "growth.xlsx: time"),
        shapes=("xlsx", "several sheets", "replicate sheets", "mixed en/zh"),
    )


def camp_plate(rng: np.random.Generator) -> LabFolder:
    ec50, hill, bottom, top = 0.35, 1.2, 3.0, 100.0
    dose = 10.0 ** np.arange(-3.0, 2.01, 0.625)
    dose = np.array([float(f"{d:.3g}") for d in dose])
    rows_dose, rows_resp = [], []
    for d in dose:
        y = bottom + (top - bottom) / (1 + 10 ** ((np.log10(ec50) - np.log10(d)) * hill))
        for _ in range(4):
            rows_dose.append(d)
            rows_resp.append(round(float(y + rng.normal(0, 3.5)), 1))
    wells = np.arange(1.0, len(rows_dose) + 1)
    notes = """
Agonist dose-response (cAMP assay), plate 2

Four replicate wells per concentration, response normalised to the forskolin maximum (%).
Concentrations in µM.

Fit the 4-parameter logistic (Hill) equation
Y = Bottom + (Top − Bottom) / (1 + 10^((LogEC50 − X)·HillSlope)),   X = log10[agonist]

Report the EC50 (in µM) and the Hill slope.
"""
    cols = {"well": wells, "dose_uM": np.array(rows_dose), "response_pct": np.array(rows_resp)}
    return LabFolder(
        name="camp-plate2",
        experiment="dose-response EC50",
        lang="en",
        files={"plate2.csv": fmt.csv(cols, 8), "notes.txt": fmt.text(notes)},
        truths=(
            Truth(("EC50", "EC_50"), ec50, "uM"),
            Truth(("HillSlope", "Hill slope", "nH", "n_H", "Hill coefficient"), hill, ""),
        ),
        controlled=("plate2.csv: well", "plate2.csv: dose_uM", "plate2.csv: dose"),
        shapes=("csv", "long format", "replicate rows", "index column"),
    )


FOLDERS = (invertase_json, phosphatase_inhibitor_runs, ecoli_flasks, camp_plate)
