"""Inside the TeX launcher process: confine, then become the TeX program.

Kept apart from `tex` (which builds the command in the backend) so that the
launcher imports nothing but this module and `confine`.
"""

from __future__ import annotations

import json
import os
import sys

SPEC_ENV = "LABWRIGHT_TEX_CONFINE"


def _die_with_backend(parent: object) -> None:
    """Linux: the TeX program is killed when the backend dies. A TeX program
    may wait on its input (a streamed main.tex, agent/offline/early.py) that
    a killed backend never sends; the signal survives execve."""
    if not sys.platform.startswith("linux") or not isinstance(parent, int):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the backend died before the signal was asked for
        os._exit(1)


def launch() -> None:
    """Inside the launcher process: confine, then become the TeX program."""
    raw = os.environ.pop(SPEC_ENV, None)
    if not raw:
        sys.exit("labwright tex launcher: no confinement spec")
    spec = json.loads(raw)
    _die_with_backend(spec.get("parent"))
    from .confine import confine
    from .limits import Limits

    try:
        confine(
            spec["read"],
            spec["write"],
            False,
            allow_exec=True,
            exec_roots=spec["exec"],
            limits=Limits.from_dict(spec["limits"]),
        )
    except Exception as exc:  # noqa: BLE001 - fail closed, never run unconfined
        sys.exit(f"labwright tex launcher: confinement failed: {exc}")
    if spec.get("hold") and os.read(0, 1) != b"1":
        # Started ahead of time and confined already (latex/texrun.HeldTex);
        # without the word to go (or with the backend gone), nothing runs.
        os._exit(0)
    argv = spec["argv"]
    os.execve(argv[0], argv, dict(os.environ))
