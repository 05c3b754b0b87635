"""Regenerate the example lab folders with fixed seeds.

Run `python examples/_generate.py` from the repository root. The generated
files are committed too, so the demo and the tests need nothing but this
checkout; the script exists so anyone can see how the data was made and
rebuild it bit for bit. The physics is real (pendulum law, RC discharge, the
mercury emission lines); the noise is drawn from a seeded generator.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
G = 9.81  # m/s^2, local value used to synthesise the pendulum periods


def _write(path: Path, text: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


def pendulum(root: Path) -> None:
    rng = np.random.default_rng(20261129)
    lengths = np.round(np.arange(0.20, 1.01, 0.10), 3)
    period = 2 * np.pi * np.sqrt(lengths / G)
    # Each period is a tenth of a hand-timed run of 10 swings (reaction time ~0.1 s).
    t10 = 10 * period + rng.normal(0.0, 0.08, lengths.size)
    t_period = t10 / 10
    rows = ["L (m),t_10 (s),T (s),T^2 (s^2)"]
    for length, t, tp in zip(lengths, t10, t_period, strict=True):
        rows.append(f"{length:.2f},{t:.2f},{tp:.3f},{tp * tp:.4f}")
    _write(root / "periods.csv", "\n".join(rows) + "\n")

    # Twenty repeated timings at one length, to see the spread of the timing.
    reps = 10 * 2 * np.pi * np.sqrt(0.50 / G) + rng.normal(0.0, 0.08, 20)
    rows = ["trial,t_10 (s)"] + [f"{i + 1},{t:.2f}" for i, t in enumerate(reps)]
    _write(root / "repeat_timing_L050.csv", "\n".join(rows) + "\n")

    _write(
        root / "notes.md",
        "# Simple pendulum\n\n"
        "## Aim\n\n"
        "Determine the local gravitational acceleration g from the period of a\n"
        "simple pendulum measured at several lengths, using T^2 = (4 pi^2 / g) L.\n\n"
        "## Apparatus\n\n"
        "Steel bob on a light string, clamp stand, metre rule (1 mm divisions),\n"
        "hand stopwatch. Amplitude kept below about 10 degrees.\n\n"
        "## Procedure\n\n"
        "For each length the time of 10 full swings was taken once (periods.csv).\n"
        "At L = 0.50 m the 10-swing time was repeated 20 times to estimate the\n"
        "timing scatter (repeat_timing_L050.csv).\n",
    )


def rc_discharge(root: Path) -> None:
    import openpyxl
    import scipy.io

    rng = np.random.default_rng(7)
    cap = 100e-6  # F
    wb = openpyxl.Workbook()
    fixed = _dt.datetime(2026, 11, 2, 14, 30, 0)
    wb.properties.created = fixed
    wb.properties.modified = fixed
    wb.remove(wb.active)
    for sheet, res in (("R10k", 10e3), ("R22k", 22e3)):
        ws = wb.create_sheet(sheet)
        ws.append(["t (s)", "U_C (V)"])
        tau = res * cap
        for t in np.round(np.arange(0.0, 5.0 * tau + 1e-9, tau / 8), 4):
            u = 9.0 * np.exp(-t / tau) + rng.normal(0.0, 0.03)
            ws.append([float(t), round(float(u), 3)])
    root.mkdir(parents=True, exist_ok=True)
    wb.save(root / "discharge.xlsx")

    # An oscilloscope capture of a faster discharge (R = 1 kOhm, C = 100 uF).
    t = np.arange(0, 0.5, 1e-3)
    v = 5.0 * np.exp(-t / 0.1) + rng.normal(0.0, 0.02, t.size)
    scipy.io.savemat(
        root / "scope_capture.mat",
        {"time_s": t.reshape(-1, 1), "voltage_V": v.reshape(-1, 1)},
        do_compression=True,
    )
    # savemat stamps the current time into the 116-byte text header; pin it so
    # the file is the same bytes on every run.
    mat = root / "scope_capture.mat"
    data = bytearray(mat.read_bytes())
    header = b"MATLAB 5.0 MAT-file, Platform: posix, Created on: Mon Nov  2 14:30:00 2026"
    data[:116] = header.ljust(116, b" ")
    mat.write_bytes(bytes(data))
    _write(
        root / "README.md",
        "# RC discharge\n\n"
        "Aim: measure the time constant of a capacitor discharging through a resistor\n"
        "and compare it with the product RC.\n\n"
        "Setup: electrolytic capacitor C = 100 uF (tolerance 20 %), resistors 10 kOhm and\n"
        "22 kOhm (tolerance 1 %), charged to 9 V from a battery, voltage read with a\n"
        "digital multimeter every few tenths of a second (discharge.xlsx, one sheet per\n"
        "resistor). A faster discharge through 1 kOhm was captured with a USB oscilloscope\n"
        "and exported as a MATLAB file (scope_capture.mat).\n",
    )


def spectrum(root: Path) -> None:
    from PIL import Image

    rng = np.random.default_rng(546)
    lines_nm = np.array([404.7, 435.8, 546.1, 577.0, 579.1])
    strength = np.array([0.35, 0.8, 1.0, 0.45, 0.42])
    wl = np.round(np.arange(380.0, 700.0, 0.5), 1)
    inten = 0.03 + sum(
        s * np.exp(-0.5 * ((wl - c) / 0.9) ** 2) for c, s in zip(lines_nm, strength, strict=True)
    )
    inten = 1000 * (inten + rng.normal(0.0, 0.006, wl.size))
    rows = ["波长 (nm),强度 (counts)"] + [
        f"{w:.1f},{i:.0f}" for w, i in zip(wl, inten, strict=True)
    ]
    _write(root / "spectrum.csv", "\n".join(rows) + "\n")

    # Grating calibration with a reference lamp, saved by a Windows tool in GBK.
    known = np.array([404.7, 435.8, 546.1, 577.0, 579.1])
    reading = 12.0 + 0.0825 * (known - 400.0) + rng.normal(0.0, 0.02, known.size)
    rows = ["标准波长 (nm),刻度读数 (mm)"] + [
        f"{k:.1f},{r:.2f}" for k, r in zip(known, reading, strict=True)
    ]
    _write(root / "calibration.csv", "\r\n".join(rows) + "\r\n", encoding="gbk")

    # A photo-like strip of the spectrum as seen through the spectroscope.
    width, height = 640, 90
    xs = np.linspace(380, 700, width)
    img = np.zeros((height, width, 3), dtype=np.float64)
    colours = {
        404.7: (0.5, 0.0, 1.0),
        435.8: (0.2, 0.2, 1.0),
        546.1: (0.2, 1.0, 0.2),
        577.0: (1.0, 0.9, 0.0),
        579.1: (1.0, 0.8, 0.0),
    }
    for centre, s in zip(lines_nm, strength, strict=True):
        profile = s * np.exp(-0.5 * ((xs - centre) / 1.2) ** 2)
        img += profile[None, :, None] * np.array(colours[float(centre)])[None, None, :]
    img += rng.normal(0.0, 0.02, img.shape)
    img = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    Image.fromarray(img, "RGB").save(root / "spectrum_photo.png", optimize=True)

    _write(
        root / "实验记录.md",
        "# 汞灯光谱的测量\n\n"
        "实验目的：用光栅光谱仪测量汞灯的发射光谱，确定主要谱线的波长，并与标准值比较。\n\n"
        "实验仪器：低压汞灯、透射光栅光谱仪（CCD 读出）、读数显微镜。\n\n"
        "实验步骤：先用已知谱线对刻度读数进行定标（calibration.csv），再记录汞灯在\n"
        "380 nm 至 700 nm 之间的强度分布（spectrum.csv）。spectrum_photo.png 为目镜中看到的谱线照片。\n",
    )


def main() -> None:
    pendulum(HERE / "pendulum")
    rc_discharge(HERE / "rc-discharge")
    spectrum(HERE / "spectrum")


if __name__ == "__main__":
    main()
