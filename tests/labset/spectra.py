"""Spectroscopy and signals."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

PEAKS = ((520.0, 4.0, 1.00), (535.0, 5.0, 0.65), (552.0, 4.0, 0.80))  # centre, sigma, height (nm)
FWHM = 2 * np.sqrt(2 * np.log(2))


def overlapping_peaks(rng: np.random.Generator) -> LabFolder:
    x = np.arange(490.0, 580.01, 0.5)
    clean = 0.05 + 0.0004 * (x - 490)
    for c, s, h in PEAKS:
        clean = clean + h * np.exp(-((x - c) ** 2) / (2 * s**2))
    files = {
        f"scan{i}.csv": f.csv({"wavelength (nm)": x, "intensity (counts)": clean * 1000 + rng.normal(0, 8, x.size)},
                              {"wavelength (nm)": 5, "intensity (counts)": 5})
        for i in (1, 2, 3)
    }  # fmt: skip
    files["README.md"] = f.text("""
Emission spectrum with three overlapping lines

Three repeat scans of the same sample (scan1-3.csv). Average the scans and fit
three Gaussian peaks on a linear baseline: give the peak centres, widths
(FWHM) and areas.
""")
    truths = []
    for i, (c, s, h) in enumerate(PEAKS, start=1):
        truths.append(Truth((f"center_{i}", f"centre_{i}", f"peak {i} centre", f"peak {i} center",
                             f"x0_{i}", f"p{i}_center"), c, "nm"))  # fmt: skip
        truths.append(
            Truth((f"fwhm_{i}", f"peak {i} fwhm", f"p{i}_fwhm", f"width_{i}"), s * FWHM, "nm")
        )
        truths.append(Truth((f"area_{i}", f"peak {i} area", f"p{i}_area"),
                            h * 1000 * s * np.sqrt(2 * np.pi), "nm"))  # fmt: skip
    return LabFolder(
        "three-peaks", "gaussian_peaks", "en", files, tuple(truths), shapes=("repeat-scans",)
    )


def lorentzian_line_zh(rng: np.random.Generator) -> LabFolder:
    centre, fwhm, height = 9.412, 0.0180, 2.5  # GHz
    x = np.linspace(9.30, 9.52, 221)
    y = height * (fwhm / 2) ** 2 / ((x - centre) ** 2 + (fwhm / 2) ** 2) + rng.normal(
        0, 0.02, x.size
    )
    log = f.logger_txt({"频率 f (GHz)": x, "吸收信号 (mV)": y}, ["微波吸收谱", "扫频步长 1 MHz"],
                       {"频率 f (GHz)": 6, "吸收信号 (mV)": 4})  # fmt: skip
    notes = """
铁磁共振吸收线

扫频测量样品的微波吸收信号。吸收线为洛伦兹线型。要求：求共振频率（峰位）和线宽（半高全宽）。
"""
    return LabFolder(
        "lorentzian-line-zh", "lorentzian_peak", "zh",
        {"说明.txt": f.text(notes), "吸收谱.txt": log},
        (Truth(("center", "centre", "x0", "peak position", "共振频率", "峰位", "center_1", "centre_1"), centre, "GHz"),
         Truth(("fwhm", "linewidth", "线宽", "半高全宽", "fwhm_1", "gamma"), fwhm, "GHz")),
        shapes=("logger-txt-comments", "zh-headers"),
    )  # fmt: skip


def variable_star(rng: np.random.Generator) -> LabFolder:
    period = 5.366  # days (a Cepheid)
    t = np.sort(rng.uniform(0, 60, 70))  # uneven: nights lost to weather
    mag = 4.0 - 0.4 * np.sin(2 * np.pi * t / period + 0.7) + rng.normal(0, 0.02, t.size)
    notes = """
Light curve of a Cepheid

Magnitudes of the star on 70 nights over two months (uneven sampling: cloudy
nights are missing). Find the pulsation period with its uncertainty.
"""
    return LabFolder(
        "cepheid-period", "periodogram", "en",
        {"notes.md": f.text(notes),
         "lightcurve.csv": f.csv({"day": t, "magnitude": mag}, {"day": 6, "magnitude": 4})},
        (Truth(("P", "period", "pulsation period"), period, "day"),),
        shapes=("uneven-time-series",),
    )  # fmt: skip


def ac_signal_zh(rng: np.random.Generator) -> LabFolder:
    freq, amp = 50.0, 3.2
    t = np.arange(0, 0.2, 2e-4)
    v = amp * np.sin(2 * np.pi * freq * t + 1.1) + rng.normal(0, 0.05, t.size)
    notes = """
示波器记录的交流电压信号（波形.mat：变量 t 为时间/s，u 为电压/V）。
要求：求信号的频率和振幅。
"""
    return LabFolder(
        "ac-signal-zh", "sinusoid", "zh",
        {"说明.txt": f.text(notes), "波形.mat": f.mat({"t": t, "u": v})},
        (Truth(("f", "frequency", "频率"), freq, "Hz"),
         Truth(("A", "amplitude", "振幅", "幅值"), amp, "V")),
        shapes=("mat",),
    )  # fmt: skip


FOLDERS = (overlapping_peaks, lorentzian_line_zh, variable_star, ac_signal_zh)
