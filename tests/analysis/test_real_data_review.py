"""Defects found by building reports from real public data sets (statsmodels'
and matplotlib's bundled tables) as a new user would; each test failed
before its fix. See docs/devlog/2026-12-01-real-data-review.md."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.plan import analyse_folder
from labwright.analysis.question import read_question
from labwright.ingest.read import read_folder

datasets = pytest.importorskip("statsmodels.datasets")


def _write(tmp_path: Path, name: str, files: dict[str, str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for fname, text in files.items():
        (folder / fname).write_text(text, encoding="utf-8")
    return folder


def _frame_folder(tmp_path: Path, name: str, frame: object, notes: tuple[str, str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    frame.to_csv(folder / f"{name}.csv", index=False)  # type: ignore[attr-defined]
    (folder / notes[0]).write_text(notes[1], encoding="utf-8")
    return folder


def _monthly(n: int = 48) -> np.ndarray:
    rng = np.random.default_rng(3)
    m = np.arange(n)
    return 100 + 0.2 * m + 5 * np.sin(2 * np.pi * m / 12) + rng.normal(0, 0.5, n)


def test_month_name_first_dates_are_time(tmp_path: Path) -> None:
    """Eurostat's `Jan-1-1995` (elec_equip) was a row key: the report gave a
    mean of an index series instead of its trend and cycle."""
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    v = _monthly()
    rows = [f"{months[i % 12]}-1-{1995 + i // 12},{v[i]:.2f}" for i in range(v.size)]
    folder = _write(
        tmp_path, "elec", {"elec.csv": "DATE,orders\n" + "\n".join(rows) + "\n",
                           "notes.txt": "Find the trend per year and the seasonal cycle.\n"},
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "timeseries"
    r = a.result.parts[0].result
    assert r.trend.slope == pytest.approx(2.4, abs=3 * r.trend.se + 0.05)
    assert r.seasonal is not None


@pytest.mark.parametrize("layout", ["text", "columns"])
def test_quarterly_periods_are_one_series(tmp_path: Path, layout: str) -> None:
    """`1974Q1` text (Danish money demand) was a row key; a year column with
    a quarter column (macrodata) made the quarter a four-level category and
    split every series into four."""
    rng = np.random.default_rng(1)
    n = 40
    y = 10 + 0.5 * np.arange(n) / 4 + rng.normal(0, 0.1, n)
    if layout == "text":
        lines = ["period,gdp"] + [f"{1974 + i // 4}Q{i % 4 + 1},{y[i]:.3f}" for i in range(n)]
    else:
        lines = ["year,quarter,gdp"] + [f"{1974 + i // 4},{i % 4 + 1},{y[i]:.3f}" for i in range(n)]
    folder = _write(
        tmp_path, "q", {"q.csv": "\n".join(lines) + "\n", "notes.txt": "Growth rate per year.\n"}
    )
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "timeseries"
    assert [p.column.name for p in a.result.parts] == ["gdp"]
    r = a.result.parts[0].result
    assert abs(r.trend.slope - 0.5) < 3 * r.trend.se
    roles = {c.name: c.role for c in next(iter(fa.roles.values())).columns}
    assert "category" not in roles.values()


def test_a_span_in_the_notes_is_not_two_change_points() -> None:
    """ "US macroeconomic data, 1959-2009 ... after 1980" split the series at
    1980 and at 2009, where the data end."""
    q = read_question("US macroeconomic data, 1959-2009.\nDid unemployment change after 1980?")
    assert q.change_points == [1980.0]
    q = read_question("Compare the levels before 1940, between 1940 and 1980, and after 1980.")
    assert q.change_points == [1940.0, 1980.0]


def test_panel_of_many_firms_is_compared_not_mixed_into_one_series(tmp_path: Path) -> None:
    """Grunfeld (11 firms x 20 years): one mixed series with an "annual cycle"
    fitted to yearly data gave an amplitude of 1e11 +- 8e12."""
    frame = datasets.grunfeld.load_pandas().data
    folder = _frame_folder(
        tmp_path, "grunfeld", frame,
        ("notes.txt", "Compare the investment between firms, and see how investment "
                      "depends on value and capital."),
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    kinds = [a.kind for a in fa.analyses]
    assert "timeseries" not in kinds
    assert kinds == ["groups", "regression"]
    reg = fa.analyses[1].result
    assert reg.response == "invest" and set(reg.predictors) == {"value", "capital"}
    import statsmodels.api as sm

    ols = sm.OLS(frame["invest"], sm.add_constant(frame[["value", "capital"]])).fit()
    got = {c.name: c.value for c in reg.coefficients}
    assert got["value"] == pytest.approx(ols.params["value"], rel=1e-9)


def test_yearly_series_with_repeated_years_has_no_annual_cycle(tmp_path: Path) -> None:
    """The sampling step is taken over distinct times: two readings in each
    year are yearly data, which cannot show a seasonal cycle (a zero median
    step passed them off as sub-annual)."""
    years = np.repeat(np.arange(1950, 1980), 2)
    rng = np.random.default_rng(0)
    v = 0.1 * (years - 1950) + rng.normal(0, 0.2, years.size)
    lines = ["year,temp"] + [f"{y},{x:.3f}" for y, x in zip(years, v, strict=True)]
    folder = _write(tmp_path, "t", {"t.csv": "\n".join(lines) + "\n"})
    fa = analyse_folder(read_folder(folder))
    (a,) = [a for a in fa.analyses if a.kind == "timeseries"]
    assert all(p.result.seasonal is None for p in a.result.parts)
    assert "seasonal" not in a.goals


def test_two_unsorted_measurements_are_regressed_not_histogrammed(tmp_path: Path) -> None:
    """Kennan's strikes: "How does strike duration depend on iprod?" gave a
    histogram of duration; the literature's slope is -343.8 +- 119.7."""
    frame = datasets.strikes.load_pandas().data
    folder = _frame_folder(
        tmp_path, "strikes", frame,
        ("notes.txt", "How does strike duration depend on iprod? Find the slope."),
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "regression"
    r = a.result
    assert r.response == "duration" and r.predictors == ["iprod"]
    slope = next(c for c in r.coefficients if c.name == "iprod")
    assert slope.value == pytest.approx(-343.8, abs=0.1)
    assert slope.se == pytest.approx(119.7, abs=0.1)


def test_engel_chinese_notes_regression(tmp_path: Path) -> None:
    frame = datasets.engel.load_pandas().data
    folder = _frame_folder(
        tmp_path, "engel", frame,
        ("笔记.txt", "目的：研究食品支出与收入的关系，求食品支出随收入变化的斜率，并讨论异常值。"),
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "regression" and a.result.response == "foodexp"
    slope = next(c for c in a.result.coefficients if c.name == "income")
    assert slope.value == pytest.approx(0.4852, abs=1e-3)
    assert "outliers" in a.goals


def test_model_asked_of_a_table_with_a_year_column(tmp_path: Path) -> None:
    """Longley: "a model of TOTEMP as a function of the other variables" got
    four trends per year and nothing else (the year column made it a series)."""
    frame = datasets.longley.load_pandas().data
    frame.insert(0, "Obs", np.arange(1, len(frame) + 1))
    folder = _frame_folder(
        tmp_path, "longley", frame,
        ("README", "We want a model of TOTEMP as a function of the other variables, "
                   "and to discuss outliers.\n"),
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    assert a.kind == "regression"
    assert a.result.response == "TOTEMP" and "YEAR" not in a.result.predictors
    assert a.result.r2 == pytest.approx(0.98738, abs=1e-4)


def test_period_counter_beside_the_year_is_not_a_variable(tmp_path: Path) -> None:
    frame = datasets.copper.load_pandas().data
    frame.insert(0, "YEAR", np.arange(1951, 1951 + len(frame)))
    frame["TIME"] = np.arange(1, len(frame) + 1)
    folder = _frame_folder(
        tmp_path, "copper", frame,
        ("notes.txt", "Model world consumption as a function of copper price and income."),
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    roles = {c.name: c.role for c in next(iter(fa.roles.values())).columns}
    assert roles["TIME"] == "index"
    (a,) = fa.analyses
    assert a.kind == "regression" and "TIME" not in a.result.predictors


def test_columns_named_in_the_notes_are_analysed_first(tmp_path: Path) -> None:
    """msft.csv: "the trend of the closing price ... outliers in the volume"
    analysed Open, High, Low, Close and left Volume out (four per table)."""
    rng = np.random.default_rng(2)
    n = 30
    cols = {k: 20 + rng.normal(0, 1, n) for k in ("Open", "High", "Low", "Close")}
    cols["Volume"] = rng.normal(5e7, 1e7, n)
    cols["Adj"] = 20 + rng.normal(0, 1, n)
    dates = [f"2003-07-{i + 1:02d}" for i in range(n)]
    header = "Date," + ",".join(cols)
    rows = [dates[i] + "," + ",".join(f"{v[i]:.2f}" for v in cols.values()) for i in range(n)]
    folder = _write(
        tmp_path, "msft",
        {"msft.csv": header + "\n" + "\n".join(rows) + "\n",
         "notes.txt": "Find the trend of the closing price per day and look for outliers in the volume."},
    )  # fmt: skip
    fa = analyse_folder(read_folder(folder))
    (a,) = fa.analyses
    names = [p.column.name for p in a.result.parts]
    assert names[:2] == ["Close", "Volume"]


def test_single_predictor_figure_draws_the_line_over_the_data(tmp_path: Path) -> None:
    from labwright.agent.offline.writers.regression import figures as regression_figures

    frame = datasets.strikes.load_pandas().data
    folder = _frame_folder(
        tmp_path, "strikes", frame, ("notes.txt", "How does duration depend on iprod?")
    )
    (a,) = analyse_folder(read_folder(folder)).analyses
    keys = iter(f"fig{i:02d}" for i in range(1, 9))
    (fig,) = regression_figures(a, lambda: next(keys), "en")
    first = fig.panels["panels"][0]
    assert "iprod" in first["xlabel"]
    assert [layer["type"] for layer in first["layers"]][:2] == ["scatter", "line"]
    assert "Linear regression of" in fig.caption


def test_trend_of_repeated_yearly_readings_has_no_harmonics() -> None:
    from labwright.analysis.timeseries import analyse_series

    years = np.repeat(np.arange(1950, 1980), 2).astype(float)
    v = 0.1 * (years - 1950) + np.random.default_rng(0).normal(0, 0.2, years.size)
    r = analyse_series(years, v, trend=True)
    assert r is not None and r.step_years == 1.0
    assert abs(r.trend.slope - 0.1) < 3 * r.trend.se
    assert np.ptp(r.trend_curve) < 5  # no singular harmonics blowing the curve up


def test_named_response_beside_a_class_column_is_modelled(tmp_path: Path) -> None:
    """Stanford heart transplants: "Does survival depend on age? Compare the
    censored and uncensored patients" got the group comparison only."""
    frame = datasets.heart.load_pandas().data
    folder = _frame_folder(
        tmp_path, "heart", frame,
        ("notes.txt", "Does survival depend on age? Compare the survival between the "
                      "censored and uncensored patients."),
    )  # fmt: skip
    kinds = [a.kind for a in analyse_folder(read_folder(folder)).analyses]
    assert kinds == ["groups", "regression"]


def test_climatology_months_of_dates_stamped_on_the_first() -> None:
    """Eurostat's orders stamped `Aug-1-1995`: the August trough was reported
    as July (months taken as twelfths of the decimal year)."""
    import pandas as pd

    from labwright.analysis.dates import _to_decimal_years
    from labwright.analysis.timeseries import analyse_series

    stamps = pd.date_range("1995-01-01", periods=120, freq="MS")
    rng = np.random.default_rng(5)
    bump = np.where(stamps.month == 8, -10.0, np.where(stamps.month == 9, 10.0, 0.0))
    y = 100 + bump + rng.normal(0, 0.3, stamps.size)
    r = analyse_series(_to_decimal_years(stamps), y, trend=True, seasonal=True)
    assert r is not None and r.seasonal is not None
    assert (r.seasonal.trough_month, r.seasonal.peak_month) == (8, 9)
    assert r.seasonal.counts == (10,) * 12


def test_letters_summarise_tukey_pairs_of_many_groups() -> None:
    from labwright.analysis.groups import GroupStat, PairDiff, letter_display

    stats = tuple(
        GroupStat(lv, 5, m, 1.0, 0.4) for lv, m in [("A", 10), ("B", 9), ("C", 5), ("D", 4)]
    )
    p = {("A", "B"): 0.3, ("A", "C"): 0.01, ("A", "D"): 0.001,
         ("B", "C"): 0.2, ("B", "D"): 0.001, ("C", "D"): 0.6}  # fmt: skip
    pairs = tuple(PairDiff(a, b, 0.0, 0.5, v) for (a, b), v in p.items())
    letters = letter_display(stats, pairs, 0.05)
    assert letters == {"A": "a", "B": "ab", "C": "bc", "D": "c"}
    # Share a letter exactly when the pair does not differ.
    for (a, b), v in p.items():
        assert bool(set(letters[a]) & set(letters[b])) == (v >= 0.05)


def test_many_groups_get_letters_not_a_wall_of_pairs(tmp_path: Path) -> None:
    """Grunfeld's 11 firms: 55 Tukey pairs in a table and a sentence naming
    the 36 pairs that do not differ; now one letter column per group."""
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.writers.groups import pairs_text

    frame = datasets.grunfeld.load_pandas().data
    folder = _frame_folder(
        tmp_path, "grunfeld", frame, ("notes.txt", "Compare the investment between firms.")
    )
    g = next(a for a in analyse_folder(read_folder(folder)).analyses if a.kind == "groups")
    text = pairs_text(g, Ledger(), "en")
    assert "share a letter" in text
    assert "no difference is found between" not in text
    assert text.count("$-$") == 0  # no pair rows


@pytest.mark.parametrize(
    ("notes", "lang", "needle"),
    [
        ("Find the trend of the closing price per day.", "en", "Per day"),
        ("求收盘价每天的变化趋势。", "zh", "每天"),
    ],
)
def test_rate_in_the_unit_the_notes_ask(tmp_path: Path, notes: str, lang: str, needle: str) -> None:
    """msft.csv: "the trend of the closing price per day" was answered only
    per year (8.2 $/yr); the notes' unit is now given too."""
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.writers.timeseries import text as timeseries_text

    n = 60
    price = 25 + 0.05 * np.arange(n) + np.random.default_rng(4).normal(0, 0.2, n)
    rows = [
        f"2003-06-{1 + i % 30:02d}" if i < 30 else f"2003-07-{1 + i % 30:02d}" for i in range(n)
    ]
    csv = "Date,Close\n" + "\n".join(f"{d},{p:.2f}" for d, p in zip(rows, price, strict=True))
    folder = _write(tmp_path, "m", {"m.csv": csv + "\n", "notes.txt": notes + "\n"})
    (a,) = analyse_folder(read_folder(folder)).analyses
    assert a.result.rate_unit == "day"
    text = timeseries_text(a, Ledger(), lang)
    assert needle in text
    per_year = a.result.parts[0].result.trend.slope
    assert per_year / 365.25 == pytest.approx(0.05, abs=0.005)


def test_aim_is_the_paragraph_that_asks() -> None:
    """Longley's README: the column descriptions came first and were quoted
    as the aim; the paragraph "We want a model of TOTEMP ..." is the aim."""
    from labwright.agent.offline.language import find_aim
    from labwright.ingest.types import DocumentText

    text = (
        "Longley's employment data\n=========================\n\n"
        "TOTEMP is total employment. GNP is the gross national product.\n\n"
        "We want a model of TOTEMP as a function of the other variables, and to discuss outliers.\n"
    )
    aim = find_aim([DocumentText(source="README", text=text)])
    assert aim is not None and aim.text.startswith("We want a model")


def test_growth_rates_of_every_column_are_compared(tmp_path: Path) -> None:
    """Stocks.csv (ten prices): "compare the growth rate per year of the
    stocks" gave four rates and "not analysed: AMZN, DELL, ..."."""
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.writers.timeseries import text as timeseries_text

    rng = np.random.default_rng(7)
    n = 120
    slopes = {f"S{i}": 0.5 * i - 1.0 for i in range(7)}
    t = np.arange(n) / 12.0
    dates = [f"{1990 + i // 12}-{i % 12 + 1:02d}-01" for i in range(n)]
    cols = {k: 50 + s * t + rng.normal(0, 0.3, n) for k, s in slopes.items()}
    header = "Date," + ",".join(cols)
    rows = [dates[i] + "," + ",".join(f"{v[i]:.3f}" for v in cols.values()) for i in range(n)]
    folder = _write(
        tmp_path, "stocks",
        {"stocks.csv": header + "\n" + "\n".join(rows) + "\n",
         "notes.txt": "Compare the growth rate per year of the stocks.\n"},
    )  # fmt: skip
    (a,) = analyse_folder(read_folder(folder)).analyses
    assert a.result.left_out == []
    rates = {c.name: tr for c, tr in a.result.rates}
    assert set(rates) == set(slopes)
    for k, s in slopes.items():
        assert abs(rates[k].slope - s) < 3 * rates[k].se + 1e-3
    text = timeseries_text(a, Ledger(), "en")
    assert "Trend per year of every column" in text and "Not analysed" not in text


def test_times_are_written_as_the_data_resolve_them(tmp_path: Path) -> None:
    """Quarterly data were written "February 1959" (the mid-quarter month) and
    a series ending on `May-1-2016` "ended in April 2016"."""
    from labwright.agent.offline.provenance import Ledger
    from labwright.agent.offline.writers.timeseries import text as timeseries_text
    from labwright.verify.tags import untag

    rng = np.random.default_rng(8)
    n = 40
    y = 10 + 0.1 * np.arange(n) + np.tile([1.0, 0.0, -1.0, 0.0], 10) + rng.normal(0, 0.05, n)
    lines = ["period,gdp"] + [f"{1974 + i // 4}Q{i % 4 + 1},{y[i]:.3f}" for i in range(n)]
    folder = _write(
        tmp_path, "q",
        {"q.csv": "\n".join(lines) + "\n", "notes.txt": "Trend per year and seasonal cycle.\n"},
    )  # fmt: skip
    (a,) = analyse_folder(read_folder(folder)).analyses
    text = untag(timeseries_text(a, Ledger(), "en"))
    assert "1974 Q1" in text and "1983 Q4" in text
    assert "highest in Q1" in text and "lowest in Q3" in text
    assert "February" not in text

    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    v = _monthly(29)
    rows = [f"{months[i % 12]}-1-{2014 + i // 12},{v[i]:.2f}" for i in range(v.size)]
    folder = _write(tmp_path, "m", {"m.csv": "DATE,orders\n" + "\n".join(rows) + "\n"})
    (a,) = analyse_folder(read_folder(folder)).analyses
    text = untag(timeseries_text(a, Ledger(), "en"))
    assert "from January 2014 to May 2016" in text


def test_a_header_of_years_is_a_header(tmp_path: Path) -> None:
    """World Bank fertility.csv (country x year): the header's year cells are
    numbers, so it was read as the first data row and every column became
    col1..col60, with "Country Name" counted as data."""
    csv = (
        "Country Name,Country Code,1960,1961,1962,1963\n"
        "Aruba,ABW,4.82,4.655,4.471,4.271\n"
        "Andorra,AND,,,1.24,1.18\n"
        "Angola,AGO,7.478,7.524,7.563,7.592\n"
    )
    folder = _write(tmp_path, "fert", {"fertility.csv": csv})
    (ds,) = read_folder(folder).datasets
    assert [c.name for c in ds.columns] == [
        "Country Name",
        "Country Code",
        "1960",
        "1961",
        "1962",
        "1963",
    ]
    assert ds.n_rows == 3
    assert ds.column("1962").values[1] == pytest.approx(1.24)


def test_a_first_data_row_of_years_below_a_header_stays_data(tmp_path: Path) -> None:
    csv = "a,b,c\n1990,1991,1992\n1990,1991,1992\n1990,1991,1992\n"
    (ds,) = read_folder(_write(tmp_path, "y", {"y.csv": csv})).datasets
    assert [c.name for c in ds.columns] == ["a", "b", "c"] and ds.n_rows == 3


def test_years_as_first_data_row_under_a_named_header_stay_data(tmp_path: Path) -> None:
    csv = "x,y,z\n1990,1991,1992\n5,6,7\n8,9,10\n"
    (ds,) = read_folder(_write(tmp_path, "y", {"y.csv": csv})).datasets
    assert [c.name for c in ds.columns] == ["x", "y", "z"] and ds.n_rows == 3


def test_distinct_text_labels_are_not_groups_of_one(tmp_path: Path) -> None:
    """china_smoking.csv: eight cities, one row each, became eight "groups"
    with n = 1 and no standard deviation."""
    frame = datasets.china_smoking.load_pandas().data.reset_index()
    folder = _frame_folder(tmp_path, "smoking", frame, ("notes.txt", "Smoking and lung cancer."))
    fa = analyse_folder(read_folder(folder))
    roles = {c.name: c.role for c in next(iter(fa.roles.values())).columns}
    assert roles["Location"] == "index"
    assert "groups" not in fa.kinds()


def test_groups_past_ten_are_told_apart_by_marker(tmp_path: Path) -> None:
    from labwright.agent.offline.writers.groups import figures as groups_figures

    frame = datasets.grunfeld.load_pandas().data
    folder = _frame_folder(tmp_path, "g", frame, ("notes.txt", "Compare the firms."))
    g = next(a for a in analyse_folder(read_folder(folder)).analyses if a.kind == "groups")
    keys = iter(f"fig{i:02d}" for i in range(1, 9))
    figs = groups_figures(g, lambda: next(keys), "en")
    styles = [(la["color"], la.get("marker", "o")) for la in figs[1].panels["panels"][0]["layers"]]
    assert len(styles) == 11 and len(set(styles)) == 11


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_quarterly_cycle_is_drawn_by_quarter(tmp_path: Path, lang: str) -> None:
    """Quarterly data fill one month slot in three: the climatology figure
    drew twelve month slots, eight of them empty. It draws the four
    quarters, every point a number, labelled as quarters."""
    from labwright.agent.offline.writers.timeseries import figures as timeseries_figures

    rng = np.random.default_rng(5)
    n = 48
    q = np.arange(n) % 4
    y = 50 + 0.1 * np.arange(n) + np.array([3.0, -1.0, -4.0, 2.0])[q] + rng.normal(0, 0.3, n)
    lines = ["year,quarter,sales"] + [f"{1990 + i // 4},{q[i] + 1},{y[i]:.3f}" for i in range(n)]
    notes = "Trend per year and the seasonal cycle of sales.\n"
    folder = _write(tmp_path, "q", {"q.csv": "\n".join(lines) + "\n", "notes.txt": notes})
    (a,) = analyse_folder(read_folder(folder)).analyses
    assert a.result.parts[0].result.seasonal is not None
    keys = iter(f"fig{i:02d}" for i in range(1, 9))
    figs = timeseries_figures(a, lambda: next(keys), lang)
    panel = figs[-1].panels["panels"][0]
    ticks = panel["xticklabels"]
    assert len(ticks) == 4 and len(panel["xticks"]) == 4
    assert all(str(k) in t for k, t in zip(range(1, 5), ticks, strict=True))
    clim = figs[-1].arrays[panel["layers"][0]["y"]]
    assert np.isfinite(clim).all() and clim.size == 4
    # The cycle's shape is the generator's: Q1 highest, Q3 lowest.
    assert int(np.argmax(clim)) == 0 and int(np.argmin(clim)) == 2
