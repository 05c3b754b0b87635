"""Defence in depth inside the child: a PEP 578 audit hook.

The hook is not the boundary (C code and ctypes bypass it; the OS
confinement is what holds). It turns the most common escape attempts into
clear PermissionErrors with a reason, and it still stands on a platform
where a kernel layer is weaker than we would like.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

_BLOCKED_EXACT = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "os.startfile",
        "pty.spawn",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.cdata",
        "ctypes.addressof",
        "pickle.find_class",
        "code.__new__",
        "function.__new__",
        "webbrowser.open",
        "shutil.rmtree",
        "sys.setprofile",
        "sys.settrace",
        "winreg.OpenKey",
    }
)
_BLOCKED_PREFIXES = ("socket.", "os.exec", "os.spawn", "os.posix_spawn", "urllib.", "http.")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def install_audit_hook(read_roots: Iterable[str], write_root: str) -> None:
    reads = tuple(os.path.realpath(r) for r in read_roots)
    write = os.path.realpath(write_root)

    def beneath(path: str, roots: tuple[str, ...]) -> bool:
        return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event in _BLOCKED_EXACT or event.startswith(_BLOCKED_PREFIXES):
            raise PermissionError(f"the sandbox does not allow {event}")
        if event != "open":
            return
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if isinstance(path, int) or path is None:
            return  # an already-open descriptor
        raw = os.fsdecode(path) if isinstance(path, (bytes, str)) else str(path)
        real = os.path.realpath(raw)
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
        )
        if writing:
            if not beneath(real, (write,)) and real != os.devnull:
                raise PermissionError(
                    f"the sandbox does not allow writing {raw!r}; save with plt.savefig(OUT)"
                )
        elif not beneath(real, reads + (write,)) and real != os.devnull:
            raise PermissionError(
                f"the sandbox does not allow reading {raw!r}; read input with srcpath('name')"
            )

    sys.addaudithook(hook)
