"""Optics and modern physics."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

H, C, E = 6.62607015e-34, 2.99792458e8, 1.602176634e-19


def malus_zh(rng: np.random.Generator) -> LabFolder:
    i0, ib = 85.0, 1.2
    angle = np.arange(0, 181, 15.0)
    intensity = i0 * np.cos(np.radians(angle)) ** 2 + ib + rng.normal(0, 0.6, angle.size)
    notes = """
马吕斯定律的验证

转动检偏器，每隔 15° 记录一次透射光强。按马吕斯定律 I = I0 cos²θ（另有少量杂散光本底）。
要求：验证马吕斯定律，求 I0。
"""
    return LabFolder(
        "malus-zh", "malus", "zh",
        {"实验说明.md": f.text(notes),
         "偏振.csv": f.csv({"角度 θ (°)": angle, "光强 I (μW)": intensity},
                           {"角度 θ (°)": 3, "光强 I (μW)": 4})},
        (Truth(("I0", "I_0", "maximum intensity", "最大光强", "入射光强"), i0, "uW"),),
        shapes=("zh-headers", "degrees"),
    )  # fmt: skip


def snell(rng: np.random.Generator) -> LabFolder:
    n = 1.50
    incidence = np.arange(10, 81, 10.0)
    refraction = np.degrees(np.arcsin(np.sin(np.radians(incidence)) / n))
    refraction += rng.normal(0, 0.3, incidence.size)
    notes = """
Refraction at an air–glass surface

A laser ray enters a semicircular glass block; the angles of incidence and
refraction were read on the protractor. Find the refractive index n of the
glass from Snell's law, sin θ1 = n sin θ2.
"""
    return LabFolder(
        "snell", "snell", "en",
        {"README.md": f.text(notes),
         "angles.csv": f.csv({"theta_i (deg)": incidence, "theta_r (deg)": refraction},
                             {"theta_i (deg)": 3, "theta_r (deg)": 4})},
        (Truth(("n", "refractive index", "index of refraction"), n, ""),),
        shapes=("csv-units-in-header", "degrees"),
    )  # fmt: skip


def thin_lens(rng: np.random.Generator) -> LabFolder:
    focal = 15.0
    u = np.array([20, 25, 30, 35, 40, 50, 60, 80.0])
    v = 1 / (1 / focal - 1 / u) * (1 + rng.normal(0, 0.005, u.size))
    notes = """
Focal length of a converging lens

Object distance u and image distance v (both in cm, measured from the lens)
for a sharp image on the screen. Use the thin-lens equation 1/f = 1/u + 1/v
to find the focal length f.
"""
    return LabFolder(
        "thin-lens", "thin_lens", "en",
        {"notes.txt": f.text(notes),
         "lens.xlsx": f.xlsx({"Messwerte": {"u (cm)": u, "v (cm)": v}})},
        (Truth(("f", "focal length"), focal, "cm"),),
        shapes=("xlsx",),
    )  # fmt: skip


def single_slit(rng: np.random.Generator) -> LabFolder:
    a, lam, dist = 0.10e-3, 632.8e-9, 1.00
    x_mm = np.linspace(-25, 25, 101)
    beta = np.pi * a * (x_mm / 1000) / (lam * dist)
    intensity = 3.0 * np.sinc(beta / np.pi) ** 2 + rng.normal(0, 0.01, x_mm.size)
    notes = """
Single-slit diffraction

A He–Ne laser (λ = 632.8 nm) illuminates a single slit; a photodiode on a
translation stage L = 1.00 m behind the slit records the intensity across the
pattern. Fit the single-slit intensity I = I0 [sin β / β]², β = π a x/(λ L),
and find the slit width a.
"""
    return LabFolder(
        "single-slit", "single_slit", "en",
        {"README.md": f.text(notes),
         "pattern.csv": f.csv({"x (mm)": x_mm, "I (V)": intensity}, {"x (mm)": 4, "I (V)": 4})},
        (Truth(("a", "slit width", "width of the slit"), a, "m"),),
        shapes=("csv-units-in-header", "constant-in-notes"),
    )  # fmt: skip


def grating_zh(rng: np.random.Generator) -> LabFolder:
    lam, d = 532e-9, 1e-3 / 600
    order = np.array([-3, -2, -1, 1, 2, 3.0])
    angle = np.degrees(np.arcsin(order * lam / d)) + rng.normal(0, 0.05, order.size)
    notes = """
光栅衍射测波长

光栅常数 d = 1/600 mm。用分光计测得各级衍射角 θ，满足 d sinθ = m λ。
要求：求绿色激光的波长 λ。
"""
    return LabFolder(
        "grating-zh", "diffraction_grating", "zh",
        {"实验要求.md": f.text(notes),
         "衍射角.csv": f.csv({"级次 m": order, "衍射角 θ (°)": angle}, {"级次 m": 2, "衍射角 θ (°)": 5})},
        (Truth(("lambda", "λ", "wavelength", "波长"), lam, "m"),),
        shapes=("zh-headers", "degrees", "constant-in-notes"),
    )  # fmt: skip


def decay_with_background(rng: np.random.Generator) -> LabFolder:
    half_life, n0, bg = 5.0, 900.0, 12.0  # min, counts per 10 s
    lam = np.log(2) / half_life
    t = np.arange(0, 30.5, 1.0)
    counts = rng.poisson(n0 * np.exp(-lam * t) + bg)
    background = rng.poisson(bg, 20)
    notes = """
Half-life of a short-lived isotope

A Geiger counter recorded counts in 10 s intervals, once a minute (decay.csv).
The background was counted separately without the source (background.csv,
same 10 s intervals). Subtract the background and find the half-life.
"""
    return LabFolder(
        "decay-background", "radioactive_decay", "en",
        {"README.md": f.text(notes),
         "decay.csv": f.csv({"t (min)": t, "counts": counts.astype(float)}, {"t (min)": 3, "counts": 6}),
         "background.csv": f.csv({"interval": np.arange(1, 21.0), "counts": background.astype(float)},
                                 {"interval": 3, "counts": 6})},
        (Truth(("t_half", "half-life", "half life", "t1/2", "t½"), half_life, "min"),),
        controlled=("background.csv: interval",),
        shapes=("background-file",),
    )  # fmt: skip


def photoelectric_zh(rng: np.random.Generator) -> LabFolder:
    work = 2.10 * E
    lam_nm = np.array([365.0, 404.7, 435.8, 546.1, 577.0])
    nu = C / (lam_nm * 1e-9)
    v_stop = (H * nu - work) / E + rng.normal(0, 0.008, lam_nm.size)
    notes = """
光电效应测普朗克常数

用汞灯的五条谱线照射光电管，测出各波长 λ 对应的截止电压 U_a。
由爱因斯坦光电方程 e U_a = h ν − W（ν = c/λ），求普朗克常数 h 和光电管阴极的逸出功 W。
"""
    return LabFolder(
        "photoelectric-zh", "photoelectric", "zh",
        {"说明.txt": f.text(notes),
         "截止电压.csv": f.csv({"波长 λ (nm)": lam_nm, "截止电压 U_a (V)": v_stop},
                              {"波长 λ (nm)": 5, "截止电压 U_a (V)": 4})},
        (Truth(("h", "planck constant", "普朗克常数", "普朗克常量"), H, "J*s"),
         Truth(("W", "work function", "逸出功", "W0"), work, "J")),
        shapes=("zh-headers", "derived-variable"),
    )  # fmt: skip


def rydberg(rng: np.random.Generator) -> LabFolder:
    r_h = 1.09678e7
    n = np.array([3, 4, 5, 6.0])
    lam_nm = 1e9 / (r_h * (1 / 4 - 1 / n**2)) + rng.normal(0, 0.05, n.size)
    notes = """
The Balmer series of hydrogen

Wavelengths of the first four Balmer lines were measured with a grating
spectrometer (lines.json: upper level n and wavelength in nm). With
1/λ = R (1/2² − 1/n²), find the Rydberg constant R.
"""
    return LabFolder(
        "balmer", "rydberg", "en",
        {"notes.md": f.text(notes),
         "lines.json": f.json_records({"n": n, "wavelength_nm": lam_nm}, 7)},
        (Truth(("R", "R_H", "rydberg constant"), r_h, "1/m"),),
        shapes=("json",),
    )  # fmt: skip


def inverse_square_zh(rng: np.random.Generator) -> LabFolder:
    d_cm = np.array([10, 12, 15, 20, 25, 30, 40, 50.0])
    rate = 4.0e4 / d_cm**2 + 3.0
    counts = rng.poisson(rate * 60) / 60  # counts per second over 60 s
    notes = """
γ 射线强度与距离的关系

在不同距离 d 处测量计数率（每点计数 60 s），计数率中含约 3 s⁻¹ 的本底。
要求：验证平方反比定律 I ∝ d^(−n)，求指数 n。
"""
    return LabFolder(
        "inverse-square-zh", "inverse_square", "zh",
        {"要求.txt": f.text(notes),
         "计数率.csv": f.csv({"距离 d (cm)": d_cm, "计数率 (1/s)": counts}, {"距离 d (cm)": 3, "计数率 (1/s)": 6})},
        (Truth(("n", "exponent", "指数", "power"), 2.0, ""),),
        shapes=("zh-headers",),
    )  # fmt: skip


FOLDERS = (malus_zh, snell, thin_lens, single_slit, grating_zh, decay_with_background,
           photoelectric_zh, rydberg, inverse_square_zh)  # fmt: skip
