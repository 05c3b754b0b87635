"""Thermal physics."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

R = 8.314462618


def newton_cooling_zh(rng: np.random.Generator) -> LabFolder:
    k, t_env, t0 = 0.045, 22.0, 85.0
    t = np.arange(0, 61, 3.0)
    temp = t_env + (t0 - t_env) * np.exp(-k * t) + rng.normal(0, 0.15, t.size)
    notes = """
牛顿冷却定律实验

将热水倒入烧杯后，每隔 3 分钟记录一次水温。按牛顿冷却定律，
T(t) = T_env + (T0 - T_env)·e^(-k t)。

要求：求冷却常数 k 和环境温度 T_env。
"""
    return LabFolder(
        "newton-cooling-zh", "newton_cooling", "zh",
        {"实验说明.txt": f.text(notes, "gbk"),
         "冷却数据.csv": f.csv({"时间 t (min)": t, "水温 T (℃)": temp},
                               {"时间 t (min)": 3, "水温 T (℃)": 4}, encoding="gbk")},
        (Truth(("k", "cooling constant", "冷却常数", "冷却系数"), k, "1/min"),
         Truth(("T_env", "ambient temperature", "环境温度", "室温"), t_env, "degC")),
        shapes=("gbk-csv", "zh-headers"),
    )  # fmt: skip


def stefan_boltzmann(rng: np.random.Generator) -> LabFolder:
    temp = np.array([1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600.0])
    power = 2.1e-12 * temp**4 * (1 + rng.normal(0, 0.015, temp.size))
    notes = """
Stefan–Boltzmann law with a lamp filament

The filament temperature T was found from its resistance; P is the radiated
power. Verify that P ∝ T^n and find the exponent n (Stefan–Boltzmann: n = 4).
"""
    return LabFolder(
        "stefan-boltzmann", "stefan_boltzmann", "en",
        {"README.md": f.text(notes),
         "filament.csv": f.csv({"T (K)": temp, "P (W)": power}, {"T (K)": 5, "P (W)": 5})},
        (Truth(("n", "exponent", "power", "power law exponent"), 4.0, ""),),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def clausius_clapeyron(rng: np.random.Generator) -> LabFolder:
    dh = 40.7e3
    temp_c = np.array([40, 50, 60, 70, 80, 90, 95.0])
    temp_k = temp_c + 273.15
    p = 101.325 * np.exp(-dh / R * (1 / temp_k - 1 / 373.15)) * (1 + rng.normal(0, 0.005, 7))
    notes = """
Vapour pressure of water

The vapour pressure p of water was measured with a manometer at bath
temperatures between 40 and 95 °C. Use the Clausius–Clapeyron equation,
ln p = −ΔH_vap/(R T) + C, to find the molar enthalpy of vaporisation ΔH_vap.
"""
    return LabFolder(
        "vapour-pressure", "clausius_clapeyron", "en",
        {"notes.md": f.text(notes),
         "vapour.csv": f.semicolon_csv({"T (°C)": temp_c, "p (kPa)": p}, {"T (°C)": 3, "p (kPa)": 4})},
        (Truth(("dH_vap", "ΔH_vap", "enthalpy of vaporisation", "enthalpy of vaporization",
                "molar enthalpy of vaporisation", "heat of vaporization", "latent heat"), dh, "J/mol"),),
        shapes=("semicolon-decimal-comma", "celsius-for-kelvin-law"),
    )  # fmt: skip


def specific_heat_zh(rng: np.random.Generator) -> LabFolder:
    c, m = 900.0, 0.500
    energy = np.arange(1, 9) * 1500.0  # J
    rise = energy / (m * c) + rng.normal(0, 0.05, energy.size)
    notes = """
电热法测铝的比热容

铝块质量 m = 0.500 kg。用加热器向铝块输入电能 E，测出相应的温升 ΔT。
由 E = m c ΔT 求铝的比热容 c。
"""
    return LabFolder(
        "specific-heat-zh", "specific_heat", "zh",
        {"说明.md": f.text(notes),
         "加热.csv": f.csv({"电能 E (J)": energy, "温升 ΔT (K)": rise}, {"电能 E (J)": 5, "温升 ΔT (K)": 4})},
        (Truth(("c", "specific heat", "specific heat capacity", "比热容", "比热"), c, "J/(kg*K)"),),
        shapes=("zh-headers", "constant-in-notes"),
    )  # fmt: skip


def gas_law(rng: np.random.Generator) -> LabFolder:
    """Constant-volume gas thermometer: p against T in °C, extrapolated to
    p = 0 for absolute zero."""
    zero = -273.15
    temp_c = np.array([0, 15, 30, 45, 60, 75, 90.0])
    p = 95.0 * (temp_c - zero) / (-zero) * (1 + rng.normal(0, 0.002, temp_c.size))
    notes = """
Absolute zero from a constant-volume gas thermometer

The pressure p of a fixed volume of air was read at water-bath temperatures
from 0 to 90 °C. For an ideal gas at constant volume p is proportional to the
absolute temperature; extrapolate the straight line p(T) to p = 0 to estimate
absolute zero in °C.
"""
    return LabFolder(
        "absolute-zero", "gas_thermometer", "en",
        {"README.txt": f.text(notes),
         "gas.csv": f.csv({"T (°C)": temp_c, "p (kPa)": p}, {"T (°C)": 3, "p (kPa)": 5})},
        (Truth(("absolute zero", "T0", "absolute_zero", "x intercept", "x-intercept"), zero, "degC"),),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def thermal_expansion(rng: np.random.Generator) -> LabFolder:
    alpha, l0 = 1.7e-5, 0.600  # copper, 600 mm rod
    temp = np.array([20, 30, 40, 50, 60, 70, 80, 90.0])
    dl_um = alpha * l0 * (temp - 20) * 1e6 + rng.normal(0, 2.0, temp.size)
    notes = """
Linear expansion of a copper rod

A copper rod of length L0 = 600 mm at 20 °C was heated with steam; a dial
gauge gave the elongation ΔL. Find the linear expansion coefficient α from
ΔL = α L0 ΔT.
"""
    return LabFolder(
        "thermal-expansion", "thermal_expansion", "en",
        {"notes.txt": f.text(notes),
         "expansion.csv": f.csv({"T (°C)": temp, "dL (um)": dl_um}, {"T (°C)": 3, "dL (um)": 4})},
        (Truth(("alpha", "α", "expansion coefficient", "linear expansion coefficient",
                "coefficient of linear expansion", "thermal expansion coefficient"), alpha, "1/K"),),
        shapes=("csv-units-in-header", "constant-in-notes"),
    )  # fmt: skip


FOLDERS = (newton_cooling_zh, stefan_boltzmann, clausius_clapeyron, specific_heat_zh, gas_law,
           thermal_expansion)  # fmt: skip
