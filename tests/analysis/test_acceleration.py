"""Is the trend speeding up: a quadratic term in the trend, asked for only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.plan import analyse_folder
from labwright.analysis.timeseries import analyse_series
from labwright.ingest.read import read_folder


def test_known_acceleration_is_recovered() -> None:
    rng = np.random.default_rng(11)
    t = 1980 + np.arange(360) / 12 + 1 / 24
    accel = 0.004  # per year per year
    y = 10 + 0.2 * (t - 1995) + 0.5 * accel * (t - 1995) ** 2
    y = y + 2.0 * np.cos(2 * np.pi * t) + rng.normal(0, 0.3, t.size)
    r = analyse_series(t, y, seasonal=True, acceleration=True)
    assert r is not None and r.acceleration is not None
    a = r.acceleration
    assert abs(a.accel - accel) < 3 * a.se and a.p < 0.05
    assert abs(a.rate_start - (0.2 + accel * (t[0] - 1995))) < 3 * a.rate_start_se
    assert abs(a.rate_end - (0.2 + accel * (t[-1] - 1995))) < 3 * a.rate_end_se
    # Not asked: not fitted.
    assert analyse_series(t, y, seasonal=True).acceleration is None  # type: ignore[union-attr]


def test_co2_is_accelerating(tmp_path: Path) -> None:
    datasets = pytest.importorskip("statsmodels.datasets")
    data = datasets.co2.load_pandas().data
    data.index.name = "date"
    frame = data.reset_index()
    frame["date"] = frame["date"].dt.strftime("%Y%m%d").astype(int)
    folder = tmp_path / "co2"
    folder.mkdir()
    frame.to_csv(folder / "co2.csv", index=False)
    (folder / "README").write_text(
        "Weekly CO2 (ppmv). What is the growth rate per year, and is the rise accelerating?",
        encoding="utf-8",
    )
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert "acceleration" in fa.question.goals and "acceleration" in a.goals
    acc = a.result.parts[0].result.acceleration
    assert acc is not None and acc.accel > 0 and acc.p < 1e-3
    # Mauna Loa: about 0.8 ppm/yr around 1960, about 1.6-2 ppm/yr around 2000.
    assert 0.5 < acc.rate_start < 1.1 and 1.4 < acc.rate_end < 2.2
