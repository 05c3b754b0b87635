"""A small catalogue for the request's unit tests, written as the real one
is (`knowledge/models/*.toml`): the tests of the rules must not change when
an entry of the real catalogue gains an alias, so they run on this one; the
labelled notes run on both (`test_labelled_notes.py`)."""

from __future__ import annotations

from typing import Any

from labwright.analysis.catalogue.schema import (
    Constant,
    Derived,
    Input,
    ModelEntry,
    Parameter,
    Phrases,
    Text,
    Variable,
)


def _p(en: tuple[str, ...] = (), zh: tuple[str, ...] = ()) -> Phrases:
    return Phrases(tuple(en), tuple(zh))


def _var(name: str, role: str, en: str, zh: str, symbols: tuple[str, ...], words: tuple[str, ...],
         zh_words: tuple[str, ...], dimension: str = "any", unit: str | None = None,
         absolute: bool = False) -> Variable:  # fmt: skip
    return Variable(
        name, role, Text(en, zh), symbols, _p(words, zh_words), dimension, unit, absolute
    )  # type: ignore[arg-type]


def _par(name: str, en: str, zh: str, latex: str, unit: str | None = None,
         asks: tuple[str, ...] = (), zh_asks: tuple[str, ...] = ()) -> Parameter:  # fmt: skip
    return Parameter(name, Text(en, zh), latex, unit, asks=_p(asks, zh_asks))


def _der(key: str, expr: str, en: str, zh: str, latex: str, asks: tuple[str, ...] = (),
         zh_asks: tuple[str, ...] = ()) -> Derived:  # fmt: skip
    return Derived(key, expr, Text(en, zh), latex, _p(asks, zh_asks))


def _entry(key: str, area: str, en: str, zh: str, formula: str, variables: tuple[Variable, ...],
           parameters: tuple[Parameter, ...], aliases: tuple[str, ...] = (),
           zh_aliases: tuple[str, ...] = (), **kw: Any) -> ModelEntry:  # fmt: skip
    return ModelEntry(key, area, Text(en, zh), formula, formula, variables, parameters,
                      aliases=_p(aliases, zh_aliases), **kw)  # fmt: skip


CONC = "[concentration]"

# fmt: off

CATALOGUE: tuple[ModelEntry, ...] = (
    _entry(
        "michaelis_menten", "biology", "Michaelis–Menten", "米氏方程", "v = Vmax*S/(Km + S)",
        (
            _var("S", "independent", "substrate concentration", "底物浓度", ("[S]", "S", "c_S"),
                 ("substrate", "substrate concentration"), ("底物", "底物浓度"), CONC, "mM"),
            _var("v", "response", "initial rate", "初速度", ("v", "v0", "V0", "rate"),
                 ("rate", "initial rate", "velocity", "reaction rate"), ("速率", "初速度", "反应速率"),
                 "[concentration]/[time]", "uM/min"),
        ),
        (
            _par("Vmax", "maximum rate", "最大反应速率", "V_{max}", "{v}", ("maximum velocity", "maximal rate"), ("最大速率", "最大反应速度")),
            _par("Km", "Michaelis constant", "米氏常数", "K_m", "{S}", ("Michaelis constant",), ("米氏常数", "米氏常量")),
        ),
        ("Michaelis-Menten", "MM kinetics", "enzyme kinetics"), ("米氏动力学", "酶动力学"),
        inputs=(Input("E0", Text("total enzyme concentration", "酶总浓度"), "nM", ("E0", "[E]0", "E_T"),
                      _p(("enzyme concentration", "total enzyme concentration"), ("酶浓度", "酶总浓度"))),),
        derived=(_der("kcat", "Vmax/E0", "turnover number", "催化常数", "k_{cat}", ("turnover number", "catalytic constant"), ("转换数", "催化常数")),),
    ),
    _entry(
        "arrhenius", "chemistry", "Arrhenius equation", "阿伦尼乌斯方程", "k = A*exp(-Ea/(R*T))",
        (
            _var("T", "independent", "temperature", "温度", ("T",), ("temperature", "bath temperature"), ("温度",), "[temperature]", "K", True),
            _var("k", "response", "rate constant", "速率常数", ("k",), ("rate constant",), ("速率常数",), "any", "1/s"),
        ),
        (
            _par("A", "pre-exponential factor", "指前因子", "A", "{k}", ("pre-exponential factor", "frequency factor"), ("指前因子", "频率因子")),
            _par("Ea", "activation energy", "活化能", "E_a", "J/mol", ("activation energy",), ("活化能",)),
        ),
        ("Arrhenius", "Arrhenius plot"), ("阿伦尼乌斯", "阿累尼乌斯"),
        constants=(Constant("R", 8.314462618, "J/(mol*K)", Text("gas constant", "气体常数")),),
    ),
    _entry(
        "first_order", "chemistry", "first-order kinetics", "一级反应", "c = c0*exp(-k*t)",
        (
            _var("t", "independent", "time", "时间", ("t", "time"), ("time",), ("时间",), "[time]", "s"),
            _var("c", "response", "concentration", "浓度", ("c", "C", "[A]"), ("concentration", "absorbance"), ("浓度", "吸光度"), "any"),
        ),
        (
            _par("c0", "initial concentration", "初始浓度", "c_0", "{c}", ("initial concentration",), ("初始浓度",)),
            _par("k", "rate constant", "速率常数", "k", "1/{t}", ("rate constant", "first-order rate constant"), ("速率常数", "一级速率常数")),
        ),
        ("first-order reaction", "first order kinetics"), ("一级反应动力学", "一级动力学"),
        derived=(_der("t_half", "log(2)/k", "half-life", "半衰期", "t_{1/2}", ("half-life", "half life"), ("半衰期",)),),
    ),
    _entry(
        "radioactive_decay", "modern", "radioactive decay with background", "放射性衰变", "N = N0*exp(-lam*t) + B",
        (
            _var("t", "independent", "time", "时间", ("t", "time"), ("time",), ("时间",), "[time]", "s"),
            _var("N", "response", "count rate", "计数率", ("N", "counts", "R"), ("counts", "count rate", "activity", "Geiger"), ("计数", "计数率", "活度"), "any"),
        ),
        (
            _par("N0", "initial count rate", "初始计数率", "N_0", "{N}"),
            _par("lam", "decay constant", "衰变常数", "\\lambda", "1/{t}", ("decay constant",), ("衰变常数",)),
            _par("B", "background", "本底", "B", "{N}", ("background rate",), ("本底计数",)),
        ),
        ("radioactive decay", "decay curve"), ("衰变曲线", "放射性衰变"),
        derived=(
            _der("t_half", "log(2)/lam", "half-life", "半衰期", "t_{1/2}", ("half-life", "half life"), ("半衰期",)),
            _der("tau", "1/lam", "mean lifetime", "平均寿命", "\\tau", ("mean lifetime", "lifetime"), ("平均寿命",)),
        ),
    ),
    _entry(
        "rc_discharge", "electricity", "RC discharge", "RC放电", "V = V0*exp(-t/tau)",
        (
            _var("t", "independent", "time", "时间", ("t", "time"), ("time",), ("时间",), "[time]", "s"),
            _var("V", "response", "capacitor voltage", "电容电压", ("V", "U", "Vc", "U_C"), ("voltage", "capacitor voltage"), ("电压", "电容电压"), "[electric_potential]", "V"),
        ),
        (
            _par("V0", "initial voltage", "初始电压", "V_0", "{V}"),
            _par("tau", "time constant", "时间常数", "\\tau", "{t}", ("time constant",), ("时间常数",)),
        ),
        ("RC circuit", "capacitor discharge", "RC"), ("电容放电", "RC电路"),
    ),
    _entry(
        "damped_oscillator", "mechanics", "damped harmonic oscillator", "阻尼振动", "x = A*exp(-gamma*t)*cos(omega_d*t + phi) + x0",
        (
            _var("t", "independent", "time", "时间", ("t", "time"), ("time",), ("时间",), "[time]", "s"),
            _var("x", "response", "displacement", "位移", ("x", "y", "theta"), ("displacement", "position", "angle"), ("位移", "位置", "角度"), "any"),
        ),
        (
            _par("A", "amplitude", "振幅", "A", "{x}", ("amplitude",), ("振幅",)),
            _par("gamma", "damping rate", "阻尼系数", "\\gamma", "1/{t}", ("damping rate", "damping constant"), ("阻尼系数",)),
            _par("omega_d", "damped angular frequency", "阻尼角频率", "\\omega_d", "1/{t}"),
            _par("phi", "phase", "相位", "\\phi", None),
            _par("x0", "offset", "偏移", "x_0", "{x}"),
        ),
        ("damped oscillation", "damped oscillator", "damped harmonic motion"), ("阻尼振荡", "阻尼振动"),
        derived=(
            _der("omega0", "sqrt(omega_d**2 + gamma**2)", "natural angular frequency", "固有角频率", "\\omega_0", ("natural frequency", "natural angular frequency", "undamped frequency"), ("固有频率", "固有角频率")),
            _der("zeta", "gamma/sqrt(omega_d**2 + gamma**2)", "damping ratio", "阻尼比", "\\zeta", ("damping ratio",), ("阻尼比",)),
            _der("Q", "sqrt(omega_d**2 + gamma**2)/(2*gamma)", "quality factor", "品质因数", "Q", ("quality factor", "Q factor"), ("品质因数", "Q值")),
            _der("T", "2*pi/omega_d", "period", "周期", "T", ("period", "oscillation period"), ("周期",)),
        ),
    ),
    _entry(
        "pendulum", "mechanics", "simple pendulum", "单摆", "T = 2*pi*sqrt(L/g)",
        (
            _var("L", "independent", "length", "摆长", ("L", "l"), ("length", "pendulum length"), ("摆长", "长度"), "[length]", "m"),
            _var("T", "response", "period", "周期", ("T",), ("period",), ("周期",), "[time]", "s"),
        ),
        (_par("g", "gravitational acceleration", "重力加速度", "g", "m/s^2", ("acceleration due to gravity", "gravitational acceleration", "acceleration of gravity", "local g"), ("重力加速度",)),),
        ("pendulum", "simple pendulum"), ("单摆",),
    ),
    _entry(
        "spring_mass", "mechanics", "mass on a spring", "弹簧振子", "T = 2*pi*sqrt((m + m_s/3)/k)",
        (
            _var("m", "independent", "mass", "质量", ("m", "M"), ("mass", "load", "hanging mass"), ("质量", "砝码质量"), "[mass]", "kg"),
            _var("T", "response", "period", "周期", ("T",), ("period",), ("周期",), "[time]", "s"),
        ),
        (_par("k", "spring constant", "劲度系数", "k", "N/m", ("spring constant", "stiffness", "force constant"), ("劲度系数", "弹性系数", "倔强系数")),),
        ("spring oscillator", "mass-spring", "spring-mass system"), ("弹簧振子",),
        inputs=(Input("m_s", Text("spring's mass", "弹簧质量"), "kg", ("m_s", "ms", "m_spring"), _p(("spring's mass", "mass of the spring", "spring mass"), ("弹簧质量", "弹簧的质量"))),),
    ),
    _entry(
        "beer_lambert", "optics", "Beer–Lambert law", "朗伯-比尔定律", "A = eps*l*c",
        (
            _var("c", "independent", "concentration", "浓度", ("c", "C", "conc"), ("concentration",), ("浓度",), CONC, "mol/L"),
            _var("A", "response", "absorbance", "吸光度", ("A", "Abs", "OD"), ("absorbance", "optical density"), ("吸光度",), "dimensionless"),
        ),
        (_par("eps", "molar absorption coefficient", "摩尔吸光系数", "\\varepsilon", "1/({c}*{l})", ("molar absorptivity", "extinction coefficient", "molar absorption coefficient"), ("摩尔吸光系数", "摩尔吸收系数")),),
        ("Beer-Lambert", "Beer's law", "Lambert-Beer"), ("朗伯比尔定律", "比尔定律"),
        inputs=(Input("l", Text("path length", "光程"), "cm", ("l", "b", "d"), _p(("path length", "cuvette"), ("光程", "比色皿"))),),
    ),
    _entry(
        "linear_calibration", "calibration", "calibration line", "标准曲线", "y = a + b*x",
        (
            _var("x", "independent", "standard concentration", "标准浓度", ("x", "c", "conc"), ("concentration", "standard"), ("浓度", "标准"), "any"),
            _var("y", "response", "signal", "信号", ("y", "A", "signal"), ("signal", "absorbance", "response", "peak area"), ("信号", "吸光度", "响应"), "any"),
        ),
        (
            _par("a", "intercept", "截距", "a", "{y}"),
            _par("b", "slope", "斜率", "b", "{y}/{x}", ("sensitivity", "slope"), ("灵敏度", "斜率")),
        ),
        ("calibration curve", "standard curve", "calibration"), ("标准曲线", "校准曲线", "工作曲线"),
        derived=(
            _der("x_unknown", "(y0 - a)/b", "unknown concentration", "未知浓度", "x_0", ("unknown concentration", "concentration of the unknown", "unknowns' concentration"), ("未知样浓度", "未知浓度", "样品浓度")),
            _der("LOD", "3.3*s_y/b", "limit of detection", "检出限", "LOD", ("limit of detection", "detection limit"), ("检出限",)),
        ),
        procedure="calibration",
    ),
    _entry(
        "titration", "chemistry", "acid–base titration", "酸碱滴定", "pH = pKa + log10(V/(V_eq - V))",
        (
            _var("V", "independent", "titrant volume", "滴定体积", ("V", "Vb", "V_NaOH"), ("volume", "titrant", "burette reading", "NaOH added"), ("体积", "滴定剂体积"), "[volume]", "mL"),
            _var("pH", "response", "pH", "pH", ("pH",), ("pH",), ("pH",), "dimensionless"),
        ),
        (_par("pKa", "pKa", "pKa", "pK_a", None, ("acid dissociation constant", "pKa"), ("酸解离常数", "pKa")),
         _par("V_eq", "equivalence volume", "等当点体积", "V_{eq}", "{V}", ("equivalence volume", "equivalence point", "end point", "endpoint"), ("等当点", "化学计量点", "终点体积", "滴定终点"))),
        ("titration curve", "acid-base titration", "titration"), ("滴定曲线", "酸碱滴定"),
        derived=(
            _der("V_half", "V_eq/2", "half-equivalence volume", "半等当点体积", "V_{1/2}", ("half-equivalence volume", "half-equivalence point"), ("半等当点",)),
        ),
        inputs=(
            Input("c_titrant", Text("concentration of the titrant", "滴定剂浓度"), "mol/L", ("c_titrant", "c_NaOH"), _p(("NaOH", "titrant", "standard solution"), ("NaOH", "标准溶液", "滴定剂"))),
            Input("V_sample", Text("volume of the sample", "样品体积"), "L", ("V_sample", "V0"), _p(("sample", "aliquot", "acid solution"), ("移取", "待测", "样品"))),
        ),
        procedure="titration",
    ),
    _entry(
        "gaussian_peaks", "spectroscopy", "Gaussian peaks on a baseline", "高斯峰", "y = amplitude/(sigma*sqrt(2*pi))*exp(-(x - center)**2/(2*sigma**2)) + c0",
        (
            _var("x", "independent", "wavelength or energy", "波长", ("x", "lambda", "wavelength", "E", "channel"), ("wavelength", "wavenumber", "energy", "channel", "two theta"), ("波长", "波数", "能量", "道址"), "any"),
            _var("y", "response", "intensity", "强度", ("y", "I", "counts"), ("intensity", "counts", "absorbance", "signal"), ("强度", "计数"), "any"),
        ),
        (
            _par("center", "peak centre", "峰位", "x_0", "{x}", ("peak centre", "peak position", "line position"), ("峰位", "峰中心")),
            _par("sigma", "peak width", "峰宽", "\\sigma", "{x}", ("peak width", "line width"), ("峰宽",)),
            _par("amplitude", "peak area", "峰面积", "A", "{x}*{y}", ("peak area",), ("峰面积",)),
            _par("c0", "baseline", "基线", "c_0", "{y}"),
        ),
        ("Gaussian peak", "Gaussian", "peak fit"), ("高斯峰", "高斯拟合"),
        derived=(_der("fwhm", "2.3548*sigma", "full width at half maximum", "半高宽", "FWHM", ("FWHM", "full width at half maximum"), ("半高宽", "半峰宽")),),
    ),
    _entry(
        "newton_cooling", "thermal", "Newton's law of cooling", "牛顿冷却定律", "T = Ta + (T0 - Ta)*exp(-t/tau)",
        (
            _var("t", "independent", "time", "时间", ("t", "time"), ("time",), ("时间",), "[time]", "s"),
            _var("T", "response", "temperature", "温度", ("T", "theta"), ("temperature",), ("温度",), "[temperature]", "°C"),
        ),
        (
            _par("Ta", "ambient temperature", "环境温度", "T_a", "{T}", ("ambient temperature", "room temperature"), ("环境温度", "室温")),
            _par("T0", "initial temperature", "初始温度", "T_0", "{T}"),
            _par("tau", "time constant", "时间常数", "\\tau", "{t}", ("time constant", "cooling time constant"), ("时间常数", "冷却时间常数")),
        ),
        ("Newton cooling", "cooling curve", "law of cooling"), ("冷却曲线", "牛顿冷却"),
        derived=(_der("kc", "1/tau", "cooling constant", "冷却系数", "k", ("cooling constant", "cooling coefficient"), ("冷却系数", "冷却常数")),),
    ),
    _entry(
        "hill", "biology", "Hill equation", "希尔方程", "y = ymax*x**n/(K**n + x**n)",
        (
            _var("x", "independent", "ligand concentration", "配体浓度", ("x", "L", "[L]"), ("ligand", "ligand concentration"), ("配体", "配体浓度"), CONC),
            _var("y", "response", "fraction bound", "结合分数", ("y", "theta", "Y"), ("fraction bound", "saturation", "binding"), ("结合分数", "饱和度"), "any"),
        ),
        (
            _par("ymax", "maximum response", "最大响应", "y_{max}", "{y}"),
            _par("K", "half-saturation constant", "半饱和常数", "K_{0.5}", "{x}", ("half-saturation constant", "dissociation constant", "K_d"), ("半饱和常数", "解离常数")),
            _par("n", "Hill coefficient", "希尔系数", "n_H", None, ("Hill coefficient", "cooperativity"), ("希尔系数", "协同系数")),
        ),
        ("Hill", "Hill plot"), ("希尔",),
    ),
    _entry(
        "ohm", "electricity", "Ohm's law", "欧姆定律", "V = R*I",
        (
            _var("I", "independent", "current", "电流", ("I", "i"), ("current",), ("电流",), "[current]", "A"),
            _var("V", "response", "voltage", "电压", ("V", "U"), ("voltage", "potential difference"), ("电压",), "[electric_potential]", "V"),
        ),
        (_par("R", "resistance", "电阻", "R", "{V}/{I}", ("resistance",), ("电阻", "电阻值")),),
        ("Ohm's law", "Ohm"), ("欧姆定律",),
    ),
    _entry(
        "malus", "optics", "Malus's law", "马吕斯定律", "I = I0*cos(theta - theta0)**2 + Ib",
        (
            _var("theta", "independent", "polariser angle", "偏振片角度", ("theta", "θ", "angle", "phi"), ("angle", "polariser angle", "analyser angle"), ("角度", "转角"), "any", "deg"),
            _var("I", "response", "intensity", "光强", ("I", "P"), ("intensity", "photocurrent", "light intensity"), ("光强", "光电流"), "any"),
        ),
        (
            _par("I0", "maximum intensity", "最大光强", "I_0", "{I}"),
            _par("theta0", "angle offset", "角度偏移", "\\theta_0", None),
            _par("Ib", "background intensity", "背景光强", "I_b", "{I}"),
        ),
        ("Malus", "Malus' law"), ("马吕斯",),
    ),
)
# fmt: on
