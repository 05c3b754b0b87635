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
