"""What a person does outside the page, on the test's Xvfb display: find and
type into a native window (xdotool, through XTEST, so the app receives real
key events), and photograph the whole screen (native dialogs included, which a
WebDriver screenshot of the page cannot show).

The screenshot and the drag source run in Debian's own Python
(`/usr/bin/python3` with python3-gi): PyGObject is a system package and is not
in the project's venv."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

HELPER = Path(__file__).with_name("gtk_helper.py")
SYSTEM_PYTHON = "/usr/bin/python3"


def missing_tools() -> str | None:
    """Why the X automation cannot run here, or None when it can."""
    if shutil.which("xdotool") is None:
        return "needs xdotool to drive native windows under Xvfb (scripts/test.sh installs it)"
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0')"],
        capture_output=True,
    )  # fmt: skip
    if probe.returncode != 0:
        return "needs python3-gi and gir1.2-gtk-3.0 under Xvfb (scripts/test.sh installs them)"
    return None


def xdotool(display: str, *args: str, timeout: float = 30) -> str:
    done = subprocess.run(
        ["xdotool", *args],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0 and not (args[0] == "search" and not done.stderr.strip()):
        # `search` exits 1 when nothing matches; anything on stderr is a real error.
        raise RuntimeError(f"xdotool {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def visible_windows(display: str, title: str) -> list[str]:
    """Ids of the mapped windows whose title is exactly `title`."""
    pattern = "^" + re.escape(title) + "$"
    out = xdotool(display, "search", "--onlyvisible", "--name", pattern)
    return out.split()


def wait_window(display: str, title: str, seconds: float) -> str | None:
    """The first window titled `title` to be mapped within `seconds`, else None."""
    deadline = time.monotonic() + seconds
    while True:
        found = visible_windows(display, title)
        if found:
            return found[0]
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)


def wait_gone(display: str, window: str, title: str, seconds: float) -> bool:
    """True once `window` is no longer mapped under `title`."""
    deadline = time.monotonic() + seconds
    while window in visible_windows(display, title):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def window_pid(display: str, window: str) -> int | None:
    """The process that owns `window` (_NET_WM_PID, which GTK sets), if known."""
    try:
        return int(xdotool(display, "getwindowpid", window).strip())
    except (RuntimeError, ValueError):
        return None


def focus_and_type(display: str, window: str, *steps: tuple[str, str]) -> None:
    """Give `window` the keyboard, then play `steps`: ("key", "ctrl+l") presses
    a chord, ("type", text) types text. There is no window manager on Xvfb, so
    the focus is set explicitly (XSetInputFocus) and waited for."""
    xdotool(display, "windowfocus", "--sync", window)
    for kind, value in steps:
        if kind == "key":
            xdotool(display, "key", "--clearmodifiers", value)
        else:
            # A few ms between keys: the chooser's completion reads folders as
            # the path grows; XTEST queues the events, so none are lost.
            xdotool(display, "type", "--delay", "15", "--clearmodifiers", value, timeout=120)


def screenshot(display: str, path: Path) -> bool:
    """The whole screen as a PNG (True when written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [SYSTEM_PYTHON, str(HELPER), "screenshot", str(path)],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin", "GSETTINGS_BACKEND": "memory"},
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return done.returncode == 0 and path.is_file()
