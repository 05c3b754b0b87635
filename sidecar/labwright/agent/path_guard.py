"""Keep every model-supplied path inside the data folder.

The model chooses which file to read; one `../` or a symlink must not take it
outside. An escape is not an exception: the tool returns a sentence the model
can act on, and the run goes on.
"""

from __future__ import annotations

from pathlib import Path


class PathEscape(ValueError):
    pass


def resolve_inside(root: Path, relative: str | None) -> Path:
    """Resolve `relative` under `root` (symlinks included) or raise PathEscape."""
    base = root.resolve()
    candidate = (base / (relative or "")).resolve()
    if candidate != base and base not in candidate.parents:
        raise PathEscape(
            f"'{relative}' is outside the data folder; use a path relative to the folder, "
            "as listed by list_dir."
        )
    return candidate


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path`, resolved (symlinks included), lies in or at `root`."""
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False
