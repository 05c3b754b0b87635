"""Layer 2: one interface to the operating system's confinement.

`confine()` is called *inside* the process to be confined, right before it runs
untrusted code, and cannot be undone. Every platform implements it on the
calling process (Linux: Landlock + seccomp + rlimits; macOS: Seatbelt through
sandbox_init; Windows: job object + low-integrity token), so the cold-spawn
child and the fork-server child share one code path.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

from .limits import Limits


class ConfinementUnavailable(RuntimeError):
    """This machine offers no confinement we trust; model code must not run."""


def confinement_available() -> tuple[bool, str]:
    """(available, reason) for this platform; the reason is shown to the user."""
    if sys.platform.startswith("linux"):
        from . import linux

        return linux.available()
    if sys.platform == "darwin":
        from . import macos

        return macos.available()
    if sys.platform == "win32":
        from . import windows

        return windows.available()
    return False, f"no sandbox implementation for platform {sys.platform!r}"


def confine(
    read_roots: Iterable[str | os.PathLike[str]],
    write_root: str | os.PathLike[str],
    network: bool = False,
    *,
    allow_exec: bool = False,
    exec_roots: Iterable[str | os.PathLike[str]] = (),
    limits: Limits | None = None,
    isolation: str = "",
) -> str:
    """Irreversibly restrict the calling process.

    Reads are allowed beneath `read_roots` (and `write_root`), writes only
    beneath `write_root`; no network unless `network`; no new programs unless
    `allow_exec` (then only from `exec_roots`). Returns a short description of
    what was applied; raises ConfinementUnavailable when nothing can be applied.
    """
    ok, reason = confinement_available()
    if not ok:
        raise ConfinementUnavailable(reason)
    reads = _existing(read_roots)
    write = str(Path(write_root).resolve())
    execs = _existing(exec_roots)
    if sys.platform.startswith("linux"):
        from . import linux

        return linux.confine(
            reads,
            write,
            network=network,
            allow_exec=allow_exec,
            exec_roots=execs,
            limits=limits,
            isolation=isolation,
        )
    if sys.platform == "darwin":
        from . import macos

        return macos.confine(
            reads, write, network=network, allow_exec=allow_exec, exec_roots=execs, limits=limits
        )
    from . import windows

    return windows.confine(reads, write, network=network, limits=limits)


def _existing(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    out: list[str] = []
    for p in paths:
        try:
            real = str(Path(p).resolve())
        except OSError:
            continue
        if os.path.exists(real) and real not in out:
            out.append(real)
    return out


def python_read_roots() -> list[str]:
    """What a Python child needs to read: the interpreter, stdlib,
    site-packages, our own package, and (frozen) the bundle directory."""
    roots: set[str] = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            roots.add(path)
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        if prefix:
            roots.add(os.path.join(prefix, "lib"))
            roots.add(os.path.join(prefix, "bin"))
    roots.add(str(Path(sys.executable).resolve().parent))
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        roots.add(bundle)
    roots.add(str(Path(__file__).resolve().parent.parent))  # labwright package
    for entry in sys.path:
        # site-packages and .pth-added dirs; never the current directory.
        if entry and os.path.isabs(entry) and "site-packages" in entry:
            roots.add(entry)
    return sorted(roots)


def system_read_roots() -> list[str]:
    """Shared libraries the interpreter and numpy link against, fonts, zoneinfo.

    Nothing here is private to the user: no /etc beyond fonts and the loader
    cache, no /proc, no home directory.
    """
    if sys.platform == "win32":
        windir = os.environ.get("SystemRoot", r"C:\Windows")
        return [os.path.join(windir, "Fonts"), os.path.join(windir, "System32")]
    candidates = [
        "/usr/lib",
        "/usr/lib64",
        "/lib",
        "/lib64",
        "/usr/local/lib",
        "/etc/ld.so.cache",
        "/etc/fonts",
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/usr/share/texmf/fonts",
        "/usr/share/texlive/texmf-dist/fonts",
        "/usr/share/zoneinfo",
        "/usr/share/matplotlib",
        "/System/Library/Fonts",
        "/Library/Fonts",
        "/dev/urandom",
    ]
    return [c for c in candidates if os.path.exists(c)]
