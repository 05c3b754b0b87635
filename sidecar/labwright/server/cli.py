"""`labwright serve`: the command-line face of the sidecar (registered in labwright.cli).

Imports nothing heavy at module level, so `labwright --help` stays fast.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help="port on 127.0.0.1 (default 0: the OS chooses; the handshake line says which)",
    )
    parser.add_argument(
        "--parent-pid",
        type=int,
        default=None,
        help="exit when this process ends (a second watchdog beside stdin)",
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="browser mode: make the token here, serve the UI and open the browser",
    )
    parser.add_argument(
        "--ui-dir", type=Path, default=None, help="the built UI to serve (default: ui/dist)"
    )
    parser.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    import sys

    from labwright.server.sidecar import serve

    if not 0 <= args.port <= 65535:
        print(
            "The port must be between 0 and 65535; use 0 to let the system choose.", file=sys.stderr
        )
        return 2
    return serve(
        port=args.port, parent_pid=args.parent_pid, open_browser=args.open, ui_dir=args.ui_dir
    )
