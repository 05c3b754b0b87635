"""The spacing kind: the spacing of successive maxima of a swept curve
(analysis/spacing.py), when the notes ask for it ("the spacing ΔU of the
maxima", "相邻峰的间距").

Binds a free table with one swept column (rising, at least 30 points) and
one measured curve beside it. The notes decide that it runs and whether
the maxima or the minima are meant; the swept column is the x and is
never fitted as a response — a written "ΔU = U_{n+1} − U_n" defines the
asked spacing, it is no law of the columns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.spacing import SpacingResult, find_spacing
from labwright.ingest.types import Column, Dataset

_EXTREMA_EN = r"(?:maxima|maximum|minima|minimum|peaks?|dips?|troughs?|fringes)"
_ASK = re.compile(
    rf"\b(?:spacing|separation|distance|interval|difference)s?\b[^.;\n]{{0,60}}\b{_EXTREMA_EN}\b"
    rf"|\b(?:successive|adjacent|neighbouring|neighboring|consecutive)\s+{_EXTREMA_EN}\b"
    r"[^.;\n]{0,40}\b(?:spacing|separat|distance|interval|differ)"
    r"|相邻.{0,8}(?:峰|极大|极小|谷).{0,8}(?:间距|间隔|之差|距离|差值)"
    r"|峰间距|(?:峰|极大值|极小值|谷)之间的(?:间距|距离|间隔|电压差)",
    re.I,
)
_MINIMA = re.compile(r"\b(?:minima|minimum|dips?|troughs?)\b|极小|谷", re.I)
_ENERGY = re.compile(
    r"\benergy\b[^.;\n]{0,40}\beV\b|\beV\b[^.;\n]{0,40}\benergy\b|激发能|激发电势", re.I
)
MIN_SWEEP = 30


@dataclass(frozen=True)
class SpacingBinding:
    dataset: Dataset
    x: Column
    y: Column
    minima: bool
    energy: bool


def asks_spacing(text: str) -> bool:
    return bool(_ASK.search(text))


def _swept(col: Column) -> bool:
    v = np.asarray(col.values, dtype=float)
    v = v[np.isfinite(v)]
    return v.size >= MIN_SWEEP and bool(np.all(np.diff(v) > 0))


def bind_curve(ds: Dataset) -> tuple[Column, Column] | None:
    """(swept x, curve y) of a table with one rising column of many points
    and one other numeric column, or None."""
    numeric = [c for c in ds.columns if c.is_numeric]
    swept = [c for c in numeric if _swept(c)]
    if len(swept) != 1:
        return None
    others = [c for c in numeric if c is not swept[0]]
    if len(others) != 1:
        return None
    return swept[0], others[0]


class SpacingKind:
    name = "spacing"

    def bind(self, ctx: BindContext) -> Sequence[Job[SpacingBinding]]:
        text = ctx.notes.text
        if not asks_spacing(text):
            return []
        minima = bool(_MINIMA.search(_ASK.search(text).group(0)))  # type: ignore[union-attr]
        energy = bool(_ENERGY.search(text))
        jobs: list[Job[SpacingBinding]] = []
        for ds in ctx.free():
            bound = bind_curve(ds)
            if bound is None:
                continue
            x, y = bound
            what = "minima" if minima else "maxima"
            why = (
                f"the notes ask for the spacing of successive {what}; {y.name} is a curve "
                f"swept over {x.name}"
            )
            jobs.append(
                Job(self.name, ds.source, why, SpacingBinding(ds, x, y, minima, energy), (ds,))
            )
        return jobs

    def compute(self, job: Job[SpacingBinding]) -> SpacingResult | None:
        b = job.binding
        return find_spacing(b.x, b.y, minima=b.minima, energy=b.energy)

    def goals(self, job: Job[SpacingBinding], result: SpacingResult) -> list[str]:
        return ["peaks"]

    def uses(self, job: Job[SpacingBinding], result: SpacingResult) -> Uses:
        return Uses(x=(job.binding.x,), y=(job.binding.y,))


SPACING = SpacingKind()
