"""A rate asked of a dated series is its trend (request_rules/dated_rate.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder
from tests.analysis.procedures.folders import build


def _dated(rate: float) -> str:
    rng = np.random.default_rng(7)
    days = np.arange(0, 6 * 365, 7)
    dates = np.datetime64("2001-01-01") + days.astype("timedelta64[D]")
    y = 350 + rate * days / 365.25 + 3 * np.sin(2 * np.pi * days / 365.25)
    y = y + rng.normal(0, 0.4, days.size)
    rows = "".join(f"{d},{v:.3f}\n" for d, v in zip(dates, y, strict=True))
    return "date,co2 (ppm)\n" + rows


@pytest.mark.parametrize(
    "notes",
    [
        "Weekly flask CO2. Find the growth rate per year and describe its seasonal cycle.",
        "每周的二氧化碳浓度记录。求每年的增长率。",
    ],
)
def test_the_growth_rate_of_a_dated_series_is_its_trend(tmp_path: Path, notes: str) -> None:
    (tmp_path / "notes.txt").write_text(notes, encoding="utf-8")
    (tmp_path / "co2.csv").write_text(_dated(1.8), encoding="utf-8")
    req = read_request(read_folder(tmp_path), catalogue())
    # Not the growth laws' r: the series' time is the calendar.
    assert all(a.quantity not in ("r", "mu") for a in req.asked), req.asked
    built = build(tmp_path, "en")
    [(value, se, unit, _)] = built.answer("trend")
    assert se is not None and abs(value - 1.8) <= 3 * se, (value, se)
    assert unit is not None and ("yr" in unit or "year" in unit), unit
    assert not any("(r)" in u.what for u in built.analysis.sheet.unanswered)


def test_a_growth_rate_of_counts_against_hours_stays_the_laws(tmp_path: Path) -> None:
    # No calendar: the time is hours of an experiment, and the growth law's
    # rate constant is the answer.
    t = np.arange(0.0, 10.0, 0.5)
    n = 100 * np.exp(0.3 * t)
    rows = "".join(f"{a},{b:.2f}\n" for a, b in zip(t, n, strict=True))
    (tmp_path / "notes.txt").write_text(
        "Bacterial culture counted every half hour. Find the growth rate.", encoding="utf-8"
    )
    (tmp_path / "counts.csv").write_text("t (h),N\n" + rows, encoding="utf-8")
    req = read_request(read_folder(tmp_path), catalogue())
    assert any(a.evidence.phrase == "growth rate" for a in req.asked), req.asked
