"""The period of a cycle in words and figures: the periodogram's method and
peak, the refined period with its SE, the amplitude; the series with the
fitted sinusoid, and the periodogram against frequency.

The sentence frames are this kind's own (EN, ZH), every number through the
ledger with the columns' provenance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.procedures.period_error import (
    MIN_SEGMENT_POINTS,
    MIN_SEGMENTS,
    SEGMENT_CYCLES,
)
from labwright.analysis.procedures.periodogram import MIN_POINTS, PeriodBinding, PeriodResult

PeriodAnalysis = Analysis[PeriodBinding, PeriodResult]

_FRAMES: dict[str, dict[str, str]] = {
    "en": {
        "intro": "The {n} values of {y} in {file} were searched for a cycle: the {method} of "
                 "{y} against {t} peaks at a frequency of ${fp}$ {fu}.",
        "even": "periodogram (even sampling, linear trend removed)",
        "uneven": "Lomb--Scargle periodogram (uneven sampling)",
        "fit": "A sinusoid with a linear trend fitted at that peak gives the period "
               "$P = {p}$ {u} (frequency ${f}$ {fu}) and the amplitude $A = {a}$ {yu}.",
        "cap": "The series of {file} with the sinusoid fitted at the periodogram's peak (left), "
               "and the periodogram (right).",
        "lg_data": "data",
        "lg_fit": "sinusoid",
        "freq": "frequency",
        "power": "power",
        "since": "time since {date}",
    },
    "zh": {
        "intro": "在 {file} 的 {n} 个 {y} 数据中寻找周期：{y} 对 {t} 的{method}在频率 ${fp}$ {fu} 处取峰值。",
        "even": "周期图（等间隔采样，已去除线性趋势）",
        "uneven": "Lomb--Scargle 周期图（不等间隔采样）",
        "fit": "在该峰处拟合含线性趋势的正弦，得周期 $P = {p}$ {u}（频率 ${f}$ {fu}），振幅 $A = {a}$ {yu}。",
        "cap": "{file} 的序列及在周期图峰值处拟合的正弦（左），周期图（右）。",
        "lg_data": "数据",
        "lg_fit": "正弦拟合",
        "freq": "频率",
        "power": "功率",
        "since": "自 {date} 起的时间",
    },
}  # fmt: skip


def _f(lang: str, key: str, **values: str) -> str:
    return _FRAMES["zh" if lang == "zh" else "en"][key].format(**values)


def _what(a: PeriodAnalysis) -> str:
    return f"period of {a.binding.y.name} in {a.source}"


def text(a: PeriodAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.y.provenance
    what = _what(a)
    u = r.time_unit
    fu = unit_text(f"1/{u}" if u else None)
    out = [
        _f(lang, "intro", n=ledger.count(r.ts.size, prov, f"points in the {what}"),
           y=src_text(r.y.name), t=src_text(r.t.name), file=src_file(a.source),
           method=_f(lang, "uneven" if r.method == "Lomb-Scargle" else "even"), fu=fu,
           fp=ledger.num(r.f_peak, prov, f"frequency of the periodogram's peak, {what}")),
        _f(lang, "fit", u=unit_text(u), fu=fu, yu=unit_text(r.y.unit),
           p=ledger.measured(r.period, r.period_se, prov, f"{what} (sinusoid fit)"),
           f=ledger.measured(r.f, r.f_se, prov, f"frequency, {what} (sinusoid fit)"),
           a=ledger.measured(r.amplitude, r.amplitude_se, prov, f"amplitude, {what} (sinusoid fit)")),
    ]  # fmt: skip
    return "\n\n".join(out) + "\n"


def figures(a: PeriodAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    grid = np.linspace(float(r.ts.min()), float(r.ts.max()), 800)
    u = r.time_unit
    since = a.binding.since
    t_name = _f(lang, "since", date=since) if since else r.t.name
    p1: dict[str, Any] = {"xlabel": axis_label(t_name, r.t.unit), "ylabel": axis_label(r.y.name, r.y.unit),
          "legend": True,
          "layers": [{"type": "scatter", "x": b.arr(r.ts), "y": b.arr(r.ys), "color": "#1f77b4", "label": _f(lang, "lg_data")},
                     {"type": "line", "x": b.arr(grid), "y": b.arr(r.model(grid)), "color": "#c0392b", "lw": 1.2,
                      "label": _f(lang, "lg_fit")}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": axis_label(_f(lang, "freq"), f"1/{u}" if u else None),
          "ylabel": axis_label(_f(lang, "power"), None),
          "layers": [{"type": "line", "x": b.arr(r.freqs), "y": b.arr(r.power), "color": "#1f77b4", "lw": 1.0},
                     {"type": "vline", "x": r.f, "color": "#c0392b"}]}  # fmt: skip
    spec = {"panels": [p1, p2], "ncols": 2, "size": [8.0, 3.2]}
    return [plan_figure(key, b, spec, _f(lang, "cap", file=src_file(a.source)), a)]


def _scale_line(a: PeriodAnalysis) -> str:
    """The script's line that puts dates read as seconds into the unit the
    report tells the period in (`calendar_time`), or nothing."""
    b = a.binding
    if b.t_scale == 1.0:
        return ""
    return f"t = t / {b.t_scale!r}  # seconds since {b.since} -> {b.t.unit}s\n"


def _series_lines(a: PeriodAnalysis) -> tuple[str, dict[str, str]]:
    """The script's lines that give `t` and `y`, sorted by time, and the
    helpers they call: the two columns read, or a calendar series rebuilt as
    the analysis built it (procedures/periodogram.calendar_series)."""
    b = a.binding
    c = b.calendar
    t, y = b.t.name, b.y.name
    if c is None:
        return (
            f"data = df[[{t!r}, {y!r}]].astype(float).dropna().sort_values({t!r})\n"
            f"t, y = data[{t!r}].to_numpy(), data[{y!r}].to_numpy()\n{_scale_line(a)}"
        ), {}
    helpers: dict[str, str] = {}
    from labwright.agent.offline.writers.timeseries_script import melt_lines, time_code

    if c.wide is not None:
        lines = ["# A year x month table read as one monthly series.", *melt_lines(c.wide, "y")]
    else:
        got = time_code(c.time, c.time_format)
        if got is None:
            raise ValueError(f"no script reads the time axis {c.time_format!r} back")
        helpers = got[1]
        lines = [got[0] + "  # decimal years", f"y = df[{y!r}].to_numpy(dtype=float)"]
    lines += [
        f"t = (t - {c.origin!r}) * {c.per_year!r}  # {c.unit}s since {b.since}",
        "ok = np.isfinite(t) & np.isfinite(y)",
        "order = np.argsort(t[ok])",
        "t, y = t[ok][order], y[ok][order]",
    ]
    return "\n".join(lines) + "\n", helpers


def _spectrum_lines(uneven: bool) -> str:
    """The periodogram the report chose: Lomb-Scargle for uneven sampling
    (10x oversampled up to the Nyquist frequency of the median step), else
    the plain periodogram of the linearly detrended series (zero frequency dropped)."""
    if uneven:
        return (
            "# Uneven sampling: Lomb-Scargle, 10x oversampled up to the Nyquist frequency.\n"
            "span, nyquist = t[-1] - t[0], 0.5 / np.median(steps)\n"
            "freqs = np.linspace(1 / span, nyquist, max(int(10 * span * nyquist) + 1, 100))\n"
            "power = signal.lombscargle(t, signal.detrend(y), 2 * np.pi * freqs)\n"
        )
    return (
        "# Even sampling: the periodogram of the linearly detrended series.\n"
        'freqs, power = signal.periodogram(y, fs=1 / steps.mean(), detrend="linear")\n'
        "freqs, power = freqs[1:], power[1:]  # without the zero frequency\n"
    )


def script(a: PeriodAnalysis) -> KindScript:
    r = a.result
    what = _what(a)
    series, helpers = _series_lines(a)
    code = f"""{read_table(a.binding.table.dataset)}
what = {what!r}
{series}assert t.size >= {MIN_POINTS}
report(f"points in the {{what}}", t.size)
steps = np.diff(t)
{_spectrum_lines(r.method == "Lomb-Scargle")}k = int(np.argmax(power))
f_peak = freqs[k]
if 0 < k < freqs.size - 1:  # parabola through the highest bin and its neighbours
    qa, qb, _ = np.polyfit(freqs[k - 1 : k + 2] - f_peak, power[k - 1 : k + 2], 2)
    if qa < 0:
        f_peak += np.clip(-qb / (2 * qa), freqs[k - 1] - f_peak, freqs[k + 1] - f_peak)
report(f"frequency of the periodogram's peak, {{what}}", f_peak)
t0 = t.mean()
params = lmfit.Parameters()
params.add("f", value=f_peak, min=f_peak * 0.8, max=f_peak * 1.2)
params.add("a", value=y.std())
params.add("b", value=0.0)
params.add("c", value=0.0)
params.add("y0", value=y.mean())
def residual(ps):
    w = 2 * np.pi * ps["f"].value * (t - t0)
    return ps["y0"].value + ps["c"].value * (t - t0) + ps["a"].value * np.sin(w) + ps["b"].value * np.cos(w) - y
out = lmfit.minimize(residual, params)
p = out.params
f, f_se = p["f"].value, p["f"].stderr
# The SE widened for non-white noise, the larger kept: residuals' lag-1
# autocorrelation (effective sample size); the drift of the phase between
# segments of {SEGMENT_CYCLES:g} cycles (O-C), white and random-walk scatter by REML.
res = np.asarray(out.residual)
rho = np.corrcoef(res[:-1], res[1:])[0, 1]
ses = [f_se] + ([f_se * np.sqrt((1 + rho) / (1 - rho))] if 0 < rho < 1 else [])
k = int((t[-1] - t[0]) * f // {SEGMENT_CYCLES!r})
if k >= {MIN_SEGMENTS}:
    edges, centres, phases = np.linspace(t[0], t[-1], k + 1), [], []
    for i in range(k):
        inside = (t >= edges[i]) & ((t <= edges[i + 1]) if i == k - 1 else (t < edges[i + 1]))
        if inside.sum() >= {MIN_SEGMENT_POINTS}:
            w = 2 * np.pi * f * (t[inside] - t0)
            x = np.column_stack([np.ones(w.size), t[inside] - t0, np.sin(w), np.cos(w)])
            c = np.linalg.lstsq(x, y[inside], rcond=None)[0]
            centres.append(t[inside].mean())
            phases.append(np.arctan2(c[3], c[2]))
    centres, phases = np.asarray(centres), np.unwrap(np.asarray(phases))
    if centres.size >= {MIN_SEGMENTS}:
        x = np.column_stack([np.ones(centres.size), centres - centres.mean()])
        steps = (centres - centres[0]) / np.diff(centres).mean()
        walk = np.minimum.outer(steps, steps)
        best = None
        for ratio in [0.0, *np.geomspace(1e-3, 1e3, 61)]:
            vi = np.linalg.inv(np.eye(centres.size) + ratio * walk)
            xtvx = x.T @ vi @ x
            r = phases - x @ np.linalg.solve(xtvx, x.T @ vi @ phases)
            s2 = r @ vi @ r / (centres.size - 2)
            ll = -0.5 * ((centres.size - 2) * np.log(s2) - np.linalg.slogdet(vi)[1]
                         + np.linalg.slogdet(xtvx)[1])
            if best is None or ll > best[0]:
                best = (ll, np.sqrt(s2 * np.linalg.inv(xtvx)[1, 1]) / (2 * np.pi))
        ses.append(best[1])
f_se = max(ses)
report(f"{{what}} (sinusoid fit)", 1 / f)
report(f"standard uncertainty of {{what}} (sinusoid fit)", f_se / f**2)
report(f"frequency, {{what}} (sinusoid fit)", f)
report(f"standard uncertainty of frequency, {{what}} (sinusoid fit)", f_se)
amp = np.hypot(p["a"].value, p["b"].value)
amp_se = np.hypot(p["a"].value * p["a"].stderr, p["b"].value * p["b"].stderr) / amp
report(f"amplitude, {{what}} (sinusoid fit)", amp)
report(f"standard uncertainty of amplitude, {{what}} (sinusoid fit)", amp_se)
"""
    imports: tuple[str, ...] = ("import numpy as np", "import lmfit", "from scipy import signal")
    # The answers the results table and the discussion restate
    # (compendium_answers.py): the period, its frequency and the amplitude.
    answers = {
        "P": AnswerCode("1 / f", "f_se / f**2"),
        "f_cycle": AnswerCode("f", "f_se"),
        "A": AnswerCode("amp", "amp_se"),
    }
    if helpers:  # the time axis read back as the time-series script reads it
        imports += ("import pandas as pd",) + (("import re",) if "quarter_years" in helpers else ())
    return KindScript(imports, code, helpers, answers=answers)


def drawing(a: PeriodAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The series with the sinusoid fitted at the peak (on 800 points across
    the data), and the periodogram with the fitted frequency marked."""
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            "grid = np.linspace(t.min(), t.max(), 800)",
            "w = 2 * np.pi * f * (grid - t0)",
            'curve = p["y0"].value + p["c"].value * (grid - t0) + p["a"].value * np.sin(w)',
            'curve = curve + p["b"].value * np.cos(w)',
            call(plan.key, [
                ['("scatter", t, y)', '("line", grid, curve)'],
                ['("line", freqs, power)', '("vline", f)'],
            ]),
        ]  # fmt: skip
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
