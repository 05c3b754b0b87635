"""The notes' peak count and baseline (request_rules/peak_shape.py), and a
composite fit that takes them instead of choosing by AICc."""

from __future__ import annotations

import pytest

from labwright.analysis.request_rules.peak_shape import baseline, peak_count
from labwright.analysis.request_rules.text import read_notes
from labwright.ingest.types import DocumentText


def _notes(text: str):  # type: ignore[no-untyped-def]
    return read_notes([DocumentText("README.md", text)])


@pytest.mark.parametrize(
    ("text", "count", "base"),
    [
        ("Average the scans and fit three Gaussian peaks on a linear baseline.", 3, "linear"),
        ("Fit 2 overlapping Lorentzian lines over a flat background.", 2, "constant"),
        ("用两个洛伦兹峰拟合，扣除线性背景。", 2, "linear"),
        ("Three repeat scans of the same sample; fit the peaks.", None, None),
        ("求第三个峰的面积。", None, None),
        ("Fit a quadratic baseline under the peaks.", None, "quadratic"),
    ],
)
def test_the_count_and_baseline_the_notes_ask(
    text: str, count: int | None, base: str | None
) -> None:
    got = peak_count(_notes(text))
    assert (got[0] if got else None) == count
    b = baseline(_notes(text))
    assert (b[0] if b else None) == base


def test_a_composite_fit_takes_the_notes_count_and_baseline() -> None:
    import numpy as np

    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.engine import FitData, fit

    entry = catalogue()["gaussian_peaks"]
    x = np.linspace(0.0, 100.0, 201)
    rng = np.random.default_rng(3)
    y = 5.0 + 0.02 * x + 10 * np.exp(-((x - 40) ** 2) / 18) + 6 * np.exp(-((x - 60) ** 2) / 18)
    y = y + rng.normal(0, 0.2, x.size)
    xv, yv = entry.independents[0].name, entry.response.name
    told = fit(entry, FitData({xv: x, yv: y}, peaks=2, baseline="quadratic"))
    assert told.ok and told.peaks == 2 and told.baseline == "quadratic"
    free = fit(entry, FitData({xv: x, yv: y}))
    assert free.ok and free.peaks == 2 and free.baseline != "quadratic"
