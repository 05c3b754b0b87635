"""Peaks of a densely sampled curve: found above the noise, fitted, matched."""

from __future__ import annotations

import numpy as np

from labwright.analysis.peaks import find_peaks, match_references
from labwright.analysis.question import read_question


def _spectrum(centres: list[float], sigma: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = np.arange(0.0, 200.0, 0.25)
    y = 5.0 + 0.01 * x + rng.normal(0, 0.5, x.size)
    for c in centres:
        y += 100.0 * np.exp(-0.5 * ((x - c) / sigma) ** 2)
    return x, y


def test_peaks_and_a_blended_doublet_are_recovered() -> None:
    centres = [30.0, 80.0, 120.0, 150.0, 153.0]  # the last two 2.5 sigma apart
    x, y = _spectrum(centres, 1.2, 3)
    r = find_peaks(x, y, "x", "y")
    assert r is not None and len(r.peaks) == len(centres)
    for p, c in zip(r.peaks, centres, strict=True):
        assert abs(p.centre - c) < 3 * p.centre_se + 1e-9, (p, c)
    match_references(r, [30.0, 80.0, 100.0], "ref.csv: standard")
    assert r.unmatched == [100.0]
    assert [p.reference for p in r.peaks][:2] == [30.0, 80.0]


def test_noise_alone_has_no_peaks() -> None:
    x, y = _spectrum([], 1.0, 4)
    r = find_peaks(x, y, "x", "y")
    assert r is not None and r.peaks == []


def test_the_question_asks_for_lines() -> None:
    assert read_question("Determine the wavelengths of the main lines.").asks("peaks")
    assert read_question("确定主要谱线的波长，并与标准值比较。").asks("peaks")
    assert not read_question("Measure the period at several lengths.").asks("peaks")
