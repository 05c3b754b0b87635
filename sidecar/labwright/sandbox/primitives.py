"""The helpers model code uses instead of os/glob/pathlib: every ban ships
with a replacement, or the model is pushed towards violations."""

from __future__ import annotations

import os
from collections.abc import Callable

from labwright.safety import real_inside


def make_primitives(data_root: str | None) -> dict[str, Callable[..., object]]:
    root = os.path.realpath(data_root) if data_root else None

    def _inside(rel: str) -> str:
        if root is None:
            raise FileNotFoundError("No data folder was given for this figure; plot computed data.")
        target = os.path.realpath(os.path.join(root, str(rel)))
        if not real_inside(target, root):
            raise PermissionError(
                f"{rel!r} is outside the data folder; pass a name relative to it, "
                "as listed by walkfiles()."
            )
        return target

    def srcpath(name: str) -> str:
        """Absolute path of a file in the data folder, e.g. srcpath('run1/data.csv')."""
        path = _inside(name)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{name!r} does not exist in the data folder; see walkfiles().")
        return path

    def listdir(sub: str = "") -> list[str]:
        """Sorted names in a folder of the data folder ('' is its top)."""
        return sorted(os.listdir(_inside(sub)))

    def walkfiles() -> list[str]:
        """Every file in the data folder, as relative paths with '/' separators."""
        base = _inside("")
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames.sort()
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), base)
                found.append(rel.replace(os.sep, "/"))
        return found

    return {"srcpath": srcpath, "listdir": listdir, "walkfiles": walkfiles}
