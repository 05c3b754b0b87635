"""scan_folder: a zero-LLM inventory of a data folder.

What is in the folder is a question code answers: every file with its
relative path, size, SHA-256 and a coarse bucket, plus counts. The scan only
reads; it opens files for hashing and never creates, renames or touches
anything in the folder. Limits keep a mistaken drop (a home directory, a
drive root) from running for minutes: beyond them the inventory is cut with a
warning instead of failing.

Symlinks: a link whose target resolves outside the folder is listed with
`symlink_outside=True` and is neither followed, hashed nor read, so a link to
~/.ssh cannot leak into a report. Links to directories are never descended,
which also rules out loops.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from pathlib import Path, PurePosixPath

from labwright.messages import count, say
from labwright.safety import real_inside

from .delimited import looks_like_table
from .encoding import decode_text
from .types import Bucket, FileEntry, Inventory

MAX_FILES = 20_000
MAX_DEPTH = 12
# Hashing reads every byte; a dropped home directory or disk image must not
# take minutes. Past this many bytes, files are listed without a checksum.
MAX_HASH_BYTES = 2 * 1024**3

# Names that operating systems, sync tools and editors leave in folders.
_JUNK_NAMES = frozenset(
    name.lower()
    for name in (
        ".DS_Store",
        "Thumbs.db",
        "ehthumbs.db",
        "ehthumbs_vista.db",
        "desktop.ini",
        "Icon\r",
        "__MACOSX",
        "$RECYCLE.BIN",
        "System Volume Information",
        "__pycache__",
        "node_modules",
    )
)

_DOCUMENTS = frozenset(
    ".pdf .md .markdown .tex .bib .rst .names .doc .docx .odt .rtf .htm .html .pptx".split()
)
_IMAGES = frozenset(".png .jpg .jpeg .gif .bmp .tif .tiff .webp .svg .eps".split())
_DATA = frozenset(
    ".csv .tsv .dat .data .xlsx .xlsm .xls .json .npy .npz .mat .fig .h5 .hdf5".split()
)

_SNIFF_BYTES = 16 * 1024
# Files without an extension that are notes by convention.
_NOTE_NAMES = frozenset("readme notes description readme_first abstract".split())


def is_junk(name: str) -> bool:
    """Hidden files (dot files, AppleDouble `._x`), OS litter and Office lock files (`~$x`)."""
    return name.startswith((".", "~$")) or name.lower() in _JUNK_NAMES


def _hidden_on_windows(st: os.stat_result) -> bool:
    attributes = getattr(st, "st_file_attributes", 0)
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 0))


def bucket_for(path: str, head: bytes | None = None) -> Bucket:
    """Coarse bucket from the extension; a .txt is data when its start is a table."""
    suffix = PurePosixPath(path).suffix.lower()
    if not suffix and PurePosixPath(path).name.lower() in _NOTE_NAMES:
        return "documents"
    if suffix == ".txt":
        if head is not None:
            decoded = decode_text(head[: head.rfind(b"\n") + 1] or head)
            if decoded is not None and looks_like_table(decoded.text):
                return "data"
        return "documents"
    if suffix in _DOCUMENTS:
        return "documents"
    if suffix in _IMAGES:
        return "images"
    if suffix in _DATA:
        return "data"
    return "other"


def _hash(path: Path) -> tuple[str, bytes]:
    """SHA-256 of the file and its first bytes (for classifying .txt)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        head = handle.read(_SNIFF_BYTES)
        digest.update(head)
        for chunk in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(chunk)
    return digest.hexdigest(), head


def _head(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(_SNIFF_BYTES)


def _inside(target: str, real_root: str) -> bool:
    return real_inside(target, real_root)


def scan_folder(
    root: Path,
    *,
    max_files: int = MAX_FILES,
    max_depth: int = MAX_DEPTH,
    max_hash_bytes: int = MAX_HASH_BYTES,
) -> Inventory:
    """List the folder's files, skipping hidden and OS junk files, within the limits.

    Files are hashed until `max_hash_bytes` have been read; later files (or a
    single file larger than what is left) are listed with `sha256=None`."""
    root = Path(root)
    real_root = os.path.realpath(root)
    inventory = Inventory()
    counts: Counter[str] = Counter()
    if not os.path.isdir(real_root):
        inventory.warnings.append(say("scan.not_a_folder", folder=str(root)))
        return inventory

    too_deep = 0
    hash_budget = max_hash_bytes
    unhashed = 0
    linked_dirs: list[str] = []
    unreadable: list[str] = []
    # Depth-first with sorted names, so the inventory (and any cut) is stable.
    stack: list[tuple[Path, PurePosixPath, int]] = [(Path(real_root), PurePosixPath(), 0)]
    full = False
    while stack and not full:
        directory, rel_dir, depth = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            unreadable.append(str(rel_dir) or ".")
            continue
        subdirs: list[tuple[Path, PurePosixPath, int]] = []
        for entry in entries:
            rel = rel_dir / entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                unreadable.append(str(rel))
                continue
            if is_junk(entry.name) or _hidden_on_windows(st):
                counts["skipped_hidden"] += 1
                continue
            if stat.S_ISLNK(st.st_mode):
                target = os.path.realpath(entry.path)
                if not _inside(target, real_root):
                    if len(inventory.files) >= max_files:
                        full = True
                        break
                    inventory.files.append(
                        FileEntry(str(rel), 0, None, bucket_for(str(rel)), symlink_outside=True)
                    )
                    counts["symlinks_outside"] += 1
                    continue
                if os.path.isdir(target):
                    linked_dirs.append(
                        str(rel)
                    )  # never descended: its files are listed where they live
                    continue
                if not os.path.isfile(target):
                    unreadable.append(str(rel))
                    continue
                st = os.stat(target)
            if stat.S_ISDIR(st.st_mode):
                if depth + 1 > max_depth:
                    too_deep += 1
                else:
                    subdirs.append((Path(entry.path), rel, depth + 1))
                continue
            if not stat.S_ISREG(st.st_mode):
                counts["skipped_special"] += 1  # FIFOs, sockets, devices: opening one could block
                continue
            if len(inventory.files) >= max_files:
                full = True
                break
            try:
                if st.st_size <= hash_budget:
                    sha, head = _hash(Path(entry.path))
                    hash_budget -= st.st_size
                else:
                    sha, head = None, _head(Path(entry.path))
                    unhashed += 1
            except OSError:
                # Listed without a checksum; reading it says why, once, by its
                # name (ingest/read.py), so the scan does not say it too.
                inventory.files.append(FileEntry(str(rel), st.st_size, None, bucket_for(str(rel))))
                continue
            inventory.files.append(FileEntry(str(rel), st.st_size, sha, bucket_for(str(rel), head)))
        stack.extend(reversed(subdirs))

    if full:
        inventory.warnings.append(say("scan.too_many_files", max=count(max_files)))
    if unhashed:
        inventory.warnings.append(
            say("scan.too_big_to_hash", gb=f"{max_hash_bytes / 1024**3:.0f}", count=unhashed)
        )
    if too_deep:
        inventory.warnings.append(say("scan.too_deep", count=too_deep, max=max_depth))
    if linked_dirs:
        inventory.warnings.append(
            say("scan.linked_dirs", count=len(linked_dirs), names=", ".join(linked_dirs[:3]))
        )
    if unreadable:
        inventory.warnings.append(
            say("scan.unreadable", count=len(unreadable), names=", ".join(unreadable[:3]))
        )
    for listed in inventory.files:
        counts[listed.bucket] += 1
    counts["files"] = len(inventory.files)
    inventory.counts = {
        k: counts.get(k, 0) for k in ("files", "documents", "images", "data", "other")
    }
    inventory.counts.update({k: v for k, v in counts.items() if k not in inventory.counts})
    return inventory
