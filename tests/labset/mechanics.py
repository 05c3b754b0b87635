"""Mechanics and oscillations."""

from __future__ import annotations

import numpy as np

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth

TAU = 2 * np.pi


def pendulum_g(rng: np.random.Generator) -> LabFolder:
    g = 9.81
    length = np.array([0.20, 0.35, 0.50, 0.65, 0.80, 0.95, 1.10, 1.25])
    period = TAU * np.sqrt(length / g) * (1 + rng.normal(0, 0.003, length.size))
    notes = """
# Simple pendulum

We timed 20 swings of a simple pendulum for eight string lengths L and divided
by 20 to get the period T. For small amplitudes T = 2π√(L/g).

Task: determine the gravitational acceleration g with its uncertainty and
compare it with the accepted value 9.81 m/s².
"""
    return LabFolder(
        "pendulum-g", "pendulum", "en",
        {"README.md": f.text(notes),
         "pendulum.csv": f.csv({"L (m)": length, "T (s)": period}, {"L (m)": 3, "T (s)": 5})},
        (Truth(("g", "gravitational acceleration", "acceleration due to gravity"), g, "m/s^2"),),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def spring_mass_zh(rng: np.random.Generator) -> LabFolder:
    k = 12.5  # N/m
    mass_g = np.array([50, 100, 150, 200, 250, 300, 350], dtype=float)
    period = TAU * np.sqrt(mass_g / 1000 / k) * (1 + rng.normal(0, 0.004, mass_g.size))
    notes = """
弹簧振子实验

在弹簧下端挂不同质量 m 的砝码，用秒表测量 10 个周期的时间，求得周期 T。
弹簧质量可忽略，周期满足 T = 2π√(m/k)。

要求：由实验数据求弹簧的劲度系数 k 及其不确定度。
"""
    return LabFolder(
        "spring-mass-zh", "spring_mass", "zh",
        {"说明.txt": f.text(notes),
         "弹簧振子.csv": f.semicolon_csv({"质量 m (g)": mass_g, "周期 T (s)": period},
                                        {"质量 m (g)": 3, "周期 T (s)": 4})},
        (Truth(("k", "spring constant", "劲度系数", "弹簧劲度系数", "stiffness"), k, "N/m"),),
        shapes=("semicolon-decimal-comma", "zh-headers"),
    )  # fmt: skip


def hooke(rng: np.random.Generator) -> LabFolder:
    k = 48.0
    load = np.arange(1, 11) * 0.5  # N
    ext_mm = load / k * 1000 + rng.normal(0, 0.15, load.size)
    notes = """
Hooke's law

Masses were hung from a spring and the extension read from a mirror scale.
The load is the weight in newtons. Find the spring constant k from F = k x.
"""
    return LabFolder(
        "hooke", "hooke", "en",
        {"notes.txt": f.text(notes),
         "spring.xlsx": f.xlsx({"Sheet1": {"Load F (N)": load, "Extension x (mm)": ext_mm}})},
        (Truth(("k", "spring constant", "stiffness"), k, "N/m"),),
        shapes=("xlsx",),
    )  # fmt: skip


def free_fall(rng: np.random.Generator) -> LabFolder:
    g = 9.81
    height = np.array([0.20, 0.40, 0.60, 0.80, 1.00, 1.20, 1.40, 1.60])
    t = np.sqrt(2 * height / g) + rng.normal(0, 0.0015, height.size)
    log = f.logger_txt(
        {"h_m": height, "t_s": t},
        ["Photogate timer PG-2 export", "h_m: drop height in m", "t_s: fall time in s"],
        {"h_m": 3, "t_s": 5},
    )
    notes = """
Free fall with a photogate

A steel ball is released from rest at height h above the gate; the timer
gives the fall time t. With h = g t²/2, find g.
"""
    return LabFolder(
        "free-fall", "free_fall", "en",
        {"README": f.text(notes), "dropdata.txt": log},
        (Truth(("g", "gravitational acceleration", "acceleration due to gravity"), g, "m/s^2"),),
        shapes=("logger-txt-comments",),
    )  # fmt: skip


def damped_oscillation(rng: np.random.Generator) -> LabFolder:
    f0, zeta = 1.5, 0.04
    w0 = TAU * f0
    wd = w0 * np.sqrt(1 - zeta**2)
    t = np.arange(0, 12, 0.02)
    x = 4.0 * np.exp(-zeta * w0 * t) * np.cos(wd * t + 0.3) + rng.normal(0, 0.02, t.size)
    notes = """
Damped oscillation of a cart on springs

The position sensor logged the cart's displacement x (cm) against time t (s)
after release (file cart.mat, variables t and x). The motion is a damped
harmonic oscillation x = A e^(-ζ ω0 t) cos(ωd t + φ).

Find the natural frequency f0 (in Hz) and the damping ratio ζ, and the
quality factor Q.
"""
    q = 1 / (2 * zeta)
    return LabFolder(
        "damped-oscillation", "damped_oscillator", "en",
        {"notes.md": f.text(notes), "cart.mat": f.mat({"t": t, "x": x})},
        (Truth(("f0", "natural frequency", "undamped frequency"), f0, "Hz"),
         Truth(("zeta", "ζ", "damping ratio"), zeta, ""),
         Truth(("Q", "quality factor", "q factor"), q, "")),
        shapes=("mat",),
    )  # fmt: skip


def resonance_curve(rng: np.random.Generator) -> LabFolder:
    f0, q, amp = 2.0, 8.0, 0.5
    freq = np.linspace(1.2, 2.8, 25)
    a = amp * f0**2 / np.sqrt((f0**2 - freq**2) ** 2 + (freq * f0 / q) ** 2)
    a = a * (1 + rng.normal(0, 0.01, freq.size))
    notes = """
Driven oscillator: resonance curve

A mechanical oscillator was driven at frequency f and its steady-state
amplitude A measured. Determine the resonance frequency f0 and the quality
factor Q from the resonance curve.
"""
    return LabFolder(
        "resonance-curve", "driven_oscillator", "en",
        {"README.md": f.text(notes),
         "resonance.csv": f.csv({"f (Hz)": freq, "A (mm)": a}, {"f (Hz)": 4, "A (mm)": 4})},
        (Truth(("f0", "resonance frequency", "resonant frequency", "natural frequency"), f0, "Hz"),
         Truth(("Q", "quality factor", "q factor"), q, "")),
        shapes=("csv-units-in-header",),
    )  # fmt: skip


def pendulum_runs(rng: np.random.Generator) -> LabFolder:
    """One file per length: the angle logged at 50 Hz; the period is read
    from each run, then g across the runs."""
    g = 9.81
    files: dict[str, bytes] = {}
    for length in (0.30, 0.45, 0.60, 0.75, 0.90, 1.05):
        true_length = length + rng.normal(0, 0.002)  # the name gives it to the centimetre
        w = np.sqrt(g / true_length)
        t = np.arange(0, 10, 0.02)
        theta = 0.08 * np.cos(w * t + rng.uniform(0, TAU)) * np.exp(-0.01 * t)
        theta += rng.normal(0, 0.002, t.size)
        files[f"runs/run_L{length:.2f}m.csv"] = f.csv(
            {"time (s)": t, "angle (rad)": theta}, {"time (s)": 4, "angle (rad)": 4}
        )
    notes = """
Pendulum: period against length

Each file in runs/ is one run at the string length L given in its name
(run_L0.30m.csv is L = 0.30 m): the pendulum's angle against time, logged at
50 Hz with a rotary sensor. Read the period of each run, then find g from
T = 2π√(L/g) across the runs.
"""
    files["README.md"] = f.text(notes)
    return LabFolder(
        "pendulum-runs", "pendulum_run_series", "en", files,
        (Truth(("g", "gravitational acceleration", "acceleration due to gravity"), g, "m/s^2"),),
        shapes=("many-run-files",),
    )  # fmt: skip


FOLDERS = (pendulum_g, spring_mass_zh, hooke, free_fall, damped_oscillation, resonance_curve,
           pendulum_runs)  # fmt: skip
