"""The symmetry kind in words and figures: background, noise, centroid,
each mirror's difference against the noise, the verdict; the map with its
centroid and its differences from both mirror images.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plain_label, plan_figure
from labwright.analysis.analyses.symmetry import SymmetryBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.symmetry import SymmetryResult
from labwright.ingest.types import Provenance

SymmetryAnalysis = Analysis[SymmetryBinding, SymmetryResult]


def text(a: SymmetryAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.analysis.symmetry import ALPHA

    r = a.result
    prov = a.binding.dataset.provenance or Provenance(file=a.source, variable=r.name)
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


def figures(a: SymmetryAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    key = next_key()
    b = Builder(key)
    m = np.asarray(a.binding.matrix, dtype=float)
    col, row = phrase(lang, "axis_column"), phrase(lang, "axis_row")
    p1: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": plain_label(r.name),
          "layers": [{"type": "heatmap", "m": b.arr(m)},
                     {"type": "scatter", "x": b.arr([r.cx]), "y": b.arr([r.cy]), "color": "#ffffff"}]}  # fmt: skip
    p2: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": phrase(lang, "lg_lr"),
                          "layers": [{"type": "heatmap", "m": b.arr(r.diff_lr)}]}  # fmt: skip
    p3: dict[str, Any] = {"xlabel": col, "ylabel": row, "title": phrase(lang, "lg_ud"),
                          "layers": [{"type": "heatmap", "m": b.arr(r.diff_ud)}]}  # fmt: skip
    spec = {"panels": [p1, p2, p3], "ncols": 3, "size": [10.0, 3.0]}
    cap = phrase(lang, "cap_symmetry", name=src_text(r.name), file=src_file(a.source))
    return [plan_figure(key, b, spec, cap, a)]
