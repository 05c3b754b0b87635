"""Run by Debian's Python (python3-gi), not the venv, on the test's X display.

    python3 gtk_helper.py screenshot OUT.png

writes the whole screen (the root window) as a PNG."""

from __future__ import annotations

import sys

import gi

gi.require_version("Gdk", "3.0")
from gi.repository import Gdk  # noqa: E402


def screenshot(out: str) -> int:
    root = Gdk.get_default_root_window()
    if root is None:
        print("no X display", file=sys.stderr)
        return 1
    pixbuf = Gdk.pixbuf_get_from_window(root, 0, 0, root.get_width(), root.get_height())
    if pixbuf is None:
        print("the screen could not be read", file=sys.stderr)
        return 1
    pixbuf.savev(out, "png", [], [])
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "screenshot":
        return screenshot(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
