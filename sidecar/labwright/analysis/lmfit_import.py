"""lmfit, imported without matplotlib and without scipy.stats.

Two of lmfit's module-level imports cost a build more than its fits do, and
neither is used by a least-squares fit:

- `lmfit.model` imports matplotlib only to tell whether its plotting methods
  (`ModelResult.plot*`) can work. The analysis never plots with lmfit (every
  figure is drawn by the plot worker, in another process), and matplotlib
  costs ~0.06 s of CPU in the build's own process. So matplotlib is hidden for
  the length of the import: lmfit treats it as absent (its plot methods then
  say that matplotlib is required).
- `lmfit.minimizer`, `lmfit.confidence` and `lmfit.model` each take a
  distribution from scipy.stats (`norm`, `cauchy`, `f`, `t`) for the robust
  losses of other methods, F-tests and prediction bands. Importing
  scipy.stats costs ~0.2 s (it parses the docstrings of ~100 functions),
  which sat on every build's critical path before its first fit. Those names
  are bound to stand-ins that import scipy.stats the first time one of them
  is used, so lmfit behaves exactly as before, only the import is deferred.

Nothing else changes: afterwards `import matplotlib` and `import scipy.stats`
work as before, and a module already imported is used as it is.
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType
from typing import Any

_lock = threading.Lock()
_STATS = "scipy.stats"


class _Deferred:
    """One scipy.stats attribute (a distribution), fetched on first use."""

    def __init__(self, name: str) -> None:
        self._name = name

    def _real(self) -> Any:
        return getattr(importlib.import_module(_STATS), self._name)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._real(), attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._real()(*args, **kwargs)


class _DeferredStats(ModuleType):
    """Stands in for scipy.stats while lmfit is imported: every name taken
    from it (`from scipy.stats import t`) is a `_Deferred`."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Deferred(name)


def import_lmfit() -> ModuleType:
    """The lmfit module (imported on first use). Always under the lock: a
    module another thread is still importing is in sys.modules already, half
    made."""
    with _lock:
        loaded = sys.modules.get("lmfit")
        if loaded is not None:
            return loaded
        hidden: dict[str, ModuleType | None] = {}
        if "matplotlib" not in sys.modules:
            hidden["matplotlib"] = None  # import raises ImportError
        if _STATS not in sys.modules:
            hidden[_STATS] = _DeferredStats(_STATS)
        sys.modules.update(hidden)  # type: ignore[arg-type]
        try:
            import lmfit  # noqa: F401 - registered in sys.modules
        finally:
            for name, stand_in in hidden.items():
                if sys.modules.get(name, ...) is stand_in:
                    del sys.modules[name]
    return sys.modules["lmfit"]
