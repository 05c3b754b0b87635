"""Generators for the ingest tests: every input file is written by the test
into a temporary folder (no committed binaries), in the layout the real
producer (MATLAB, Excel, NumPy) uses."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import h5py
import numpy as np
import pytest
import scipy.io

# --- MATLAB v7.3: an HDF5 file behind MATLAB's 512-byte header ------------------

_V73_HEADER = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Sun Nov 29 20:00:00 2026 HDF5 schema 1.00 ."


def _matlab_class(node: h5py.HLObject, name: str) -> None:
    node.attrs["MATLAB_class"] = np.bytes_(name)


def _write_v73_value(parent: h5py.Group, refs: h5py.Group, name: str, value: object) -> None:
    if isinstance(value, dict):
        group = parent.create_group(name)
        _matlab_class(group, "struct")
        for key, item in value.items():
            _write_v73_value(group, refs, key, item)
    elif isinstance(value, list):  # cell array (1 x n)
        handles = []
        for i, item in enumerate(value):
            key = f"{name}_{i}_{len(refs)}"
            _write_v73_value(refs, refs, key, item)
            handles.append(refs[key].ref)
        data = np.array(handles, dtype=h5py.ref_dtype).reshape(
            len(handles), 1
        )  # MATLAB 1 x n, stored n x 1
        dset = parent.create_dataset(name, data=data)
        _matlab_class(dset, "cell")
    elif hasattr(value, "tocsc"):  # scipy sparse -> MATLAB's v7.3 sparse group
        csc = value.tocsc()
        group = parent.create_group(name)
        _matlab_class(group, "double")
        group.attrs["MATLAB_sparse"] = np.uint64(csc.shape[0])
        group["data"] = csc.data.astype(float)
        group["ir"] = csc.indices.astype(np.uint64)
        group["jc"] = csc.indptr.astype(np.uint64)
    elif isinstance(value, str):
        codes = np.array([ord(c) for c in value], dtype=np.uint16).reshape(-1, 1)
        dset = parent.create_dataset(name, data=codes)
        _matlab_class(dset, "char")
        dset.attrs["MATLAB_int_decode"] = np.int32(2)
    else:
        arr = np.atleast_2d(np.asarray(value, dtype=float))
        if arr.shape[0] == 1 and np.ndim(value) == 1:
            arr = arr.T  # MATLAB vectors from Python lists: column vectors (n x 1)
        # MATLAB writes column-major data: HDF5 sees the transpose.
        dset = parent.create_dataset(name, data=arr.T)
        _matlab_class(dset, "double")


def write_v73_mat(path: Path, variables: dict[str, object]) -> Path:
    with h5py.File(path, "w", userblock_size=512) as handle:
        refs = handle.create_group("#refs#")
        for name, value in variables.items():
            _write_v73_value(handle, refs, name, value)
    header = _V73_HEADER.ljust(116, b" ") + b"\x00" * 8 + b"\x00\x02" + b"IM"
    with open(path, "r+b") as handle:
        handle.write(header)
    return path


# --- MATLAB .fig: an hgS_070000 handle-graphics struct in a v5 MAT file ------------

_NODE_FIELDS = ("type", "handle", "properties", "children", "special")


def _nodes(nodes: list[dict[str, object]]) -> np.ndarray:
    """A MATLAB struct array (n x 1) of graphics nodes, as hgsave writes children."""
    arr = np.empty((len(nodes), 1), dtype=[(f, object) for f in _NODE_FIELDS])
    for i, node in enumerate(nodes):
        for f in _NODE_FIELDS:
            arr[i, 0][f] = node.get(f, np.zeros((0, 0)))
    return arr


def write_fig(
    path: Path,
    lines: list[tuple[np.ndarray | None, np.ndarray, str]],
    xlabel: str,
    ylabel: str,
    title: str,
    image: np.ndarray | None = None,
    axes_props: dict[str, object] | None = None,
) -> Path:
    """Write a .fig with one axes holding `lines` ((x or None, y, display name))
    and, optionally, an image (imagesc) whose CData is `image`."""
    children = []
    if image is not None:
        children.append({"type": "image", "handle": 90.0, "properties": {"CData": image}})
    for i, (x, y, display) in enumerate(lines):
        props: dict[str, object] = {
            "YData": np.asarray(y, dtype=float).reshape(1, -1),
            "DisplayName": display,
        }
        if x is not None:
            props["XData"] = np.asarray(x, dtype=float).reshape(1, -1)
        props["Color"] = np.array([[0.0, 0.447, 0.741]])
        children.append({"type": "graph2d.lineseries", "handle": 100.0 + i, "properties": props})
    text_handles = [201.0, 202.0, 203.0, 204.0]  # xlabel, ylabel, zlabel, title
    for handle, text in zip(text_handles, (xlabel, ylabel, "", title), strict=True):
        children.append({"type": "text", "handle": handle, "properties": {"String": text}})
    axes = {
        "type": "axes",
        "handle": 50.0,
        "properties": {
            "Position": np.array([[0.13, 0.11, 0.775, 0.815]]),
            "Box": "on",
            **(axes_props or {}),
        },
        "children": _nodes(children),
        "special": np.array([text_handles]),
    }
    figure = {
        "type": "figure",
        "handle": 1.0,
        "properties": {"Position": np.array([[100.0, 100.0, 560.0, 420.0]]), "Name": ""},
        "children": _nodes([axes]),
        "special": np.zeros((0, 0)),
    }
    scipy.io.savemat(path, {"hgS_070000": figure}, format="5")
    return path


# --- other producers ---------------------------------------------------------------


def write_pdf(path: Path, text: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context({"pdf.fonttype": 42}):
        fig = plt.figure()
        fig.text(0.1, 0.5, text)
        fig.savefig(path)
        plt.close(fig)
    return path


def folder_digest(root: Path) -> dict[str, str]:
    """Every entry under root (files, dirs, links) with a hash of its content or
    target; folders with their modification time, which changes when anything is
    created in them, even a temporary file that is deleted again."""
    out: dict[str, str] = {".": f"dir:{root.stat().st_mtime_ns}"}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            if full.is_symlink():
                out[rel] = "link:" + os.readlink(full)
            elif full.is_dir():
                out[rel] = f"dir:{full.stat().st_mtime_ns}"
            else:
                out[rel] = hashlib.sha256(full.read_bytes()).hexdigest()
    return out


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder
