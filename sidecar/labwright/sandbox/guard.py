"""Defence in depth inside the child: a PEP 578 audit hook and the runtime half
of Layer 1.

Neither is the boundary (C code bypasses both; the OS confinement is what
holds). They turn the common escape attempts into clear PermissionErrors
whose text tells the model what to do instead, and they still stand on a
platform whose kernel layer is weaker than we would like.

The runtime half exists because a static check cannot know types: `re.enum`
is the `enum` module and `enum.bltns` is `builtins`, `fractions.operator`
hands out `attrgetter`, and `**{'allow_' + 'pickle': True}` builds a keyword
no tree walk sees. `policy.check_and_compile` therefore rewrites every
attribute read, `from ... import` and `**mapping` of model code into calls of
the helpers below (see `policy._Rewriter`), which look at the *values*.
"""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

from .policy import ALLOWED_IMPORTS, ATTR_HELPER, FORBIDDEN_NAMES, KWARGS_HELPER, VALUE_HELPER

_BLOCKED_EXACT = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "os.startfile",
        "os.kill",
        "os.killpg",
        "pty.spawn",
        "pickle.find_class",
        "code.__new__",
        "function.__new__",
        "webbrowser.open",
        "shutil.rmtree",
        "sys.setprofile",
        "sys.settrace",
        "sys._current_frames",
        # gc hands out every live object, among them handles cached by our own
        # confinement code before this hook existed.
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "winreg.OpenKey",
    }
)
# Every ctypes event: dlopen/dlsym, but also calls through function pointers
# that were looked up *before* the hook was installed (`ctypes.call_function`:
# a cached libc `syscall` would otherwise give arbitrary system calls) and raw
# memory reads and writes (`ctypes.string_at`, `ctypes.cdata`, `memmove`).
_BLOCKED_PREFIXES = (
    "ctypes.",
    "socket.",
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "urllib.",
    "http.",
    "_winapi.",
    "_posixsubprocess.",
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

# Events that change the file system, and which of their arguments are paths
# that must lie in the writable folder (an int is a descriptor: the kernel
# layer decides about those).
_PATH_EVENTS: dict[str, tuple[int, ...]] = {
    "os.mkdir": (0,),
    "os.rmdir": (0,),
    "os.remove": (0,),
    "os.rename": (0, 1),
    "os.link": (0, 1),
    "os.symlink": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.chflags": (0,),
    "os.lchflags": (0,),
    "os.utime": (0,),
    "os.setxattr": (0,),
    "os.removexattr": (0,),
    "shutil.copyfile": (1,),
    "shutil.copymode": (1,),
    "shutil.copystat": (1,),
    "shutil.copytree": (1,),
    "shutil.move": (0, 1),
    "shutil.chown": (0,),
}


def install_audit_hook(read_roots: Iterable[str], write_root: str) -> None:
    reads = tuple(os.path.realpath(r) for r in read_roots)
    write = os.path.realpath(write_root)

    def beneath(path: str, roots: tuple[str, ...]) -> bool:
        return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    def as_path(value: object) -> str | None:
        if isinstance(value, (str, bytes)):
            return os.fsdecode(value)
        if isinstance(value, os.PathLike):
            return os.fsdecode(os.fspath(value))
        return None  # a descriptor or None

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event in _BLOCKED_EXACT or event.startswith(_BLOCKED_PREFIXES):
            raise PermissionError(f"the sandbox does not allow {event}")
        positions = _PATH_EVENTS.get(event)
        if positions is not None:
            for i in positions:
                raw = as_path(args[i]) if i < len(args) else None
                if raw is not None and not beneath(os.path.realpath(raw), (write,)):
                    raise PermissionError(
                        f"the sandbox does not allow changing {raw!r} ({event}); "
                        "plotting code writes only its figure, with plt.savefig(OUT)"
                    )
            return
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


def forget_raw_handles() -> int:
    """Drop every ctypes library or function handle our own modules hold.

    The confining code (Landlock, seccomp) talks to libc through ctypes and
    may cache the handle, e.g. a `syscall` function pointer; once the process
    is confined nothing of ours needs it, and untrusted code that reached it
    would get arbitrary system calls without a single audit event for the
    lookup. Returns how many handles were dropped (for the tests).
    """
    ctypes = sys.modules.get("ctypes")
    if ctypes is None:
        return 0
    raw_types = (ctypes.CDLL, ctypes._CFuncPtr)  # noqa: SLF001 - the base of every function pointer
    dropped = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("labwright.") or module is None:
            continue
        namespace = getattr(module, "__dict__", {})
        for key, value in list(namespace.items()):
            if isinstance(value, raw_types):
                namespace[key] = None
                dropped += 1
    return dropped


# --- the runtime half of Layer 1 --------------------------------------------------

#: Modules (by top-level name) whose functions, classes and instances give
#: process, file, memory or code-loading power. A value from one of them never
#: reaches model code, whichever allowed library re-exports it.
DENIED_MODULES: frozenset[str] = frozenset(
    {
        "os", "posix", "nt", "posixpath", "ntpath", "sys", "subprocess", "_posixsubprocess",
        "ctypes", "_ctypes", "importlib", "_imp", "zipimport", "pickle", "_pickle",
        "copyreg", "marshal", "shutil", "socket", "_socket", "ssl", "select", "selectors",
        "io", "_io", "pathlib", "glob", "tempfile", "operator", "_operator", "runpy",
        "code", "codeop", "gc", "inspect", "threading", "_thread", "multiprocessing",
        "_multiprocessing", "signal", "_signal", "resource", "fcntl", "mmap", "pty",
        "faulthandler", "tracemalloc", "traceback", "linecache", "site", "sysconfig",
        "platform", "webbrowser", "urllib", "http", "ftplib", "asyncio", "pydoc",
        "builtins", "labwright", "_winapi", "winreg", "msvcrt",
    }
)  # fmt: skip

_HINT = (
    "use the allowed libraries ({allowed}) directly, read files with srcpath('name') "
    "and save with plt.savefig(OUT)"
)


def _refuse(where: str, what: str) -> PermissionError:
    hint = _HINT.format(allowed=", ".join(sorted(ALLOWED_IMPORTS)))
    return PermissionError(f"{where} leads to {what}, which plotting code cannot use; {hint}.")


def _top(name: object) -> str:
    return name.partition(".")[0] if isinstance(name, str) else ""


class _Guard:
    """The checks behind `__lw_attr__`, `__lw_value__` and `__lw_kwargs__`."""

    def __init__(self) -> None:
        self._forbidden_ids = {
            id(getattr(builtins, n)) for n in FORBIDDEN_NAMES if hasattr(builtins, n)
        }
        self._forbidden_ids.add(id(builtins))
        self._substitutes: dict[int, Callable[..., Any]] | None = None

    def substitutes(self) -> dict[int, Callable[..., Any]]:
        """Pickle-capable loaders, replaced by versions that refuse pickles
        whichever way the flag arrives (keyword, positional, **mapping)."""
        if self._substitutes is None:
            self._substitutes = {}
            numpy = sys.modules.get("numpy")
            if numpy is not None:
                for fn in (numpy.load, numpy.lib.format.read_array):
                    self._substitutes[id(fn)] = _no_pickle(fn)
        return self._substitutes

    def value(self, value: Any, where: str) -> Any:
        if isinstance(value, ModuleType):
            if _top(value.__name__) not in ALLOWED_IMPORTS:
                raise _refuse(where, f"the module '{value.__name__}'")
            return value
        if id(value) in self._forbidden_ids:
            raise _refuse(where, "a built-in that is not allowed")
        substitute = self.substitutes().get(id(value))
        if substitute is not None:
            return substitute
        try:
            module = getattr(value, "__module__", None)
        except Exception:  # noqa: BLE001 - a hostile descriptor; the value is unusable anyway
            raise _refuse(where, "an object that cannot be inspected") from None
        if _top(module) in DENIED_MODULES:
            raise _refuse(where, f"an object of the module '{module}'")
        return value

    def attr(self, obj: Any, name: str) -> Any:
        return self.value(getattr(obj, name), f"'.{name}'")

    def kwargs(self, mapping: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(mapping)
        for key, item in out.items():
            if not isinstance(key, str) or key.startswith("_"):
                raise PermissionError(
                    f"The keyword {key!r} in **arguments is not allowed; pass public keyword "
                    "names only."
                )
            _check_loader_flags(key, item)
        return out


def _check_loader_flags(key: str, item: object) -> None:
    if key == "allow_pickle" and item:
        raise PermissionError(
            "allow_pickle must stay False, however it is passed; save data as CSV or plain "
            ".npy arrays."
        )
    if key == "mmap_mode" and item is not None:
        raise PermissionError(
            "Memory-mapped loading (mmap_mode) is not allowed; load the array with np.load(path)."
        )


def _no_pickle(fn: Callable[..., Any]) -> Callable[..., Any]:
    import inspect

    signature = inspect.signature(fn)

    def load(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        for key, item in bound.arguments.items():
            _check_loader_flags(key, item)
        return fn(*args, **kwargs)

    load.__name__ = getattr(fn, "__name__", "load")
    load.__doc__ = fn.__doc__
    return load


def runtime_helpers() -> dict[str, Callable[..., Any]]:
    """The globals a policy-compiled code object needs to run."""
    guard = _Guard()
    return {ATTR_HELPER: guard.attr, VALUE_HELPER: guard.value, KWARGS_HELPER: guard.kwargs}
