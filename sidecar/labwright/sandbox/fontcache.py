"""A matplotlib font list built once per backend process, copied into each run.

Every child gets a fresh, empty MPLCONFIGDIR, so matplotlib would rebuild its
font list (scan all font directories, run fc-list) on every figure: about 3 s
on a busy machine. A trusted helper process builds the list once into a
private directory (mode 0700, never written by sandboxed code); each run gets
a copy. Sandboxed children can only spoil their own copy.

The list is also kept in the per-user data directory (`cache/mpl-fonts/<key>`,
the key naming the matplotlib version and the font folders' modification
times), so a one-shot `labwright build` does not pay for building it again.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
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


def _cache_key() -> str:
    """Changes when matplotlib or the installed fonts change."""
    from importlib import metadata

    from .confine import system_read_roots

    try:
        parts = [metadata.version("matplotlib")]
    except metadata.PackageNotFoundError:
        parts = ["unknown"]
    for root in system_read_roots():
        if "font" not in root.lower():
            continue
        try:
            parts.append(f"{root}:{os.stat(root).st_mtime_ns}")
            with os.scandir(root) as entries:
                parts += [f"{e.name}:{e.stat().st_mtime_ns}" for e in entries if e.is_dir()]
        except OSError:
            continue
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _persistent_dir() -> Path | None:
    try:
        from labwright.config import data_dir

        return data_dir().root / "cache" / "mpl-fonts" / _cache_key()
    except Exception:  # noqa: BLE001 - no writable data dir: build per process
        return None


def _keep(built: Path, keep: Path) -> None:
    """Copy a freshly built list into the data directory (atomically per file)."""
    try:
        keep.mkdir(parents=True, exist_ok=True)
        for src in built.glob("fontlist-*.json"):
            part = keep / (src.name + ".part")
            shutil.copyfile(src, part)
            os.replace(part, keep / src.name)
    except OSError:
        pass


def seed_dir(*, build: bool = True) -> Path | None:
    """The prepared font list: this process's, the data directory's, or
    (with `build`) a new one; None when there is none."""
    global _seed, _failed
    with _lock:
        if _seed is not None or _failed:
            return _seed
        keep = _persistent_dir()
        if keep is not None and any(keep.glob("fontlist-*.json")):
            _seed = keep
            return _seed
        if not build:
            return None
        _seed = _build()
        _failed = _seed is None
        if _seed is not None and keep is not None:
            _keep(_seed, keep)
        return _seed


def seed_mplconfig(target: Path, *, build: bool = True) -> None:
    """Copy the prepared font list into `target` (a child's MPLCONFIGDIR).

    `build=False` never starts the helper (a caller on the critical path);
    without a prepared list the child builds its own.
    """
    seed = seed_dir(build=build)
    target.mkdir(parents=True, exist_ok=True)
    if seed is None:
        return
    for src in seed.glob("fontlist-*.json"):
        shutil.copyfile(src, target / src.name)


def _plausible(fontlist: Path) -> bool:
    """A font list from a confined process names only font files: paths
    relative to matplotlib's own data, or beneath the system font folders."""
    from .confine import system_read_roots

    roots = tuple(r.rstrip(os.sep) + os.sep for r in system_read_roots() if "font" in r.lower())
    try:
        data = json.loads(fontlist.read_text(encoding="utf-8"))
        entries = list(data["ttflist"]) + list(data["afmlist"])
        for entry in entries:
            name = str(entry["fname"])
            if os.path.isabs(name):
                if not os.path.normpath(name).startswith(roots):
                    return False
            elif ".." in Path(name).parts:
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def harvest(mplconfig: Path) -> None:
    """Keep a font list a trusted worker built, when none is kept yet.

    The worker is our code but it decodes hostile files, so its list is read
    without following links and checked (`_plausible`) before it becomes the
    seed of later runs (in the data directory, and for this process).
    """
    global _seed
    if seed_dir(build=False) is not None:
        return
    from labwright.safety import read_regular

    for src in mplconfig.glob("fontlist-*.json"):
        data = read_regular(src, limit=32 * 1024 * 1024)
        if not data:
            continue
        private = Path(tempfile.mkdtemp(prefix="lw-fontcache-")).resolve()
        atexit.register(shutil.rmtree, private, True)
        candidate = private / src.name
        candidate.write_bytes(data)
        if not _plausible(candidate):
            shutil.rmtree(private, ignore_errors=True)
            continue
        with _lock:
            _seed = private
        keep = _persistent_dir()
        if keep is not None:
            _keep(private, keep)
        return
