"""A stand-in for the Tauri shell in its own process, so a test can kill it
with SIGKILL: starts the sidecar exactly as the shell does, prints the
handshake line (and the token) for the test on stdout, then waits forever.

    python shell_standin.py /path/to/labwright-sidecar
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.desktop.frozen import start_like_the_shell  # noqa: E402


def main() -> None:
    started = start_like_the_shell(Path(sys.argv[1]))
    report = {"handshake": started.handshake, "token": started.token}
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    while True:  # hold stdin open, like a live window
        time.sleep(3600)


if __name__ == "__main__":
    main()
