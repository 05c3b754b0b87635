"""A matplotlib font list built once per backend process, copied into each run.

Every child gets a fresh, empty MPLCONFIGDIR, so matplotlib would rebuild its
font list (scan all font directories, run fc-list) on every figure: about 3 s
on a busy machine. A trusted helper process builds the list once into a
private directory (mode 0700, never written by sandboxed code); each run gets
a copy. Sandboxed children can only spoil their own copy.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from .env import scrubbed_env
from .spawn import python_command

_lock = threading.Lock()
_seed: Path | None = None
_failed = False
_SCRIPT = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.font_manager\n"


def _build() -> Path | None:
    work = Path(tempfile.mkdtemp(prefix="lw-fontcache-")).resolve()
    atexit.register(shutil.rmtree, work, True)
    mpl = work / ".mpl"
    mpl.mkdir()
    script = work / "build_fontcache.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    env = scrubbed_env(work)
    try:
        subprocess.run(
            python_command(script, env),
            env=env,
            cwd=str(work),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=180,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(work, ignore_errors=True)
        return None
    if not list(mpl.glob("fontlist-*.json")):
        shutil.rmtree(work, ignore_errors=True)
        return None
    return mpl


def seed_mplconfig(target: Path) -> None:
    """Copy the prepared font list into `target` (a child's MPLCONFIGDIR)."""
    global _seed, _failed
    with _lock:
        if _seed is None and not _failed:
            _seed = _build()
            _failed = _seed is None
        seed = _seed
    target.mkdir(parents=True, exist_ok=True)
    if seed is None:
        return
    for src in seed.glob("fontlist-*.json"):
        shutil.copyfile(src, target / src.name)
