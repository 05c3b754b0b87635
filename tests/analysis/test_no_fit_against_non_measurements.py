"""Property: over random tables, no fit, regression, trend or group statistic
ever uses an index, ID, category or date-integer column as a variable."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labwright.agent.offline.figures import plan_figures
from labwright.analysis.plan import analyse_folder
from labwright.ingest.types import Column, Dataset, Provenance, ReadResult

COUNTER_NAMES = ["", "n", "index", "No", "Nr", "row", "sample", "trial", "#", "序号", "col1"]
ID_NAMES = ["id", "sample_id", "key", "subject", "编号", "ID"]
CATEGORY_NAMES = ["class", "group", "type", "treatment", "组别", "species", "k", "code"]
DATE_NAMES = ["date", "day", "when", "d", "yyyymmdd", "日期"]
MEASUREMENT_NAMES = ["x", "L", "T", "voltage", "flow", "y", "U", "质量", "height", "rate"]


@st.composite
def tables(draw: st.DrawFn) -> tuple[Dataset, set[str]]:
    n = draw(st.integers(12, 60))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    kinds = draw(st.lists(st.sampled_from(["counter", "id", "category", "date", "measurement"]),
                          min_size=2, max_size=6))  # fmt: skip
    if "measurement" not in kinds:
        kinds.append("measurement")
    cols: list[Column] = []
    forbidden: set[str] = set()
    for i, kind in enumerate(kinds):
        unit = None
        if kind == "counter":
            name = draw(st.sampled_from(COUNTER_NAMES))
            start = draw(st.sampled_from([0, 1]))
            values = np.arange(start, start + n)
        elif kind == "id":
            name = draw(st.sampled_from(ID_NAMES))
            values = np.cumsum(rng.integers(1, 9, n)) + 1000
        elif kind == "category":
            name = draw(st.sampled_from(CATEGORY_NAMES))
            levels = draw(st.integers(2, 6))
            values = rng.integers(0, levels, n)
            values[:levels] = np.arange(levels)
        elif kind == "date":
            name = draw(st.sampled_from(DATE_NAMES))
            days = np.sort(rng.choice(np.arange(0, 3650), n, replace=False))
            stamps = np.datetime64("1995-01-01") + days.astype("timedelta64[D]")
            values = np.array([int(str(s).replace("-", "")) for s in stamps])
        else:
            name = draw(st.sampled_from(MEASUREMENT_NAMES))
            unit = draw(st.sampled_from([None, "m", "s", "V"]))
            values = (
                rng.normal(0, 1, n).cumsum()
                if draw(st.booleans())
                else np.sort(rng.uniform(0, 10, n))
            )
        if name and any(c.name == name for c in cols):
            continue  # names are unique in a table
        col = Column(
            name or f"col{i + 1}",
            np.asarray(values, dtype=float),
            Provenance("t.csv", column=name),
            unit,
        )
        cols.append(col)
        if kind != "measurement":
            forbidden.add(col.name)
    return Dataset("t", "t.csv", "table", columns=cols), forbidden


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_no_fit_against_index_id_category_or_date(case: tuple[Dataset, set[str]]) -> None:
    ds, forbidden = case
    fa = analyse_folder(ReadResult(datasets=[ds]))
    plans = plan_figures([ds], [], analysis=fa)
    for plan in plans:
        for s in plan.series:
            if s.fit is not None:
                assert s.x is not None and s.x.name not in forbidden, (s.x.name, forbidden)
                assert s.y.name not in forbidden
        if plan.kind in ("xy", "line") and plan.x is not None:
            assert plan.x.name not in forbidden
    for a in fa.analyses:
        if a.kind == "regression":
            assert a.result.response not in forbidden
            assert not set(a.result.predictors) & forbidden
        elif a.kind == "timeseries":
            assert all(p.column.name not in forbidden for p in a.result.parts)
        elif a.kind == "groups":
            assert all(g.measurement not in forbidden for g in a.result.results)
        elif a.kind == "repeated":
            assert a.result.name not in forbidden


def test_whitespace_powers_table_keeps_its_x_column(tmp_path: object) -> None:
    """`x x^2 x^3` with x = 1, 2, 3, ...: x is the variable, not a row counter."""
    from pathlib import Path

    from labwright.ingest.read import read_folder

    folder = Path(str(tmp_path))
    (folder / "powers.txt").write_text(
        "x x^2 x^3\n" + "".join(f"{i} {i * i} {i**3}\n" for i in range(1, 11)), encoding="utf-8"
    )
    read = read_folder(folder)
    fa = analyse_folder(read)
    plans = plan_figures(read.datasets, [], analysis=fa)
    fitted = [s for p in plans for s in p.series if s.fit is not None]
    assert {s.y.name for s in fitted} == {"x^2", "x^3"}
    assert all(s.x is not None and s.x.name == "x" for s in fitted)
    assert {s.fit.model.key for s in fitted if s.fit} == {"power"}
