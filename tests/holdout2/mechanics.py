"""Mechanics and acoustics folders of the second hold-out set.

Each function draws one folder from its generator; the truths are the
parameters the data were drawn from.
"""

from __future__ import annotations

import numpy as np

from tests.holdout2.raw import gbk, named, utf8
from tests.labset import formats as fm
from tests.labset.folder import LabFolder, Truth

G_NAMES = (
    "g",
    "gravitational acceleration",
    "acceleration due to gravity",
    "acceleration of gravity",
    "重力加速度",
    "当地重力加速度",
)


def phys101_week3(rng: np.random.Generator) -> LabFolder:
    """Simple pendulum, Excel with a data sheet (three timing runs of 20
    swings) and an amplitude-check sheet; the law in LaTeX."""
    g = 9.803
    length_cm = np.array([40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 110.0, 120.0])
    period = 2 * np.pi * np.sqrt(length_cm / 100 / g)
    data: fm.Columns = {"Length (cm)": length_cm + rng.normal(0, 0.1, length_cm.size)}
    for run in (1, 2, 3):
        data[f"20 swings run {run} (s)"] = 20 * period + rng.normal(0, 0.08, length_cm.size)
    amp = np.array([4.0, 8.0, 12.0, 16.0, 20.0, 25.0])
    t0 = 20 * 2 * np.pi * np.sqrt(1.0 / g)
    check: fm.Columns = {
        "amplitude (deg)": amp,
        "20 swings (s)": t0 * (1 + np.radians(amp) ** 2 / 16) + rng.normal(0, 0.08, amp.size),
    }
    notes = r"""
PHYS 101 - Lab 3: the simple pendulum
Group B (Sam, Priya), Tuesday afternoon

Procedure: string clamped between two aluminium jaws; L measured with a metre rule
from the jaws to the middle of the bob. For each length we timed 20 full swings
three times with a hand stopwatch, amplitude kept under about 8 degrees.

mass of the bob 0.050 kg (brass - should not matter)

Theory: $T = 2\pi\sqrt{L/g}$, so a graph of $T^2$ against $L$ should be a straight
line through the origin with gradient $4\pi^2/g$.

Sheet "data" has the timings. Sheet "amplitude check" is a quick check at L = 100 cm
that the period hardly changes with amplitude; not needed for g.

To find: the acceleration due to gravity g from the gradient, with its uncertainty,
and compare with the accepted local value g = 9.81 m/s^2.
(Priya thinks run 2 at 70 cm was a bit long, we kept it anyway)
"""
    return LabFolder(
        name="phys101-week3",
        experiment="simple pendulum",
        lang="en",
        files={
            "swings.xlsx": fm.xlsx({"data": data, "amplitude check": check}, 5),
            "lab notes.txt": utf8(notes),
        },
        truths=(Truth(G_NAMES, g, "m/s^2"),),
        controlled=named("swings.xlsx: Length (cm)", "swings.xlsx: amplitude (deg)"),
        shapes=("xlsx-sheets", "repeat-columns", "latex-law", "distractor-sheet"),
    )


def dier_ci_shiyan(rng: np.random.Generator) -> LabFolder:
    """Simple pendulum, Chinese handout, GBK file with Chinese headers; the
    length is the thread plus the bob's radius, given as a diameter."""
    g = 9.794
    d_cm = 2.004
    thread = np.array([50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 110.0])
    period = 2 * np.pi * np.sqrt((thread + d_cm / 2) / 100 / g)
    cols: fm.Columns = {
        "摆线长 l/cm": thread + rng.normal(0, 0.05, thread.size),
        "t1/s": 30 * period + rng.normal(0, 0.1, thread.size),
        "t2/s": 30 * period + rng.normal(0, 0.1, thread.size),
    }
    notes = """
实验二  用单摆测定重力加速度

实验步骤：用米尺测摆线长 l（悬点到小球上端），游标卡尺测小球直径 d，摆长 L = l + d/2。
摆角小于 5°，用秒表记录摆动 30 次全振动的时间，每个摆长测两次（t1、t2）。

小球直径 d = 2.004 cm

原理：T = 2π√(L/g)，即 T² = 4π²L/g。
数据见 单摆.csv（Excel 导出，GBK 编码）。

要求：用作图法（T²–L 图）求当地重力加速度 g，并与本地标准值 g = 9.794 m/s² 比较，计算百分误差。
"""
    return LabFolder(
        name="第二次实验",
        experiment="simple pendulum",
        lang="zh",
        files={"单摆.csv": fm.csv(cols, 5, encoding="gbk"), "实验要求.txt": utf8(notes)},
        truths=(Truth(G_NAMES, g, "m/s^2"),),
        controlled=named("单摆.csv: 摆线长 l/cm"),
        shapes=("gbk", "zh-headers", "repeat-columns", "constant-offset", "non-ascii-folder"),
    )


def tanhuang_0412(rng: np.random.Generator) -> LabFolder:
    """Hooke's law from loads in grams and pointer readings (loading and
    unloading), GBK; g given in the notes."""
    k = 24.6
    grams = np.arange(0.0, 351.0, 50.0)
    x = 12.30 + grams * 1e-3 * 9.80 / k * 100
    cols: fm.Columns = {
        "砝码质量 m/g": grams,
        "指针位置(增重) x/cm": x + rng.normal(0, 0.05, grams.size),
        "指针位置(减重) x/cm": x + rng.normal(0, 0.05, grams.size),
    }
    notes = """
弹簧劲度系数的测定（静态拉伸法）

把弹簧竖直悬挂，下端挂砝码托（托的质量不计入），每次加 50 g 砝码，读出指针在米尺上的位置；
加到 350 g 后再逐个取下砝码读一遍。

胡克定律 F = k·Δx
g 取 9.80 m/s²

求：弹簧的劲度系数 k（单位 N/m）。
PS 第一组数据时指针有点晃，读数可能不太准
"""
    return LabFolder(
        name="tanhuang-0412",
        experiment="Hooke's law (static)",
        lang="zh",
        files={"数据.csv": fm.csv(cols, 4, encoding="gbk"), "记录.txt": utf8(notes)},
        truths=(
            Truth(("k", "spring constant", "劲度系数", "弹簧的劲度系数", "stiffness"), k, "N/m"),
        ),
        controlled=named("数据.csv: 砝码质量 m/g"),
        shapes=("gbk", "zh-headers", "repeat-columns", "mass-as-force"),
    )


def metre_stick_holes(rng: np.random.Generator) -> LabFolder:
    """Physical pendulum: a metre stick on a knife edge; g and the radius of
    gyration from T(h), the law in LaTeX with \\dfrac."""
    g, kg = 9.806, 1.0 / np.sqrt(12.0)
    h_cm = np.arange(5.0, 46.0, 5.0)
    h = h_cm / 100
    period = 2 * np.pi * np.sqrt((kg**2 + h**2) / (g * h))
    cols: fm.Columns = {"h [cm]": h_cm, "T_avg [s]": period + rng.normal(0, 0.002, h.size)}
    notes = r"""
# Physical pendulum (metre stick)

A uniform metre stick with holes drilled every 5 cm is hung on a knife edge through
one hole; h is the distance from the pivot to the centre of mass (the 50 cm mark).
Period from a photogate, mean of 10 swings (periods.csv).

For a rigid body:
$$T = 2\pi\sqrt{\dfrac{k^2 + h^2}{g\,h}}$$
where $k$ is the radius of gyration about the centre of mass.

Stick: length 1.000 m, mass 0.137 kg.

Determine $g$ and $k$. For a thin uniform rod $k = L/\sqrt{12} \approx 28.9$ cm, so compare.
"""
    return LabFolder(
        name="metre-stick-holes",
        experiment="physical pendulum",
        lang="en",
        files={"periods.csv": fm.csv(cols, 5), "README.md": utf8(notes)},
        truths=(
            Truth(G_NAMES, g, "m/s^2"),
            Truth(("k", "radius of gyration", "回转半径"), kg, "m"),
        ),
        controlled=named("periods.csv: h [cm]"),
        shapes=("square-bracket-units", "latex-law", "two-parameter-law"),
    )


def la_shen_fa(rng: np.random.Generator) -> LabFolder:
    """Young's modulus of a steel wire from loads (kg) and microscope
    readings, GBK file and GBK notes."""
    young = 1.96e11
    length, d, g = 0.8000, 0.400e-3, 9.80
    kg = np.arange(1.0, 9.0)
    area = np.pi * d**2 / 4
    x = 2.150 + (kg - 1) * g * length / (area * young) * 1e3  # mm
    cols: fm.Columns = {
        "砝码质量 m/kg": kg,
        "增荷时读数 x+/mm": x + rng.normal(0, 0.005, kg.size),
        "减荷时读数 x-/mm": x + rng.normal(0, 0.005, kg.size),
    }
    notes = """
拉伸法测量钢丝的杨氏模量

钢丝原长 L = 80.00 cm（米尺），直径用螺旋测微器在不同位置测 6 次，平均 d = 0.400 mm
先挂 1 kg 砝码把钢丝拉直，之后每次增加 1.00 kg 砝码，用读数显微镜读钢丝下端标记的位置；
加到 8 kg 后逐个减砝码再读一遍。

g = 9.80 m/s^2
E = F·L / (S·ΔL)，S = πd^2/4

求钢丝的杨氏模量 E，并与钢的公认值 2.0×10^11 Pa 比较。
"""
    return LabFolder(
        name="拉伸法",
        experiment="Young's modulus (wire)",
        lang="zh",
        files={"钢丝伸长.csv": fm.csv(cols, 5, encoding="gbk"), "实验记录.txt": gbk(notes)},
        truths=(Truth(("E", "Y", "Young's modulus", "Youngs modulus", "杨氏模量"), young, "Pa"),),
        controlled=named("钢丝伸长.csv: 砝码质量 m/kg"),
        shapes=("gbk", "gbk-notes", "zh-headers", "repeat-columns", "non-ascii-folder"),
    )


def tuning_forks_tube(rng: np.random.Generator) -> LabFolder:
    """Speed of sound in a closed resonance tube: the first two resonance
    lengths for eight forks; v and the end correction."""
    v, e_cm = 344.6, 1.05
    f = np.array([256.0, 288.0, 320.0, 341.3, 384.0, 426.7, 480.0, 512.0])
    lam_cm = v / f * 100
    cols: fm.Columns = {
        "f [Hz]": f,
        "L1 [cm]": lam_cm / 4 - e_cm + rng.normal(0, 0.3, f.size),
        "L2 [cm]": 3 * lam_cm / 4 - e_cm + rng.normal(0, 0.3, f.size),
    }
    notes = """
Speed of sound - resonance tube (closed at the water end)

Struck each fork, lowered the water level slowly and marked the first two loud
resonances, measured from the top of the tube (resonance.csv).
Air temp 22 °C. Tube inner diameter about 3.5 cm.

Closed pipe: L_n + e = (2n - 1) λ/4 with λ = v/f, e = end correction.

Want: v (speed of sound) and the end correction e.
Theory says v ≈ 331.3 + 0.606·θ m/s ≈ 344.6 m/s at 22 °C, and e ≈ 0.3 D.
"""
    return LabFolder(
        name="tuning-forks-tube",
        experiment="speed of sound (resonance tube)",
        lang="en",
        files={"resonance.csv": fm.csv(cols, 4), "notes.txt": utf8(notes)},
        truths=(
            Truth(("v", "speed of sound", "c", "声速", "velocity of sound"), v, "m/s"),
            Truth(("e", "end correction", "端点修正"), e_cm, "cm"),
        ),
        controlled=named("resonance.csv: f [Hz]"),
        shapes=("square-bracket-units", "repeat-harmonics", "written-law"),
    )


def flywheel_drop(rng: np.random.Generator) -> LabFolder:
    """Moment of inertia of a flywheel by a falling mass with bearing
    friction; three timings per mass."""
    inertia, tau_f, r, h, g = 2.35e-3, 2.0e-3, 0.0150, 0.800, 9.81
    m = np.arange(30.0, 131.0, 10.0) / 1000
    a = (m * g * r - tau_f) * r / (inertia + m * r**2)
    t = np.sqrt(2 * h / a)
    cols: fm.Columns = {"m (g)": m * 1000}
    for i in (1, 2, 3):
        cols[f"t{i} (s)"] = t + rng.normal(0, 0.1, m.size)
    notes = """
Moment of inertia of a flywheel (falling-mass method)

Thread wound on the axle (axle radius r = 1.50 cm); a hanger with slotted masses
(m = hanger + masses) falls from rest through h = 80.0 cm, timed with a stopwatch
three times. Data in drop_times.csv.

a = 2h/t^2 ; torque equation:  m g r - tau_f = (I + m r^2) a / r
with tau_f the friction torque at the bearing.  g = 9.81 m s^-2

Find: I of the flywheel (kg m^2) and the friction torque tau_f.
"""
    return LabFolder(
        name="flywheel-drop",
        experiment="moment of inertia (falling mass)",
        lang="en",
        files={"drop_times.csv": fm.csv(cols, 4), "notes.txt": utf8(notes)},
        truths=(
            Truth(("I", "moment of inertia", "转动惯量"), inertia, "kg*m^2"),
            Truth(("tau_f", "τf", "τ_f", "friction torque", "摩擦力矩"), tau_f, "N*m"),
        ),
        controlled=named("drop_times.csv: m (g)"),
        shapes=("repeat-columns", "derived-response", "ascii-law"),
    )


def incline_photogate(rng: np.random.Generator) -> LabFolder:
    """Kinetic friction on an incline (a at six angles, three runs); the notes
    also ask for the block's mass, which no measurement holds."""
    mu, g = 0.27, 9.81
    theta = np.arange(20.0, 46.0, 5.0)
    a = g * (np.sin(np.radians(theta)) - mu * np.cos(np.radians(theta)))
    cols: fm.Columns = {"theta (deg)": theta}
    for i in (1, 2, 3):
        cols[f"a{i} (m/s^2)"] = a + rng.normal(0, 0.03, theta.size)
    notes = """
Kinetic friction - block sliding down an inclined plane

Wooden block on an aluminium track, released from rest; the acceleration comes straight
from the two-photogate software (3 runs per angle). Angle set with the protractor.

Newton's 2nd law along the incline: a = g (sin θ − μk cos θ), g = 9.81 m/s²

Questions:
 (1) the coefficient of kinetic friction μk
 (2) the mass of the block
 (3) compare μk with the textbook range 0.2-0.3 for wood on aluminium
"""
    return LabFolder(
        name="incline-photogate",
        experiment="friction on an incline",
        lang="en",
        files={"runs.csv": fm.csv(cols, 3), "questions.txt": utf8(notes)},
        truths=(
            Truth(
                (
                    "mu_k",
                    "μk",
                    "mu",
                    "μ",
                    "coefficient of kinetic friction",
                    "kinetic friction coefficient",
                    "friction coefficient",
                    "动摩擦因数",
                ),
                mu,
                "",
            ),
            Truth(("m", "mass", "mass of the block", "block mass"), 0.0, "kg", answerable=False),
        ),
        controlled=named("runs.csv: theta (deg)"),
        shapes=("repeat-columns", "unanswerable"),
    )


FOLDERS = (
    phys101_week3,
    dier_ci_shiyan,
    tanhuang_0412,
    metre_stick_holes,
    la_shen_fa,
    tuning_forks_tube,
    flywheel_drop,
    incline_photogate,
)
