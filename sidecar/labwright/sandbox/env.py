"""The child's environment, built from scratch.

Nothing is copied from the backend's environment except, on Windows, the
handful of system variables CPython cannot start without (the seed system
crashed on Windows because SystemRoot was missing). API keys, proxies,
PYTHONPATH and the user's HOME therefore never reach the child.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_WINDOWS_SYSTEM_VARS = ("SystemRoot", "SYSTEMROOT", "windir", "SystemDrive", "PATHEXT", "COMSPEC")


def scrubbed_env(work_dir: str | os.PathLike[str]) -> dict[str, str]:
    work = str(Path(work_dir))
    env = {
        "HOME": work,
        "USERPROFILE": work,
        "TMPDIR": work,
        "TEMP": work,
        "TMP": work,
        "MPLCONFIGDIR": os.path.join(work, ".mpl"),
        "XDG_CACHE_HOME": os.path.join(work, ".cache"),
        "XDG_CONFIG_HOME": os.path.join(work, ".config"),
        "MPLBACKEND": "Agg",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        # One BLAS/OpenMP thread: the child must be single-threaded when it
        # confines itself (threads that exist earlier keep their rights).
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMEXPR_NUM_THREADS": "1",
        "VECLIB_MAXIMUM_THREADS": "1",
    }
    if sys.platform == "win32":
        for name in _WINDOWS_SYSTEM_VARS:
            value = os.environ.get(name)
            if value:
                env[name] = value
        env["PATH"] = os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32")
        env["LOCALAPPDATA"] = work
        env["APPDATA"] = work
    else:
        env["PATH"] = "/usr/bin:/bin"
    return env
