"""The paired kind in words and figures: the mean of the paired differences
with its standard error, the paired t-test and the signed-rank check; the
two conditions side by side and each subject's difference.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import KindScript, read_table
from labwright.analysis.analyses.paired import PairedBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.paired import PairedResult
from labwright.analysis.presentation import axis_label

PairedAnalysis = Analysis[PairedBinding, PairedResult]
ALPHA = 0.05


def text(a: PairedAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.second.provenance
    what = f"{r.what}"
    n = ledger.count(r.n, prov, "number of pairs")
    mean = ledger.measured(r.mean_diff, r.se, prov, f"mean paired difference ({what})")
    sd = ledger.num(r.sd, prov, f"standard deviation of the paired differences ({what})", sig=2)
    t = ledger.num(r.t, prov, f"paired t statistic ({what})", sig=3)
    df = ledger.count(r.df, prov, "degrees of freedom of the paired t-test")
    p = ledger.num(r.p, prov, f"paired t-test p-value ({what})", sig=2)
    unit = unit_text(r.unit)
    a_name, b_name = src_text(r.first.name), src_text(r.second.name)
    significant = r.p < ALPHA
    if lang == "zh":
        out = (
            f"{a_name} 与 {b_name} 是同一批对象的成对测量（{n} 对），按对求差值 "
            f"（{b_name} − {a_name}）。差值的平均值为 ${mean}$~{unit}，标准差 ${sd}$~{unit}。"
            f"配对 t 检验：$t = {t}$（自由度 ${df}$），$p = {p}$，"
            + ("在 5\\% 水平上差异显著。" if significant else "在 5\\% 水平上差异不显著。")
        )
        if r.wilcoxon_p is not None:
            wp = ledger.num(r.wilcoxon_p, prov, f"Wilcoxon signed-rank p-value ({what})", sig=2)
            out += f"不假设正态分布的 Wilcoxon 符号秩检验给出 $p = {wp}$。"
        return out + "\n"
    out = (
        f"{a_name} and {b_name} are paired measurements of the same subjects ({n} pairs); "
        f"each pair gives a difference {b_name} $-$ {a_name}. The mean difference is "
        f"${mean}$~{unit} (standard deviation of the differences ${sd}$~{unit}). "
        f"The paired t-test gives $t = {t}$ with ${df}$ degrees of freedom and $p = {p}$: "
        + (
            "the difference is significant at the 5\\% level."
            if significant
            else "the difference is not significant at the 5\\% level."
        )
    )
    if r.wilcoxon_p is not None:
        wp = ledger.num(r.wilcoxon_p, prov, f"Wilcoxon signed-rank p-value ({what})", sig=2)
        out += f" The Wilcoxon signed-rank test, which does not assume normal differences, gives $p = {wp}$."
    return out + "\n"


def figures(a: PairedAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    first = np.asarray(r.first.values, dtype=float)
    second = np.asarray(r.second.values, dtype=float)
    ok = np.isfinite(first) & np.isfinite(second)
    first, second = first[ok], second[ok]
    key = next_key()
    b = Builder(key)
    subject = np.arange(1, first.size + 1, dtype=float)
    diff_label = f"{r.second.name} − {r.first.name}"
    p1: dict[str, Any] = {
        "ylabel": axis_label(r.first.name if r.unit is None else "", r.unit) or "",
        "layers": [{"type": "box", "data": [b.arr(first), b.arr(second)],
                    "labels": [r.first.name, r.second.name]}],
    }  # fmt: skip
    p2: dict[str, Any] = {
        "xlabel": "受试对象" if lang == "zh" else "subject",
        "ylabel": axis_label(diff_label, r.unit),
        "integer_x": True,
        "layers": [{"type": "stem", "x": b.arr(subject), "y": b.arr(second - first), "color": "#1f77b4"},
                   {"type": "hline", "y": r.mean_diff, "color": "#c0392b"},
                   {"type": "hline", "y": 0.0}],
    }  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    if lang == "zh":
        cap = (
            f"{src_file(a.source)} 的成对测量：两种条件的分布（左），各对象的差值"
            f"（{src_text(diff_label)}）及其平均值（右）。"
        )
    else:
        cap = (
            f"Paired measurements of {src_file(a.source)}: the two conditions (left) and each "
            f"subject's difference {src_text(diff_label)} with its mean (right)."
        )
    return [plan_figure(key, b, spec, cap, a)]


def script(a: PairedAnalysis) -> KindScript:
    r = a.result
    what = r.what
    code = f"""{read_table(a.binding.dataset)}
pairs = df[[{r.first.name!r}, {r.second.name!r}]].astype(float).dropna()
d = (pairs[{r.second.name!r}] - pairs[{r.first.name!r}]).to_numpy()
test = stats.ttest_rel(pairs[{r.second.name!r}], pairs[{r.first.name!r}])
report("number of pairs", d.size)
report("mean paired difference ({what})", d.mean())
report("standard uncertainty of mean paired difference ({what})", d.std(ddof=1) / np.sqrt(d.size))
report("standard deviation of the paired differences ({what})", d.std(ddof=1))
report("paired t statistic ({what})", test.statistic)
report("degrees of freedom of the paired t-test", d.size - 1)
report("paired t-test p-value ({what})", test.pvalue)
"""
    if r.wilcoxon_p is not None:
        code += f'report("Wilcoxon signed-rank p-value ({what})", stats.wilcoxon(d).pvalue)\n'
    return KindScript(("import numpy as np", "from scipy import stats"), code)
