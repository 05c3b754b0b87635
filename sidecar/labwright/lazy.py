"""Package exports imported on first use (PEP 562).

A package's `__init__` that imports its submodules makes every process pay
for all of them, whichever one it needs: the confined workers and the TeX
launcher start from one module each, and the command line needs few.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports `exports[name]` (a
    module path) when `name` is first looked up."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(module), name)

    return __getattr__
