import json
from pathlib import Path

import numpy as np
import pytest

from labwright.ingest import Dataset, Skipped, read_file


def write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def datasets(items: list) -> dict[str, Dataset]:
    return {d.name: d for d in items if isinstance(d, Dataset)}


def test_array_of_records(data_dir: Path) -> None:
    path = write(
        data_dir / "runs.json", [{"t (s)": i, "x (m)": i * 0.5, "note": f"r{i}"} for i in range(5)]
    )
    d = datasets(read_file(path, "runs.json"))["runs"]
    assert [(c.name, c.unit) for c in d.columns] == [("t", "s"), ("x", "m"), ("note", None)]
    np.testing.assert_allclose(d.column("x").values, [0, 0.5, 1, 1.5, 2])


def test_dict_of_columns(data_dir: Path) -> None:
    path = write(data_dir / "cols.json", {"f/Hz": [10, 20, 30], "gain/dB": [-1, -3, -9]})
    d = datasets(read_file(path, "cols.json"))["cols"]
    assert [(c.name, c.unit) for c in d.columns] == [("f", "Hz"), ("gain", "dB")]


def test_nested_records_and_arrays(data_dir: Path) -> None:
    value = {
        "meta": {"operator": "Li", "temperature": 293.15},
        "data": [{"t": 0, "v": 1.0}, {"t": 1, "v": 0.5}, {"t": 2, "v": 0.25}],
        "spectrum": {"wavelength": [400, 500, 600, 700], "intensity": [1, 3, 2, 1]},
        "image": [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
    }
    found = datasets(read_file(write(data_dir / "exp.json", value), "exp.json"))
    assert set(found) >= {"exp:data", "exp:spectrum", "exp:image"}
    assert found["exp:data"].column("v").provenance.variable == "data"
    assert found["exp:image"].kind == "matrix" and found["exp:image"].matrix.shape == (3, 3)
    # The scalar temperature is kept as a named scalar on the file's first table.
    assert any(d.scalars.get("meta.temperature") == 293.15 for d in found.values())


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b'{"a": [1, 2, 3', "not valid JSON"),
        (b'{"name": "only text"}', "holds no records"),
        (b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
    ],
)
def test_bad_json_is_skipped(data_dir: Path, content: bytes, fragment: str) -> None:
    path = data_dir / "bad.json"
    path.write_bytes(content)
    (item,) = read_file(path, "bad.json")
    assert isinstance(item, Skipped) and fragment in item.reason


def test_a_units_object_gives_the_columns_their_units(data_dir: Path) -> None:
    # A biochemist's JSON: units by column name or wildcard, the substance in them.
    value = {
        "units": {"S_mM": "mM sucrose", "v_rep*": "umol glucose / min", "T": "not a unit at all"},
        "data": [{"S_mM": s, "v_rep1": 0.1 * s, "v_rep2": 0.11 * s, "T": 30} for s in (1, 2, 4)],
    }
    d = next(iter(datasets(read_file(write(data_dir / "kin.json", value), "kin.json")).values()))
    units = {c.name: c.unit for c in d.columns}
    assert units == {"S": "mM", "v_rep1": "umol/min", "v_rep2": "umol/min", "T": None}


def test_units_written_with_the_substance_in_them() -> None:
    from labwright.ingest.units import unit_in_words

    assert unit_in_words("umol glucose / min") == "umol/min"
    assert unit_in_words("µmol product per min") == "µmol/min"
    assert unit_in_words("mM sucrose") == "mM"
    assert unit_in_words("mg/L") == "mg/L"
    assert unit_in_words("glucose") is None
    assert unit_in_words("3 times") is None
