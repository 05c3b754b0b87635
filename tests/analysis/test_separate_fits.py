"""A law the notes ask fitted group by group ("fit the line separately before
and after insulation", "分别拟合") is fitted once per group of the category
column, each answer naming its group; the pooled fit of all rows, a slope
that belongs to neither group, is not made (analysis/subsets.py,
request_rules/separately.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.agent.offline.writers.script import read_table
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.subsets import groups_of
from labwright.ingest.read import read_folder

NOTES_EN = """# Heating a house before and after insulating its walls

Gas = a + b*Temp: consumption falls linearly with the outside temperature.
Fit the line separately before and after insulation and report the slope b
of each.
"""
NOTES_ZH = """# 墙体保温前后的耗气量

耗气量与室外温度成线性关系：Gas = a + b*Temp。
请对保温前（Before）和保温后（After）两组数据分别拟合，给出各组的斜率 b。
"""
NOTES_POOLED = """# Heating a house

Gas = a + b*Temp: consumption falls linearly with the outside temperature.
Fit the line and report the slope b.
"""
SLOPES = {"Before": -0.40, "After": -0.28}


def _folder(tmp_path: Path, notes: str) -> Path:
    rng = np.random.default_rng(5)
    rows = ["Insul,Temp (°C),Gas"]
    for insul, intercept in (("Before", 6.9), ("After", 4.7)):
        for t in np.linspace(-1, 10, 14):
            gas = intercept + SLOPES[insul] * t + rng.normal(0, 0.05)
            rows.append(f"{insul},{t:.2f},{gas:.3f}")
    (tmp_path / "gas.csv").write_text("\n".join(rows) + "\n", "utf-8")
    (tmp_path / "README.md").write_text(notes, "utf-8")
    return tmp_path


def _slopes(tmp_path: Path, notes: str) -> dict[str | None, tuple[float, float]]:
    read = read_folder(_folder(tmp_path, notes))
    request = read_request(read, catalogue())
    fa = analyse_folder(read, request)
    return {a.part: (a.value, a.se or 0.0) for a in fa.sheet.answers if a.quantity == "b"}


@pytest.mark.parametrize("notes", [NOTES_EN, NOTES_ZH], ids=["en", "zh"])
def test_each_group_has_its_own_fit(tmp_path: Path, notes: str) -> None:
    slopes = _slopes(tmp_path, notes)
    assert set(slopes) == {"Before", "After"}
    for group, (value, se) in slopes.items():
        assert abs(value - SLOPES[group]) < 3 * se + 1e-9, (group, value, se)


def test_without_separately_the_table_is_fitted_whole(tmp_path: Path) -> None:
    slopes = _slopes(tmp_path, NOTES_POOLED)
    assert list(slopes) == [None]


def test_a_group_is_its_rows_and_the_script_reads_them(tmp_path: Path) -> None:
    read = read_folder(_folder(tmp_path, NOTES_EN))
    (ds,) = read.datasets
    before, after = groups_of(ds, "Insul")
    assert (before.n_rows, after.n_rows) == (14, 14)
    gas = before.column("Gas").provenance
    assert (gas.subset, gas.rows) == ("Insul = Before", "1–14")
    assert after.column("Gas").provenance.rows == "15–28"
    assert "rows where Insul = After" in after.column("Gas").provenance.describe()
    line = read_table(after)
    assert line.endswith('.loc[lambda d: d["Insul"] == "After"].reset_index(drop=True)') or (
        line.endswith(".loc[lambda d: d['Insul'] == 'After'].reset_index(drop=True)")
    )
    # One group alone, or a column that is not there, makes no groups.
    assert groups_of(before, "Insul") == [] and groups_of(ds, "Colour") == []
