"""Role inference against a labelled set (>= 80 columns, >= 20 files, English
and Chinese), read through the real readers. Every mistake is listed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.dates import recognise
from labwright.analysis.notes import read_facts
from labwright.analysis.roles import infer_roles
from labwright.ingest.read import read_folder
from labwright.ingest.types import Column, Dataset, Provenance
from tests.analysis.role_cases import cases


def test_labelled_role_set(tmp_path: Path) -> None:
    all_cases = cases()
    total = sum(len(c[3]) for c in all_cases)
    assert len(all_cases) >= 20 and total >= 80
    assert any(
        any("\u4e00" <= ch <= "\u9fff" for ch in name + text) for name, text, _, _ in all_cases
    )
    mistakes: list[str] = []
    for name, text, notes, expected in all_cases:
        folder = tmp_path / name.replace(".", "_")
        folder.mkdir()
        (folder / name).write_text(text, encoding="utf-8")
        read = read_folder(folder)
        if len(read.datasets) != 1:
            mistakes.append(f"{name}: read as {len(read.datasets)} datasets ({read.skipped})")
            continue
        ds = read.datasets[0]
        facts = read_facts(notes, [c.name for c in ds.columns])
        roles = infer_roles(ds, facts)
        got = {c.name: c for c in roles.columns}
        if name == "处理.csv" and roles.role_of("处理").levels != ("对照", "低氮", "高氮"):
            mistakes.append(
                f"{name}: labels {roles.role_of('处理').levels} not taken from the notes"
            )
        for col, role in expected.items():
            if col not in got:
                mistakes.append(f"{name}: column {col!r} missing (columns {list(got)})")
            elif got[col].role != role:
                mistakes.append(
                    f"{name}: {col!r} is {got[col].role} ({got[col].reason}), expected {role}"
                )
    assert not mistakes, f"{len(mistakes)} of {total} columns wrong:\n" + "\n".join(mistakes)


def _col(name: str, values: list[float], unit: str | None = None) -> Column:
    return Column(name, np.asarray(values, dtype=float), Provenance("f.csv", column=name), unit)


def test_yyyymmdd_becomes_real_dates() -> None:
    axis = recognise(_col("date", [19580329, 19580405, 19580412]))
    assert axis is not None and axis.format == "yyyymmdd"
    assert axis.years[0] == pytest.approx(1958 + (31 + 28 + 28) / 365, abs=1e-3)
    assert str(axis.dates[1])[:10] == "1958-04-05"


def test_measurement_with_unit_is_never_a_date() -> None:
    assert recognise(_col("wavelength", [1200, 1300, 1400, 1500], unit="nm")) is None


def test_units_and_labels_from_notes() -> None:
    facts = read_facts(
        "The flow is measured in m^3/s. class: 0 = setosa, 1 = versicolor.", ["flow", "class"]
    )
    assert facts.units["flow"] == "m^3/s"
    assert facts.labels == {"0": "setosa", "1": "versicolor"}
    zh = read_facts("流量单位为 m^3/s", ["流量"])
    assert zh.units["流量"] == "m^3/s"


def test_category_labels_come_from_notes() -> None:
    ds = Dataset(
        "t", "t.csv", "table",
        columns=[_col("class", [0, 1, 2] * 5), _col("x", list(np.linspace(1, 2, 15)))],
    )  # fmt: skip
    roles = infer_roles(ds, read_facts("0 = setosa, 1 = versicolor, 2 = virginica", ["class"]))
    assert roles.role_of("class").levels == ("setosa", "versicolor", "virginica")
