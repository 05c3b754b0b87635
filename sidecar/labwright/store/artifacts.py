"""Where a version's built files live, and safe lookups inside that directory.

A run builds into `sessions/<id>/builds/run-<run>/`, and the version it yields
keeps that directory as its own (nothing is moved, so the paths in the run's
persisted events stay true). Versions made without a build (a restore, an
accepted edit) borrow the files of their nearest ancestor that has one, except
the PDF, which only a version's own build can vouch for.

Lookups never join client input onto a path: names are matched against a
listing of the directory, and every candidate is checked with lstat, so a
symlink placed in a build directory is never followed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labwright.config import DataDir
from labwright.safety import is_real_dir, is_regular_file, read_regular_whole
from labwright.store import Store
from labwright.store.models import VersionInfo

PDF_NAME = "report.pdf"
PDF_OWNER = "report.version"  # the id of the version the PDF shows
FIGURES_DIR = "figures"
#: The number record a build wrote (agent/offline/provenance.py).
PROVENANCE_JSON = "provenance.json"
_RECORD_LIMIT = 16 << 20
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".pdf", ".svg", ".eps"})
_MAX_ANCESTORS = 1000


def run_dir(data: DataDir, session_id: int, run_id: int) -> Path:
    return data.session_paths(session_id).builds / f"run-{int(run_id)}"


def version_dir(data: DataDir, version: VersionInfo) -> Path | None:
    """The build directory a version came out of, or None when no run made it."""
    if version.run_id is None:
        return None
    return run_dir(data, version.session_id, version.run_id)


def own_pdf(data: DataDir, version: VersionInfo) -> Path | None:
    build = version_dir(data, version)
    if build is None or not is_real_dir(build):
        return None
    pdf, owner = build / PDF_NAME, build / PDF_OWNER
    if not (is_regular_file(pdf) and is_regular_file(owner)):
        return None
    # A run that saved drafts made several versions; the PDF shows only one of them.
    return pdf if owner.read_text(encoding="utf-8").strip() == str(version.id) else None


def pdf_for(store: Store, data: DataDir, version: VersionInfo) -> Path | None:
    """The version's own PDF, or that of an ancestor with byte-identical content (a restore)."""
    current: VersionInfo | None = version
    for _ in range(_MAX_ANCESTORS):
        if current is None or current.sha256 != version.sha256:
            return None
        pdf = own_pdf(data, current)
        if pdf is not None:
            return pdf
        current = store.get_version(current.parent_id) if current.parent_id else None
    return None


def build_dir_for(store: Store, data: DataDir, version: VersionInfo) -> Path | None:
    """The version's own build directory, else its nearest ancestor's."""
    current: VersionInfo | None = version
    for _ in range(_MAX_ANCESTORS):
        if current is None:
            return None
        candidate = version_dir(data, current)
        if candidate is not None and is_real_dir(candidate):
            return candidate
        current = store.get_version(current.parent_id) if current.parent_id else None
    return None


@dataclass(frozen=True)
class NumberRecord:
    """A build's provenance.json, and the version whose build wrote it."""

    data: dict[str, Any]
    path: Path
    version_no: int


def _read_record(path: Path) -> dict[str, Any] | None:
    raw = read_regular_whole(path, _RECORD_LIMIT)
    if raw is None:
        return None
    try:
        loaded = json.loads(raw)
    except ValueError:
        return None
    return loaded if isinstance(loaded, dict) else None


def record_for(store: Store, data: DataDir, version: VersionInfo) -> NumberRecord | None:
    """The number record that speaks for `version`: its own build's, else
    that of its nearest ancestor whose build has one. A record lists what was
    computed; which of it a version prints is read from the version's own
    tags (verify/trace.py), so an edit, a restore or an edit made on the
    command line (no build of its own) is traced against the record it came
    from, never shown as having no numbers at all."""
    current: VersionInfo | None = version
    for _ in range(_MAX_ANCESTORS):
        if current is None:
            return None
        build = version_dir(data, current)
        if build is not None and is_real_dir(build):
            path = build / PROVENANCE_JSON
            record = _read_record(path)
            if record is not None:
                return NumberRecord(record, path, current.version_no)
        current = store.get_version(current.parent_id) if current.parent_id else None
    return None


def list_figures(build: Path | None) -> list[Path]:
    """Figure files of a build, regular files only, sorted by name."""
    if build is None:
        return []
    folder = build / FIGURES_DIR
    if not is_real_dir(folder):
        return []
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            path = Path(entry.path)
            if (
                entry.is_file(follow_symlinks=False)
                and not entry.name.startswith(".")
                and path.suffix.lower() in IMAGE_SUFFIXES
            ):
                found.append(path)
    return sorted(found, key=lambda p: p.name)


def find_figure(build: Path | None, name: str) -> Path | None:
    """The figure called exactly `name`, matched against the listing (never joined)."""
    for path in list_figures(build):
        if path.name == name:
            return path
    return None
