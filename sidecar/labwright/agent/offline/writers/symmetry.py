"""The symmetry kind in words and figures: background, noise, centroid,
each mirror's difference against the noise, the verdict; the map with its
centroid and its differences from both mirror images.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plain_label, plan_figure
from labwright.agent.offline.writers.script import KindScript, source_of
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


_SYMMETRY = '''def mirror_check(m, flipped, sigma, axis):
    """The map against its mirror image: RMS of the difference, against the
    noise (each pair counted once; a centre line is its own mirror)."""
    d = m - flipped
    half = d[:, : m.shape[1] // 2] if axis == "left-right" else d[: m.shape[0] // 2, :]
    v = half[np.isfinite(half)]
    rms = np.sqrt(np.mean(v**2))
    chi2 = np.sum(v**2) / (2 * sigma**2)
    return rms, rms / (np.sqrt(2) * sigma), chi2, v.size, stats.chi2.sf(chi2, v.size)
'''


def script(a: SymmetryAnalysis) -> KindScript:
    from labwright.agent.offline.writers.script import read_matrix
    from labwright.analysis.symmetry import ALPHA

    r = a.result
    what = f"symmetry check of {r.name}"
    prov = a.binding.dataset.provenance or Provenance(file=a.source, variable=r.name)
    source = source_of(prov)
    code = f"""{read_matrix(a.binding.dataset)}
m = np.asarray(m, dtype=float)
what = {what!r}
# Pixel noise from second differences along the rows (white noise: variance 6 sigma^2).
d2 = np.diff(m, 2, axis=1).ravel()
d2 = d2[np.isfinite(d2)]
sigma = 1.4826 * np.median(np.abs(d2 - np.median(d2))) / np.sqrt(6.0)
border = np.concatenate([m[0], m[-1], m[1:-1, 0], m[1:-1, -1]])
background = np.nanmedian(border)
w = np.clip(np.where(np.isfinite(m), m - background, 0.0), 0.0, None)
rows, cols = np.indices(m.shape, dtype=float)
cx, cy = (w * cols).sum() / w.sum(), (w * rows).sum() / w.sum()
on = w > 0
report(f"background (median of the border), {{what}}", background)
report(f"pixel noise from second differences, {{what}}", sigma)
report(f"centroid column above the background, {{what}}", cx)
report(f"standard uncertainty of centroid column above the background, {{what}}", sigma * np.sqrt(((cols - cx) ** 2)[on].sum()) / w.sum())
report(f"centroid row above the background, {{what}}", cy)
report(f"standard uncertainty of centroid row above the background, {{what}}", sigma * np.sqrt(((rows - cy) ** 2)[on].sum()) / w.sum())
source = {source!r}
report("column of the frame's centre", (m.shape[1] - 1) / 2, source)
report("row of the frame's centre", (m.shape[0] - 1) / 2, source)
ALPHA = {ALPHA!r}  # a mirror differing at p below this breaks the symmetry
report("significance level in per cent (constant)", 100 * ALPHA)
for axis, flipped in (("left-right", m[:, ::-1]), ("up-down", m[::-1, :])):
    rms, ratio, chi2, dof, p = mirror_check(m, flipped, sigma, axis)
    report(f"RMS of the map minus its {{axis}} mirror", rms)
    report(f"{{axis}} mirror RMS over sqrt(2) x noise", ratio)
    report(f"chi-square of the {{axis}} mirror difference", chi2)
    report(f"independent pixel pairs, {{axis}} mirror", dof)
    report(f"chi-square p-value, {{axis}} mirror", p)
"""
    imports = ("import numpy as np", "from scipy import stats")
    return KindScript(imports, code, {"mirror_check": _SYMMETRY})


def drawing(a: SymmetryAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The map with its centroid, and its differences from both mirror images."""
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            call(plan.key, [
                ['("heatmap", m)', '("scatter", [cx], [cy])'],
                ['("heatmap", m - m[:, ::-1])'],
                ['("heatmap", m - m[::-1, :])'],
            ]),
        ]  # fmt: skip
    return KindScript(code="\n".join(lines) + "\n")
