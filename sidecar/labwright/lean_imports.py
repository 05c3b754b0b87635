"""The scientific stack imported without the work it does at import that a
build never uses.

Every process that fits, tests or transforms imports SciPy, and on this
project's 2-core target the import-time work below sat on the critical path
of every build (measured with the locked SciPy 1.17 and statsmodels 0.15):

- SciPy rewrites the docstrings of the functions it wraps as it defines them
  (`xp_capabilities` appends a table of array backends; the `axis` and
  `nan_policy`, random-generator, batching and deprecation wrappers rewrite
  parameter lists; the new distributions merge their class docs), each by
  parsing the docstring with its numpydoc copy (`scipy._lib._docscrape`):
  ~1000 docstrings for `scipy.stats` and `scipy.signal`. Nothing in a build
  reads SciPy's docstrings, so the parser's `FunctionDoc` and `ClassDoc`
  are replaced by one that keeps the docstring as written.
- SciPy's copy of `array_api_compat` clones numpy's namespace by asking
  `hasattr(numpy, name)` for every name numpy lists, and numpy imports its
  lazy submodules on that question: `numpy.f2py` (a Fortran wrapper
  generator, with its encoding detector) and `numpy.testing` (with
  `unittest`), ~0.05 s together. They are made lazy modules
  (`importlib.util.LazyLoader`, the standard library's recipe) that load
  the first time one of their attributes is used; nothing in a build does.
- statsmodels imports both of its formula engines whenever they are
  installed (~0.1 s for formulaic alone) and uses patsy when it is there.
  formulaic is left out, as the frozen app leaves it out of the bundle
  (build_scripts/labwright-sidecar.spec), and SM_FORMULA_ENGINE is pinned to
  patsy, as the frozen entry does: the venv and the app fit formulas alike.

CPU seconds of one import, before -> after: `scipy.optimize` 0.32 -> 0.19,
`scipy.stats` 0.60 -> 0.33, statsmodels' OLS after SciPy 0.12 -> 0.02. The
SciPy changes happen when those SciPy modules are first imported and only
then (a process that never imports SciPy is untouched); each is skipped when
SciPy or numpy no longer look the way this module expects, so a new SciPy
can cost time, never break an import. `install()` is called once at the
program's entry (`labwright.__main__`), never by importing the package.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import importlib.abc

#: statsmodels' formula engine that is imported, never used, when patsy is there.
LEFT_OUT = "formulaic"
FORMULA_ENGINE = "patsy"
#: numpy's lazily imported submodules that the namespace clone would import.
LAZY_NUMPY = ("numpy.f2py", "numpy.testing")


class KeptDocstring:
    """Stands in for numpydoc's `FunctionDoc` and `ClassDoc`: every section
    reads empty and takes no writes (what SciPy appends or replaces is
    dropped), and `str()` gives back the docstring as written, after the
    signature line that SciPy strips from it."""

    def __init__(self, obj: Any, *args: Any, **kwargs: Any) -> None:
        self._doc = getattr(obj, "__doc__", None) or ""

    def __getitem__(self, section: str) -> list[Any]:
        return []

    def __setitem__(self, section: str, value: Any) -> None:
        pass

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


def _numpy_submodules_lazy(module: ModuleType) -> None:
    """Before `scipy._lib._array_api` (which clones numpy's namespace) runs."""
    if "numpy" not in sys.modules:
        return
    for name in LAZY_NUMPY:
        try:
            lazy_module(name)
        except Exception:  # an odd numpy: leave its submodules as they are
            sys.modules.pop(name, None)


def _docstrings_kept(module: ModuleType) -> None:
    """After `scipy._lib._docscrape` ran, before any SciPy module takes its parser."""
    if all(callable(getattr(module, name, None)) for name in ("FunctionDoc", "ClassDoc")):
        module.FunctionDoc = KeptDocstring  # type: ignore[attr-defined]
        module.ClassDoc = KeptDocstring  # type: ignore[attr-defined]


def _nothing(module: ModuleType) -> None:
    pass


Step = Callable[[ModuleType], None]
#: Watched module -> (before its code runs, after).
WATCHED: dict[str, tuple[Step, Step]] = {
    "scipy._lib._array_api": (_numpy_submodules_lazy, _nothing),
    "scipy._lib._docscrape": (_nothing, _docstrings_kept),
}


class _Wrapped:
    """A watched module's own loader, with its steps around its execution;
    everything else (source, resources) is the loader's. (Plain classes here
    and below: `importlib.abc` imports importlib.resources, ~20 ms, at the
    very start of every command.)"""

    def __init__(self, loader: Any, before: Step, after: Step) -> None:
        self._loader = loader
        self._before = before
        self._after = after

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        created: ModuleType | None = self._loader.create_module(spec)
        return created

    def exec_module(self, module: ModuleType) -> None:
        self._before(module)
        self._loader.exec_module(module)
        self._after(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Watch:
    """Finds a watched module with the finders after it and wraps its loader."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        steps = WATCHED.get(fullname)
        if steps is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: importlib.machinery.ModuleSpec | None = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = cast("importlib.abc.Loader", _Wrapped(spec.loader, *steps))
                return spec
        return None


def install() -> None:
    """Leave formulaic out when patsy is there, and watch for SciPy's import
    (once per process; nothing if SciPy is imported already)."""
    if LEFT_OUT not in sys.modules and importlib.util.find_spec(FORMULA_ENGINE) is not None:
        sys.modules[LEFT_OUT] = None  # type: ignore[assignment]  # import raises ModuleNotFoundError
        os.environ["SM_FORMULA_ENGINE"] = FORMULA_ENGINE
    if any(name in sys.modules for name in WATCHED) or any(
        isinstance(f, _Watch) for f in sys.meta_path
    ):
        return
    sys.meta_path.insert(0, _Watch())
