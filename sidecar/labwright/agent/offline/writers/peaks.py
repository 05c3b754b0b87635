"""The peaks kind in words and figures: how the peaks were found and
fitted, a table of centres, widths and heights (matched to reference values
when the folder has them); the curve with the fitted peaks circled.
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
    Builder,
    KeyMaker,
    float_table,
    plan_figure,
    thin,
    unit_text,
)
from labwright.agent.offline.writers.script import KindScript, read_table
from labwright.analysis.analyses.peaks import PeaksBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.peaks import PeakResult
from labwright.analysis.presentation import axis_label

PeaksAnalysis = Analysis[PeaksBinding, PeakResult]


def text(a: PeaksAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.peaks import MIN_SNR

    r = a.result
    x, y = a.binding.x, a.binding.y
    prov = y.provenance
    xprov = x.provenance
    ux, uy = unit_text(x.unit), unit_text(y.unit)
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
    table = float_table("r" * len(head), head, rows[:MAX_TABLE_ROWS],
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


def figures(a: PeaksAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    x, y = a.binding.x, a.binding.y
    key = next_key()
    b = Builder(key)
    xv = np.asarray(x.values, dtype=float)
    yv = np.asarray(y.values, dtype=float)
    step = thin(xv.size)
    cx = np.array([p.centre for p in r.peaks])
    # Marker height: the data at the fitted centre.
    order = np.argsort(xv)
    cy = np.interp(cx, xv[order], yv[order])
    layers: list[dict[str, Any]] = [
        {"type": "line", "x": b.arr(xv[::step]), "y": b.arr(yv[::step]), "color": "#1f4e79", "lw": 1.0},
        {"type": "ring", "x": b.arr(cx), "y": b.arr(cy), "color": "#c0392b",
         "labels": [str(i) for i in range(1, cx.size + 1)]},
    ]  # fmt: skip
    spec = {"panels": [{"xlabel": axis_label(x.name, x.unit), "ylabel": axis_label(y.name, y.unit),
                        "layers": layers}], "size": [7.0, 3.6]}  # fmt: skip
    cap = phrase(lang, "cap_peaks", y=src_text(y.name), x=src_text(x.name), file=src_file(a.source))
    return [plan_figure(key, b, spec, cap, a)]


FIND_PEAKS_CODE = '''def gaussians(x, *p):
    """Gaussian peaks (height, centre, sigma each) on a linear baseline."""
    out = p[0] + p[1] * x
    for k in range(2, len(p), 3):
        out = out + p[k] * np.exp(-0.5 * ((x - p[k + 1]) / p[k + 2]) ** 2)
    return out


def fit_gaussians(xs, ys, p0, lo, hi):
    """The peaks of one window (centre, its SE, FWHM, its SE, height, its SE) and the AICc."""
    n, k = xs.size, len(p0)
    if n <= k + 2:
        return None
    try:
        popt, pcov = curve_fit(gaussians, xs, ys, p0=p0, maxfev=20000)
    except (RuntimeError, ValueError):
        return None
    rss = np.sum((ys - gaussians(xs, *popt)) ** 2)
    aicc = n * np.log(max(rss, 1e-300) / n) + 2 * k + 2 * k * (k + 1) / (n - k - 1)
    perr = np.sqrt(np.clip(np.diag(pcov), 0.0, None))
    found = [(popt[j + 1], perr[j + 1], FWHM * abs(popt[j + 2]), FWHM * perr[j + 2], popt[j], perr[j])
             for j in range(2, len(popt), 3) if lo <= popt[j + 1] <= hi and popt[j] > 0]
    return found, aicc


def find_and_fit_peaks(x, y, min_snr=8.0, min_fraction=0.03, max_peaks=20):
    """Peaks standing out of the noise (prominence above min_snr x the noise
    from second differences, or a fraction of the range), each window of
    neighbouring peaks fitted together; a peak much wider than the typical
    one tried as a blended pair and kept when the AICc clearly prefers it."""
    keep = np.isfinite(x) & np.isfinite(y)
    order = np.argsort(x[keep])
    x, y = x[keep][order], y[keep][order]
    step = np.median(np.diff(x))
    d2 = np.diff(y, 2)
    noise = 1.4826 * np.median(np.abs(d2 - np.median(d2))) / np.sqrt(6.0)
    threshold = max(min_snr * noise, min_fraction * np.ptp(y))
    idx, props = signal.find_peaks(y, prominence=threshold)
    if idx.size > max_peaks:
        idx = np.sort(idx[np.argsort(props["prominences"])[::-1][:max_peaks]])
    widths = np.maximum(signal.peak_widths(y, idx, rel_height=0.5)[0] * step, 2 * step)
    groups = []
    for j, i in enumerate(idx):
        if groups and abs(x[i] - x[groups[-1][-1][0]]) < 3.0 * max(widths[j], groups[-1][-1][1]):
            groups[-1].append((i, widths[j]))
        else:
            groups.append([(i, widths[j])])
    windows = []
    for group in groups:
        lo, hi = x[group[0][0]] - 3 * group[0][1], x[group[-1][0]] + 3 * group[-1][1]
        sel = (x >= lo) & (x <= hi)
        xs, ys = x[sel], y[sel]
        base = np.min(ys)
        p0 = [base, 0.0] + [v for i, w in group for v in (y[i] - base, x[i], w / FWHM)]
        got = fit_gaussians(xs, ys, p0, lo, hi)
        if got is not None:
            windows.append((xs, ys, got[0], got[1], base))
    single = [w[2][0][2] for w in windows if len(w[2]) == 1]
    typical = np.median(single) if len(single) >= 3 else np.nan
    peaks = []
    for xs, ys, found, aicc, base in windows:
        if len(found) == 1 and np.isfinite(typical) and found[0][2] > 1.4 * typical:
            c, _, fwhm, _, height, _ = found[0]
            p0 = [base, 0.0, height, c - fwhm / 4, typical / FWHM, height, c + fwhm / 4, typical / FWHM]
            two = fit_gaussians(xs, ys, p0, xs[0], xs[-1])
            if two is not None and len(two[0]) == 2 and two[1] < aicc - 10.0:
                found = two[0]
        peaks.extend(found)
    return sorted(peaks), noise, threshold
'''


def script(a: PeaksAnalysis) -> KindScript:
    x, y = a.binding.x, a.binding.y
    lines = [
        read_table(a.binding.dataset),
        "FWHM = 2 * np.sqrt(2 * np.log(2))",
        f"peaks, noise, threshold = find_and_fit_peaks(df[{x.name!r}].to_numpy(dtype=float), df[{y.name!r}].to_numpy(dtype=float))",
        f"report({'noise of ' + y.name + ' from second differences (robust SD)'!r}, noise)",
        f"report({'prominence threshold for peaks of ' + y.name!r}, threshold)",
        f"name, source = {y.name!r}, {a.source!r}",
        "for i, (centre, centre_se, fwhm, fwhm_se, height, height_se) in enumerate(peaks, start=1):",
        '    what = f"peak {i} of {name} in {source} (Gaussian fit)"',
        '    report(f"centre of {what}", centre)',
        '    report(f"standard uncertainty of centre of {what}", centre_se)',
        '    report(f"FWHM of {what}", fwhm)',
        '    report(f"standard uncertainty of FWHM of {what}", fwhm_se)',
        '    report(f"height of {what}", height)',
        '    report(f"standard uncertainty of height of {what}", height_se)',
    ]
    imports = (
        "import numpy as np",
        "from scipy import signal",
        "from scipy.optimize import curve_fit",
    )
    return KindScript(imports, "\n".join(lines) + "\n", {"find_and_fit_peaks": FIND_PEAKS_CODE})
