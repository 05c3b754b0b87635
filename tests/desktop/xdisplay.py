"""What a person does outside the page, on the test's Xvfb display: find and
type into a native window (xdotool, through XTEST, so the app receives real
key events), and photograph the whole screen (native dialogs included, which a
WebDriver screenshot of the page cannot show).

The screenshot and the drag source run in Debian's own Python
(`/usr/bin/python3` with python3-gi): PyGObject is a system package and is not
in the project's venv."""

from __future__ import annotations

import re
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


def geometry(display: str, window: str) -> tuple[int, int, int, int]:
    """x, y, width, height of `window` on the screen."""
    fields = dict(
        line.split("=", 1)
        for line in xdotool(display, "getwindowgeometry", "--shell", window).split()
        if "=" in line
    )
    return int(fields["X"]), int(fields["Y"]), int(fields["WIDTH"]), int(fields["HEIGHT"])


@contextmanager
def drag_source(display: str, folder: Path, x: int, y: int) -> Iterator[subprocess.Popen[str]]:
    """A small window at (x, y) offering `folder` as a file manager would
    (text/uri-list over XDND); yields once it is on screen."""
    proc = subprocess.Popen(
        [SYSTEM_PYTHON, str(HELPER), "drag-source", str(folder), str(x), str(y)],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin", "GSETTINGS_BACKEND": "memory"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    try:
        if read_line(proc, 30) != "ready":
            raise RuntimeError("the drag source window did not appear")
        yield proc
    finally:
        proc.kill()
        proc.wait()


def read_line(proc: subprocess.Popen[str], seconds: float) -> str | None:
    """The next line `proc` prints within `seconds`, else None."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return proc.stdout.readline().strip() if ready else None


def drag(display: str, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press the left button at `start`, move to `end` in small steps, release.
    GTK starts a drag once the pointer passes its threshold with the button
    held; each step gives the XDND source and target a moment to exchange
    their position and status messages before the next."""
    xdotool(display, "mousemove", "--sync", str(start[0]), str(start[1]))
    xdotool(display, "mousedown", "1")
    steps = 12
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i // steps
        y = start[1] + (end[1] - start[1]) * i // steps
        xdotool(display, "mousemove", "--sync", str(x), str(y))
        time.sleep(0.05)
    time.sleep(0.3)  # the target's last status reply, so the drop is accepted
    xdotool(display, "mouseup", "1")
