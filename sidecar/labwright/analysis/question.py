"""What the notes ask: the goals of the analysis, read from plain text.

A scientist reads the notes before the data: "the growth rate per year and
the seasonal cycle", "compare the three classes", "a model of stack loss and
a discussion of outliers", "verify T^2 ∝ L". Each goal is found by a short
list of English and Chinese phrasings, and the phrase that matched is kept as
the reason (shown in the report and in the provenance record).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from labwright.analysis.law import LawStatement, parse_laws

Goal = Literal[
    "trend", "seasonal", "change", "dependence", "outliers", "groups", "law", "error",
    "distribution", "appendix", "peaks", "symmetry", "expected", "acceleration", "coefficient",
]  # fmt: skip

_PATTERNS: dict[str, tuple[str, ...]] = {
    "trend": (
        r"\btrends?\b", r"growth rate", r"rate of (?:increase|rise|growth|change|decline)",
        r"per (?:year|decade|day|month|century)\b", r"\b(?:increase|rise|decline)s? over\b",
        r"long[- ]term", r"\bgrowth\b", r"趋势", r"增长率", r"增长速率", r"变化率", r"每年", r"逐年",
    ),
    "seasonal": (
        r"season", r"annual cycle", r"yearly cycle", r"seasonal cycle", r"monthly pattern",
        r"climatolog", r"\bperiodic", r"季节", r"年周期", r"周期性", r"年变化", r"月变化",
    ),
    "change": (
        r"before and after", r"change[- ]?point", r"step change", r"\bshift\b", r"\bbreak\b",
        r"\bbefore\b.{0,40}\bafter\b", r"(?:after|since|from) (?:the )?(?:year )?\d{4}\b",
        r"前后", r"突变", r"变化点", r"\d{4}\s*年(?:之前|之后|以后|以前)",
    ),
    "dependence": (
        r"depend(?:s|ence)? on", r"as a function of", r"\bmodel (?:of|for|the|how)\b",
        r"\bregress", r"\bpredict", r"relationship between", r"effect of .{1,40} on",
        r"\bexplain", r"operating (?:variables|conditions)",
        r"how (?:does|do) [^.?!\n]{1,60}\b(?:depend|change|vary)",
        r"依赖", r"回归", r"影响", r"预测", r"函数关系", r"关系",
    ),
    "outliers": (r"outlier", r"anomal", r"unusual", r"suspicious", r"异常", r"离群"),
    "groups": (
        r"compar\w*\b[^.?!\n]{0,60}\b(?:groups|classes|species|treatments|samples|types|batches)\b",
        r"between (?:the )?(?:\w+ )?(?:groups|classes|species|treatments)", r"difference(?:s)? between",
        r"\b(?:per|each|by) (?:group|class|species|treatment|type|batch)\b",
        r"组间", r"各组", r"不同组", r"类别", r"分组",
        r"比较(?:各|不同|三|两|几|多)?(?:种|个)?(?:组|处理|类|品种)",
    ),
    "law": (
        r"∝", r"\bproportional to\b", r"\bverify\b", r"\blaw\b", r"\bconfirm\b",
        r"验证", r"定律", r"成正比", r"正比于",
    ),
    "error": (
        r"uncertaint", r"error analysis", r"standard error", r"repeat(?:ed)? (?:measurement|timing|reading|trial)s?",
        r"\bprecision\b", r"\bscatter\b", r"误差", r"不确定度", r"重复测量",
    ),
    # The individual files of a series (runs, sweeps), shown one by one at the
    # end of the report; never done unasked (200 runs would be 200 figures).
    "appendix": (
        r"\bappendix\b", r"\b(?:each|every) (?:run|file|sweep|measurement file) (?:individually|separately|on its own)",
        r"\bindividual (?:runs|files|sweeps|curves)\b", r"附录", r"逐个(?:文件|运行|曲线)", r"每个文件(?:单独|分别)",
    ),
    "peaks": (
        r"\bpeaks?\b", r"\b(?:spectral|emission|absorption) lines?\b",
        r"wavelengths? of the (?:\w+ )?lines", r"\bline (?:positions|centres|centers)\b",
        r"谱线", r"峰位", r"峰值", r"吸收峰", r"发射峰", r"特征峰",
    ),
    # Not "gravitational acceleration": the trend speeding up or slowing down.
    "acceleration": (
        r"\baccelerat(?:ing|es|ed)\b", r"acceleration of the (?:rise|increase|growth|trend|decline)",
        r"\bspeed(?:ing|s)? up\b", r"\bslow(?:ing|s)? down\b", r"non-?linear trend", r"quadratic trend",
        r"加速(?!度)", r"增速(?:加快|放缓|变化)",
    ),
    "symmetry": (r"\bsymmetr", r"\bmirror image", r"对称"),
    "distribution": (
        r"distribution of (?:the )?(?:values|readings|measurements|results)", r"histogram",
        r"(?:数据|数值|测量值|读数|结果)的?分布", r"频率分布", r"直方图",
    ),
}  # fmt: skip

_COMPILED = {g: [re.compile(p, re.I) for p in ps] for g, ps in _PATTERNS.items()}

_YEAR_POINT = (
    re.compile(r"\b(?:before|after|since|from|in|around)\s+(?:the\s+)?(?:year\s+)?(\d{4})\b", re.I),
    re.compile(r"(\d{4})\s*年\s*(?:之前|之后|以后|以前|前后)"),
)
# Several levels asked for: more than one change point may be found.
_MANY_CHANGES = re.compile(
    r"change[- ]points\b|\b(?:shifts|breaks|regimes)\b|several (?:changes|levels|steps)|"
    r"多个(?:突变|变化点)|几次(?:突变|跳变)|各个阶段",
    re.I,
)
# Only an explicit "between 1940 and 1980" (在 1940 至 1980 年之间) names two
# points; a bare "1959-2009" is the span of the data in a title or a
# description, and taking its ends for changes split a series at the year its
# data end.
_BETWEEN = re.compile(
    r"\bbetween\s+(\d{4})\s+and\s+(\d{4})\b"
    r"|(\d{4})\s*(?:-|–|至|到)\s*(\d{4})\s*年?\s*(?:之间|期间|间)"
)
_RESPONSE = (
    re.compile(r"\bmodel (?:of|for) (?:the )?([A-Za-z][\w.]{0,30})", re.I),
    re.compile(r"\bpredict (?:the )?([A-Za-z][\w.]{0,30})", re.I),
    re.compile(r"\b([A-Za-z][\w.]{0,30}) (?:depends|as a function) (?:on|of)\b", re.I),
    # "How does strike duration depend on iprod?", "Does survival depend on age?"
    re.compile(
        r"\b(?:does|do) (?:the )?(?:[A-Za-z]\w* ){0,3}?([A-Za-z][\w.]{0,30}) (?:depend|vary) (?:on|with)\b",
        re.I,
    ),
    re.compile(r"\bresponse (?:variable )?(?:is )?(?:the )?([A-Za-z][\w.]{0,30})", re.I),
    re.compile(
        r"([\w\u4e00-\u9fff]{1,20})\s*(?:与|和)\s*[\w\u4e00-\u9fff、,，]{1,40}\s*的(?:关系|回归)"
    ),
)


_RATE_UNIT = re.compile(
    r"\b(?:per|a|each|every)\s+(day|week|month|decade|century)\b|每\s*(天|日|周|星期|月|十年|百年)",
    re.I,
)
# "One row per year, one column per month" describes the file, not the
# unit a rate is asked in (Mauna Loa's report gave its trend "per month, as
# the notes ask").
_LAYOUT = re.compile(
    r"\b(?:rows?|columns?|files?|lines?|sheets?|records?|entr(?:y|ies)|values?|readings?|"
    r"measurements?|samples?|points?|runs?)\s*$",
    re.I,
)
_RATE_WORDS = {"天": "day", "日": "day", "周": "week", "星期": "week", "月": "month",
               "十年": "decade", "百年": "century"}  # fmt: skip
# Years in each unit, to convert a rate per year.
RATE_YEARS = {"day": 1 / 365.25, "week": 7 / 365.25, "month": 1 / 12, "decade": 10.0,
              "century": 100.0}  # fmt: skip


@dataclass
class Question:
    goals: dict[str, str] = field(default_factory=dict)  # goal -> the phrase that matched
    change_at: float | None = None  # a named point (a year) for before/after
    # Every point named for a change ("after 1950 and after 1980", "between
    # 1950 and 1980"), sorted; two or more give one level per period.
    change_points: list[float] = field(default_factory=list)
    many_changes: bool = False  # "change points", "regimes": detect more than one
    response: str | None = None  # the quantity to model, as named in the notes
    # "the trend of the closing price per day": the unit the rate is asked in
    # (day, week, month, decade, century); None is per year.
    rate_unit: str | None = None
    # Laws stated in the notes ("T^2 ∝ L", "T^2 = (4 pi^2 / g) L"), in order.
    laws: list[LawStatement] = field(default_factory=list)

    def asks(self, goal: str) -> bool:
        return goal in self.goals

    def summary(self) -> list[str]:
        return [f"{g} (\u201c{why}\u201d)" for g, why in self.goals.items()]


def read_question(text: str) -> Question:
    """The goals stated in `text` (notes with markup already stripped)."""
    q = Question()
    for goal, patterns in _COMPILED.items():
        for pattern in patterns:
            m = pattern.search(text)
            if m:
                q.goals[goal] = m.group(0).strip()
                break
    for pattern in _YEAR_POINT:
        m = pattern.search(text)
        if m and q.asks("change"):
            q.change_at = float(m.group(1))
            break
    many = _MANY_CHANGES.search(text)
    if many is not None:
        q.goals.setdefault("change", many.group(0))
    if q.asks("change"):
        points = {float(m.group(1)) for p in _YEAR_POINT for m in p.finditer(text)}
        for m in _BETWEEN.finditer(text):
            points |= {float(g) for g in m.groups() if g}
        q.change_points = sorted(points)
        q.many_changes = many is not None
    for pattern in _RESPONSE:
        m = pattern.search(text)
        if m:
            q.response = m.group(1).strip().rstrip(".")
            break
    m = next((m for m in _RATE_UNIT.finditer(text) if not _LAYOUT.search(text, 0, m.start())), None)
    if m is not None and q.asks("trend"):
        word = next(g for g in m.groups() if g)
        q.rate_unit = _RATE_WORDS.get(word.lower(), word.lower())
    q.laws = parse_laws(text)
    if q.laws:
        q.goals.setdefault("law", q.laws[0].text)
    return q
