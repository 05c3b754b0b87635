"""The ledger's computation phrases in the report's language (the appendix).

The ledger records each number's computation in English (`provenance.json`,
`numbers[].computation`); the compendium's `report()` calls match on that
exact text, so it stays the record's key. A Chinese report's appendix shows
it in Chinese: a catalogue of phrase shapes, each a pattern over the English
text whose `p_*` groups are themselves phrases (translated by the same
catalogue) and whose other groups are names taken as they are (columns,
files, groups, symbols). A phrase no shape covers is printed as recorded,
in English, never half translated.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Whole phrases.
_WORDS: dict[str, str] = {
    "mean": "平均值",
    "minimum": "最小值",
    "maximum": "最大值",
    "number of rows": "行数",
    "number of finite values": "有限值个数",
    "number of distinct values": "不同取值的个数",
    "doses in the log-logistic fit": "对数-logistic 拟合所用的剂量数",
    "slope of the log-logistic fit (per ln dose)": "对数-logistic 拟合的斜率（每单位 ln 剂量）",
    "deviance of the log-logistic fit": "对数-logistic 拟合的偏差",
    "degrees of freedom of the deviance": "偏差的自由度",
    "p-value of the deviance (chi-square)": "偏差的 p 值（卡方）",
    "number of readings": "读数个数",
    "sample standard deviation (ddof=1)": "样本标准差（ddof=1）",
    "standard error of the mean": "平均值的标准误差",
    "mean of the readings (best estimate)": "读数的平均值（最佳估计）",
    "files read": "读取的文件数",
    "files in the folder inventory": "文件夹清单中的文件数",
    "files in the series": "系列中的文件数",
    "values in the series": "系列中的数值个数",
    "groups": "组数",
    "peak number": "峰的编号",
    "matrix rows": "矩阵行数",
    "matrix columns": "矩阵列数",
    "image height in pixels": "图像高度（像素）",
    "image width in pixels": "图像宽度（像素）",
    "lines in the figure": "图中的曲线数",
    "rows of the first file": "第一个文件的行数",
    "run parameter from the file name": "由文件名得到的运行参数",
    "month columns in the table": "表中的月份列数",
    "month of the climatology maximum": "气候态最大值所在月份",
    "month of the climatology minimum": "气候态最小值所在月份",
    "month of the first value": "第一个值的月份",
    "month of the last value": "最后一个值的月份",
    "year of the first value": "第一个值的年份",
    "year of the last value": "最后一个值的年份",
    "years covered by the climatology": "气候态覆盖的年数",
    "row of the frame's centre": "画面中心的行",
    "column of the frame's centre": "画面中心的列",
    "row number (1-based) of a flagged row": "被标记行的行号（从 1 起）",
    "reference values within 3 SE of a peak": "与某峰相差在 3 个标准误差以内的参考值个数",
    "significance level in per cent (constant)": "显著性水平（百分比，常数）",
    "family-wise level in per cent (constant)": "族系显著性水平（百分比，常数）",
    "peak prominence in noise units (constant)": "峰显著度阈值（以噪声为单位，常数）",
    "R^2 threshold for reporting a fit (constant)": "报告拟合所需的 R^2 阈值（常数）",
    "studentized-residual limit for flagging (constant)": "标记所用的学生化残差界限（常数）",
    "Cook's distance screening rule 4/n (constant)": "Cook 距离筛选规则 4/n（常数）",
    "t-test p-value of the exponent against the law's": "指数与定律指数比较的 t 检验 p 值",
    "RMS of the map minus its left-right mirror": "图与其左右镜像之差的均方根",
    "RMS of the map minus its up-down mirror": "图与其上下镜像之差的均方根",
    "chi-square of the left-right mirror difference": "左右镜像差的卡方值",
    "chi-square of the up-down mirror difference": "上下镜像差的卡方值",
    "chi-square p-value, left-right mirror": "左右镜像的卡方 p 值",
    "chi-square p-value, up-down mirror": "上下镜像的卡方 p 值",
    "independent pixel pairs, left-right mirror": "左右镜像的独立像素对数",
    "independent pixel pairs, up-down mirror": "上下镜像的独立像素对数",
    "left-right mirror RMS over sqrt(2) x noise": "左右镜像均方根与 sqrt(2) 倍噪声之比",
    "up-down mirror RMS over sqrt(2) x noise": "上下镜像均方根与 sqrt(2) 倍噪声之比",
    "R^2": "R^2",
    "linear trend": "线性趋势",
    # Answers' labels (analysis: the asked quantities of laws and procedures).
    "half-life of the voltage": "电压的半衰期",
    "initial voltage": "初始电压",
    "time constant": "时间常数",
    "intercept": "截距",
    "sensitivity (slope)": "灵敏度（斜率）",
    "limit of detection": "检出限",
    "limit of quantification": "定量限",
    "amplitude": "振幅",
    "frequency of the cycle": "周期的频率",
    "period": "周期",
    "agreement limit in combined standard errors (constant)": "一致性界限（以合成标准误差计，常数）",
    "3.3 s_y/b and 10 s_y/b from the calibration line": "由校准直线得 3.3 s_y/b 与 10 s_y/b",
    # The time-series answer's method (analysis/analyses/timeseries.py says
    # it in both languages; the ledger keeps the English).
    "least-squares linear trend against time; standard error robust to autocorrelation (HAC)": (
        "对时间的最小二乘线性趋势；标准误差对自相关稳健（HAC）"
    ),
}

# (pattern, template). `p_*` groups are phrases; other groups are names.
# Order matters: the first shape that matches the whole text wins.
_SHAPES: tuple[tuple[str, str], ...] = (
    (r"reporting floor of (?P<p_a>.+) \(constant\)", "{p_a}的报告下限（常数）"),
    (r"standard uncertainty of (?P<p_a>.+)", "{p_a}的标准不确定度"),
    (
        r"relative standard uncertainty of (?P<p_a>.+) in per cent",
        "{p_a}的相对标准不确定度（百分比）",
    ),
    (r"coefficient of determination of (?P<p_a>.+)", "{p_a}的决定系数"),
    (r"(?P<k>maxima|minima) of (?P<y>.+) found", "{y} 曲线上找到的{k_zh}个数"),
    (
        r"position of (?P<k>maximum|minimum) (?P<i>\d+) of (?P<y>.+) \(Gaussian centre\)",
        "{y} 第 {i} 个{k_zh}的位置（高斯峰中心）",
    ),
    (
        r"spacing of successive (?P<k>maxima|minima) of (?P<y>.+) \(slope against order\)",
        "{y} 相邻{k_zh}的间距（位置对序号的斜率）",
    ),
    (r"mean spacing of successive (?P<k>maxima|minima) of (?P<y>.+)", "{y} 相邻{k_zh}的平均间距"),
    (
        r"(?P<n>[LEI][CD]\d+) from the log-logistic fit of (?P<r>.+)/(?P<t>.+)",
        "由 {r}/{t} 的对数-logistic 拟合得到的 {n}",
    ),
    (r"adjusted R\^2 of (?P<p_a>.+)", "{p_a}的校正 R^2"),
    (r"R\^2 of (?P<p_a>.+)", "{p_a}的 R^2"),
    (r"points in (?P<p_a>.+)", "{p_a}的数据点数"),
    (r"rows in (?P<p_a>.+)", "{p_a}的行数"),
    (r"residual standard error of (?P<p_a>.+)", "{p_a}的残差标准误差"),
    (r"F-test p-value of (?P<p_a>.+)", "{p_a}的 F 检验 p 值"),
    (r"(?P<p_a>.+) without the flagged rows", "{p_a}（去除被标记的行）"),
    (r"the regression of (?P<y>.+)", "{y} 的回归"),
    (r"coefficient (?P<n>\S+) of (?P<p_a>.+)", "{p_a}中 {n} 的系数"),
    (r"(?P<w>p-value|t) of coefficient (?P<n>\S+)", "系数 {n} 的 {w} 值"),
    (
        r"(?P<k>linear|exponential) least-squares fit of (?P<y>.+) against (?P<x>.+)",
        "{y} 对 {x} 的{k}最小二乘拟合",
    ),
    (r"the (?P<p_a>(?:linear|exponential) least-squares fit of .+)", "{p_a}"),
    (
        r"the fit of (?P<y>.+) against (?P<x>.+) over the files of (?P<f>.+)",
        "{f} 各文件的 {y} 对 {x} 的拟合",
    ),
    (r"the fit that gave (?P<p_a>.+)", "得出{p_a}的拟合"),
    (r"parameter (?P<n>.+?) of (?P<p_a>.+)", "{p_a}的参数 {n}"),
    (r"mean of (?P<c>.+) in group (?P<g>.+)", "组 {g} 中 {c} 的平均值"),
    (r"standard deviation of (?P<c>.+) in group (?P<g>.+)", "组 {g} 中 {c} 的标准差"),
    (r"readings of (?P<c>.+) in group (?P<g>.+)", "组 {g} 中 {c} 的读数个数"),
    (r"mean of (?P<c>.+) over the files of (?P<f>.+)", "{f} 各文件中 {c} 的平均值"),
    (
        r"(?P<t>one-way ANOVA|Kruskal-Wallis) (?P<w>p-value|statistic|H) for (?P<c>.+)",
        "{c} 的{t} {w}",
    ),
    (
        r"difference of means, Tukey HSD (?P<a>.+) - (?P<b>.+) for (?P<c>.+)",
        "{c} 的平均值之差（Tukey HSD，{a} − {b}）",
    ),
    (
        r"adjusted p-value, Tukey HSD (?P<a>.+) - (?P<b>.+) for (?P<c>.+)",
        "{c} 的校正 p 值（Tukey HSD，{a} − {b}）",
    ),
    (r"pairs differing at the family-wise level, (?P<c>.+)", "{c} 在族系水平上有差异的组对数"),
    (r"pairs of groups, (?P<c>.+)", "{c} 的组对数"),
    (r"(?P<w>A|\\tau) of (?P<f>\S+)", "{f} 的 {w}"),
    (
        r"trend of (?P<c>.+) per (?P<u>year|month)(?P<how> \(OLS, HAC errors\))?",
        "{c} 每{u_zh}的趋势{how_zh}",
    ),
    (r"(?P<p_a>.+) of the trend fit of (?P<c>.+)", "{c} 趋势拟合的{p_a}"),
    (r"amplitude of the annual cycle of (?P<c>.+)", "{c} 年周期的振幅"),
    (
        r"(?P<w>centre|FWHM|height) of peak (?P<n>\d+) of (?P<c>.+) in (?P<f>.+) \(Gaussian fit\)",
        "{f} 中 {c} 第 {n} 个峰的{w_zh}（高斯拟合）",
    ),
    (
        r"\(centre - reference\)/SE of peak (?P<n>\d+) of (?P<c>.+) in (?P<f>.+) \(Gaussian fit\)",
        "{f} 中 {c} 第 {n} 个峰的（中心 − 参考值）/标准误差（高斯拟合）",
    ),
    (
        r"reference value matched to peak (?P<n>\d+) of (?P<c>.+) in (?P<f>.+) "
        r"\(Gaussian fit\) \((?P<r>.+)\)",
        "与 {f} 中 {c} 第 {n} 个峰匹配的参考值（高斯拟合）（{r}）",
    ),
    (r"reference values in (?P<r>.+)", "{r} 中的参考值个数"),
    (r"peaks found in (?P<c>.+)", "在 {c} 中找到的峰数"),
    (r"prominence threshold for peaks of (?P<c>.+)", "{c} 峰的显著度阈值"),
    (
        r"noise of (?P<c>.+) from second differences \(robust SD\)",
        "由二阶差分得到的 {c} 噪声（稳健标准差）",
    ),
    (r"(?P<p_a>.+), symmetry check of (?P<m>.+)", "{m} 对称性检验中的{p_a}"),
    (r"background \(median of the border\)", "背景（边缘的中位数）"),
    (r"centroid (?P<w>row|column) above the background", "背景以上的质心{w_zh}"),
    (r"pixel noise from second differences", "由二阶差分得到的像素噪声"),
    (r"(?P<w>studentized residual|Cook's distance) of row (?P<n>\d+)", "第 {n} 行的{w_zh}"),
    (r"tolerance of (?P<v>.+) stated in the notes \(%\)", "记录中给出的 {v} 的容差（%）"),
    (r"R C for (?P<f>.+), from the notes", "{f} 的 R C（来自记录）"),
    (r"(?P<p_a>R C for .+) \(tolerance/sqrt 3, combined\)", "{p_a}（容差/sqrt 3，合成）"),
    (r"R C for (?P<f>.+)", "{f} 的 R C"),
    (r"fitted tau over R C for (?P<f>.+)", "{f} 的拟合 tau 与 R C 之比"),
    (
        r"\|tau - RC\| / combined standard uncertainty, (?P<f>.+)",
        "{f} 的 |tau - RC| 与合成标准不确定度之比",
    ),
    (
        r"(?P<p_q>.+) \((?P<s>\S+)\): OLS of (?P<y>\S+) on (?P<x>\S+) through the origin; "
        r"(?P=s) from the slope, SE by the delta method",
        "{p_q}（{s}）：{y} 对 {x} 过原点的最小二乘拟合；由斜率得 {s}，标准误差用 delta 方法",
    ),
    (
        r"(?P<w>slope through the origin|slope with an intercept|intercept), (?P<p_a>law .+) \(OLS\)",
        "{p_a}的{w_zh}（最小二乘）",
    ),
    (r"t-test p-value of a zero intercept, (?P<p_a>law .+)", "{p_a}中截距为零的 t 检验 p 值"),
    (
        r"AICc (?P<w>through the origin|with an intercept), (?P<p_a>law .+)",
        "{p_a}的 AICc（{w_zh}）",
    ),
    (
        r"(?P<s>\S+) from the slope, (?P<p_a>law .+) \(SE propagated\)",
        "由{p_a}的斜率得到的 {s}（标准误差传递）",
    ),
    (r"the (?P<p_a>law .+)", "{p_a}"),
    (r"law (?P<l>.+) tested on (?P<f>.+)", "在 {f} 上检验的定律 {l}"),
    (r"exponent implied by the law (?P<l>.+)", "定律 {l} 所给的指数"),
    (r"log-log exponent of (?P<y>.+) on (?P<x>.+) \(OLS\)", "{y} 对 {x} 的双对数指数（最小二乘）"),
    (
        r"heat-loss coefficient from the slope of (?P<y>.+) against (?P<x>.+) in (?P<f>.+)",
        "由 {f} 中 {y} 对 {x} 的斜率得到的热损失系数",
    ),
    (r"acceleration due to gravity", "重力加速度"),
    # The law fits and procedures the notes' request runs (the build's analysis).
    (
        r"least-squares fit of the (?P<m>.+) to (?P<y>.+) against (?P<x>.+); "
        r"SE from the covariance scaled by the residual scatter",
        "{m} 对 {y}–{x} 的最小二乘拟合；标准误差取自按残差离散度缩放的协方差",
    ),
    (
        r"straight line through the (?P<n>\d+) standards \(OLS\)",
        "过 {n} 个标准样的直线（最小二乘）",
    ),
    (r"the (?P<k>\S+) fitted to (?P<f>.+)", "{f} 上拟合的 {k}"),
    (
        r"(?P<n>[^,]+), (?P<k>\S+) fitted to (?P<f>.+) \(SE\)",
        "{f} 上拟合 {k} 所得的 {n}（附标准误差）",
    ),
    (r"runs-test p-value of the residuals of (?P<p_a>.+)", "{p_a}残差的游程检验 p 值"),
    (
        r"(?P<w>R\^2|intercept|slope|limit of detection|limit of quantification"
        r"|residual standard deviation), calibration of (?P<f>.+?)(?P<o> \(OLS\))?",
        "{f} 校准的{w_zh}{o_zh}",
    ),
    (r"standards in the calibration of (?P<f>.+)", "{f} 校准中的标准样个数"),
    (r"factor of s_y/b in the (?P<p_a>limit of .+) \(constant\)", "{p_a}中 s_y/b 的系数（常数）"),
    (r"(?:the )?constant (?P<n>\S+) given in the notes", "记录中给出的常数 {n}"),
    (r"expected value of (?P<n>\S+) given in the notes", "记录中给出的 {n} 的期望值"),
    # The repeated-readings answer's method (analysis/repeated.py).
    (
        r"mean of the (?P<k>\d+) readings; standard error s/√n",
        "{k} 个读数的平均值；标准误差 s/√n",
    ),
    (
        r"(?P<w>amplitude|frequency), period of (?P<c>.+) in (?P<f>.+) \(sinusoid fit\)",
        "{f} 中 {c} 周期分析的{w_zh}（正弦拟合）",
    ),
    (r"period of (?P<c>.+) in (?P<f>.+) \(sinusoid fit\)", "{f} 中 {c} 的周期（正弦拟合）"),
    (
        r"frequency of the periodogram's peak, period of (?P<c>.+) in (?P<f>.+)",
        "{f} 中 {c} 周期图峰的频率",
    ),
    (r"the period of (?P<c>.+) in (?P<f>.+)", "{f} 中 {c} 的周期分析"),
    # Comparisons with an expected value (results_table.py): the source is a
    # name (the catalogue's reference, in Chinese as the catalogue gives it,
    # or the notes).
    (r"expected value of (?P<p_a>.+?\)) \((?P<src>.+)\)", "{p_a}的期望值（{src}）"),
    (
        r"difference of (?P<p_a>.+?\)) from (?P<src>.+) in combined standard errors",
        "{p_a}与 {src} 之差（以合成标准误差计）",
    ),
    (
        r"\|difference\| of (?P<p_a>.+?) from (?P<src>.+) in combined standard errors",
        "{p_a}与 {src} 之差的绝对值（以合成标准误差计）",
    ),
    # An answer's ledger text (agent/offline/results_table.py `answer_value`):
    # "<label> (<symbol>[, <model>]): <method>"; label and method are phrases,
    # the symbol and model are names. Last: the shapes above that read an
    # answer's method word by word come first.
    (r"(?P<p_l>.+?) \((?P<q>[^()]+)\): (?P<p_m>.+)", "{p_l}（{q}）：{p_m}"),
    # An answer named without its method (expected value, difference above).
    (r"(?P<p_l>.+?) \((?P<q>[^()]+)\)", "{p_l}（{q}）"),
)

#: Words inside a shape that are not phrases but have one Chinese form.
_FIXED: dict[str, str] = {
    "maxima": "极大值",
    "minima": "极小值",
    "maximum": "极大值",
    "minimum": "极小值",
    "year": "年",
    "month": "月",
    " (OLS, HAC errors)": "（最小二乘，HAC 误差）",
    "centre": "中心",
    "FWHM": "半高全宽",
    "height": "峰高",
    "row": "行",
    "column": "列",
    "studentized residual": "学生化残差",
    "Cook's distance": "Cook 距离",
    "slope through the origin": "过原点斜率",
    "slope with an intercept": "带截距斜率",
    "intercept": "截距",
    "through the origin": "过原点",
    "with an intercept": "带截距",
    "linear": "线性",
    "exponential": "指数",
    "p-value": "p 值",
    "statistic": "统计量",
    "H": "H 值",
    "one-way ANOVA": "单因素方差分析",
    "Kruskal-Wallis": "Kruskal-Wallis 检验",
    "R^2": "R^2",
    "slope": "斜率",
    "limit of detection": "检出限",
    "limit of quantification": "定量限",
    "residual standard deviation": "残差标准差",
    " (OLS)": "（最小二乘）",
    "amplitude": "振幅",
    "frequency": "频率",
}

_COMPILED = tuple((re.compile(p), t) for p, t in _SHAPES)
_FIELD = re.compile(r"\{(\w+?)(_zh)?\}")


@lru_cache(maxsize=1)
def _method_words() -> dict[str, str]:
    """Methods the analysis says in both languages itself, by their English:
    taken from where they are written, so a new variant has its Chinese form
    without a copy here (imported on first use: only a Chinese appendix needs it)."""
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.procedures.periodogram import periodogram_methods

    words = {t.en: t.zh for t in periodogram_methods()}
    # Every law's name and the names of its quantities (the catalogue holds
    # both languages): a fit of a law no example had used before (Newton's
    # cooling in cooling.fig) had its parameters' names in English only.
    for e in catalogue():
        for t in (e.name, *(p.label for p in e.parameters), *(d.label for d in e.derived)):
            if t.en and t.zh:
                words.setdefault(t.en, t.zh)
    return words


@lru_cache(maxsize=1)
def _source_words() -> dict[str, str]:
    """Where an expected value comes from, by its English (the `src` group
    of the comparison shapes): the notes, and each catalogue reference's source
    as the catalogue writes it in Chinese."""
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.references import NOTES, NOTES_RC

    words = {NOTES: "笔记", NOTES_RC: "笔记所给元件的 R C"}
    for e in catalogue():
        for r in e.references:
            if r.source_zh:
                words.setdefault(r.source, r.source_zh)
    return words


@lru_cache(maxsize=4096)
def _zh(text: str) -> str | None:
    """The Chinese phrase, or None when some part of it has no shape."""
    if text in _WORDS:
        return _WORDS[text]
    if text in _method_words():
        return _method_words()[text]
    for pattern, template in _COMPILED:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        values: dict[str, str] = {}
        for name, value in m.groupdict().items():
            value = value or ""
            if name.startswith("p_"):
                inner = _zh(value)
                if inner is None:
                    break
                values[name] = inner
            else:
                values[name] = value
        else:
            return _fill(template, values)
    return None


def _fill(template: str, values: dict[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        value = values.get(m.group(1), "")
        if m.group(2):  # "{w_zh}": the word's fixed Chinese form
            return _FIXED.get(value, value)
        if m.group(1) == "src":  # an expected value's source
            return _source_words().get(value, value)
        # A linear/exponential kind and test names in a "{k}" slot are words too.
        return _FIXED.get(value, value) if m.group(1) in ("k", "t", "w") else value

    return _FIELD.sub(one, template)


def computation_text(computation: str, lang: str) -> str:
    """`computation` as the report's language says it (English as recorded)."""
    if lang != "zh":
        return computation
    return _zh(computation) or computation


def covered(computation: str) -> bool:
    """Whether the catalogue has a Chinese form for the whole phrase."""
    return _zh(computation) is not None
