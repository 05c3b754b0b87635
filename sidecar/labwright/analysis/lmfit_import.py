"""lmfit, imported without matplotlib.

`lmfit.model` imports matplotlib at import time only to tell whether its
plotting methods (`ModelResult.plot*`) can work. The analysis never plots
with lmfit (every figure is drawn by the plot worker, in another process),
and matplotlib with its dependencies costs ~0.06 s of CPU in the build's own
process, on the way to its first fit. So lmfit is imported with matplotlib
hidden for the length of that import (lmfit then treats it as absent: its
plot methods print that matplotlib is required). Nothing else changes:
afterwards `import matplotlib` works as before, and if matplotlib was
already imported, lmfit sees it as usual.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType

_lock = threading.Lock()


def import_lmfit() -> ModuleType:
    """The lmfit module (imported on first use). Always under the lock: a
    module another thread is still importing is in sys.modules already, half
    made."""
    with _lock:
        loaded = sys.modules.get("lmfit")
        if loaded is not None:
            return loaded
        hide = "matplotlib" not in sys.modules
        if hide:
            sys.modules["matplotlib"] = None  # type: ignore[assignment] # import raises ImportError
        try:
            import lmfit  # noqa: F401 - registered in sys.modules
        finally:
            if hide and sys.modules.get("matplotlib", ...) is None:
                del sys.modules["matplotlib"]
    return sys.modules["lmfit"]
