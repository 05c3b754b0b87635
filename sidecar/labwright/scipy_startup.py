"""SciPy's import without the two things it does at import that a build never uses.

Every process that fits, tests or transforms imports SciPy, and on this
project's 2-core target SciPy's own import-time work sat on the critical path
of every build (measured with the locked SciPy 1.17, CPU seconds of one
import, before -> after):

- `scipy._lib._array_api.xp_capabilities` rewrites the docstring of every
  function it decorates, parsing it with numpydoc's `FunctionDoc` to append
  a table of array backends: ~800 docstrings parsed for `scipy.stats` and
  `scipy.signal`, ~0.2 s each. Nothing in a build reads SciPy's docstrings,
  so the parser is replaced by one that keeps the docstring as written.
- SciPy's copy of `array_api_compat` clones numpy's namespace by asking
  `hasattr(numpy, name)` for every name numpy lists, and numpy imports its
  lazy submodules on that question: `numpy.f2py` (a Fortran wrapper
  generator, with its encoding detector) and `numpy.testing` (with
  `unittest`), ~0.05 s together. They are made lazy modules
  (`importlib.util.LazyLoader`, the standard library's recipe) that load
  the first time one of their attributes is used; nothing in a build does.

`scipy.optimize` 0.32 -> 0.19 s, `scipy.stats` 0.60 -> 0.38 s. Both changes
happen when `scipy._lib._array_api` is first imported and only then (a
process that never imports SciPy is untouched); each is skipped when SciPy or
numpy no longer look the way this module expects, so a new SciPy can cost
time, never break an import. `install()` is called once at the program's
entry (`labwright.__main__`), never by importing the package.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import importlib.abc

#: The module whose import is watched: numpy is imported by then, and every
#: SciPy module that decorates functions imports it first.
WATCHED = "scipy._lib._array_api"
#: numpy's lazily imported submodules that the namespace clone would import.
LAZY_NUMPY = ("numpy.f2py", "numpy.testing")


class KeptDocstring:
    """Stands in for numpydoc's `FunctionDoc` in `xp_capabilities`: the
    backend note appended to `doc["Notes"]` is dropped, and `str()` gives
    back the docstring (after the signature line the decorator strips)."""

    def __init__(self, func: Any, *args: Any, **kwargs: Any) -> None:
        self._doc = getattr(func, "__doc__", None) or ""

    def __getitem__(self, section: str) -> list[str]:
        return []

    def __str__(self) -> str:
        return "\n" + self._doc


def lazy_module(name: str) -> ModuleType | None:
    """`name` registered as a module that loads on first attribute use (and
    set on its parent package, as an import would); None when it cannot be
    found or is imported already."""
    if name in sys.modules:
        return None
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return None
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)
    return module


def _before() -> None:
    if "numpy" not in sys.modules:
        return
    for name in LAZY_NUMPY:
        try:
            lazy_module(name)
        except Exception:  # an odd numpy: leave its submodules as they are
            sys.modules.pop(name, None)


def _after(module: ModuleType) -> None:
    if callable(getattr(module, "FunctionDoc", None)) and callable(
        getattr(module, "xp_capabilities", None)
    ):
        module.FunctionDoc = KeptDocstring  # type: ignore[attr-defined]


class _Wrapped:
    """The watched module's own loader, with `_before` and `_after` around
    its execution; everything else (source, resources) is the loader's.
    (Plain classes here and below: `importlib.abc` imports importlib.resources,
    ~20 ms, at the very start of every command.)"""

    def __init__(self, loader: Any, after: Callable[[ModuleType], None]) -> None:
        self._loader = loader
        self._after = after

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        created: ModuleType | None = self._loader.create_module(spec)
        return created

    def exec_module(self, module: ModuleType) -> None:
        _before()
        self._loader.exec_module(module)
        self._after(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Watch:
    """Finds the watched module with the finders after it and wraps its loader."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != WATCHED:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: importlib.machinery.ModuleSpec | None = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = cast("importlib.abc.Loader", _Wrapped(spec.loader, _after))
                return spec
        return None


def install() -> None:
    """Watch for SciPy's import (once per process; nothing if it is imported already)."""
    if WATCHED in sys.modules or any(isinstance(f, _Watch) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Watch())
