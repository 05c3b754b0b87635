from pathlib import Path

import h5py
import numpy as np
import pytest
import scipy.io

from labwright.ingest import Dataset, Skipped, read_file
from labwright.ingest.read_matlab import mat_version

from .conftest import write_v73_mat

T = np.linspace(0, 1e-3, 40)
V = 5 * np.exp(-T / 2e-4)


def by_name(items: list) -> dict[str, Dataset]:
    return {d.name: d for d in items if isinstance(d, Dataset)}


@pytest.mark.parametrize("fmt", ["4", "5"])
def test_classic_mat_vectors_form_one_table_with_scalars(data_dir: Path, fmt: str) -> None:
    path = data_dir / "rc.mat"
    scipy.io.savemat(path, {"t": T, "V": V, "R": 1000.0, "C": 2e-7}, format=fmt)
    assert mat_version(path) == (0 if fmt == "4" else 1)
    found = by_name(read_file(path, "rc.mat"))
    rc = found["rc"]
    assert sorted(c.name for c in rc.columns) == ["V", "t"]
    np.testing.assert_allclose(rc.column("V").values, V)
    assert rc.column("V").provenance.variable == "V"
    assert rc.scalars == {"R": 1000.0, "C": 2e-7}


def test_v7_structs_and_cells_are_flattened(data_dir: Path) -> None:
    path = data_dir / "exp.mat"
    cells = np.empty((1, 2), dtype=object)
    cells[0, 0] = np.arange(5.0)
    cells[0, 1] = np.arange(7.0)
    scipy.io.savemat(
        path,
        {
            "data": {"voltage": V, "current": V / 1000, "info": {"operator": "Li", "gain": 10.0}},
            "trials": cells,
            "frame": np.arange(30.0).reshape(5, 6),
        },
        do_compression=True,
    )
    found = by_name(read_file(path, "exp.mat"))
    data = found["exp:data"]
    assert sorted(c.name for c in data.columns) == ["current", "voltage"]
    assert data.column("voltage").provenance.variable == "data.voltage"
    assert data.scalars == {"info.gain": 10.0}
    assert data.metadata == {"info.operator": "Li"}
    assert {"exp:trials{1}", "exp:trials{2}"} <= set(found)
    assert found["exp:frame"].kind == "matrix" and found["exp:frame"].matrix.shape == (5, 6)


def test_v73_hdf5_in_matlab_layout(data_dir: Path) -> None:
    frame = np.arange(12.0).reshape(3, 4)
    path = write_v73_mat(
        data_dir / "big.mat",
        {
            "t": T,
            "V": V,
            "R": 1000.0,
            "data": {"voltage": V, "current": V / 1000, "label": "run 1"},
            "trials": [np.arange(5.0), np.arange(5.0) + 1],
            "frame": frame,
        },
    )
    with h5py.File(path, "r") as handle:  # the file really has MATLAB's markers
        assert handle["data"].attrs["MATLAB_class"] == b"struct"
        assert handle["trials"].attrs["MATLAB_class"] == b"cell"
    assert mat_version(path) == 2
    found = by_name(read_file(path, "big.mat"))
    np.testing.assert_allclose(found["big"].column("V").values, V)
    assert found["big"].scalars == {"R": 1000.0}
    assert found["big:data"].column("voltage").provenance.variable == "data.voltage"
    assert found["big:data"].metadata == {"label": "run 1"}  # char arrays decoded from uint16
    assert [c.name for c in found["big:trials"].columns] == ["trials{1}", "trials{2}"]
    # MATLAB stores column-major; the reader must undo the transpose.
    np.testing.assert_array_equal(found["big:frame"].matrix, frame)


def test_complex_and_3d_variables_are_skipped_by_name(data_dir: Path) -> None:
    path = data_dir / "odd.mat"
    scipy.io.savemat(
        path, {"z": np.array([1 + 2j, 3 - 1j]), "cube": np.zeros((2, 3, 4)), "x": np.arange(4.0)}
    )
    items = read_file(path, "odd.mat")
    assert {s.variable for s in items if isinstance(s, Skipped)} == {"z", "cube"}
    np.testing.assert_allclose(by_name(items)["odd"].column("x").values, np.arange(4.0))


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated
        lambda raw: raw[:128] + bytes(len(raw) - 128),  # header kept, body zeroed
        lambda raw: b"not a mat file at all" * 10,
        lambda raw: b"",
    ],
)
def test_corrupt_mat_is_skipped(data_dir: Path, damage) -> None:  # type: ignore[no-untyped-def]
    good = data_dir / "good.mat"
    scipy.io.savemat(good, {"x": np.arange(1000.0), "s": {"a": np.arange(10.0)}})
    bad = data_dir / "bad.mat"
    bad.write_bytes(damage(good.read_bytes()))
    items = read_file(bad, "bad.mat")
    assert items and all(isinstance(i, Skipped) for i in items)
    assert items[0].reason.startswith("bad.mat ")


def test_corrupt_v73_is_skipped(data_dir: Path) -> None:
    good = write_v73_mat(data_dir / "good.mat", {"x": np.arange(1000.0)})
    bad = data_dir / "bad.mat"
    bad.write_bytes(good.read_bytes()[:700])
    (item,) = read_file(bad, "bad.mat")
    assert isinstance(item, Skipped)


def test_plain_hdf5_is_read_without_transposing(data_dir: Path) -> None:
    path = data_dir / "scan.h5"
    with h5py.File(path, "w") as handle:
        group = handle.create_group("run1")
        group["t"] = T
        group["signal"] = V
        handle["map"] = np.arange(6.0).reshape(2, 3)
    found = by_name(read_file(path, "scan.h5"))
    assert sorted(c.name for c in found["scan:run1"].columns) == ["signal", "t"]
    np.testing.assert_array_equal(found["scan:map"].matrix, np.arange(6.0).reshape(2, 3))


def test_struct_array_elements_are_named_like_matlab(data_dir: Path) -> None:
    runs = np.empty((1, 2), dtype=[("t", object), ("v", object), ("name", object)])
    runs[0, 0] = (np.arange(5.0), np.arange(5.0) * 2, "first")
    runs[0, 1] = (np.arange(7.0), np.arange(7.0) * 3, "second")
    scipy.io.savemat(data_dir / "s.mat", {"runs": runs})
    found = by_name(read_file(data_dir / "s.mat", "s.mat"))
    assert set(found) == {"s:runs(1)", "s:runs(2)"}
    second = found["s:runs(2)"]
    assert second.column("v").provenance.variable == "runs(2).v"
    np.testing.assert_allclose(second.column("v").values, np.arange(7.0) * 3)
    assert second.metadata == {"name": "second"}


@pytest.mark.parametrize("version", ["5", "7.3"])
def test_sparse_matrices_are_made_dense(data_dir: Path, version: str) -> None:
    import scipy.sparse

    dense = np.zeros((4, 5))
    dense[0, 1], dense[3, 4], dense[2, 0] = 1.5, -2.0, 7.0
    path = data_dir / "sp.mat"
    if version == "5":
        scipy.io.savemat(path, {"A": scipy.sparse.csc_matrix(dense)})
    else:
        write_v73_mat(path, {"A": scipy.sparse.csc_matrix(dense)})
    found = by_name(read_file(path, "sp.mat"))
    np.testing.assert_array_equal(found["sp:A"].matrix, dense)
