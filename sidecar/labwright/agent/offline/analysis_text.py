"""The analyses in words and tables, every number through the ledger.

One function per analysis kind turns its result (labwright.analysis) into
LaTeX: sentence frames from phrases.py, numbers formatted and recorded by the
ledger with the column's provenance, names escaped, dates written as month
and year. Figures are placed by the caller's `figure_block`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.analysis.question import RATE_YEARS
from labwright.ingest.types import Provenance

FigureBlock = Callable[[FigurePlan], str]
MAX_TABLE_ROWS = 40
# More groups than this: Tukey's pairs as letters (7 groups are 21 pairs).
MAX_PAIR_LEVELS = 6
_MONTHS_EN = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def _unit(u: str | None) -> str:
    return src_text(u) if u else ""


def _when(
    ledger: Ledger, lang: str, year: float, prov: Provenance, what: str, monthly: bool | str
) -> str:
    """A time as the data resolve it: a year, a month, or (`monthly` ==
    "quarter") a quarter. The month comes from the calendar, not from
    twelfths of the year (1 May 2016 is 0.33 of its year: "April")."""
    from labwright.analysis.timeseries import calendar_months

    y = int(np.floor(year))
    yt = ledger.count(y, prov, f"year of {what}")
    if not monthly:
        return f"{yt}" if lang == "en" else f"{yt} 年"
    m = int(calendar_months(np.array([year]))[0]) % 12 + 1
    if monthly == "quarter":
        q = ledger.count((m - 1) // 3 + 1, prov, f"quarter of {what}")
        return f"{yt} Q{q}" if lang == "en" else f"{yt} 年第 {q} 季度"
    if lang == "en":
        return f"{_MONTHS_EN[m - 1]} {yt}"
    return f"{yt} 年 {ledger.count(m, prov, f'month of {what}')} 月"


def _month(
    ledger: Ledger, lang: str, m: int, prov: Provenance, what: str, quarterly: bool = False
) -> str:
    if quarterly:  # quarterly data fill one month in three: name the quarter
        q = ledger.count((m - 1) // 3 + 1, prov, what.replace("month", "quarter"))
        return f"Q{q}" if lang == "en" else f"第 {q} 季度"
    if lang == "en":
        return _MONTHS_EN[m - 1]
    return f"{ledger.count(m, prov, what)} 月"


def timeseries_text(a: Any, ledger: Ledger, lang: str) -> str:
    out: list[str] = []
    wide = a.extra.get("wide")
    if wide is not None:
        out.append(phrase(lang, "wide_melted", file=src_file(a.source),
                          k=ledger.count(len(wide.month_columns), None, "month columns in the table")))  # fmt: skip
    for part in a.result:
        r = part.result
        col = part.column
        prov = col.provenance
        name = src_text(col.name if wide is None else a.dataset.name)
        unit = _unit(col.unit)
        quarterly = r.quarterly
        monthly: bool | str = "quarter" if quarterly else r.step_years < 0.9
        out.append(phrase(
            lang, "ts_span", y=name,
            start=_when(ledger, lang, float(r.years[0]), prov, "the first value", monthly),
            end=_when(ledger, lang, float(r.years[-1]), prov, "the last value", monthly),
            n=ledger.count(r.years.size, prov, "values in the series"),
        ))  # fmt: skip
        if r.trend is not None:
            tr = r.trend
            out.append(phrase(
                lang, "ts_trend", with_cycle=phrase(lang, "ts_with_cycle") if tr.harmonics else "",
                slope=ledger.measured(tr.slope, tr.se, prov, f"trend of {col.name} per year (OLS, HAC errors)"),
                unit=unit, r2=ledger.num(tr.r2, prov, f"R^2 of the trend fit of {col.name}", sig=3),
            ))  # fmt: skip
            per = a.extra.get("rate_unit")
            if per in RATE_YEARS:  # the unit the notes ask the rate in
                k = RATE_YEARS[per]
                out.append(phrase(
                    lang, "ts_rate_in", unit=unit, per=phrase(lang, f"per_{per}"),
                    slope=ledger.measured(tr.slope * k, tr.se * k, prov, f"trend of {col.name} per {per}"),
                ))  # fmt: skip
        if r.acceleration is not None:
            acc = r.acceleration
            level = ledger.count(5, None, "significance level in per cent (constant)")
            verdict = (
                phrase(lang, "ts_accel_yes")
                if acc.p < 0.05
                else phrase(lang, "ts_accel_no", level=level)
            )
            out.append(phrase(
                lang, "ts_accel", unit=unit, verdict=verdict,
                acc=ledger.measured(acc.accel, acc.se, prov, f"change of the rate of {col.name} per year (quadratic trend, HAC)"),
                p=_p_relation(ledger, acc.p, prov, f"p-value of the quadratic term of {col.name}"),
                r0=ledger.measured(acc.rate_start, acc.rate_start_se, prov, f"rate of {col.name} at the start (quadratic trend)"),
                r1=ledger.measured(acc.rate_end, acc.rate_end_se, prov, f"rate of {col.name} at the end (quadratic trend)"),
            ))  # fmt: skip
        if r.segments is not None:
            out.append(
                _segments_text(
                    r.segments, name, unit, prov, col.name, a.source, monthly, ledger, lang
                )
            )
        if r.seasonal is not None:
            s = r.seasonal
            out.append(phrase(
                lang, "ts_cycle",
                amp=ledger.measured(s.amplitude, s.amplitude_se, prov, f"amplitude of the annual cycle of {col.name}"),
                unit=unit,
                peak=_month(ledger, lang, s.peak_month, prov, "month of the climatology maximum", quarterly),
                trough=_month(ledger, lang, s.trough_month, prov, "month of the climatology minimum", quarterly),
                years=ledger.num(s.n_cycles, prov, "years covered by the climatology", sig=3),
            ))  # fmt: skip
        if r.change is not None:
            c = r.change
            out.append(phrase(
                lang, "ts_change_named" if c.named else "ts_change_found", y=name, unit=unit,
                at=_when(ledger, lang, c.at, prov, "the change point", monthly),
                m1=ledger.measured(c.mean_before, c.se_before, prov, f"mean of {col.name} before the change"),
                m2=ledger.measured(c.mean_after, c.se_after, prov, f"mean of {col.name} after the change"),
                n1=ledger.count(c.n_before, prov, "values before the change"),
                n2=ledger.count(c.n_after, prov, "values after the change"),
                t=ledger.num(c.t, prov, "Welch t statistic", sig=3),
                p=ledger.num(c.p, prov, "Welch t-test p-value", sig=2),
            ))  # fmt: skip
        if "outliers" in a.goals and r.trend_curve is not None:
            sig = ledger.num(
                3, None, "anomaly threshold in robust standard deviations (constant)", sig=1
            )
            if r.anomalies:
                out.append(phrase(lang, "ts_anomalies", y=name, sig=sig,
                                  k=ledger.count(len(r.anomalies), prov, "anomalies")))  # fmt: skip
            else:
                out.append(phrase(lang, "ts_no_anomalies", y=name, sig=sig))
    if a.extra.get("rates"):
        out.append(_rates_table(a, ledger, lang))
    if a.extra.get("left_out"):
        out.append(
            phrase(lang, "ts_left_out", names=", ".join(src_text(n) for n in a.extra["left_out"]))
        )
    return "\n\n".join(out) + "\n"


def _rates_table(a: Any, ledger: Ledger, lang: str) -> str:
    """Every column's trend in one table, ranked: the comparison of rates the
    notes ask for when a table has more series than are drawn."""
    rows = []
    for col, tr in sorted(a.extra["rates"], key=lambda ct: -ct[1].slope):
        what = f"trend of {col.name} per year (OLS, HAC errors)"
        rows.append([src_text(col.name), _unit(col.unit) or "--",
                     f"${ledger.measured(tr.slope, tr.se, col.provenance, what)}$",
                     f"${ledger.num(tr.r2, col.provenance, f'R^2 of the trend fit of {col.name}', sig=3)}$"])  # fmt: skip
    head = [phrase(lang, k) for k in ("col_quantity", "col_unit", "col_rate", "col_r2")]
    cap = phrase(lang, "ts_rates_caption", file=src_file(a.source))
    return phrase(lang, "ts_rates_intro") + "\n" + _float_table("llrr", head, rows, cap)


def _segments_text(
    sg: Any,
    name: str,
    unit: str,
    prov: Provenance,
    col: str,
    source: str,
    monthly: bool | str,
    ledger: Ledger,
    lang: str,
) -> str:
    k = ledger.count(len(sg.segments), prov, f"levels of {col}")
    text = phrase(lang, "ts_seg_named" if sg.named else "ts_seg_found", y=name, k=k) + "\n"
    rows = []
    for i, seg in enumerate(sg.segments, start=1):
        period = (f"{_when(ledger, lang, seg.start, prov, f'start of level {i}', monthly)}"
                  f"--{_when(ledger, lang, seg.end, prov, f'end of level {i}', monthly)}")  # fmt: skip
        mean = (ledger.measured(seg.mean, seg.se, prov, f"mean of {col} in level {i}")
                if np.isfinite(seg.se) and seg.se > 0 else ledger.num(seg.mean, prov, f"mean of {col} in level {i}"))  # fmt: skip
        rows.append([period, f"${ledger.count(seg.n, prov, f'values in level {i}')}$", f"${mean}$"])
    head = [phrase(lang, "col_period"), phrase(lang, "col_n"),
            phrase(lang, "col_mean") + (f" ({unit})" if unit else "")]  # fmt: skip
    text += _float_table("lrr", head, rows[:MAX_TABLE_ROWS],
                         phrase(lang, "ts_seg_caption", y=name, file=src_file(source)))  # fmt: skip
    tests = [
        f"$p {_p_relation(ledger, p, prov, f'Welch p-value between levels {i} and {i + 1} of {col}')}$"
        for i, (_t, p) in enumerate(sg.tests, start=1)
    ]
    text += phrase(lang, "ts_seg_tests", tests=", ".join(tests))
    if not sg.named:
        text += phrase(lang, "ts_seg_optimistic")
    return text


def _float_table(spec: str, head: list[str], rows: list[list[str]], caption: str) -> str:
    body = "\n".join(" & ".join(r) + r" \\" for r in rows)
    return (
        "\\begin{table}[H]\n\\centering\\small\n"
        f"\\caption{{{caption}}}\n\\begin{{tabular}}{{{spec}}}\n\\toprule\n"
        + " & ".join(head) + " \\\\\n\\midrule\n" + body + "\n\\bottomrule\n\\end{tabular}\n\\end{table}\n"
    )  # fmt: skip


def groups_text(a: Any, ledger: Ledger, lang: str) -> str:
    cat = a.extra["category"]
    out = [phrase(lang, "grp_intro", file=src_file(a.source), cat=src_text(cat))]
    rows: list[list[str]] = []
    for g in a.result:
        prov = a.dataset.column(g.measurement).provenance
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
    table = _float_table("llrrr", head, rows[: MAX_TABLE_ROWS * 2], cap)
    for g in a.result:
        prov = a.dataset.column(g.measurement).provenance
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
    pairs = _pairs_text(a, ledger, lang)
    if pairs:
        out.append(pairs)
    if a.extra.get("left_out"):
        out.append(
            phrase(lang, "grp_left_out", names=", ".join(src_text(n) for n in a.extra["left_out"]))
        )
    return out[0] + "\n" + table + "\n".join(out[1:]) + "\n"


def _p_text(ledger: Ledger, p: float, prov: Provenance, what: str) -> str:
    """A p-value; below 0.001 as "< 0.001" (the studentized-range tail is not
    resolved further, statsmodels prints 0)."""
    if p < 1e-3:
        return "< " + ledger.num(1e-3, None, f"reporting floor of {what} (constant)", sig=1)
    return ledger.num(p, prov, what, sig=2)


def _p_relation(ledger: Ledger, p: float, prov: Provenance, what: str) -> str:
    """ "= 0.032" or "< 0.001", to follow a bare $p$."""
    text = _p_text(ledger, p, prov, what)
    return text if text.startswith("<") else "= " + text


def _pairs_text(a: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.groups import ALPHA

    withpairs = [g for g in a.result if g.pairs]
    if not withpairs:
        return ""
    if len(a.extra["levels"]) > MAX_PAIR_LEVELS:
        return _letters_text(a, withpairs, ledger, lang)
    level = ledger.count(round(ALPHA * 100), None, "family-wise level in per cent (constant)")
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for g in withpairs:
        prov = a.dataset.column(g.measurement).provenance
        same: list[str] = []
        for i, pr in enumerate(g.pairs):
            what = f"Tukey HSD {pr.second} - {pr.first} for {g.measurement}"
            pair = f"{src_text(pr.second)} $-$ {src_text(pr.first)}"
            rows.append([src_text(g.measurement) if i == 0 else "", pair,
                         f"${ledger.measured(pr.diff, pr.se, prov, f'difference of means, {what}')}$",
                         f"${_p_text(ledger, pr.p_adj, prov, f'adjusted p-value, {what}')}$"])  # fmt: skip
            if pr.p_adj >= ALPHA:
                same.append(f"{src_text(pr.first)}/{src_text(pr.second)}")
        none = phrase(lang, "grp_pairs_none", pairs=", ".join(same)) if same else ""
        verdicts.append(_pairs_verdict(g, prov, none, ledger, lang))
    head = [phrase(lang, k) for k in ("col_quantity", "col_pair", "col_diff", "col_padj")]
    cap = phrase(
        lang, "grp_pairs_caption", file=src_file(a.source), cat=src_text(a.extra["category"])
    )
    return (
        "\n" + phrase(lang, "grp_pairs_intro", level=level) + "\n"
        + _float_table("llrr", head, rows[:MAX_TABLE_ROWS], cap) + " ".join(verdicts)
    )  # fmt: skip


def _pairs_verdict(g: Any, prov: Any, none: str, ledger: Ledger, lang: str) -> str:
    """How many of a measurement's group pairs differ at the family-wise level."""
    from labwright.analysis.groups import ALPHA

    differ = sum(pr.p_adj < ALPHA for pr in g.pairs)
    return phrase(
        lang, "grp_pairs_verdict", y=src_text(g.measurement), none=none,
        differ=ledger.count(differ, prov, f"pairs differing at the family-wise level, {g.measurement}"),
        k=ledger.count(len(g.pairs), prov, f"pairs of groups, {g.measurement}"),
    )  # fmt: skip


def _letters_text(a: Any, withpairs: list[Any], ledger: Ledger, lang: str) -> str:
    """Tukey's pairs of many groups as a compact letter display: one row per
    group (by decreasing mean) instead of k(k-1)/2 pairs."""
    from labwright.analysis.groups import ALPHA, letter_display

    level = ledger.count(round(ALPHA * 100), None, "family-wise level in per cent (constant)")
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for g in withpairs:
        prov = a.dataset.column(g.measurement).provenance
        letters = letter_display(g.stats, g.pairs, ALPHA)
        for i, st in enumerate(sorted(g.stats, key=lambda s: -s.mean)):
            what = f"mean of {g.measurement} for {st.level}"
            rows.append([src_text(g.measurement) if i == 0 else "", src_text(st.level),
                         f"${ledger.measured(st.mean, st.se, prov, what)}$",
                         letters[st.level]])  # fmt: skip
        verdicts.append(_pairs_verdict(g, prov, "", ledger, lang))
    head = [phrase(lang, k) for k in ("col_quantity", "col_group", "col_mean", "col_letters")]
    cap = phrase(
        lang, "grp_letters_caption", file=src_file(a.source), cat=src_text(a.extra["category"])
    )
    tables = "".join(
        _float_table("llrl", head, rows[i : i + MAX_TABLE_ROWS], cap)
        for i in range(0, len(rows), MAX_TABLE_ROWS)
    )
    return (
        "\n" + phrase(lang, "grp_letters_intro", level=level) + "\n" + tables + " ".join(verdicts)
    )


def _zh_test(name: str) -> str:
    return {"Welch t-test": "Welch t 检验", "one-way ANOVA": "单因素方差分析"}.get(name, name)


def regression_text(a: Any, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = a.dataset.column(r.response).provenance
    what = f"regression of {r.response}"
    uy = a.dataset.column(r.response).unit
    out = phrase(
        lang, "reg_intro" if len(r.predictors) > 1 else "reg_intro_simple", y=src_text(r.response), xs=", ".join(src_text(p) for p in r.predictors),
        n=ledger.count(r.n, prov, f"rows in the {what}"),
        r2=ledger.num(r.r2, prov, f"R^2 of the {what}", sig=3),
        r2a=ledger.num(r.r2_adj, prov, f"adjusted R^2 of the {what}", sig=3),
        s=ledger.num(r.resid_se, prov, f"residual standard error of the {what}", sig=3),
        unit=f"~{src_text(uy)}" if uy else "",
        p=ledger.num(r.f_p, prov, f"F-test p-value of the {what}", sig=2),
    ) + "\n"  # fmt: skip
    rows = []
    units = False
    for c in r.coefficients:
        name = phrase(lang, "reg_intercept") if c.name == "const" else src_text(c.name)
        value, _, se = ledger.measured(
            c.value, c.se, prov, f"coefficient {c.name} of the {what}"
        ).partition(" \\pm ")
        ux = None if c.name == "const" else a.dataset.column(c.name).unit
        unit = (
            uy
            if c.name == "const"
            else (f"{uy}/{ux}" if uy and ux else uy or (f"1/{ux}" if ux else None))
        )
        units = units or bool(unit)
        rows.append([
            name, f"${value}$", f"${se}$", src_text(unit) if unit else "",
            f"${ledger.num(c.t, prov, f't of coefficient {c.name}', sig=3)}$",
            f"${ledger.num(c.p, prov, f'p-value of coefficient {c.name}', sig=2)}$",
        ])  # fmt: skip
    keys = ["col_coef", "col_estimate", "col_se", "col_unit", "col_t", "col_p"]
    if not units:  # no unit anywhere: no empty column
        keys.remove("col_unit")
        rows = [r_[:3] + r_[4:] for r_ in rows]
    w = r.without_flagged
    if w is not None:
        keys.append("col_without")
        wc = {c.name: c for c in w.coefficients}
        for row, c in zip(rows, r.coefficients, strict=True):
            c2 = wc.get(c.name)
            row.append(f"${ledger.measured(c2.value, c2.se, prov, f'coefficient {c.name} of the {what} without the flagged rows')}$" if c2 else "--")  # fmt: skip
    head = [phrase(lang, k) for k in keys]
    out += _float_table("lrr" + ("l" if units else "") + "rr" + ("r" if w is not None else ""), head, rows, phrase(lang, "reg_table_caption", y=src_text(r.response),
                                                    file=src_file(a.source)))  # fmt: skip
    lim = ledger.num(2.5, None, "studentized-residual limit for flagging (constant)", sig=2)
    four = ledger.count(4, None, "Cook's distance screening rule 4/n (constant)")
    if r.outliers:
        items = [
            phrase(lang, "reg_row", row=ledger.count(o.row + 1, prov, "row number (1-based) of a flagged row"),
                   r=ledger.num(o.studentized, prov, f"studentized residual of row {o.row + 1}", sig=3),
                   d=ledger.num(o.cooks, prov, f"Cook's distance of row {o.row + 1}", sig=2))
            for o in r.outliers
        ]  # fmt: skip
        out += phrase(lang, "reg_outliers", lim=lim, four=four, rows="; ".join(items)) + "\n"
        w = r.without_flagged
        if w is not None:
            out += "\n" + phrase(
                lang, "reg_without", n=ledger.count(w.n, prov, f"rows in the {what} without the flagged rows"),
                r2=ledger.num(w.r2, prov, f"R^2 of the {what} without the flagged rows", sig=3),
                s=ledger.num(w.resid_se, prov, f"residual standard error of the {what} without the flagged rows", sig=3),
                unit=f"~{src_text(uy)}" if uy else "",
            ) + "\n"  # fmt: skip
    else:
        out += phrase(lang, "reg_no_outliers", lim=lim, four=four) + "\n"
    return out


def repeated_text(a: Any, ledger: Ledger, lang: str) -> str:
    s = a.result
    col = a.dataset.column(s.name)
    prov = col.provenance
    mean, sd = ledger.mean_and_spread(s.mean, s.sd, prov)
    text = phrase(
        lang, "rep_text", y=src_text(s.name), unit=_unit(col.unit),
        n=ledger.count(s.n, prov, "number of readings"), mean=mean, sd=sd,
        se=ledger.num(s.se, prov, "standard error of the mean", sig=2),
        best=ledger.measured(s.mean, s.se, prov, "mean of the readings (best estimate)"),
    )  # fmt: skip
    if s.shapiro_p is not None:
        text += phrase(
            lang, "rep_normal", p=ledger.num(s.shapiro_p, prov, "Shapiro-Wilk p-value", sig=2)
        )
    return text + "\n"


def wide_text(a: Any, ledger: Ledger, lang: str) -> str:
    lay = a.result
    k = sum(len(g) for g in lay.figures) if not lay.heatmap else len(a.dataset.numeric_columns)
    key = "wide_heat_text" if lay.heatmap else "wide_text"
    return (
        phrase(lang, key, file=src_file(a.source), k=ledger.count(k, None, "measurement columns"))
        + "\n"
    )


def series_text(a: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.fits import MODELS

    s = a.result
    fs = s.series
    param = (
        phrase(lang, "col_param")
        if fs.parameter_name == "run number"
        else src_text(fs.parameter_name)
    )
    if lang == "en" and fs.parameter_name == "run number":
        param = "run number"
    if lang == "zh" and fs.parameter_name == "run number":
        param = "运行编号"
    out = phrase(lang, "ser_intro", k=ledger.count(len(fs.datasets), None, "files in the series"),
                 pattern=src_text(fs.pattern), param=param) + "\n"  # fmt: skip
    if s.mode == "fit" and s.model_key:
        out += phrase(lang, "ser_fit", formula=MODELS[s.model_key].formula, y=src_text(s.y),
                      x=src_text(s.x or "")) + "\n"  # fmt: skip
    else:
        out += phrase(lang, "ser_mean", y=src_text(s.y)) + "\n"
    from labwright.analysis.presentation import decimals_of

    decimals = decimals_of(np.asarray(fs.parameters, dtype=float))
    rows = []
    for i, ds in enumerate(fs.datasets[:MAX_TABLE_ROWS]):
        p = Provenance(file=ds.source)
        cells = [src_file(ds.source.rsplit("/", 1)[-1]),
                 f"${ledger.fixed(fs.parameters[i], decimals, p, 'run parameter from the file name')}$"]  # fmt: skip
        for j, q in enumerate(s.quantities):
            v, e = s.values[i, j], s.errors[i, j]
            if np.isfinite(v) and np.isfinite(e) and e > 0:
                cells.append(f"${ledger.measured(v, e, p, f'{q} of {ds.source}')}$")
            elif np.isfinite(v):
                cells.append(f"${ledger.num(v, p, f'{q} of {ds.source}')}$")
            else:
                cells.append("--")
        rows.append(cells)
    param_head = phrase(lang, "col_param")
    if fs.parameter_name != "run number":
        param_head = src_text(fs.parameter_name)
        if fs.parameter_unit:
            param_head += f" ({src_text(fs.parameter_unit)})"
    head = [phrase(lang, "col_file"), param_head] + [
        f"${q}$" if s.mode == "fit" else phrase(lang, "col_mean") for q in s.quantities
    ]
    out += _float_table("l" + "r" * (1 + len(s.quantities)), head, rows,
                        phrase(lang, "ser_table_caption", pattern=src_text(fs.pattern)))  # fmt: skip
    if len(fs.datasets) > MAX_TABLE_ROWS:
        out += (
            phrase(
                lang, "ser_more", k=ledger.count(MAX_TABLE_ROWS, None, "rows in the per-file table")
            )
            + "\n"
        )
    if s.failed:
        out += (
            phrase(lang, "ser_failed", files=", ".join(src_file(f) for f in s.failed[:20])) + "\n"
        )
    out += _series_across(s, param, ledger, lang)
    return out


def _model_units(key: str, ux: str | None, uy: str | None) -> list[str | None]:
    """Units of a model's parameters for y(x) (see fits.MODELS)."""
    if key == "linear":
        return [f"{uy}/{ux}" if uy and ux else uy, uy]
    if key == "exponential":
        return [uy, ux]
    if key == "exponential_offset":
        return [uy, ux, uy]
    return [None] * 3


def _quantity_units(s: Any) -> list[str | None]:
    if s.mode != "fit" or not s.model_key:
        return [s.unit]
    return _model_units(s.model_key, s.x_unit, s.unit)


def _primed(formula: str, symbols: tuple[str, ...]) -> tuple[str, list[str]]:
    """The across-files model with primed parameters (A', \\tau'), so they are
    not read as the per-file A and \\tau. A formula with a digit in it keeps its
    symbols: the provenance check knows the model formulas only as written."""
    if any(ch.isdigit() for ch in formula):
        return formula, list(symbols)
    for sym in symbols:
        primed = sym.replace("\\", "\\\\") + "'"  # a replacement string: backslashes doubled
        formula = re.sub(rf"(?<![A-Za-z\\]){re.escape(sym)}(?![A-Za-z])", primed, formula)
    return formula, [s + "'" for s in symbols]


def _series_across(s: Any, param: str, ledger: Ledger, lang: str) -> str:
    """How each per-file quantity varies with the run parameter."""
    from labwright.analysis.fits import MIN_R2

    if s.series.parameter_name == "run number" or not s.across:
        return ""
    out = ""
    units = _quantity_units(s)
    pu = s.series.parameter_unit
    prov = Provenance(file=s.series.pattern)
    for j, q in enumerate(s.quantities):
        qname = f"${q}$" if s.mode == "fit" else phrase(lang, "axis_mean_of", y=src_text(s.y))
        qunit = units[j] if j < len(units) else None
        fit = s.across[j]
        what = f"fit of {q} against {s.series.parameter_name} over the files of {s.series.pattern}"
        if fit is not None:
            params = []
            formula, symbols = _primed(fit.model.formula, fit.model.params)
            for sym, value, sigma, unit in zip(
                symbols,
                fit.params,
                fit.sigmas,
                _model_units(fit.model.key, pu, qunit),
                strict=False,
            ):
                text = f"${sym} = {ledger.measured(value, sigma, prov, f'parameter {sym} of the {what}')}$"
                params.append(text + (f"~{src_text(unit)}" if unit else ""))
            out += phrase(
                lang, "ser_across_fit", q=qname, param=param, formula=formula,
                k=ledger.count(fit.n, prov, f"points in the {what}"), params=", ".join(params),
                r2=ledger.num(fit.r2, prov, f"R^2 of the {what}", sig=4),
            ) + "\n\n"  # fmt: skip
        else:
            mean, se = s.across_mean[j]
            if not (np.isfinite(mean) and np.isfinite(se) and se > 0):
                continue
            out += phrase(
                lang, "ser_across_none", q=qname, param=param, unit=_unit(qunit),
                min_r2=ledger.num(MIN_R2, None, "R^2 threshold for reporting a fit (constant)", sig=2),
                mean=ledger.measured(mean, se, prov, f"mean of {q} over the files of {s.series.pattern}"),
            ) + "\n\n"  # fmt: skip
    return out


def _powered(name: str, power: float) -> str:
    return name if power == 1.0 else f"{name}^{power:g}"


def law_text(a: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.law import ALPHA, constant_unit, slope_unit

    f = a.result
    prov = f.y.provenance
    what = f"law {f.statement.text} tested on {a.source}"
    ty, tx = src_text(_powered(f.y.name, f.y_power)), src_text(_powered(f.x.name, f.x_power))
    su = _unit(slope_unit(f))
    yu = _unit(f.y.unit if f.y_power == 1.0 else f"{f.y.unit}^{f.y_power:g}" if f.y.unit else None)
    out = [phrase(lang, "law_intro", law=src_text(f.statement.text), file=src_file(a.source),
                  ty=ty, tx=tx, n=ledger.count(f.n, prov, f"points in the {what}"))]  # fmt: skip
    better = "origin" if f.aicc0 <= f.aicc1 else "intercept"
    out.append(phrase(
        lang, "law_fits", unit=su, yunit=yu,
        s0=ledger.measured(f.slope0, f.slope0_se, prov, f"slope through the origin, {what} (OLS)"),
        s1=ledger.measured(f.slope1, f.slope1_se, prov, f"slope with an intercept, {what} (OLS)"),
        a=ledger.measured(f.intercept, f.intercept_se, prov, f"intercept, {what} (OLS)"),
        p=ledger.num(f.intercept_p, prov, f"t-test p-value of a zero intercept, {what}", sig=2),
        c0=ledger.num(f.aicc0, prov, f"AICc through the origin, {what}", sig=4),
        c1=ledger.num(f.aicc1, prov, f"AICc with an intercept, {what}", sig=4),
        better=phrase(lang, f"law_better_{better}"),
    ))  # fmt: skip
    if f.exponent is not None and f.exponent_se is not None and f.exponent_p is not None:
        out.append(phrase(
            lang, "law_exponent", y=src_text(f.y.name), x=src_text(f.x.name),
            e=ledger.measured(f.exponent, f.exponent_se, prov, f"log-log exponent of {f.y.name} on {f.x.name} (OLS)"),
            e0=ledger.num(f.expected_exponent, None, f"exponent implied by the law {f.statement.text}", sig=3),
            p=ledger.num(f.exponent_p, prov, "t-test p-value of the exponent against the law's", sig=2),
        ))  # fmt: skip
    if f.relation is not None and f.constant is not None and f.constant_se is not None:
        which = "origin" if f.through_origin else "intercept"
        out.append(phrase(
            lang, "law_constant", which=phrase(lang, f"law_which_{which}"),
            expr=src_text(f.statement.constant or ""),
            name=src_text(f.relation.name), unit=_unit(constant_unit(f)),
            value=ledger.measured(f.constant, f.constant_se, prov,
                                  f"{f.relation.name} from the slope, {what} (SE propagated)"),
        ))  # fmt: skip
    level = ledger.count(round(ALPHA * 100), None, "significance level in per cent (constant)")
    if f.supported:
        out.append(phrase(lang, "law_supported", level=level))
    else:
        reasons = []
        if f.slope_p >= ALPHA:
            reasons.append(phrase(lang, "law_r_slope"))
        if f.intercept_p < ALPHA:
            reasons.append(phrase(lang, "law_r_intercept"))
        if f.exponent_p is not None and f.exponent_p < ALPHA:
            reasons.append(phrase(lang, "law_r_exponent"))
        sep = "; " if lang == "en" else "；"
        out.append(phrase(lang, "law_not_supported", reasons=sep.join(reasons), level=level))
    return "\n\n".join(out) + "\n"


def peaks_text(a: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.peaks import MIN_SNR

    r = a.result
    x, y = a.extra["x"], a.extra["y"]
    prov = y.provenance
    xprov = x.provenance
    ux, uy = _unit(x.unit), _unit(y.unit)
    out = [phrase(
        lang, "pk_intro", k=ledger.count(len(r.peaks), prov, f"peaks found in {y.name}"),
        y=src_text(y.name), x=src_text(x.name), file=src_file(a.source), unit=uy,
        thr=ledger.num(r.threshold, prov, f"prominence threshold for peaks of {y.name}", sig=2),
        noise=ledger.num(r.noise, prov, f"noise of {y.name} from second differences (robust SD)", sig=2),
        snr=ledger.count(round(MIN_SNR), None, "peak prominence in noise units (constant)"),
    )]  # fmt: skip
    refs = r.reference_source is not None
    from labwright.analysis.presentation import decimals_of

    ref_decimals = decimals_of(np.asarray(r.references, dtype=float)) if refs else 0
    rows: list[list[str]] = []
    off: list[str] = []
    for i, p in enumerate(r.peaks, start=1):
        what = f"peak {i} of {y.name} in {a.source} (Gaussian fit)"
        cells = [
            ledger.count(i, None, "peak number"),
            f"${ledger.measured(p.centre, p.centre_se, xprov, f'centre of {what}')}$",
            f"${ledger.measured(p.fwhm, p.fwhm_se, xprov, f'FWHM of {what}')}$",
            f"${ledger.measured(p.height, p.height_se, prov, f'height of {what}')}$",
        ]
        if refs:
            if p.reference is not None and p.z is not None:
                ref = ledger.fixed(
                    p.reference,
                    ref_decimals,
                    None,
                    f"reference value matched to {what} ({r.reference_source})",
                )
                z = ledger.num(p.z, xprov, f"(centre - reference)/SE of {what}", sig=2)
                cells += [f"${ref}$", f"${z}$"]
                if abs(p.z) > 3:
                    off.append(f"${ref}$")
            else:
                cells += ["--", "--"]
        rows.append(cells)
    head = [phrase(lang, "col_peak"),
            phrase(lang, "col_centre") + (f" ({ux})" if ux else ""),
            phrase(lang, "col_fwhm") + (f" ({ux})" if ux else ""),
            phrase(lang, "col_height") + (f" ({uy})" if uy else "")]  # fmt: skip
    if refs:
        head += [phrase(lang, "col_ref") + (f" ({ux})" if ux else ""), phrase(lang, "col_z")]
    table = _float_table("r" * len(head), head, rows[:MAX_TABLE_ROWS],
                         phrase(lang, "pk_caption", y=src_text(y.name), file=src_file(a.source)))  # fmt: skip
    if refs:
        matched = [p for p in r.peaks if p.z is not None]
        within = sum(abs(p.z) <= 3 for p in matched if p.z is not None)
        source = r.reference_source or ""
        file, _, col = source.partition(": ")
        out.append(phrase(
            lang, "pk_refs", source=f"{src_file(file)} ({src_text(col)})",
            m=ledger.count(within, None, "reference values within 3 SE of a peak"),
            r=ledger.count(len(r.references), None, f"reference values in {source}"),
        ))  # fmt: skip
        if off:
            out.append(phrase(lang, "pk_refs_off", list=", ".join(off)))
        if r.unmatched:
            vals = [
                f"${ledger.fixed(v, ref_decimals, None, f'reference value without a peak ({source})')}$"
                for v in r.unmatched
            ]
            out.append(phrase(lang, "pk_unmatched", list=", ".join(vals)))
    return out[0] + "\n" + table + "\n".join(out[1:]) + "\n"


def symmetry_text(a: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.symmetry import ALPHA

    r = a.result
    prov = a.dataset.provenance or Provenance(file=a.source, variable=r.name)
    what = f"symmetry check of {r.name}"
    out = [phrase(
        lang, "sym_intro", name=src_text(r.name),
        rows=ledger.count(r.shape[0], prov, "matrix rows"), cols=ledger.count(r.shape[1], prov, "matrix columns"),
        bg=ledger.num(r.background, prov, f"background (median of the border), {what}", sig=4),
        noise=ledger.num(r.noise, prov, f"pixel noise from second differences, {what}", sig=2),
        cx=ledger.measured(r.cx, r.cx_se, prov, f"centroid column above the background, {what}"),
        cy=ledger.measured(r.cy, r.cy_se, prov, f"centroid row above the background, {what}"),
        fx=ledger.fixed(r.centre_x, 1, prov, "column of the frame's centre"),
        fy=ledger.fixed(r.centre_y, 1, prov, "row of the frame's centre"),
    )]  # fmt: skip
    for m in r.mirrors:
        axis = phrase(lang, "sym_lr" if m.axis == "left-right" else "sym_ud")
        out.append(phrase(
            lang, "sym_mirror", axis=axis,
            rms=ledger.num(m.rms, prov, f"RMS of the map minus its {m.axis} mirror", sig=2),
            ratio=ledger.num(m.ratio, prov, f"{m.axis} mirror RMS over sqrt(2) x noise", sig=2),
            chi2=ledger.num(m.chi2, prov, f"chi-square of the {m.axis} mirror difference", sig=3),
            dof=ledger.count(m.dof, prov, f"independent pixel pairs, {m.axis} mirror"),
            p=ledger.num(m.p, prov, f"chi-square p-value, {m.axis} mirror", sig=2),
        ))  # fmt: skip
    level = ledger.count(round(ALPHA * 100), None, "significance level in per cent (constant)")
    if r.symmetric:
        centred = phrase(lang, "sym_centred" if r.centred else "sym_offcentre")
        out.append(phrase(lang, "sym_yes", level=level, centred=centred))
    else:
        which = [phrase(lang, "sym_no_axis", axis=phrase(lang, "sym_lr" if m.axis == "left-right" else "sym_ud"))
                 for m in r.mirrors if m.p < ALPHA]  # fmt: skip
        out.append(phrase(lang, "sym_no", which="; ".join(which), level=level))
    return "\n\n".join(out) + "\n"


_TEXT = {
    "timeseries": timeseries_text,
    "groups": groups_text,
    "regression": regression_text,
    "repeated": repeated_text,
    "wide": wide_text,
    "series": series_text,
    "law": law_text,
    "peaks": peaks_text,
    "symmetry": symmetry_text,
}


def analysis_block(
    a: Any, plans: list[FigurePlan], ledger: Ledger, lang: str, figure_block: FigureBlock
) -> str:
    """Text, tables and figures of one analysis."""
    make = _TEXT.get(a.kind)
    text = make(a, ledger, lang) if make else ""
    for plan in plans:
        if plan.analysis is a and not is_appendix(plan):
            text += figure_block(plan)
    return text


def is_appendix(plan: FigurePlan) -> bool:
    return plan.panels is not None and bool(plan.panels.get("appendix"))


def appendix_block(fa: Any, plans: list[FigurePlan], lang: str, figure_block: FigureBlock) -> str:
    """The individual files of a series, after the discussion, when asked."""
    out = ""
    for a in fa.analyses:
        figs = [p for p in plans if p.analysis is a and is_appendix(p)]
        if not figs:
            continue
        if not out:
            out = f"\\clearpage\n\\section*{{{phrase(lang, 'sec_appendix')}}}\n"
        out += phrase(lang, "appendix_intro", pattern=src_text(a.source)) + "\n"
        out += "".join(figure_block(p) for p in figs)
    return out


def roles_sentence(fa: Any, ds: Any, ledger: Ledger, lang: str) -> str:
    roles = fa.roles_of(ds)
    if roles is None or not roles.columns:
        return ""
    parts = []
    for c in roles.columns[:16]:
        extra = {}
        if c.role == "category":
            extra["levels"] = ledger.count(len(c.levels), ds.column(c.name).provenance, "groups")
        parts.append(phrase(lang, f"role_{c.role}", name=src_text(c.name), **extra))
    if len(roles.columns) > 16:
        parts.append("\\ldots")
    return phrase(lang, "roles_intro", file=src_file(ds.source), roles="; ".join(parts)) + "\n"


def question_text(fa: Any, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.question import Goal

    known = get_args(Goal)  # each has a goal_<name> phrase
    goals = [g for g in fa.question.goals if g in known]
    if not goals:
        return phrase(lang, "q_none") + "\n"
    named = src_text(fa.coefficients[0].name) if fa.coefficients else ""
    return (
        phrase(
            lang, "q_intro", goals=", ".join(phrase(lang, f"goal_{g}", name=named) for g in goals)
        )
        + "\n"
    )


_TIME_PREFIX = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9}


def rc_sentence(
    fa: Any, source: str, name: str, fit: Any, x_unit: str | None, ledger: Ledger, lang: str
) -> str:
    """The fitted time constant against R C from the notes' components."""
    if (
        fa is None
        or fa.rc is None
        or fit is None
        or fit.model.key not in ("exponential", "exponential_offset")
    ):
        return ""
    scale = _TIME_PREFIX.get((x_unit or "").strip())
    exp = fa.rc.expected_for(source, name)
    if scale is None or exp is None:
        return ""
    tau, se = fit.params[1] * scale, fit.sigmas[1] * scale
    ratio, z, ok = exp.compare(tau, se)
    what = f"R C for {source} ({name})"

    def tol(t: float | None, of: str) -> str:
        if t is None:
            return phrase(lang, "rc_tol_none")
        pct = round(t * 100, 9)  # as written in the notes: 1, 20, 0.5
        return phrase(
            lang,
            "rc_tol",
            t=ledger.num(
                pct,
                None,
                f"tolerance of {of} stated in the notes (%)",
                sig=len(f"{pct:g}".replace(".", "").lstrip("0")) or 1,
            ),
        )

    return phrase(
        lang, "rc_compare", r=src_text(exp.r.text), c=src_text(exp.c.text),
        tr=tol(exp.r.tolerance, exp.r.text), tc=tol(exp.c.tolerance, exp.c.text),
        rc=ledger.num(float(f"{exp.value:.12g}"), None, f"{what}, from the notes", sig=3),
        u=ledger.num(exp.u, None, f"standard uncertainty of {what} (tolerance/sqrt 3, combined)", sig=2),
        ratio=ledger.num(ratio, None, f"fitted tau over {what}", sig=3),
        z=ledger.num(abs(z), None, f"|tau - RC| / combined standard uncertainty, {source} ({name})", sig=2),
        verdict=phrase(lang, "rc_yes" if ok else "rc_no"),
    )  # fmt: skip


def coefficient_sentences(
    fa: Any, source: str, fit: Any, x: Any, y: Any, ledger: Ledger, lang: str, *, short: bool
) -> list[str]:
    """Each coefficient the notes ask for that this straight line gives (its
    slope or the slope's reciprocal, decided by the columns' units); after
    the first, `short` sentences that do not repeat the reasoning."""
    if fa is None or not fa.coefficients or fit is None or fit.model.key != "linear" or x is None:
        return []
    from labwright.analysis.coefficient import from_slope

    out = []
    for ask in fa.coefficients:
        found = from_slope(ask, float(fit.params[0]), float(fit.sigmas[0]), x.unit, y.unit)
        if found is None:
            continue
        what = f"{ask.name} from the slope of {y.name} against {x.name} in {source}"
        out.append(phrase(
            lang, ("coef_reciprocal" if found.reciprocal else "coef_slope") + ("_short" if short else ""),
            name=src_text(ask.name), y=src_text(y.name), x=src_text(x.name),
            value=ledger.measured(found.value, found.se, y.provenance, what),
            unit=src_text(ask.unit),
        ))  # fmt: skip
    return out
