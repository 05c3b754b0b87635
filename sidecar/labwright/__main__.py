"""`python -m labwright` and the frozen executable's entry point.

The very first thing is the sandbox self-dispatch: a frozen app has no separate
`python`, so the sandbox re-launches this executable with LABWRIGHT_PYRUN
naming a script. That script runs and the process exits before the CLI, the
server or anything else is imported.
"""

from __future__ import annotations

import os
import sys

PYRUN_ENV = "LABWRIGHT_PYRUN"  # same value as labwright.sandbox.spawn.PYRUN_ENV


def _dispatch_pyrun() -> bool:
    """Run the script named by LABWRIGHT_PYRUN, if set; True when it ran."""
    script = os.environ.pop(PYRUN_ENV, None)
    if not script:
        return False
    import runpy

    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")
    return True


def _entry() -> None:
    if _dispatch_pyrun():
        sys.exit(0)
    from labwright.cli import entry

    entry()


if __name__ == "__main__":
    _entry()
