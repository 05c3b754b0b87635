"""Reader for MATLAB .mat files, v4 to v7 (scipy.io) and v7.3 (HDF5, h5py).

Both paths produce the same nested Python values (dicts for structs, lists for
cells, arrays in MATLAB's row-major orientation), so one walker in `arrays`
names and groups them: `data.voltage`, `trials{2}`.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from .arrays import collect
from .base import Item, ReaderContext, ReadError

# loadmat reads a whole file into memory; beyond this size we refuse politely.
MAX_MAT_BYTES = 512 * 1024 * 1024
# Largest HDF5 dataset read whole; larger ones are sliced or subsampled.
_MAX_H5_ELEMENTS = 20_000_000
_MAX_H5_DEPTH = 10


def mat_version(path: Path) -> int:
    """0 for v4, 1 for v5-v7, 2 for v7.3 (HDF5). Raises ReadError for non-MAT files."""
    # scipy.io is imported here, not at module level: it pulls in scipy.sparse
    # and numpy.testing (~60 ms), which a folder without MATLAB files never needs.
    from scipy.io.matlab import MatReadError, matfile_version

    try:
        with open(path, "rb") as handle:
            major, _minor = matfile_version(handle)
    except (MatReadError, ValueError, EOFError, OSError) as exc:
        raise ReadError("read.mat_invalid") from exc
    return int(major)


def _load_classic(path: Path) -> dict[str, object]:
    import scipy.io

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return scipy.io.loadmat(path, simplify_cells=True, mat_dtype=False)
    except NotImplementedError as exc:  # e.g. v7.3 mislabelled
        raise ReadError("read.mat_variant") from exc
    except Exception as exc:  # scipy raises many types on corrupt input
        raise ReadError("read.mat_damaged") from exc


def _h5_text(values: np.ndarray) -> str:
    codes = np.asarray(values).T.ravel()
    return "".join(chr(int(c)) for c in codes if 0 < int(c) < 0x110000)


def _h5_sparse(group: object, n_rows: int) -> object:
    """MATLAB's v7.3 sparse layout: compressed columns in `data`, `ir`, `jc`."""
    import scipy.sparse

    jc = np.asarray(group["jc"][()]).ravel()  # type: ignore[index]
    n_cols = len(jc) - 1
    if "data" not in group or "ir" not in group:  # type: ignore[operator]
        return scipy.sparse.csc_matrix((n_rows, n_cols))
    data = np.asarray(group["data"][()]).ravel()  # type: ignore[index]
    ir = np.asarray(group["ir"][()]).ravel()  # type: ignore[index]
    return scipy.sparse.csc_matrix((data.astype(float), ir, jc), shape=(n_rows, n_cols))


def _h5_value(obj: object, depth: int) -> object:
    import h5py

    if depth > _MAX_H5_DEPTH:
        return None
    attrs = obj.attrs  # type: ignore[attr-defined]
    matlab_class = attrs.get("MATLAB_class", b"")
    if isinstance(matlab_class, bytes):
        matlab_class = matlab_class.decode("ascii", "replace")
    if isinstance(obj, h5py.Group):
        if "MATLAB_sparse" in attrs:
            return _h5_sparse(obj, int(attrs["MATLAB_sparse"]))
        return {k: _h5_value(obj[k], depth + 1) for k in obj if not k.startswith("#")}
    if not isinstance(obj, h5py.Dataset):
        return None
    if attrs.get("MATLAB_empty", 0):
        return None
    if matlab_class == "char":
        return _h5_text(obj[()])
    if matlab_class == "cell" or obj.dtype == h5py.ref_dtype:
        refs = np.asarray(obj[()]).T.ravel()
        file = obj.file
        return [_h5_value(file[ref], depth + 1) for ref in refs[:10_000] if ref]
    if "MATLAB_object_decode" in attrs or matlab_class in ("function_handle", "string"):
        return None  # MATLAB objects (table, string, datetime) are opaque in v7.3
    if obj.dtype.names and set(obj.dtype.names) >= {"real", "imag"}:
        data = obj[()]
        return (data["real"] + 1j * data["imag"]).T
    if obj.dtype.kind not in "biuf":
        return None
    shape = obj.shape
    if obj.size > _MAX_H5_ELEMENTS:
        if len(shape) == 2 and min(shape) == 1:
            data = obj[:, :_MAX_H5_ELEMENTS] if shape[0] == 1 else obj[:_MAX_H5_ELEMENTS, :]
        elif len(shape) == 2:
            step = -(-max(shape) // 2000)
            data = obj[::step, ::step]
        else:
            return None
    else:
        data = obj[()]
    arr = np.asarray(data)
    if matlab_class == "logical":
        arr = arr.astype(bool)
    # MATLAB is column-major: an m x n array is stored as n x m in HDF5.
    return arr.T


def _load_v73(path: Path) -> dict[str, object]:
    import h5py

    try:
        with h5py.File(path, "r", locking=False) as handle:
            return {k: _h5_value(handle[k], 0) for k in handle if not k.startswith("#")}
    except OSError as exc:
        raise ReadError("read.mat73_damaged") from exc


def read_mat(path: Path, ctx: ReaderContext) -> list[Item]:
    if path.stat().st_size > MAX_MAT_BYTES:
        raise ReadError("read.mat_too_large")
    version = mat_version(path)
    workspace = _load_v73(path) if version == 2 else _load_classic(path)
    items = [(k, v) for k, v in workspace.items() if not k.startswith("__")]
    if not items:
        raise ReadError("read.mat_no_variables")
    result = collect(ctx.rel, ctx.name, items, ctx.max_rows)
    if not result.datasets:
        if result.skipped:
            return list(result.skipped)
        raise ReadError("read.no_numeric_arrays")
    return [*result.datasets, *result.skipped]


def read_hdf5(path: Path, ctx: ReaderContext) -> list[Item]:
    """Plain HDF5 (.h5, .hdf5): the same walk without MATLAB's transposition."""
    import h5py

    def value(obj: object, depth: int) -> object:
        if depth > _MAX_H5_DEPTH:
            return None
        if isinstance(obj, h5py.Group):
            return {k: value(obj[k], depth + 1) for k in obj}
        if (
            isinstance(obj, h5py.Dataset)
            and obj.dtype.kind in "biuf"
            and obj.size <= _MAX_H5_ELEMENTS
        ):
            return np.asarray(obj[()])
        return None

    try:
        with h5py.File(path, "r", locking=False) as handle:
            workspace = {k: value(handle[k], 0) for k in handle}
    except OSError as exc:
        raise ReadError("read.hdf5_damaged") from exc
    result = collect(ctx.rel, ctx.name, list(workspace.items()), ctx.max_rows)
    if not result.datasets:
        raise ReadError("read.no_numeric_arrays")
    return [*result.datasets, *result.skipped]
