"""`python -m labwright` and the frozen executable's entry point.

The very first thing is self-dispatch. A frozen app has no separate `python`,
so it re-launches its own executable for helper processes, and those must not
pay for (or be confused by) the CLI, the server or anything else:

- `LABWRIGHT_PYRUN=<script>` in the environment: the sandbox (model figures,
  the trusted plot worker, the confined TeX launcher) runs that one script;
- `serve`: the sidecar, parsed on its own so its handshake is not delayed by
  the imports the other subcommands' parsers make.

The CLI and the sidecar then import the scientific stack without the
import-time work a build never uses (`labwright.lean_imports`; the helper
scripts do not import it). A CLI
command is one job: its garbage collector runs at that pace
(`labwright.collector`).

Both are checked before any other import. In a frozen process the library
search path the bootloader set for itself is also put back first (see
`_restore_library_path`), so no program we start (XeTeX, a sandboxed child's
`execve`) loads the bundle's copies of system libraries.
"""

from __future__ import annotations

import os
import sys

PYRUN_ENV = "LABWRIGHT_PYRUN"  # same value as labwright.sandbox.spawn.PYRUN_ENV

#: Variables PyInstaller's bootloader prepends the bundle directory to; it
#: keeps the user's value in NAME_ORIG (absent when there was none).
_LIBRARY_PATH_VARS = ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "LIBPATH")


def _restore_library_path(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """Undo the bootloader's library path for child processes.

    The running process already resolved its libraries (the loader reads the
    variable once, at exec), so this changes only what children inherit: a
    system XeTeX linked against the system's libpng/freetype/ICU must not pick
    up the older or newer copies that ship inside the bundle.
    """
    if not getattr(sys, "frozen", False):
        return
    for name in _LIBRARY_PATH_VARS:
        orig = environ.pop(name + "_ORIG", None)
        if orig is not None:
            environ[name] = orig
        else:
            environ.pop(name, None)


def _dispatch_pyrun() -> bool:
    """Run the script named by LABWRIGHT_PYRUN, if set; True when it ran."""
    script = os.environ.pop(PYRUN_ENV, None)
    if not script:
        return False
    import runpy

    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")
    return True


def _dispatch_serve(argv: list[str]) -> int | None:
    """`serve` without building the whole CLI: its parser would import the
    build command's model client (openai and pydantic types, seconds in a
    frozen app) before the handshake, and the window waits for that line."""
    if argv[:1] != ["serve"]:
        return None
    import argparse

    from labwright.server.cli import configure_serve

    parser = argparse.ArgumentParser(prog="labwright serve", description="Run the local API.")
    configure_serve(parser)
    args = parser.parse_args(argv[1:])
    return int(args.run(args))


def _entry() -> None:
    _restore_library_path()
    if _dispatch_pyrun():
        sys.exit(0)
    # The CLI and the sidecar import SciPy and statsmodels for every analysis.
    from labwright.lean_imports import install

    install()
    argv = sys.argv[1:]
    code = _dispatch_serve(argv)
    if code is not None:
        sys.exit(code)
    # Every other command is one job, then the process exits.
    from labwright.collector import pace_for_one_job

    pace_for_one_job()
    from labwright.cli import entry

    entry()


if __name__ == "__main__":
    _entry()
