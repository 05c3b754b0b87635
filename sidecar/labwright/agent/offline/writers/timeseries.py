"""The time-series kind in words and figures: the span, the trend (and the
rate in the unit the notes ask), acceleration, levels between change points,
the seasonal cycle, anomalies; a real date axis with the trend, the levels
and the anomalies circled, and the climatology by month (or quarter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import (
    MAX_TABLE_ROWS,
    MONTH_TICKS,
    Builder,
    KeyMaker,
    days,
    float_table,
    month_name,
    names_list,
    p_relation,
    plain_label,
    plan_figure,
    thin,
    unit_text,
    when,
)
from labwright.analysis.analyses.timeseries import (
    TimeSeriesBinding,
    TimeSeriesFound,
)
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.question import RATE_YEARS
from labwright.analysis.timeseries import Segments
from labwright.ingest.types import Provenance

TimeSeriesAnalysis = Analysis[TimeSeriesBinding, TimeSeriesFound]


def text(a: TimeSeriesAnalysis, ledger: Ledger, lang: str) -> str:
    out: list[str] = []
    found = a.result
    wide = found.wide
    if wide is not None:
        out.append(phrase(lang, "wide_melted", file=src_file(a.source),
                          k=ledger.count(len(wide.month_columns), None, "month columns in the table")))  # fmt: skip
    for part in found.parts:
        r = part.result
        col = part.column
        prov = col.provenance
        name = src_text(col.name if wide is None else a.binding.dataset.name)
        unit = unit_text(col.unit)
        quarterly = r.quarterly
        monthly: bool | str = "quarter" if quarterly else r.step_years < 0.9
        out.append(phrase(
            lang, "ts_span", y=name,
            start=when(ledger, lang, float(r.years[0]), prov, "the first value", monthly),
            end=when(ledger, lang, float(r.years[-1]), prov, "the last value", monthly),
            n=ledger.count(r.years.size, prov, "values in the series"),
        ))  # fmt: skip
        if r.trend is not None:
            tr = r.trend
            out.append(phrase(
                lang, "ts_trend", with_cycle=phrase(lang, "ts_with_cycle") if tr.harmonics else "",
                slope=ledger.measured(tr.slope, tr.se, prov, f"trend of {col.name} per year (OLS, HAC errors)"),
                unit=unit, r2=ledger.num(tr.r2, prov, f"R^2 of the trend fit of {col.name}", sig=3),
            ))  # fmt: skip
            per = found.rate_unit
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
                p=p_relation(ledger, acc.p, prov, f"p-value of the quadratic term of {col.name}"),
                r0=ledger.measured(acc.rate_start, acc.rate_start_se, prov, f"rate of {col.name} at the start (quadratic trend)"),
                r1=ledger.measured(acc.rate_end, acc.rate_end_se, prov, f"rate of {col.name} at the end (quadratic trend)"),
            ))  # fmt: skip
        if r.segments is not None:
            out.append(
                segments_text(
                    r.segments, name, unit, prov, col.name, a.source, monthly, ledger, lang
                )
            )
        if r.seasonal is not None:
            s = r.seasonal
            out.append(phrase(
                lang, "ts_cycle",
                amp=ledger.measured(s.amplitude, s.amplitude_se, prov, f"amplitude of the annual cycle of {col.name}"),
                unit=unit,
                peak=month_name(ledger, lang, s.peak_month, prov, "month of the climatology maximum", quarterly),
                trough=month_name(ledger, lang, s.trough_month, prov, "month of the climatology minimum", quarterly),
                years=ledger.num(s.n_cycles, prov, "years covered by the climatology", sig=3),
            ))  # fmt: skip
        if r.change is not None:
            c = r.change
            out.append(phrase(
                lang, "ts_change_named" if c.named else "ts_change_found", y=name, unit=unit,
                at=when(ledger, lang, c.at, prov, "the change point", monthly),
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
    if found.rates:
        out.append(rates_table(a, ledger, lang))
    if found.left_out:
        out.append(phrase(lang, "ts_left_out", names=names_list(found.left_out)))
    return "\n\n".join(out) + "\n"


def rates_table(a: TimeSeriesAnalysis, ledger: Ledger, lang: str) -> str:
    """Every column's trend in one table, ranked: the comparison of rates the
    notes ask for when a table has more series than are drawn."""
    rows = []
    for col, tr in sorted(a.result.rates, key=lambda ct: -ct[1].slope):
        what = f"trend of {col.name} per year (OLS, HAC errors)"
        rows.append([src_text(col.name), unit_text(col.unit) or "--",
                     f"${ledger.measured(tr.slope, tr.se, col.provenance, what)}$",
                     f"${ledger.num(tr.r2, col.provenance, f'R^2 of the trend fit of {col.name}', sig=3)}$"])  # fmt: skip
    head = [phrase(lang, k) for k in ("col_quantity", "col_unit", "col_rate", "col_r2")]
    cap = phrase(lang, "ts_rates_caption", file=src_file(a.source))
    return phrase(lang, "ts_rates_intro") + "\n" + float_table("llrr", head, rows, cap)


def segments_text(
    sg: Segments,
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
        period = (f"{when(ledger, lang, seg.start, prov, f'start of level {i}', monthly)}"
                  f"--{when(ledger, lang, seg.end, prov, f'end of level {i}', monthly)}")  # fmt: skip
        mean = (ledger.measured(seg.mean, seg.se, prov, f"mean of {col} in level {i}")
                if np.isfinite(seg.se) and seg.se > 0 else ledger.num(seg.mean, prov, f"mean of {col} in level {i}"))  # fmt: skip
        rows.append([period, f"${ledger.count(seg.n, prov, f'values in level {i}')}$", f"${mean}$"])
    head = [phrase(lang, "col_period"), phrase(lang, "col_n"),
            phrase(lang, "col_mean") + (f" ({unit})" if unit else "")]  # fmt: skip
    text += float_table("lrr", head, rows[:MAX_TABLE_ROWS],
                         phrase(lang, "ts_seg_caption", y=name, file=src_file(source)))  # fmt: skip
    tests = [
        f"$p {p_relation(ledger, p, prov, f'Welch p-value between levels {i} and {i + 1} of {col}')}$"
        for i, (_t, p) in enumerate(sg.tests, start=1)
    ]
    text += phrase(lang, "ts_seg_tests", tests=", ".join(tests))
    if not sg.named:
        text += phrase(lang, "ts_seg_optimistic")
    return text


def cycle_slots(
    counts: tuple[int, ...], quarterly: bool, lang: str
) -> tuple[list[int], list[str], str, str]:
    """Which of the climatology's twelve month slots to draw, their tick
    labels, the axis phrase and the caption phrase. Quarterly data fill one
    month in three: drawing twelve slots would leave eight empty, so the
    four filled ones are drawn as quarters."""
    if quarterly:
        filled = [i for i, n in enumerate(counts) if n > 0]
        quarters = [i // 3 + 1 for i in filled]
        if len(filled) == len(set(quarters)):
            ticks = [f"Q{q}" if lang == "en" else f"第{q}季度" for q in quarters]
            return filled, ticks, "axis_quarter", "cap_clim_q"
    return list(range(12)), MONTH_TICKS, "axis_month", "cap_clim"


def figures(a: TimeSeriesAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    plans: list[FigurePlan] = []
    file = src_file(a.source)
    found = a.result
    for part in found.parts:
        r = part.result
        col = part.column
        key = next_key()
        b = Builder(key)
        step = thin(r.years.size)
        x = days(r.years)
        layers: list[dict[str, Any]] = [
            {"type": "line" if r.years.size > 60 else "scatter", "x": b.arr(x[::step]),
             "y": b.arr(r.values[::step]), "color": "#7f9fbf", "label": phrase(lang, "lg_data")},
        ]  # fmt: skip
        if r.trend is not None:
            tr = r.trend
            line = tr.intercept_at + tr.slope * (r.years - tr.t_ref)
            if tr.harmonics:
                line = line + 0.0  # the trend alone; the cycle is in the next figure
            layers.append({"type": "line", "x": b.arr(x), "y": b.arr(line), "color": "#c0392b",
                           "lw": 1.8, "label": phrase(lang, "lg_trend")})  # fmt: skip
        if r.acceleration is not None:
            ac = r.acceleration
            dt = r.years - ac.t_ref
            quad = ac.coef[0] + ac.coef[1] * dt + ac.coef[2] * dt * dt
            layers.append({"type": "line", "x": b.arr(x), "y": b.arr(quad), "color": "#8e44ad",
                           "lw": 1.8, "label": phrase(lang, "lg_quadratic")})  # fmt: skip
        if r.segments is not None:
            for i, seg in enumerate(r.segments.segments):
                lo = int(np.searchsorted(r.years, seg.start))
                hi = int(np.searchsorted(r.years, seg.end, side="right"))
                layers.append({"type": "line", "x": b.arr([x[lo], x[hi - 1]]),
                               "y": b.arr([seg.mean, seg.mean]), "color": "#c0392b", "lw": 2.0})  # fmt: skip
                if i:
                    layers.append({"type": "vline", "x": float(x[lo]), "color": "#555555"})
        if r.change is not None:
            c = r.change
            k = int(np.searchsorted(r.years, c.at))
            for lo, hi, mean in ((0, k, c.mean_before), (k, r.years.size, c.mean_after)):
                layers.append({"type": "line", "x": b.arr([x[lo], x[hi - 1]]),
                               "y": b.arr([mean, mean]), "color": "#c0392b", "lw": 2.0})  # fmt: skip
            layers.append({"type": "vline", "x": float(days(np.array([c.at]))[0]),
                           "color": "#555555"})  # fmt: skip
        if r.anomalies:
            idx = np.array(r.anomalies)
            layers.append({"type": "ring", "x": b.arr(x[idx]), "y": b.arr(r.values[idx]),
                           "color": "#d35400", "label": phrase(lang, "lg_anomaly")})  # fmt: skip
        name = col.name if found.wide is None else a.binding.dataset.name
        spec = {"panels": [{"xlabel": "", "xdate": True, "ylabel": axis_label(name, col.unit),
                            "layers": layers, "legend": True}]}  # fmt: skip
        cap = phrase(lang, "cap_ts", y=src_text(name), file=file)
        plans.append(plan_figure(key, b, spec, cap, a))
        if r.seasonal is not None:
            key = next_key()
            b = Builder(key)
            s = r.seasonal
            slots, ticks, axis, cap_key = cycle_slots(s.counts, r.quarterly, lang)
            clim = np.asarray(s.climatology, dtype=float)[slots]
            clim_se = np.nan_to_num(np.asarray(s.climatology_se, dtype=float)[slots])
            x = np.arange(1, len(slots) + 1, dtype=float)
            layer = {"type": "errorbar", "x": b.arr(x), "y": b.arr(clim),
                     "yerr": b.arr(clim_se), "color": "#1f4e79"}  # fmt: skip
            spec = {"panels": [{"xlabel": phrase(lang, axis),
                                "ylabel": axis_label(phrase(lang, "axis_detrended"), col.unit),
                                "layers": [layer, {"type": "hline", "y": 0.0, "color": "#888888"}],
                                "xticks": list(range(1, len(slots) + 1)), "xticklabels": ticks}]}  # fmt: skip
            cap = phrase(lang, cap_key, y=src_text(name), file=file)
            plans.append(plan_figure(key, b, spec, cap, a))
    wide = found.wide
    if wide is not None:
        key = next_key()
        b = Builder(key)
        grid = np.asarray(wide.values, dtype=float).reshape(-1, len(wide.month_columns))
        years = np.asarray(a.binding.dataset.column(wide.year_column).values, dtype=float)
        spec = {"panels": [{"xlabel": "", "ylabel": plain_label(wide.year_column),
                            "layers": [{"type": "heatmap", "m": b.arr(grid),
                                        "xticklabels": wide.month_columns,
                                        "y0": float(np.nanmin(years)) if years.size else 0.0}]}]}  # fmt: skip
        cap = phrase(lang, "cap_wide_heat", file=file)
        plans.append(plan_figure(key, b, spec, cap, a))
    return plans
