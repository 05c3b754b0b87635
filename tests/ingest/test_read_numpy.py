import pickle
from pathlib import Path

import numpy as np

from labwright.ingest import Dataset, Skipped, read_file


class _Exploit:
    """Unpickling this writes a marker file: proof that a pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.write_text, (self.marker, "pwned"))


def test_npy_vector_and_tall_array(data_dir: Path) -> None:
    np.save(data_dir / "v.npy", np.arange(10.0))
    np.save(data_dir / "xy.npy", np.column_stack([np.arange(50.0), np.arange(50.0) ** 2]))
    (v,) = read_file(data_dir / "v.npy", "v.npy")
    (xy,) = read_file(data_dir / "xy.npy", "xy.npy")
    assert isinstance(v, Dataset) and v.name == "v" and v.n_rows == 10
    assert isinstance(xy, Dataset) and xy.kind == "table" and len(xy.columns) == 2
    np.testing.assert_allclose(xy.columns[1].values, np.arange(50.0) ** 2)


def test_npy_matrix(data_dir: Path) -> None:
    np.save(data_dir / "m.npy", np.eye(20))
    (m,) = read_file(data_dir / "m.npy", "m.npy")
    assert isinstance(m, Dataset) and m.kind == "matrix" and m.matrix.shape == (20, 20)


def test_pickled_npy_is_never_loaded(data_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker.txt"
    arr = np.empty(1, dtype=object)
    arr[0] = _Exploit(marker)
    with open(data_dir / "evil.npy", "wb") as handle:
        np.lib.format.write_array(handle, arr, allow_pickle=True)
    (item,) = read_file(data_dir / "evil.npy", "evil.npy")
    assert isinstance(item, Skipped) and "never loaded" in item.reason
    assert not marker.exists()
    # The same bytes do execute when pickles are allowed: the test can fail.
    pickle.loads(pickle.dumps(_Exploit(marker)))
    assert marker.exists()


def test_npz_with_a_pickled_member(data_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker.txt"
    evil = np.empty(1, dtype=object)
    evil[0] = _Exploit(marker)
    np.savez(
        data_dir / "run.npz", t=np.linspace(0, 1, 20), v=np.linspace(1, 0, 20), gain=2.5, evil=evil
    )
    items = read_file(data_dir / "run.npz", "run.npz")
    (d,) = [i for i in items if isinstance(i, Dataset)]
    assert d.name == "run" and [c.name for c in d.columns] == ["t", "v"]
    assert d.scalars == {"gain": 2.5}
    assert d.columns[0].provenance.variable == "t"
    assert [s.variable for s in items if isinstance(s, Skipped)] == ["evil"]
    assert not marker.exists()


def test_truncated_npy_and_npz(data_dir: Path) -> None:
    np.save(data_dir / "a.npy", np.arange(1000.0))
    np.savez(data_dir / "b.npz", a=np.arange(1000.0))
    for name in ("a.npy", "b.npz"):
        raw = (data_dir / name).read_bytes()
        (data_dir / name).write_bytes(raw[: len(raw) // 2])
        (item,) = read_file(data_dir / name, name)
        assert isinstance(item, Skipped), name


def test_thousands_of_variables_are_bounded_and_reported_once(data_dir: Path) -> None:
    np.savez(data_dir / "many.npz", **{f"v{i:05d}": np.arange(3.0) + i for i in range(6000)})
    items = read_file(data_dir / "many.npz", "many.npz")
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert len(skipped) == 1 and "more than 5000 variables" in skipped[0].reason
    (table,) = [i for i in items if isinstance(i, Dataset)]
    assert len(table.columns) == 5000
