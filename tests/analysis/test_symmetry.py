"""Symmetry of a map: a symmetric spot passes, a second off-centre spot fails."""

from __future__ import annotations

import numpy as np

from labwright.analysis.question import read_question
from labwright.analysis.symmetry import analyse_symmetry


def _map(extra: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:30, 0:40]
    m = 20 + 10 * np.exp(-(((xx - 19.5) / 6) ** 2 + ((yy - 14.5) / 5) ** 2))
    m += extra * np.exp(-(((xx - 30) / 3) ** 2 + ((yy - 8) / 3) ** 2))
    return m + rng.normal(0, 0.1, m.shape)


def test_symmetric_map() -> None:
    r = analyse_symmetry(_map(0.0, 1), "m")
    assert r is not None and r.symmetric and r.centred
    assert abs(r.noise - 0.1) < 0.02


def test_an_off_centre_feature_breaks_the_symmetry() -> None:
    r = analyse_symmetry(_map(1.0, 2), "m")
    assert r is not None and not r.symmetric
    assert all(m.p < 0.05 for m in r.mirrors)


def test_the_question_asks_for_symmetry() -> None:
    assert read_question("check the temperature map for symmetry").asks("symmetry")
    assert read_question("检查温度分布是否对称。").asks("symmetry")
