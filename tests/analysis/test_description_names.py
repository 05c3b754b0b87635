"""A headerless table takes its column names and units from a description
file listing exactly as many attributes (the UCI ".names" layout)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.notes import described_columns
from labwright.analysis.plan import analyse_folder
from labwright.ingest.read import read_folder

NAMES = """1. Title: Iris Plants Database

2. Sources:
     (a) Creator: R.A. Fisher

7. Attribute Information:
   1. sepal length in cm
   2. sepal width in cm
   3. petal length in cm
   4. petal width in cm
   5. class:
      -- Iris Setosa
      -- Iris Versicolour

8. Missing Attribute Values: None

Summary: compare the sepal length between the classes.
"""


def test_the_attribute_list_is_told_from_the_section_list() -> None:
    cols = described_columns(NAMES, 5)
    assert cols is not None
    assert [(c.name, c.unit) for c in cols] == [
        ("sepal length", "cm"), ("sepal width", "cm"), ("petal length", "cm"),
        ("petal width", "cm"), ("class", None),
    ]  # fmt: skip
    assert described_columns(NAMES, 6) is None


@pytest.mark.parametrize("table", ["iris.csv", "iris.data"])  # .data: the UCI original's name
def test_headerless_table_is_named_and_analysed_by_class(tmp_path: Path, table: str) -> None:
    rng = np.random.default_rng(5)
    rows = []
    for name, mu in (("Iris-setosa", 5.0), ("Iris-versicolor", 5.9), ("Iris-virginica", 6.6)):
        for _ in range(15):
            rows.append(
                f"{mu + rng.normal(0, 0.3):.1f},{3.2 + rng.normal(0, 0.3):.1f},"
                f"{mu - 3.5 + rng.normal(0, 0.4):.1f},{1.0 + rng.normal(0, 0.2):.1f},{name}"
            )
    (tmp_path / table).write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "iris.names").write_text(NAMES, encoding="utf-8")
    read = read_folder(tmp_path)
    fa = analyse_folder(read)
    (ds,) = read.datasets
    assert [c.name for c in ds.columns][:2] == ["sepal length", "sepal width"]
    assert ds.column("petal width").unit == "cm"
    (a,) = fa.analyses
    assert a.kind == "groups" and a.result.category == "class"
    g = next(g for g in a.result.results if g.measurement == "sepal length")
    assert [s.level for s in g.stats] == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    assert g.test is not None and g.test.p < 1e-3 and len(g.pairs) == 3
