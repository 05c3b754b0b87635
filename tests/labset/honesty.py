"""Folders whose notes ask for something the data cannot give: the right
report says which and why, and invents nothing."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth


def activation_energy_one_temperature(rng: np.random.Generator) -> LabFolder:
    k = 0.031
    t = np.arange(0, 90.1, 10.0)
    conc = 0.05 * np.exp(-k * t) * (1 + rng.normal(0, 0.01, t.size))
    notes = """
Kinetics at 25 °C. Find the rate constant k of this first-order reaction and
the activation energy of the reaction.
"""
    return LabFolder(
        "one-temperature", "first_order_kinetics", "en",
        {"notes.txt": f.text(notes),
         "run25.csv": f.csv({"t (min)": t, "c (mol/L)": conc}, {"t (min)": 3, "c (mol/L)": 4})},
        (Truth(("k", "rate constant"), k, "1/min"),
         Truth(("Ea", "E_a", "activation energy"), 0.0, "J/mol", answerable=False)),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def capacitance_without_resistance_zh(rng: np.random.Generator) -> LabFolder:
    tau = 0.47
    t = np.arange(0, 3, 0.03)
    v = 5.0 * np.exp(-t / tau) + rng.normal(0, 0.02, t.size)
    notes = """
电容放电实验。示波器记录了放电电压。要求：求时间常数 τ 和电容 C。
"""
    return LabFolder(
        "capacitance-no-r-zh", "rc_discharge", "zh",
        {"要求.txt": f.text(notes),
         "放电.csv": f.csv({"t (s)": t, "U (V)": v}, {"t (s)": 4, "U (V)": 4})},
        (Truth(("tau", "τ", "time constant", "时间常数"), tau, "s"),
         Truth(("C", "capacitance", "电容"), 0.0, "F", answerable=False)),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


FOLDERS = (activation_energy_one_temperature, capacitance_without_resistance_zh)
