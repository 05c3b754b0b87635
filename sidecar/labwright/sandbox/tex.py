"""Confinement for the TeX engine: same kernel layers, rules fitted to XeTeX.

kpathsea's paranoid settings stop `\\input{/abs/path}` but not everything:
image inclusion (`\\includegraphics{/abs/path.png}`) reads through a
different path, and a shell escape switched on by mistake would run anything.
Here the TeX process may read only the TeX tree, fonts, shared libraries and
the build directory; write only the build directory; execute only the TeX
programs themselves (xetex, xdvipdfmx, bibtex), the dynamic loader and /bin/sh
(XeTeX pipes its output to xdvipdfmx through `popen`); no network; no ptrace.

Mechanism: a small Python launcher confines itself (Landlock + seccomp with
exec allowed + rlimits) and then `execve`s the TeX program, which inherits
the confinement. `confine_tex_command()` rewrites argv/env for
`latex/compile.py::_spawn_tex`; where no confinement exists it returns them
unchanged (TeX still runs, with kpathsea's paranoid settings).
"""

from __future__ import annotations

import atexit
import glob
import json
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from .confine import confinement_available, system_read_roots
from .limits import Limits
from .spawn import python_command
from .tex_launch import SPEC_ENV

TEX_LIMITS = Limits(
    cpu_seconds=300, wall_seconds=600, address_space=8 * 1024**3, open_files=1024,
    file_size=1024**3,
)  # fmt: skip

# The launcher imports only tex_launch and confine: it starts before every
# TeX program, twice per build, on the way to the PDF.
_LAUNCHER = "from labwright.sandbox.tex_launch import launch\nlaunch()\n"
_lock = threading.Lock()
_launcher_path: Path | None = None

_TEX_READ_ROOTS = (
    "/usr/share/texlive",
    "/usr/share/texmf",
    "/usr/share/texmf-dist",
    "/var/lib/texmf",
    "/etc/texmf",
    "/usr/local/texlive",
    "/usr/share/poppler",
    "/var/cache/fontconfig",
    "/usr/share/ghostscript",
)


def _launcher() -> Path:
    """A private copy of the launcher script (the frozen app needs a file)."""
    global _launcher_path
    with _lock:
        if _launcher_path is None or not _launcher_path.exists():
            d = Path(tempfile.mkdtemp(prefix="lw-texlaunch-"))
            atexit.register(shutil.rmtree, d, True)
            _launcher_path = d / "tex_launch.py"
            _launcher_path.write_text(_LAUNCHER, encoding="utf-8")
        return _launcher_path


def _real(path: str | None) -> str | None:
    if not path:
        return None
    found = shutil.which(path) if not os.path.isabs(path) else path
    return os.path.realpath(found) if found and os.path.exists(found) else None


def _loader_paths() -> list[str]:
    pats = ("/lib64/ld-linux*", "/lib/ld-linux*", "/lib/*/ld-linux*", "/usr/lib/*/ld-linux*",
            "/lib/ld-musl*")  # fmt: skip
    return sorted({os.path.realpath(p) for pat in pats for p in glob.glob(pat)})


def tex_roots(argv0: str, env: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(read roots, executable files) for a TeX program and its helpers."""
    exe = _real(argv0)
    bin_dir = os.path.dirname(argv0) if os.path.isabs(argv0) else None
    search = os.pathsep.join(p for p in (bin_dir, env.get("PATH", "")) if p)
    execs = [exe] if exe else []
    for helper in ("xetex", "xdvipdfmx", "bibtex", "kpsewhich", "sh"):
        found = shutil.which(helper, path=search)
        if found:
            execs.append(os.path.realpath(found))
    execs += _loader_paths()
    reads = list(_TEX_READ_ROOTS) + system_read_roots()
    if exe:
        # A bundled TinyTeX: the tree is a few levels above bin/<platform>/xetex.
        tree = Path(exe).parent
        for _ in range(3):
            if (tree / "texmf-dist").is_dir():
                reads.append(str(tree))
                break
            tree = tree.parent
    return [r for r in reads if os.path.exists(r)], sorted(set(execs))


def confine_tex_command(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], *, hold: bool = False
) -> tuple[list[str], dict[str, str], bool]:
    """argv/env that run `argv` confined to the build dir `cwd`, and whether
    the launcher holds: with `hold`, it confines itself, then waits for one
    byte "1" on stdin before it becomes the program (anything else, or end of
    file, and it exits without running it; latex/texrun.HeldTex).

    Unchanged (and never held) where the OS offers no confinement.
    """
    ok, _reason = confinement_available()
    if not ok or not sys.platform.startswith("linux"):
        return list(argv), dict(env), False
    reads, execs = tex_roots(argv[0], env)
    spec = {
        "parent": os.getpid(),
        "argv": list(argv),
        "read": reads,
        "write": str(Path(cwd).resolve()),
        "exec": execs,
        "limits": TEX_LIMITS.to_dict(),
        "hold": hold,
    }
    new_env = dict(env)
    new_env[SPEC_ENV] = json.dumps(spec)
    cmd = python_command(_launcher(), new_env)
    return cmd, new_env, hold
