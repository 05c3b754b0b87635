"""The period and the growth rate asked of a series dated by the calendar,
when no one column holds its time: a year column with a month column
(nottem), or a year x month table (Mauna Loa). Before, the law's time bound
no column and the report said "not answered" beside the seasonal cycle and
the trend it had computed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from labwright.agent.offline.compendium import SCRIPT, export_compendium
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.quantities import registry
from labwright.analysis.question import read_question
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
RISE = 1.9  # per year
AMPLITUDE = 3.0


def _monthly(seed: int, years: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Years, months (1-12) and values: a rise, an annual cycle and noise."""
    rng = np.random.default_rng(seed)
    year = np.repeat(np.arange(1990, 1990 + years), 12)
    month = np.tile(np.arange(1, 13), years)
    t = year + (month - 0.5) / 12
    value = 350 + RISE * (t - 1990) + AMPLITUDE * np.sin(2 * np.pi * t + 0.4)
    return year, month, value + rng.normal(0, 0.3, t.size)


def _wide_folder(root: Path) -> Path:
    year, _month, value = _monthly(1, 20)
    rows = ["Year," + ",".join(MONTHS)]
    for i, y in enumerate(range(1990, 2010)):
        rows.append(f"{y}," + ",".join(f"{v:.3f}" for v in value[12 * i : 12 * i + 12]))
    (root / "co2.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (root / "notes.txt").write_text(
        "Monthly mean CO2 in ppm; co2.csv has one row per year, one column per month.\n"
        "1. Find the period of the seasonal cycle, in months, from the data.\n"
        "2. Find the average growth rate of CO2 in ppm per year (a linear trend fitted\n"
        "   with the seasonal cycle accounted for).\n",
        encoding="utf-8",
    )
    return root


def _long_folder(root: Path) -> Path:
    year, month, value = _monthly(2, 15)
    lines = ["年\t月\t月平均值 (°F)"] + [
        f"{y}\t{m}\t{v:.2f}" for y, m, v in zip(year, month, value, strict=True)
    ]
    (root / "气温.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "说明.md").write_text(
        "数据为每月平均值（每行：年、月、数值）。\n"
        "用正弦模型 T(t) = T0 + A·cos(2πt/P − φ) 拟合（t 以月计），求周期 P（月）和振幅 A。\n",
        encoding="utf-8",
    )
    return root


def _answers(folder: Path) -> dict[str, dict[str, Any]]:
    read = read_folder(folder)
    request = read_request(read, catalogue())
    record = analyse_folder(read, request).record()
    return {a["quantity"]: a for a in record["answers"]}


def _in(answer: dict[str, Any], unit: str) -> tuple[float, float]:
    q = registry().Quantity
    return (
        q(answer["value"], answer["unit"]).to(unit).magnitude,
        q(answer["se"], answer["unit"]).to(unit).magnitude,
    )


def test_the_period_of_a_year_by_month_table_and_its_growth_rate(tmp_path: Path) -> None:
    answers = _answers(_wide_folder(tmp_path))
    period, se = _in(answers["P"], "month")
    assert answers["P"]["unit"] == "month"  # as the notes ask, not seconds or years
    assert abs(period - 12.0) <= 3 * se
    rate = answers["trend"]
    value, se = _in(rate, "ppm/year")  # the unit only "in ppm per year" gives
    assert abs(value - RISE) <= 3 * se


def test_the_period_of_year_and_month_columns(tmp_path: Path) -> None:
    answers = _answers(_long_folder(tmp_path))
    period, se = _in(answers["P"], "month")
    assert abs(period - 12.0) <= 3 * se
    amplitude, se = _in(answers["A"], "degF")
    assert abs(amplitude - AMPLITUDE) <= 3 * se


@pytest.mark.parametrize("make", [_wide_folder, _long_folder])
def test_the_exported_script_rebuilds_the_calendar_series(
    make: Callable[[Path], Path], tmp_path: Path
) -> None:
    (tmp_path / "data").mkdir()
    data = make(tmp_path / "data")
    out = tmp_path / "out"
    export_compendium(data, out)
    done = subprocess.run(
        [sys.executable, SCRIPT], cwd=out, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "period" in done.stdout and " ok " in done.stdout


def test_a_layout_per_month_is_no_rate_unit() -> None:
    layout = "One row per year, one column per month. Find the linear trend of the series."
    assert read_question(layout).rate_unit is None
    asked = "Find the linear trend of the series per decade."
    assert read_question(asked).rate_unit == "decade"


def test_the_trend_fit_keeps_only_the_harmonics_the_sampling_resolves() -> None:
    from labwright.analysis.timeseries import annual_harmonics

    # Monthly and finer: two; quarterly: the first only (the second's cosine
    # is zero at every quarter's middle); half-yearly: none.
    assert [annual_harmonics(s) for s in (1 / 365.25, 1 / 12, 0.25, 0.5)] == [2, 2, 1, 0]
