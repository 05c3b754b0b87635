import hashlib
import os
import sys
from pathlib import Path

import pytest

from labwright.ingest import scan_folder
from labwright.ingest.scan import MAX_DEPTH, MAX_FILES

from .conftest import folder_digest

needs_symlinks = pytest.mark.skipif(
    sys.platform == "win32", reason="symlinks need privileges on Windows"
)


def paths(inventory) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.path for f in inventory.files]


def test_inventory_paths_sizes_hashes_and_buckets(data_dir: Path) -> None:
    (data_dir / "sub").mkdir()
    files = {
        "notes.txt": b"Aim: measure g.\nWe used a 1 m pendulum.\n",
        "periods.txt": b"L T\n0.5 1.42\n1.0 2.01\n1.5 2.46\n",
        "refs.bib": b"@book{x, title={y}}\n",
        "sub/run.csv": b"t,V\n0,1\n1,2\n",
        "sub/photo.png": b"\x89PNG fake",
        "handout.pdf": b"%PDF-1.4",
        "rc.mat": b"MATLAB",
        "tool.exe": b"MZ",
    }
    for rel, content in files.items():
        (data_dir / rel).write_bytes(content)
    inv = scan_folder(data_dir)
    assert paths(inv) == sorted(files, key=lambda p: (p.count("/"), p)) or set(paths(inv)) == set(
        files
    )
    by_path = {f.path: f for f in inv.files}
    for rel, content in files.items():
        assert by_path[rel].size == len(content)
        assert by_path[rel].sha256 == hashlib.sha256(content).hexdigest()
    buckets = {rel: f.bucket for rel, f in by_path.items()}
    assert buckets == {
        "notes.txt": "documents",
        "periods.txt": "data",
        "refs.bib": "documents",
        "sub/run.csv": "data",
        "sub/photo.png": "images",
        "handout.pdf": "documents",
        "rc.mat": "data",
        "tool.exe": "other",
    }
    assert inv.counts["files"] == 8
    assert (
        inv.counts["documents"],
        inv.counts["images"],
        inv.counts["data"],
        inv.counts["other"],
    ) == (3, 1, 3, 1)
    assert inv.warnings == []


def test_order_is_stable(data_dir: Path) -> None:
    for name in ("b.csv", "a.csv", "c/d.csv", "c/a.csv"):
        (data_dir / name).parent.mkdir(exist_ok=True)
        (data_dir / name).write_text("x\n1\n", encoding="utf-8")
    assert paths(scan_folder(data_dir)) == ["a.csv", "b.csv", "c/a.csv", "c/d.csv"]


def test_hidden_and_os_junk_are_skipped(data_dir: Path) -> None:
    junk = [
        ".DS_Store",
        "Thumbs.db",
        "desktop.ini",
        "~$report.xlsx",
        "._data.csv",
        ".hidden.csv",
        "__MACOSX/data.csv",
        ".git/config",
        "sub/.DS_Store",
        "sub/Thumbs.db",
        "__pycache__/x.pyc",
    ]
    for rel in junk + ["data.csv", "sub/keep.csv"]:
        (data_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (data_dir / rel).write_text("x\n1\n", encoding="utf-8")
    inv = scan_folder(data_dir)
    assert paths(inv) == ["data.csv", "sub/keep.csv"]
    assert inv.counts["skipped_hidden"] >= 8


def test_file_limit_warns_and_stops(data_dir: Path) -> None:
    for i in range(30):
        (data_dir / f"f{i:02d}.csv").write_bytes(b"")
    inv = scan_folder(data_dir, max_files=10)
    assert paths(inv) == [f"f{i:02d}.csv" for i in range(10)]
    assert len(inv.warnings) == 1 and "more than 10 files" in inv.warnings[0]


def test_depth_limit_warns_and_keeps_shallow_files(data_dir: Path) -> None:
    deep = data_dir
    for level in range(1, 6):
        deep = deep / f"d{level}"
        deep.mkdir()
        (deep / f"at{level}.csv").write_bytes(b"")
    inv = scan_folder(data_dir, max_depth=3)
    assert paths(inv) == ["d1/at1.csv", "d1/d2/at2.csv", "d1/d2/d3/at3.csv"]
    assert len(inv.warnings) == 1 and "deeper than 3 levels" in inv.warnings[0]


@pytest.mark.slow
def test_default_file_limit(data_dir: Path) -> None:
    """At the real default: 20,001 empty files (about 10 s, mostly file creation)."""
    assert MAX_FILES == 20_000
    for i in range(MAX_FILES + 1):
        os.close(os.open(data_dir / f"{i:05d}.dat", os.O_CREAT | os.O_WRONLY, 0o644))
    inv = scan_folder(data_dir)
    assert len(inv.files) == MAX_FILES
    assert inv.files[-1].path == f"{MAX_FILES - 1:05d}.dat"
    assert any("more than 20,000 files" in w for w in inv.warnings)


def test_default_depth_limit(data_dir: Path) -> None:
    assert MAX_DEPTH == 12
    chain = data_dir
    for level in range(1, 15):
        chain = chain / f"l{level}"
        chain.mkdir()
        (chain / "x.csv").touch()
    inv = scan_folder(data_dir)
    depths = sorted(f.path.count("/") for f in inv.files)
    assert depths == list(range(1, MAX_DEPTH + 1))  # files in the 12th folder level are listed
    assert any("deeper than 12 levels" in w for w in inv.warnings)


@needs_symlinks
def test_symlink_out_of_the_folder_is_listed_not_followed(tmp_path: Path, data_dir: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("TOP-SECRET-TOKEN\n", encoding="utf-8")
    (outside / "more").mkdir()
    (outside / "more" / "data.csv").write_text("x\n1\n", encoding="utf-8")
    (data_dir / "notes.txt").symlink_to(secret)
    (data_dir / "linked_dir").symlink_to(outside)
    (data_dir / "real.csv").write_text("x\n1\n", encoding="utf-8")
    inv = scan_folder(data_dir)
    by_path = {f.path: f for f in inv.files}
    assert set(by_path) == {
        "notes.txt",
        "linked_dir",
        "real.csv",
    }  # nothing from inside the linked dir
    for rel in ("notes.txt", "linked_dir"):
        assert by_path[rel].symlink_outside
        assert by_path[rel].sha256 is None and by_path[rel].size == 0
    assert not by_path["real.csv"].symlink_outside
    assert inv.counts["symlinks_outside"] == 2


@needs_symlinks
def test_symlink_inside_the_folder(data_dir: Path) -> None:
    (data_dir / "a").mkdir()
    (data_dir / "a" / "x.csv").write_text("x\n1\n", encoding="utf-8")
    (data_dir / "alias.csv").symlink_to(data_dir / "a" / "x.csv")
    (data_dir / "loop").symlink_to(data_dir)  # a loop is never descended
    inv = scan_folder(data_dir)
    by_path = {f.path: f for f in inv.files}
    assert set(by_path) == {"a/x.csv", "alias.csv"}
    assert by_path["alias.csv"].sha256 == by_path["a/x.csv"].sha256
    assert any("not followed" in w for w in inv.warnings)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_not_opened(data_dir: Path) -> None:
    os.mkfifo(data_dir / "pipe.csv")  # opening it for reading would block forever
    (data_dir / "ok.csv").write_text("x\n1\n", encoding="utf-8")
    inv = scan_folder(data_dir)
    assert paths(inv) == ["ok.csv"]


def test_missing_or_file_root(tmp_path: Path) -> None:
    assert scan_folder(tmp_path / "nope").files == []
    assert scan_folder(tmp_path / "nope").warnings
    (tmp_path / "f.csv").write_text("x\n", encoding="utf-8")
    assert scan_folder(tmp_path / "f.csv").warnings


def test_scan_writes_nothing(data_dir: Path) -> None:
    (data_dir / "a.csv").write_text("x\n1\n", encoding="utf-8")
    (data_dir / "s").mkdir()
    (data_dir / "s" / "b.txt").write_text("hello", encoding="utf-8")
    before = folder_digest(data_dir)
    scan_folder(data_dir)
    assert folder_digest(data_dir) == before


def test_hashing_stops_at_the_byte_budget_with_a_warning(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"d{i}.csv").write_bytes(b"x,y\n" + b"1,2\n" * 250)  # 1,004 bytes each
    inventory = scan_folder(tmp_path, max_hash_bytes=2_500)
    hashed = [f.sha256 is not None for f in sorted(inventory.files, key=lambda f: f.path)]
    assert hashed == [True, True, False, False]
    assert all(f.bucket == "data" for f in inventory.files)
    assert any("without a checksum" in w for w in inventory.warnings)
