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
