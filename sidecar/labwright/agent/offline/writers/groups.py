"""The groups kind in words and figures: per-group statistics, the test of
a difference, which pairs differ (a table of Tukey's pairs, or a letter
display for many groups); box plots per group and a scatter of the first two
measurements coloured by group.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import (
    MAX_TABLE_ROWS,
    Builder,
    KeyMaker,
    float_table,
    names_list,
    p_text,
    plain_label,
    plan_figure,
    unit_text,
)
from labwright.agent.offline.writers.script import KindScript, read_table, source_of
from labwright.analysis.analyses.groups import GroupsBinding, GroupsFound
from labwright.analysis.groups import ALPHA, GroupResult, GroupStat
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.ingest.types import Provenance

GroupsAnalysis = Analysis[GroupsBinding, GroupsFound]
# More groups than this: Tukey's pairs as letters (7 groups are 21 pairs).
MAX_PAIR_LEVELS = 6


def text(a: GroupsAnalysis, ledger: Ledger, lang: str) -> str:
    ds = a.binding.dataset
    cat = a.result.category
    out = [phrase(lang, "grp_intro", file=src_file(a.source), cat=src_text(cat))]
    rows: list[list[str]] = []
    for g in a.result.results:
        prov = ds.column(g.measurement).provenance
        for i, st in enumerate(g.stats):
            what = f"{g.measurement} in group {st.level}"
            if np.isfinite(st.se) and st.se > 0:
                mean = ledger.measured(st.mean, st.se, prov, f"mean of {what}")
                sd = ledger.num(st.sd, prov, f"standard deviation of {what}", sig=2)
            else:
                mean = ledger.num(st.mean, prov, f"mean of {what}")
                sd = "--"
            rows.append([src_text(g.measurement) if i == 0 else "", src_text(st.level),
                         f"${ledger.count(st.n, prov, f'readings of {what}')}$", f"${mean}$",
                         f"${sd}$" if sd != "--" else sd])  # fmt: skip
    head = [phrase(lang, "col_quantity"), phrase(lang, "col_group"), phrase(lang, "col_n"),
            phrase(lang, "col_mean"), phrase(lang, "col_sd")]  # fmt: skip
    cap = phrase(lang, "grp_table_caption", file=src_file(a.source), cat=src_text(cat))
    table = float_table("llrrr", head, rows[: MAX_TABLE_ROWS * 2], cap)
    for g in a.result.results:
        prov = ds.column(g.measurement).provenance
        if g.test is None:
            out.append(phrase(lang, "grp_notest", y=src_text(g.measurement)))
            continue
        t = g.test
        out.append(phrase(
            lang, "grp_test", y=src_text(g.measurement), test=t.name if lang == "en" else _zh_test(t.name),
            stat=ledger.num(t.statistic, prov, f"{t.name} statistic for {g.measurement}", sig=3),
            p=ledger.num(t.p, prov, f"{t.name} p-value for {g.measurement}", sig=2),
            h=ledger.num(t.kruskal_h, prov, f"Kruskal-Wallis H for {g.measurement}", sig=3),
            kp=ledger.num(t.kruskal_p, prov, f"Kruskal-Wallis p-value for {g.measurement}", sig=2),
        ))  # fmt: skip
    pairs = pairs_text(a, ledger, lang)
    if pairs:
        out.append(pairs)
    if a.result.left_out:
        out.append(phrase(lang, "grp_left_out", names=names_list(a.result.left_out)))
    return out[0] + "\n" + table + "\n".join(out[1:]) + "\n"


def findings(a: GroupsAnalysis, ledger: Ledger, lang: str) -> list[str]:
    """Per measurement: whether it differs between the groups (the test's
    p-value), where its mean is highest and lowest, and how many pairs
    differ (Tukey HSD) -- what a report that compares groups concludes."""
    ds = a.binding.dataset
    cat = src_text(a.result.category)
    out = []
    for g in a.result.results:
        if g.test is None:
            continue
        col = ds.column(g.measurement)
        prov, t = col.provenance, g.test
        fields = {
            "y": src_text(g.measurement), "cat": cat,
            "test": t.name if lang == "en" else _zh_test(t.name),
            "p": ledger.num(t.p, prov, f"{t.name} p-value for {g.measurement}", sig=2),
        }  # fmt: skip
        if t.p >= ALPHA:
            out.append(phrase(lang, "grp_finding_same", **fields))
            continue
        u = f"~{unit_text(col.unit)}" if col.unit else ""
        low, high = min(g.stats, key=lambda st: st.mean), max(g.stats, key=lambda st: st.mean)
        sentence = phrase(
            lang, "grp_finding_differ", **fields, u=u,
            hi=src_text(high.level), hi_mean=_mean(ledger, g.measurement, high, prov),
            lo=src_text(low.level), lo_mean=_mean(ledger, g.measurement, low, prov),
        )  # fmt: skip
        if g.pairs:
            differ = sum(pr.p_adj < ALPHA for pr in g.pairs)
            sentence += phrase(
                lang, "grp_finding_pairs",
                differ=ledger.count(differ, prov, f"pairs differing at the family-wise level, {g.measurement}"),
                k=ledger.count(len(g.pairs), prov, f"pairs of groups, {g.measurement}"),
                level=ledger.count(round(ALPHA * 100), None, "family-wise level in per cent (constant)"),
            )  # fmt: skip
        out.append(sentence)
    return out


def _mean(ledger: Ledger, measurement: str, st: GroupStat, prov: Provenance) -> str:
    what = f"mean of {measurement} in group {st.level}"
    if np.isfinite(st.se) and st.se > 0:
        return ledger.measured(st.mean, st.se, prov, what)
    return ledger.num(st.mean, prov, what)


def pairs_text(a: GroupsAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.groups import ALPHA

    withpairs = [g for g in a.result.results if g.pairs]
    if not withpairs:
        return ""
    if len(a.result.levels) > MAX_PAIR_LEVELS:
        return _letters_text(a, withpairs, ledger, lang)
    level = ledger.count(round(ALPHA * 100), None, "family-wise level in per cent (constant)")
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for g in withpairs:
        prov = a.binding.dataset.column(g.measurement).provenance
        same: list[str] = []
        for i, pr in enumerate(g.pairs):
            what = f"Tukey HSD {pr.second} - {pr.first} for {g.measurement}"
            pair = f"{src_text(pr.second)} $-$ {src_text(pr.first)}"
            rows.append([src_text(g.measurement) if i == 0 else "", pair,
                         f"${ledger.measured(pr.diff, pr.se, prov, f'difference of means, {what}')}$",
                         f"${p_text(ledger, pr.p_adj, prov, f'adjusted p-value, {what}')}$"])  # fmt: skip
            if pr.p_adj >= ALPHA:
                same.append(f"{src_text(pr.first)}/{src_text(pr.second)}")
        none = phrase(lang, "grp_pairs_none", pairs=", ".join(same)) if same else ""
        verdicts.append(_pairs_verdict(g, prov, none, ledger, lang))
    head = [phrase(lang, k) for k in ("col_quantity", "col_pair", "col_diff", "col_padj")]
    cap = phrase(
        lang, "grp_pairs_caption", file=src_file(a.source), cat=src_text(a.result.category)
    )
    return (
        "\n" + phrase(lang, "grp_pairs_intro", level=level) + "\n"
        + float_table("llrr", head, rows[:MAX_TABLE_ROWS], cap) + " ".join(verdicts)
    )  # fmt: skip


def _pairs_verdict(g: GroupResult, prov: Provenance, none: str, ledger: Ledger, lang: str) -> str:
    """How many of a measurement's group pairs differ at the family-wise level."""
    from labwright.analysis.groups import ALPHA

    differ = sum(pr.p_adj < ALPHA for pr in g.pairs)
    return phrase(
        lang, "grp_pairs_verdict", y=src_text(g.measurement), none=none,
        differ=ledger.count(differ, prov, f"pairs differing at the family-wise level, {g.measurement}"),
        k=ledger.count(len(g.pairs), prov, f"pairs of groups, {g.measurement}"),
    )  # fmt: skip


def _letters_text(
    a: GroupsAnalysis, withpairs: list[GroupResult], ledger: Ledger, lang: str
) -> str:
    """Tukey's pairs of many groups as a compact letter display: one row per
    group (by decreasing mean) instead of k(k-1)/2 pairs."""
    from labwright.analysis.groups import ALPHA, letter_display

    level = ledger.count(round(ALPHA * 100), None, "family-wise level in per cent (constant)")
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for g in withpairs:
        prov = a.binding.dataset.column(g.measurement).provenance
        letters = letter_display(g.stats, g.pairs, ALPHA)
        for i, st in enumerate(sorted(g.stats, key=lambda s: -s.mean)):
            what = f"mean of {g.measurement} for {st.level}"
            rows.append([src_text(g.measurement) if i == 0 else "", src_text(st.level),
                         f"${ledger.measured(st.mean, st.se, prov, what)}$",
                         letters[st.level]])  # fmt: skip
        verdicts.append(_pairs_verdict(g, prov, "", ledger, lang))
    head = [phrase(lang, k) for k in ("col_quantity", "col_group", "col_mean", "col_letters")]
    cap = phrase(
        lang, "grp_letters_caption", file=src_file(a.source), cat=src_text(a.result.category)
    )
    tables = "".join(
        float_table("llrl", head, rows[i : i + MAX_TABLE_ROWS], cap)
        for i in range(0, len(rows), MAX_TABLE_ROWS)
    )
    return (
        "\n" + phrase(lang, "grp_letters_intro", level=level) + "\n" + tables + " ".join(verdicts)
    )


def _zh_test(name: str) -> str:
    return {"Welch t-test": "Welch t 检验", "one-way ANOVA": "单因素方差分析"}.get(name, name)


def figures(a: GroupsAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    key = next_key()
    b = Builder(key)
    ds = a.binding.dataset
    found = a.result
    codes = np.asarray(found.codes)
    levels = list(found.levels)
    panels = []
    for g in found.results[:6]:
        col = ds.column(g.measurement)
        y = np.asarray(col.values, dtype=float)
        data = [b.arr(y[(codes == i) & np.isfinite(y)]) for i in range(len(levels))]
        panels.append({"xlabel": plain_label(found.category), "ylabel": axis_label(col.name, col.unit),
                       "layers": [{"type": "box", "data": data, "labels": levels}]})  # fmt: skip
    spec: dict[str, Any] = {"panels": panels, "ncols": min(3, len(panels))}
    if len(levels) > 6:  # many groups: one wide panel per row, names readable
        spec = {"panels": panels, "ncols": 1, "size": [6.4, 3.0 * len(panels)]}
    figs = [plan_figure(key, b, spec, phrase(lang, "cap_groups", cat=src_text(found.category),
                                       file=src_file(a.source)), a)]  # fmt: skip
    if len(found.results) >= 2:
        key = next_key()
        b = Builder(key)
        c1 = ds.column(found.results[0].measurement)
        c2 = ds.column(found.results[1].measurement)
        layers = []
        for i, lev in enumerate(levels):
            sel = codes == i
            layers.append({"type": "scatter", "x": b.arr(np.asarray(c1.values, dtype=float)[sel]),
                           "y": b.arr(np.asarray(c2.values, dtype=float)[sel]),
                           "color": f"C{i % 10}", "label": str(lev),
                           # Past ten groups the colours repeat: the marker tells them apart.
                           "marker": "os^Dv"[(i // 10) % 5]})  # fmt: skip
        spec = {"panels": [{"xlabel": axis_label(c1.name, c1.unit), "ylabel": axis_label(c2.name, c2.unit),
                            "layers": layers, "legend": True}]}  # fmt: skip
        figs.append(plan_figure(key, b, spec, phrase(lang, "cap_groups_scatter", x=src_text(c1.name),
                                               y=src_text(c2.name), cat=src_text(found.category),
                                               file=src_file(a.source)), a))  # fmt: skip
    return figs


def _raw_levels(a: GroupsAnalysis) -> dict[object, str]:
    """The category's value in the file for each group label (labels from
    the notes replace codes: 1 -> "Alloy A")."""
    values = a.binding.dataset.column(a.result.category).values
    out: dict[object, str] = {}
    for i, label in enumerate(a.result.levels):
        rows = np.flatnonzero(a.result.codes == i)
        if rows.size:
            v = values[rows[0]]
            out[float(v) if values.dtype.kind in "biuf" else str(v).strip()] = label
    return out


def script(a: GroupsAnalysis) -> KindScript:
    found = a.result
    numeric = a.binding.dataset.column(found.category).values.dtype.kind in "biuf"
    key = "df[category].astype(float)" if numeric else "df[category].astype(str).str.strip()"
    cat = a.binding.dataset.column(found.category)
    code = f"""{read_table(a.binding.dataset)}
category = {found.category!r}
labels = {_raw_levels(a)!r}
group = {key}.map(labels)
report("groups", group.nunique(), {source_of(cat.provenance)!r})
ALPHA = {ALPHA!r}  # the family-wise level of Tukey's pairs
report("family-wise level in per cent (constant)", 100 * ALPHA)
for measurement, source in {[(g.measurement, source_of(a.binding.dataset.column(g.measurement).provenance)) for g in found.results]!r}:
    values = df[measurement].astype(float)
    samples = {{}}
    for label in labels.values():
        sample = values[(group == label) & np.isfinite(values)].to_numpy()
        if sample.size == 0:
            continue
        what = f"{{measurement}} in group {{label}}"
        report(f"readings of {{what}}", sample.size)
        report(f"mean of {{what}}", sample.mean())
        if sample.size > 1:
            report(f"standard uncertainty of mean of {{what}}", sample.std(ddof=1) / np.sqrt(sample.size))
            report(f"standard deviation of {{what}}", sample.std(ddof=1))
            samples[label] = sample
    if len(samples) < 2 or any(np.ptp(s) == 0 for s in samples.values()):
        continue
    if len(samples) == 2:
        name, test = "Welch t-test", stats.ttest_ind(*samples.values(), equal_var=False)
    else:
        name, test = "one-way ANOVA", stats.f_oneway(*samples.values())
    report(f"{{name}} statistic for {{measurement}}", test.statistic)
    report(f"{{name}} p-value for {{measurement}}", test.pvalue)
    kruskal = stats.kruskal(*samples.values())
    report(f"Kruskal-Wallis H for {{measurement}}", kruskal.statistic)
    report(f"Kruskal-Wallis p-value for {{measurement}}", kruskal.pvalue)
    if len(samples) >= 3 and test.pvalue < ALPHA:
        # Tukey's HSD over all pairs; statsmodels orders them (0, 1), (0, 2), ...
        names = list(samples)
        y = np.concatenate(list(samples.values()))
        g = np.concatenate([np.full(s.size, i) for i, s in enumerate(samples.values())])
        tukey = pairwise_tukeyhsd(y, g, alpha=ALPHA)
        pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
        report(f"pairs of groups, {{measurement}}", len(pairs), source)
        differ = int(np.sum(tukey.pvalues < ALPHA))
        report(f"pairs differing at the family-wise level, {{measurement}}", differ, source)
        for k, (i, j) in enumerate(pairs):
            what = f"Tukey HSD {{names[j]}} - {{names[i]}} for {{measurement}}"
            report(f"difference of means, {{what}}", tukey.meandiffs[k])
            report(f"standard uncertainty of difference of means, {{what}}", tukey.std_pairs[k] * np.sqrt(2))
            report(f"adjusted p-value, {{what}}", tukey.pvalues[k])
"""
    imports = (
        "import numpy as np",
        "from scipy import stats",
        "from statsmodels.stats.multicomp import pairwise_tukeyhsd",
    )
    return KindScript(imports, code)


def drawing(a: GroupsAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The box plots of each measurement by group, and the first two
    measurements against each other, one colour a group."""
    found = a.result
    names = [g.measurement for g in found.results]
    lines: list[str] = []
    for plan in plans:
        lines.append(caption_comment(plan.key, plan.caption))
        if plan.panels and plan.panels["panels"][0]["layers"][0]["type"] == "box":
            lines += [
                "boxes = []",
                f"for measurement in {names[:6]!r}:",
                "    values = df[measurement].astype(float)",
                "    kept = [values[(group == label) & np.isfinite(values)] for label in labels.values()]",
                '    boxes.append([("box", [v.to_numpy() for v in kept])])',
                f"figure({plan.key!r}, *boxes)",
            ]
        else:
            lines += [
                f"first, second = df[{names[0]!r}].astype(float), df[{names[1]!r}].astype(float)",
                "points = [",
                '    ("scatter", first[group == label].to_numpy(), second[group == label].to_numpy())',
                "    for label in labels.values()",
                "]",
                f"figure({plan.key!r}, points)",
            ]
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
