"""A designed experiment's table: one measurement beside its text factors.

Found on R's warpbreaks (breaks, wool, tension): every data row had more
text than numbers, so no row passed for data and the folder's only file was
refused ("has no rows of numbers")."""

from __future__ import annotations

from pathlib import Path

from labwright.ingest.read import read_folder


def _table(rows: list[str]) -> str:
    return "\n".join(rows) + "\n"


def test_one_number_beside_two_factors_is_a_table(tmp_path: Path) -> None:
    lines = ["breaks,wool,tension"] + [f"{20 + i},{'AB'[i % 2]},{'LMH'[i % 3]}" for i in range(18)]
    (tmp_path / "warp.csv").write_text(_table(lines), encoding="utf-8")
    read = read_folder(tmp_path)
    (ds,) = read.datasets
    cols = {c.name: c for c in ds.columns}
    assert list(cols) == ["breaks", "wool", "tension"]
    assert cols["breaks"].is_numeric and len(cols["breaks"].values) == 18
    assert not cols["wool"].is_numeric and set(cols["wool"].values) == {"A", "B"}


def test_chinese_factor_headers(tmp_path: Path) -> None:
    lines = ["产量 (g),品种,施肥"] + [
        f"{50 + i * 0.5},{'甲乙'[i % 2]},{'高低'[i % 2]}" for i in range(8)
    ]
    (tmp_path / "试验.csv").write_text(_table(lines), encoding="utf-8")
    (ds,) = read_folder(tmp_path).datasets
    first = ds.columns[0]
    assert first.name == "产量" and first.unit == "g" and first.is_numeric


def test_prose_with_a_number_is_still_not_a_table(tmp_path: Path) -> None:
    # The fallback must not make prose into a table: the same width on every
    # line, but the one number of each line in a different column.
    text = "".join(
        f"{a},{b},{c}\n"
        for a, b, c in [("Lab 3", "pendulum", "steel bob"), ("Length", "1.00", "metre stick"),
                        ("The period", "was about", "2"), ("Mass", "unknown", "scale broken")]
    )  # fmt: skip
    (tmp_path / "notes.csv").write_text(text, encoding="utf-8")
    assert read_folder(tmp_path).datasets == []
