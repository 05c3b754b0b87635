"""The period of a cycle from generated series of known truth (even and
uneven sampling, with a drift), and the labelled light curve through the
offline analyst."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.procedures.periodogram import analyse_period, find_period, time_unit
from labwright.ingest.types import Column, Provenance
from tests.analysis.procedures.folders import (
    build,
    build_offline_record,
    recomputed_values_are_printed,
)
from tests.labset import spectra

ENTRY = next(e for e in catalogue() if e.key == "periodic_signal")


def _col(name: str, v: np.ndarray, unit: str | None = None) -> Column:
    return Column(name, np.asarray(v, dtype=float), Provenance("s.csv", column=name), unit)


def test_an_unevenly_sampled_cycle_is_found_by_lomb_scargle() -> None:
    hits = amp = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        t = np.sort(rng.uniform(0, 60, 70))
        y = 4.0 - 0.4 * np.sin(2 * np.pi * t / 5.366 + 0.7) + rng.normal(0, 0.02, t.size)
        r = analyse_period(ENTRY, _col("day", t), _col("magnitude", y))
        assert r is not None and r.method == "Lomb-Scargle"
        hits += abs(r.period - 5.366) <= 3 * r.period_se
        amp += abs(r.amplitude - 0.4) <= 3 * r.amplitude_se
    assert hits >= 28 and amp >= 28


def test_a_drifting_yearly_series_gives_its_cycle_not_a_trend() -> None:
    hits = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        t = np.arange(1900, 2000.0)
        y = 10 + 0.05 * (t - 1900) + 3 * np.sin(2 * np.pi * t / 11.0 + 1) + rng.normal(0, 1, t.size)
        r = analyse_period(ENTRY, _col("year", t), _col("count", y))
        assert r is not None and r.method == "periodogram"
        hits += abs(r.period - 11.0) <= 3 * r.period_se
        assert [a.quantity for a in r.answers()][0] == "P"
    assert hits >= 27


def test_fewer_than_two_cycles_claim_no_period() -> None:
    t = np.linspace(0, 10, 40)
    assert find_period(t, np.sin(2 * np.pi * t / 30)) is None
    assert find_period(t[:5], t[:5]) is None


def test_a_time_column_named_by_its_unit_gives_the_unit() -> None:
    assert time_unit(_col("day", np.arange(3.0))) == "day"
    assert time_unit(_col("t", np.arange(3.0), "s")) == "s"
    assert time_unit(_col("magnitude", np.arange(3.0))) is None


def test_the_light_curve_folder_is_answered_and_written(tmp_path: Path) -> None:
    from tests.labset.score import score

    make = spectra.variable_star
    lab = make(np.random.default_rng(zlib.crc32(make.__name__.encode())))
    b = build(lab.write(tmp_path / "a"), "en")
    assert [a.kind for a in b.analysis.analyses] == ["periodogram"]
    assert "Lomb--Scargle" in b.tex
    assert recomputed_values_are_printed(b, "periodogram") >= 6
    record, unsourced = build_offline_record(lab.write(tmp_path / "b"))
    assert not unsourced, unsourced
    fs = score(lab, record)
    assert not fs.harmful and all(ts.within for ts in fs.truths), [t.note for t in fs.truths]


def test_noise_around_a_trend_claims_no_cycle() -> None:
    """The highest of some N/2 periodogram bins always looks like a peak;
    without a cycle in the data it must not become a period (at the 1 %
    false-alarm level, about one seed in a hundred may)."""
    claimed = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        t = np.arange(730.0)
        y = 20 + 0.011 * t + rng.normal(0, 0.8, t.size)
        claimed += find_period(t, y) is not None
    assert claimed <= 2


def test_a_weak_but_real_cycle_is_still_claimed() -> None:
    found = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        t = np.arange(365.0)
        y = 5 + 0.4 * np.sin(2 * np.pi * t / 27.0) + rng.normal(0, 0.8, t.size)
        r = find_period(t, y)
        found += r is not None and abs(1 / float(r[-1].params["f"]) - 27.0) < 1.0
    assert found >= 19


def test_the_false_alarm_probability_is_calibrated_on_noise() -> None:
    """On pure noise the probability is (close to) uniform: about 10 % of
    series fall below 0.1, far fewer below 0.01."""
    from labwright.analysis.procedures.periodogram import false_alarm

    below = []
    for seed in range(300):
        rng = np.random.default_rng(1000 + seed)
        t = np.arange(200.0)
        y = rng.normal(0, 1, t.size)
        freqs = np.fft.rfftfreq(t.size)[1:]
        best = float("inf")
        for f in freqs:  # the best sinusoid over the independent frequencies
            design = np.column_stack(
                [np.ones_like(t), t, np.sin(2 * np.pi * f * t), np.cos(2 * np.pi * f * t)]
            )
            rss = float(np.sum((y - design @ np.linalg.lstsq(design, y, rcond=None)[0]) ** 2))
            best = min(best, rss)
        below.append(false_alarm(t, y, best, freqs.size))
    share = np.mean(np.asarray(below) < 0.1)
    assert 0.03 <= share <= 0.2, share
    assert np.mean(np.asarray(below) < 0.01) <= 0.04


def test_calendar_codes_are_not_a_time_for_a_period() -> None:
    """YYYYMMDD integers jump at every month's and year's end: the time-series
    analysis reads them as dates; a period in 'their units' is meaningless."""
    from labwright.analysis.procedures.periodogram import _calendar_code

    days = np.array([19900106 + 7 * k for k in range(3)], dtype=float)
    assert _calendar_code(_col("date", days))
    assert not _calendar_code(_col("year", np.arange(1900, 1950.0)))
    assert not _calendar_code(_col("t", np.arange(50.0), "s"))


def test_dates_give_the_period_in_years_or_days() -> None:
    """Dates the reader turned into seconds: a yearly cycle is 1 year, not
    3.156e7 s; a fortnight's tide series is told in days."""
    from labwright.analysis.procedures.periodogram import calendar_time

    rng = np.random.default_rng(3)
    seconds = np.arange(360) * 30.4375 * 86_400.0  # thirty years, monthly
    y = 9 + 8 * np.sin(2 * np.pi * seconds / 31_557_600.0) + rng.normal(0, 0.5, seconds.size)
    dated = Column("date", seconds, Provenance("m.csv", column="date"), "s", "1980-01-15 00:00:00")
    t, scale, since = calendar_time(dated)
    assert (t.unit, scale, since) == ("year", 31_557_600.0, "1980-01-15")
    r = analyse_period(ENTRY, t, _col("temperature", y, "°C"))
    assert r is not None and r.time_unit == "year"
    assert abs(r.period - 1.0) <= 3 * r.period_se and r.period_se < 0.01
    hours = Column("t", np.arange(0, 14 * 86_400.0, 3600.0), Provenance("tide.csv", column="t"),
                   "s", "2020-03-01 00:00:00")  # fmt: skip
    assert calendar_time(hours)[0].unit == "day"
    logger = Column("t", np.arange(0, 600.0), Provenance("osc.csv", column="t"), "s", "2020-03-01")
    assert calendar_time(logger)[0] is logger  # ten minutes of a logger: seconds
    assert calendar_time(_col("year", np.arange(1900, 1950.0)))[1] == 1.0


def test_a_dated_folder_tells_its_cycle_in_years_and_its_script_agrees(tmp_path: Path) -> None:
    import pandas as pd

    rng = np.random.default_rng(11)
    dates = pd.date_range("1990-01-15", periods=144, freq="MS") + pd.Timedelta(days=14)
    years = (dates - dates[0]).total_seconds().to_numpy() / 31_557_600.0
    temp = 9 + 0.02 * years + 8 * np.sin(2 * np.pi * years) + rng.normal(0, 0.6, years.size)
    folder = tmp_path / "air"
    folder.mkdir()
    rows = ["date,temperature (°C)"] + [
        f"{d:%Y-%m-%d},{v:.2f}" for d, v in zip(dates, temp, strict=True)
    ]
    (folder / "monthly.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "README.md").write_text("Find the period of the cycle.\n", encoding="utf-8")
    b = build(folder, "en")
    period = [a for a in b.analysis.analyses if a.kind == "periodogram"]
    assert len(period) == 1
    r = period[0].result
    assert r.time_unit == "year" and abs(r.period - 1.0) <= 3 * r.period_se
    shown = [p.panels for p in b.plans if p.analysis is period[0] and p.panels]
    assert shown and shown[0]["panels"][0]["xlabel"].startswith(f"time since {dates[0]:%Y-%m-%d}")
    assert recomputed_values_are_printed(b, "periodogram") >= 6
