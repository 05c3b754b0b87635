"""The designed experiment in words and figures: the two-way ANOVA table,
the cell means with their standard errors, the main effects and the best
condition; the interaction plot (cell means against the first factor, one
line per level of the second).

The sentence frames are this kind's own (EN, ZH), every number through the
ledger with the columns' provenance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import (
    Builder,
    KeyMaker,
    float_table,
    p_text,
    plan_figure,
    unit_text,
)
from labwright.agent.offline.writers.script import KindScript, read_table
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.procedures.factorial import FactorialBinding, FactorialResult

FactorialAnalysis = Analysis[FactorialBinding, FactorialResult]

_FRAMES: dict[str, dict[str, str | list[str]]] = {
    "en": {
        "intro": "The {n} runs in {file} form a two-factor design: {a} ({la} levels) and {b} "
                 "({lb} levels), every combination repeated; {y} is the response. A two-way "
                 "ANOVA with interaction (type II) gives:",
        "head": ["Source", "df", "Sum of squares", "$F$", "$p$"],
        "cap_anova": "Two-way ANOVA of {y} in {file}.",
        "cells": "Cell means (standard error from the pooled residual variance):",
        "head_cells": ["mean", "$n$"],
        "cap_cells": "Mean {y} of each combination in {file}.",
        "best": "The {which} mean {y} is {value} {u}, at {a} = {la} and {b} = {lb}.",
        "highest": "highest",
        "lowest": "lowest",
        "effect": "The main effect of {f} (level {hi} minus level {lo}) is {value} {u}.",
        "simple": "The interaction is significant, so the main effect of {f} "
                  "averages differences that are not the same at each level of {o}; "
                  "{hi} minus {lo} at each level: {values}.",
        "simple_at": "{value}{u} at {at}",
        "cap": "Interaction plot of {file}: the mean {y} of each combination against {a}, one "
               "line per level of {b}.",
    },
    "zh": {
        "intro": "{file} 中的 {n} 次实验构成双因素设计：{a}（{la} 个水平）与 {b}（{lb} 个水平），"
                 "每个组合均有重复；{y} 为响应。含交互作用的双因素方差分析（II 型）结果如下：",
        "head": ["来源", "自由度", "平方和", "$F$", "$p$"],
        "cap_anova": "{file} 中 {y} 的双因素方差分析。",
        "cells": "各组合的平均值（标准误差由合并残差方差计算）：",
        "head_cells": ["平均值", "$n$"],
        "cap_cells": "{file} 中各组合的平均 {y}。",
        "best": "{y} 的{which}平均值为 {value} {u}，条件为 {a} = {la}、{b} = {lb}。",
        "highest": "最高",
        "lowest": "最低",
        "effect": "{f} 的主效应（水平 {hi} 减水平 {lo}）为 {value} {u}。",
        "simple": "交互作用显著，{f} 的主效应平均了在 {o} 各水平上并不相同的差值；"
                  "各水平上 {hi} 减 {lo}：{values}。",
        "simple_at": "{at} 时 {value}{u}",
        "cap": "{file} 的交互作用图：各组合的平均 {y} 对 {a}，{b} 的每个水平一条线。",
    },
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    frame = _FRAMES["zh" if lang == "zh" else "en"][key]
    assert isinstance(frame, str)
    return frame.format(**values)


def _list(lang: str, key: str) -> list[str]:
    value = _FRAMES["zh" if lang == "zh" else "en"][key]
    assert isinstance(value, list)
    return value


def _what(a: FactorialAnalysis) -> str:
    return f"two-way ANOVA of {a.result.y.name} in {a.source}"


def text(a: FactorialAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.y.provenance
    what = _what(a)
    file = src_file(a.source)
    y, u = src_text(r.y.name), unit_text(r.y.unit)
    la = len({c.levels[0] for c in r.cells})
    lb = len({c.levels[1] for c in r.cells})
    out = [_f(lang, "intro", n=ledger.count(r.n, prov, f"runs in the {what}"), file=file,
              a=src_text(r.a.name), b=src_text(r.b.name), y=y,
              la=ledger.count(la, prov, f"levels of {r.a.name}, {what}"),
              lb=ledger.count(lb, prov, f"levels of {r.b.name}, {what}"))]  # fmt: skip
    rows = []
    for row in r.anova:
        w = f"{row.source}, {what}"
        rows.append([
            src_text(row.source),
            f"${ledger.count(round(row.df), prov, f'degrees of freedom of {w}')}$",
            f"${ledger.num(row.ss, prov, f'sum of squares of {w}')}$",
            f"${ledger.num(row.f, prov, f'F of {w}', sig=3)}$" if row.f is not None else "",
            f"${p_text(ledger, row.p, prov, f'p-value of {w}')}$" if row.p is not None else "",
        ])  # fmt: skip
    out.append(float_table("lrrrr", _list(lang, "head"), rows,
                           _f(lang, "cap_anova", y=y, file=file)))  # fmt: skip
    cell_rows = []
    for c in r.cells:
        w = f"cell {r.a.name} = {c.levels[0]}, {r.b.name} = {c.levels[1]}, {what}"
        cell_rows.append([
            src_text(c.levels[0]), src_text(c.levels[1]),
            f"${ledger.measured(c.mean, c.se, prov, f'mean of {w}')}$",
            f"${ledger.count(c.n, prov, f'runs in {w}')}$",
        ])  # fmt: skip
    head = [src_text(r.a.name), src_text(r.b.name), *_list(lang, "head_cells")]
    out.append(_f(lang, "cells") + "\n"
               + float_table("llrr", head, cell_rows, _f(lang, "cap_cells", y=y, file=file)))  # fmt: skip
    best = r.best
    w = f"cell {r.a.name} = {best.levels[0]}, {r.b.name} = {best.levels[1]}, {what}"
    out.append(_f(lang, "best", which=_f(lang, "lowest" if r.lowest else "highest"), y=y, u=u,
                  value=f"${ledger.measured(best.mean, best.se, prov, f'mean of {w}')}$",
                  a=src_text(r.a.name), la=src_text(best.levels[0]),
                  b=src_text(r.b.name), lb=src_text(best.levels[1])))  # fmt: skip
    for col, lo, hi, effect, se in r.effects:
        out.append(_f(lang, "effect", f=src_text(col.name), lo=src_text(lo), hi=src_text(hi), u=u,
                      value=f"${ledger.measured(effect, se, prov, f'main effect of {col.name}, {what}')}$"))  # fmt: skip
        simple = [e for e in r.simple if e.factor is col]
        if simple:
            values = ("；" if lang == "zh" else "; ").join(
                _f(lang, "simple_at", at=src_text(e.at), u=f" {u}" if u else "",
                   value=f"${ledger.measured(e.value, e.se, prov, f'{hi} - {lo} at {e.at}, {what}')}$")
                for e in simple
            )  # fmt: skip
            out.append(_f(lang, "simple", f=src_text(col.name), o=src_text(simple[0].other.name),
                          hi=src_text(hi), lo=src_text(lo), values=values))  # fmt: skip
    return "\n\n".join(out) + "\n"


def _position(levels: list[str]) -> tuple[np.ndarray, bool]:
    try:
        return np.array([float(v) for v in levels]), True
    except ValueError:
        return np.arange(len(levels), dtype=float), False


def figures(a: FactorialAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    levels_a = list(dict.fromkeys(c.levels[0] for c in r.cells))
    levels_b = list(dict.fromkeys(c.levels[1] for c in r.cells))
    xs, numeric = _position(levels_a)
    colours = ["#1f77b4", "#c0392b", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    layers: list[dict[str, Any]] = []
    for i, lb in enumerate(levels_b):
        means = [next(c.mean for c in r.cells if c.levels == (la, lb)) for la in levels_a]
        colour = colours[i % len(colours)]
        label = f"{r.b.name} = {lb}"
        layers.append({"type": "line", "x": b.arr(xs), "y": b.arr(means), "color": colour,
                       "lw": 1.2, "label": label})  # fmt: skip
        layers.append({"type": "scatter", "x": b.arr(xs), "y": b.arr(means), "color": colour})
    xlabel = axis_label(r.a.name, r.a.unit) if numeric else axis_label(r.a.name, None)
    p1: dict[str, Any] = {"xlabel": xlabel, "ylabel": axis_label(r.y.name, r.y.unit),
                          "legend": True, "layers": layers}  # fmt: skip
    if not numeric:
        # Levels named by letters or words (wool A, B) are ticks with their
        # names, not the 0.0-1.0 axis of their positions.
        p1["xticks"] = [float(x) for x in xs]
        p1["xticklabels"] = [str(la) for la in levels_a]
    spec = {"panels": [p1], "ncols": 1, "size": [5.5, 3.4]}
    cap = _f(lang, "cap", file=src_file(a.source), y=src_text(r.y.name), a=src_text(r.a.name),
             b=src_text(r.b.name))  # fmt: skip
    return [plan_figure(key, b, spec, cap, a)]


def script(a: FactorialAnalysis) -> KindScript:
    r = a.result
    what = _what(a)
    code = f"""{read_table(a.binding.dataset)}
what = {what!r}
fa, fb, ycol = {r.a.name!r}, {r.b.name!r}, {r.y.name!r}
def level(v):
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v).strip()
d = pd.DataFrame({{"A": df[fa].map(level), "B": df[fb].map(level), "y": df[ycol].astype(float)}}).dropna()
fit = smf.ols("y ~ C(A) * C(B)", data=d).fit()
table = anova_lm(fit, typ=2)
names = {{"C(A)": fa, "C(B)": fb, "C(A):C(B)": f"{{fa}} × {{fb}}", "Residual": "residual"}}
report(f"runs in the {{what}}", len(d))
for idx, row in table.iterrows():
    w = f"{{names[idx]}}, {{what}}"
    report(f"degrees of freedom of {{w}}", row["df"])
    report(f"sum of squares of {{w}}", row["sum_sq"])
    if np.isfinite(row["F"]):
        report(f"F of {{w}}", row["F"])
mse = fit.mse_resid
for (la, lb), g in d.groupby(["A", "B"], sort=False):
    w = f"cell {{fa}} = {{la}}, {{fb}} = {{lb}}, {{what}}"
    report(f"mean of {{w}}", g["y"].mean())
    report(f"standard uncertainty of mean of {{w}}", np.sqrt(mse / len(g)))
    report(f"runs in {{w}}", len(g))
"""
    imports = ("import numpy as np", "import pandas as pd", "import statsmodels.formula.api as smf",
               "from statsmodels.stats.anova import anova_lm")  # fmt: skip
    return KindScript(imports, code)
