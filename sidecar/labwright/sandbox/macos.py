"""macOS confinement: a Seatbelt (SBPL) profile applied with sandbox_init().

What it enforces (same rules as Linux): deny by default; read only beneath
the given roots (plus file metadata, which Python's path handling needs);
write only beneath the work directory; no network of any kind; no fork or
exec (unless asked for, then exec only from the given roots); signals only to
itself; plus the same rlimits, including RLIMIT_NPROC (on macOS it counts
processes only, not threads).

sandbox_init() with flags 0 takes the profile text itself; it is what
`sandbox-exec -p` calls, but applied to the running process, so the
cold child and the fork-server child confine themselves the same way.
Cannot run on this Linux machine; tests/sandbox/test_platforms.py runs it on
macOS in the release workflow.
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys

from .limits import Limits

_LIBSANDBOX = "/usr/lib/libsandbox.1.dylib"


def available() -> tuple[bool, str]:
    if sys.platform != "darwin":
        return False, "not macOS"
    if not os.path.exists(_LIBSANDBOX):
        return False, "libsandbox (Seatbelt) is missing on this macOS"
    return True, "Seatbelt profile via sandbox_init"


def _quote(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_profile(
    read_roots: list[str],
    write_root: str,
    *,
    network: bool = False,
    allow_exec: bool = False,
    exec_roots: list[str] | None = None,
) -> str:
    """The SBPL text. Pure, so it is tested on every platform."""
    lines = [
        "(version 1)",
        "(deny default)",
        "(allow file-read-metadata)",
        "(allow sysctl-read)",
        "(allow signal (target self))",
        '(allow file-read* file-write-data (literal "/dev/null"))',
        '(allow file-read* (literal "/dev/urandom") (literal "/dev/random"))',
    ]
    if read_roots:
        lines.append(
            "(allow file-read* " + " ".join(f"(subpath {_quote(p)})" for p in read_roots) + ")"
        )
    lines.append(f"(allow file-read* file-write* (subpath {_quote(write_root)}))")
    if allow_exec:
        lines.append("(allow process-fork)")
        for root in exec_roots or []:
            lines.append(f"(allow process-exec (subpath {_quote(root)}))")
    if network:
        lines.append("(allow network*)")
    return "\n".join(lines) + "\n"


def _apply_limits(limits: Limits, allow_exec: bool) -> None:
    pairs = [
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.address_space),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size),
        (resource.RLIMIT_CORE, 0),
    ]
    if not allow_exec:
        pairs.append((resource.RLIMIT_NPROC, 0))
    for which, value in pairs:
        try:
            _soft, hard = resource.getrlimit(which)
            new = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (new, new))
        except (ValueError, OSError):
            # macOS refuses some RLIMIT_AS values; Seatbelt still holds.
            continue


def confine(
    read_roots: list[str],
    write_root: str,
    *,
    network: bool = False,
    allow_exec: bool = False,
    exec_roots: list[str] | None = None,
    limits: Limits | None = None,
) -> str:
    if limits is not None:
        _apply_limits(limits, allow_exec)
    profile = build_profile(
        read_roots, write_root, network=network, allow_exec=allow_exec, exec_roots=exec_roots
    )
    lib = ctypes.CDLL(_LIBSANDBOX)
    err = ctypes.c_char_p()
    lib.sandbox_init.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.POINTER(ctypes.c_char_p)]
    if lib.sandbox_init(profile.encode("utf-8"), 0, ctypes.byref(err)) != 0:
        message = err.value.decode("utf-8", "replace") if err.value else "unknown error"
        raise OSError(f"sandbox_init failed: {message}")
    return "seatbelt"
