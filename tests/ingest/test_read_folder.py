import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from labwright.ingest import (
    READERS,
    Dataset,
    DocumentText,
    ImageInfo,
    Skipped,
    read_folder,
    scan_folder,
)
from labwright.ingest.read import read_file

from .conftest import folder_digest, write_fig, write_pdf, write_v73_mat

T = np.linspace(0, 2, 21)


def build_lab_folder(root: Path) -> Path:
    """One of every format, as a student's folder would hold them."""
    (root / "raw").mkdir()
    (root / "notes.txt").write_text("Aim: measure the RC time constant.\n", encoding="utf-8")
    (root / "README.md").write_text(
        "# RC lab\nMethod: discharge through 1 kOhm.\n", encoding="utf-8"
    )
    (root / "raw" / "pendulum.csv").write_text(
        "L (m),T (s)\n" + "".join(f"{x:.2f},{2 * np.pi * np.sqrt(x / 9.81):.4f}\n" for x in T[1:]),
        encoding="utf-8",
    )
    (root / "raw" / "温度.csv").write_bytes(
        "时间 (s),温度 (°C)\n0,20.1\n1,20.5\n2,21.0\n".encode("gbk")
    )
    pd.DataFrame({"t (s)": T, "U (V)": 5 * np.exp(-T)}).to_excel(
        root / "raw" / "rc.xlsx", index=False
    )
    (root / "raw" / "spectrum.json").write_text(
        json.dumps({"wavelength (nm)": [400, 500, 600], "I (a.u.)": [1, 3, 2]}), encoding="utf-8"
    )
    np.save(root / "raw" / "trace.npy", np.sin(T))
    np.savez(root / "raw" / "bundle.npz", x=T, y=T**2)
    scipy.io.savemat(root / "raw" / "scope.mat", {"t": T, "V": np.cos(T), "s": {"gain": T * 3}})
    write_v73_mat(root / "raw" / "long.mat", {"t": T, "I": T * 2})
    write_fig(root / "raw" / "plot.fig", [(T, T**2, "data")], "t (s)", "x (m)", "Motion")
    write_pdf(root / "handout.pdf", "Lab handout: RC circuits")
    Image.new("RGB", (64, 48), (255, 0, 0)).save(root / "photo.png")
    (root / "raw" / "empty.csv").write_bytes(b"")
    (root / "raw" / "binary.csv").write_bytes(bytes(range(256)) * 4)
    (root / "raw" / "broken.mat").write_bytes(b"MATLAB 5.0 MAT-file" + b"\xff" * 200)
    (root / "tool.exe").write_bytes(b"MZ\x90\x00")
    (root / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    return root


def test_reads_every_format_and_skips_the_broken(data_dir: Path) -> None:
    build_lab_folder(data_dir)
    result = read_folder(data_dir)
    names = {d.name for d in result.datasets}
    assert {
        "pendulum",
        "温度",
        "rc",
        "spectrum",
        "trace",
        "bundle",
        "scope",
        "scope:s",
        "long",
        "plot",
    } <= names
    assert {d.source for d in result.documents} == {"notes.txt", "README.md", "handout.pdf"}
    assert [i.source for i in result.images] == ["photo.png"]
    skipped = {s.source: s.reason for s in result.skipped}
    assert set(skipped) == {"raw/empty.csv", "raw/binary.csv", "raw/broken.mat", "tool.exe"}
    for reason in skipped.values():
        assert reason.endswith(".") and "\n" not in reason and len(reason) < 200
    # Provenance always points back to the file (relative) and the column.
    for dataset in result.datasets:
        for column in dataset.columns:
            assert column.provenance.file == dataset.source
            assert not Path(column.provenance.file).is_absolute()
            assert column.provenance.column


def test_nothing_is_written_into_the_folder(data_dir: Path) -> None:
    build_lab_folder(data_dir)
    before = folder_digest(data_dir)
    inventory = scan_folder(data_dir)
    read_folder(data_dir, inventory)
    read_folder(data_dir)
    assert folder_digest(data_dir) == before


@pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "mkfifo"), reason="needs symlinks and FIFOs"
)
def test_link_out_of_the_folder_is_never_opened(tmp_path: Path, data_dir: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET-TOKEN 1 2 3\n", encoding="utf-8")
    # A FIFO target: opening it for reading would block, so the test hangs
    # (and times out) if anything follows the link.
    os.mkfifo(outside / "pipe")
    (data_dir / "notes.txt").symlink_to(outside / "secret.txt")
    (data_dir / "data.csv").symlink_to(outside / "pipe")
    (data_dir / "ok.csv").write_text("x,y\n1,2\n3,4\n", encoding="utf-8")
    result = read_folder(data_dir)
    assert [d.name for d in result.datasets] == ["ok"]
    assert result.documents == []
    assert {s.source for s in result.skipped} == {"notes.txt", "data.csv"}
    assert all("outside the folder" in s.reason for s in result.skipped)
    assert "TOP-SECRET" not in repr(result)


@pytest.mark.skipif(sys.platform == "win32", reason="needs symlinks")
def test_folder_changed_after_scan_is_checked_again(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "secret.csv").write_text("x\n42\n43\n", encoding="utf-8")
    (data_dir / "a.csv").write_text("x\n1\n2\n", encoding="utf-8")
    inventory = scan_folder(data_dir)
    (data_dir / "a.csv").unlink()
    (data_dir / "a.csv").symlink_to(tmp_path / "secret.csv")
    result = read_folder(data_dir, inventory)
    assert result.datasets == []
    assert "no longer a file inside the folder" in result.skipped[0].reason


def test_same_stem_in_two_places_gets_path_names(data_dir: Path) -> None:
    for sub in ("day1", "day2"):
        (data_dir / sub).mkdir()
        (data_dir / sub / "run.csv").write_text("x,y\n1,2\n3,4\n", encoding="utf-8")
    (data_dir / "other.csv").write_text("x,y\n1,2\n3,4\n", encoding="utf-8")
    names = sorted(d.name for d in read_folder(data_dir).datasets)
    assert names == ["day1/run.csv", "day2/run.csv", "other"]


def test_empty_folder(data_dir: Path) -> None:
    result = read_folder(data_dir)
    assert (result.datasets, result.images, result.documents, result.skipped) == ([], [], [], [])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=st.binary(max_size=2048), suffix=st.sampled_from(sorted(READERS)))
def test_any_bytes_under_any_extension_never_raise(
    tmp_path: Path, content: bytes, suffix: str
) -> None:
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(content)
    items = read_file(path, path.name)
    assert items
    for item in items:
        assert isinstance(item, (Dataset, DocumentText, ImageInfo, Skipped))
        if isinstance(item, Skipped):
            assert item.reason.startswith(path.name) or item.variable is not None


@pytest.mark.parametrize("suffix", sorted(READERS))
def test_truncated_valid_headers_never_raise(tmp_path: Path, suffix: str) -> None:
    """Real magic bytes followed by garbage: the hardest case for parsers."""
    magic = {
        ".xlsx": b"PK\x03\x04",
        ".xlsm": b"PK\x03\x04",
        ".npz": b"PK\x03\x04",
        ".npy": b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (1000000,), }",
        ".mat": b"MATLAB 5.0 MAT-file".ljust(124, b" ")
        + b"\x00\x01IM"
        + b"\x0e\x00\x00\x00\xff\xff\xff\x7f",
        ".fig": b"MATLAB 5.0 MAT-file".ljust(124, b" ") + b"\x00\x01IM",
        ".h5": b"\x89HDF\r\n\x1a\n",
        ".hdf5": b"\x89HDF\r\n\x1a\n",
        ".pdf": b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>",
        ".png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01\x00\x00\x00\x01\x00\x00\x08\x02",
        ".jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF",
    }.get(suffix, b"")
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(magic + b"\x00\x01\x02garbage" * 3)
    items = read_file(path, path.name)
    assert items and all(isinstance(i, (Dataset, DocumentText, ImageInfo, Skipped)) for i in items)


def test_inventory_entries_outside_the_folder_are_refused(tmp_path: Path, data_dir: Path) -> None:
    """An inventory is data (it may come from a stored session): paths in it
    that leave the folder are not read, whatever they say."""
    from labwright.ingest import FileEntry, Inventory

    secret = tmp_path / "secret.csv"
    secret.write_text("x\n4242\n4343\n", encoding="utf-8")
    inventory = Inventory(
        files=[
            FileEntry("../secret.csv", 10, None, "data"),
            FileEntry(str(secret), 10, None, "data"),
            FileEntry("sub/../../secret.csv", 10, None, "data"),
        ],
    )
    result = read_folder(data_dir, inventory)
    assert result.datasets == [] and result.documents == []
    assert len(result.skipped) == 3
    assert "4242" not in repr(result)


def test_extensions_are_case_insensitive(data_dir: Path) -> None:
    (data_dir / "RUN.CSV").write_text("x,y\n1,2\n3,4\n", encoding="utf-8")
    Image.new("RGB", (8, 8)).save(data_dir / "PHOTO.PNG", format="PNG")
    inventory = scan_folder(data_dir)
    assert {f.path: f.bucket for f in inventory.files} == {"PHOTO.PNG": "images", "RUN.CSV": "data"}
    result = read_folder(data_dir, inventory)
    assert [d.name for d in result.datasets] == ["RUN"] and len(result.images) == 1
