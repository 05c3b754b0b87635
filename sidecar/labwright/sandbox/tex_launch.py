"""Inside the TeX launcher process: confine, then become the TeX program.

Kept apart from `tex` (which builds the command in the backend) so that the
launcher imports nothing but this module and `confine`.
"""

from __future__ import annotations

import json
import os
import sys

SPEC_ENV = "LABWRIGHT_TEX_CONFINE"


def launch() -> None:
    """Inside the launcher process: confine, then become the TeX program."""
    raw = os.environ.pop(SPEC_ENV, None)
    if not raw:
        sys.exit("labwright tex launcher: no confinement spec")
    spec = json.loads(raw)
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
    argv = spec["argv"]
    os.execve(argv[0], argv, dict(os.environ))
