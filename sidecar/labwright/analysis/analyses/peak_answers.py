"""What a composite fit (several peaks on a baseline) answers, quantity by
quantity: each peak's centre, width, area and height, and the baseline.

The notes ask for "the peak centres, widths and areas": one asked quantity
of the entry (`center`) stands for one answer per peak. With one peak the
entry's own names are kept (`center`, `fwhm`), so a single line reads as
the law's parameters; with several, every peak is answered under its own
key (`center_2`) and label ("peak centre 2"), in order of centre, as the
engine numbers them (`engine_peaks.py`).

The baseline is answered by the entry's names when the fit chose the
baseline the entry's formula writes (`b0` of a flat one); when AICc chose a
higher one, its coefficients `c0`, `c1`, ... are answered instead (`c0` is
then the value at x = 0, not the level under the peaks, so it must not
carry the flat baseline's name).
"""

from __future__ import annotations

from dataclasses import dataclass

from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.engine import FitResult
from labwright.analysis.engine_peaks import ROLES, baseline_names, degree

#: The peak quantities answered, in the order a reader expects them.
_PEAK_ROLES = ("center", "fwhm", "area", "height", "eta")
_COEFFICIENT = Text("baseline coefficient {k}", "基线系数 {k}")


@dataclass(frozen=True)
class PeakQuantity:
    key: str  # the answer's key in the fit's values
    label: Text
    latex: str
    asked_as: str | None  # the entry's quantity whose ask this answers


def _labelled(entry: ModelEntry) -> dict[str, tuple[str, Text, str]]:
    """role -> (the entry's quantity name, its label, its LaTeX)."""
    out: dict[str, tuple[str, Text, str]] = {}
    for p in entry.parameters:
        role = ROLES.get(p.name)
        if role is not None and role not in out:
            out[role] = (p.name, p.label, p.latex)
    for d in entry.derived:
        role = ROLES.get(d.key)
        if role is not None and role not in out:
            out[role] = (d.key, d.label, d.latex)
    return out


def peak_quantities(entry: ModelEntry, res: FitResult) -> list[PeakQuantity]:
    """The answers of a composite fit, peak by peak, then the baseline."""
    named = _labelled(entry)
    out: list[PeakQuantity] = []
    several = res.peaks > 1
    for rank in range(1, res.peaks + 1):
        for role in _PEAK_ROLES:
            key = f"{role}_{rank}"
            if key not in res.values:
                continue
            name, label, latex = named.get(role, (role, Text(role, role), role))
            if not several and name in res.values:
                out.append(PeakQuantity(name, label, latex, name))
                continue
            out.append(PeakQuantity(
                key, Text(f"{label.en} {rank}", f"{label.zh} {rank}"), f"{{{latex}}}_{{{rank}}}",
                name if role in named else None,
            ))  # fmt: skip
    own = baseline_names(entry)
    chosen = degree(res.baseline) if res.baseline else -1
    if own and chosen == len(own) - 1:
        for name in own:
            p = entry.parameter(name)
            if p is not None and name in res.values:
                out.append(PeakQuantity(name, p.label, p.latex, name))
        return out
    for k in range(chosen + 1):
        key = f"c{k}"
        if key in res.values:
            out.append(PeakQuantity(
                key, Text(_COEFFICIENT.en.format(k=key), _COEFFICIENT.zh.format(k=key)),
                f"c_{{{k}}}", own[0] if own else None,
            ))  # fmt: skip
    return out
