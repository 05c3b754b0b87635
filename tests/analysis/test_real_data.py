"""Real data sets shipped inside the statsmodels package (no network): the
analyses a scientist expects, with the values the literature reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.analysis.plan import analyse_folder
from labwright.ingest.read import read_folder

datasets = pytest.importorskip("statsmodels.datasets")


def _folder(tmp_path: Path, name: str, frame: object, notes: tuple[str, str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    frame.to_csv(folder / f"{name}.csv", index=False)  # type: ignore[attr-defined]
    (folder / notes[0]).write_text(notes[1], encoding="utf-8")
    return folder


def test_co2_weekly_with_yyyymmdd_dates(tmp_path: Path) -> None:
    data = datasets.co2.load_pandas().data
    data.index.name = "date"
    frame = data.reset_index()
    frame["date"] = frame["date"].dt.strftime("%Y%m%d").astype(int)
    folder = _folder(
        tmp_path,
        "co2",
        frame,
        ("README", "Weekly CO2 (ppmv). What is the growth rate per year and the seasonal cycle?"),
    )
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "timeseries"
    r = a.result.parts[0].result
    assert 1.2 < r.trend.slope < 1.5  # ppm per year over 1958-2001
    assert r.seasonal is not None and r.seasonal.peak_month == 5  # May maximum
    assert 2.5 < r.seasonal.amplitude < 3.5


def test_nile_change_at_the_named_year(tmp_path: Path) -> None:
    frame = datasets.nile.load_pandas().data
    folder = _folder(
        tmp_path, "nile", frame, ("notes.md", "Was the mean flow different before and after 1898?")
    )
    (a,) = analyse_folder(read_folder(folder)).analyses
    c = a.result.parts[0].result.change
    assert c is not None and c.named and c.at == 1898
    assert c.mean_before == pytest.approx(1097.75, abs=1) and c.mean_after == pytest.approx(
        849.97, abs=5
    )
    assert c.p < 1e-6


def test_nile_change_found_without_a_named_point(tmp_path: Path) -> None:
    frame = datasets.nile.load_pandas().data
    folder = _folder(tmp_path, "nile", frame, ("notes.md", "Is there a change point in the flow?"))
    (a,) = analyse_folder(read_folder(folder)).analyses
    c = a.result.parts[0].result.change
    assert c is not None and not c.named and 1896 <= c.at <= 1900


def test_stackloss_regression_and_outlier(tmp_path: Path) -> None:
    frame = datasets.stackloss.load_pandas().data
    folder = _folder(
        tmp_path,
        "stackloss",
        frame,
        (
            "README.rst",
            ".. _sl:\n\nWe want a model of STACKLOSS as a function of the operating variables and a discussion of outliers.\n",
        ),
    )
    (a,) = analyse_folder(read_folder(folder)).analyses
    assert a.kind == "regression" and a.result.response == "STACKLOSS"
    coefs = {c.name: c.value for c in a.result.coefficients}
    assert coefs["AIRFLOW"] == pytest.approx(0.7156, abs=1e-3)  # Brownlee's fit
    assert coefs["WATERTEMP"] == pytest.approx(1.2953, abs=1e-3)
    assert 20 in [o.row for o in a.result.outliers]  # observation 21


def test_elnino_year_by_month_table_keeps_every_month(tmp_path: Path) -> None:
    frame = datasets.elnino.load_pandas().data
    folder = _folder(tmp_path, "elnino", frame, ("README", "Sea surface temperature, degrees C."))
    (a,) = analyse_folder(read_folder(folder)).analyses
    assert (
        a.kind == "timeseries"
        and a.result.wide is not None
        and len(a.result.wide.month_columns) == 12
    )
    assert a.result.parts[0].result.seasonal is not None


def test_sunspots_year_column_is_time(tmp_path: Path) -> None:
    frame = datasets.sunspots.load_pandas().data
    folder = _folder(tmp_path, "sunspots", frame, ("notes.md", "Yearly sunspot numbers."))
    read = read_folder(folder)
    fa = analyse_folder(read)
    roles = fa.roles_of(read.datasets[0])
    assert roles is not None and roles.role_of("YEAR").role == "time"
    (a,) = fa.analyses
    assert a.kind == "timeseries" and a.result.parts[0].result.trend is not None
