"""A time-stamped table holding several stations: one series per station,
each with its own trend (generated with known slopes, recovered within 3 SE)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labwright.analysis.plan import analyse_folder
from labwright.ingest.read import read_folder

SLOPES = {"north": 0.5, "south": -0.3, "coast": 1.2}


def _folder(tmp_path: Path, notes: str) -> Path:
    rng = np.random.default_rng(5)
    rows = ["date,station,temperature (°C)"]
    for k in range(72):  # six years, monthly, three stations per month
        y, m = 2000 + k // 12, k % 12 + 1
        t = y + (m - 0.5) / 12
        for name, slope in SLOPES.items():
            v = 10 + slope * (t - 2000) + 6 * np.cos(2 * np.pi * (t - 0.55)) + rng.normal(0, 0.5)
            rows.append(f"{y}-{m:02d}-15,{name},{v:.2f}")
    (tmp_path / "stations.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text(notes, encoding="utf-8")
    return tmp_path


def test_one_series_per_station(tmp_path: Path) -> None:
    fa = analyse_folder(
        read_folder(_folder(tmp_path, "What is the trend per year at each station?"))
    )
    assert fa.kinds() == {"timeseries"}
    (a,) = fa.analyses
    parts = {p.column.name: p.result for p in a.result.parts}
    assert set(parts) == {f"temperature ({s})" for s in SLOPES}
    for station, slope in SLOPES.items():
        r = parts[f"temperature ({station})"]
        assert r.trend is not None and r.years.size == 72
        assert abs(r.trend.slope - slope) <= 3 * r.trend.se, (station, r.trend)


def test_stations_compared_when_the_notes_ask(tmp_path: Path) -> None:
    fa = analyse_folder(
        read_folder(
            _folder(tmp_path, "Compare the stations: is there a difference between groups?")
        )
    )
    assert fa.kinds() == {"timeseries", "groups"}
