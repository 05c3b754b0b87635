"""Several levels in a series: at the points the notes name, or found by
binary segmentation with a BIC stopping rule; one split stays one split."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.plan import analyse_folder
from labwright.analysis.question import read_question
from labwright.analysis.timeseries import analyse_series
from labwright.ingest.read import read_folder

LEVELS = (10.0, 12.0, 9.0)


def _three_levels(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = 1900 + np.arange(120, dtype=float)
    y = np.repeat(LEVELS, 40) + rng.normal(0, 1, 120)
    return t, y


def test_levels_are_found_and_recovered() -> None:
    t, y = _three_levels(3)
    r = analyse_series(t, y, trend=False, segments=True)
    assert r is not None and r.segments is not None and not r.segments.named
    segs = r.segments.segments
    assert len(segs) == 3
    assert abs(segs[1].start - 1940) <= 2 and abs(segs[2].start - 1980) <= 2
    for seg, level in zip(segs, LEVELS, strict=True):
        assert abs(seg.mean - level) < 3 * seg.se
    assert all(p < 1e-3 for _t, p in r.segments.tests)


def test_noise_has_no_levels() -> None:
    rng = np.random.default_rng(4)
    r = analyse_series(1900 + np.arange(120.0), rng.normal(0, 1, 120), trend=False, segments=True)
    assert r is not None and r.segments is None


def test_named_points_split_the_series() -> None:
    q = read_question("Compare the levels before 1940, between 1940 and 1980, and after 1980.")
    assert q.change_points == [1940.0, 1980.0] and q.asks("change")
    t, y = _three_levels(5)
    r = analyse_series(t, y, trend=False, segments=True, change_points=q.change_points)
    assert r is not None and r.segments is not None and r.segments.named
    assert [s.start for s in r.segments.segments] == [1900.0, 1940.0, 1980.0]


def test_nile_change_points_asked_in_the_plural(tmp_path: Path) -> None:
    """The README's "1871-1970" is the span, not two change points; the
    segmentation keeps the one split the literature reports (1898/1899)."""
    datasets = pytest.importorskip("statsmodels.datasets")
    folder = tmp_path / "nile"
    folder.mkdir()
    datasets.nile.load_pandas().data.to_csv(folder / "nile.csv", index=False)
    (folder / "README").write_text(
        "Annual flow of the Nile at Aswan, 1871-1970.\n\nFind the change points of the series.\n",
        encoding="utf-8",
    )
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert "change" in a.goals
    sg = a.result.parts[0].result.segments
    assert sg is not None and len(sg.segments) == 2
    assert 1896 <= sg.segments[1].start <= 1900
