"""The real window under Xvfb, driven through WebDriver (tauri-driver in front
of Debian's WebKitWebDriver): the app starts the frozen sidecar from its
bundle resources, a folder is opened, the report's first page is drawn, a
screenshot is saved as a test artifact, and closing the window leaves no
process behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.desktop.frozen import ROOT, leftovers, pid_alive
from tests.desktop.webdriver import Session, tauri_driver, xvfb

pytestmark = [
    # Cold builds (Tauri, PyInstaller, the TeX recording) run in these tests' fixtures.
    pytest.mark.timeout(3600),
    pytest.mark.smoke,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX"),
    # The first page is drawn by the real UI (ui/, its own issue); the shell's
    # minimal start screen cannot draw a report.
    pytest.mark.skipif(
        not (ROOT / "ui" / "package.json").is_file(), reason="the UI (ui/) is not in this tree yet"
    ),
]

ARTIFACTS = ROOT / "build" / "test-artifacts"
STATE = "return window.__TAURI_INTERNALS__.invoke('sidecar_info').then(arguments[0], e => arguments[0]({error: String(e)}));"


def _descendants(pid: int) -> set[int]:
    """Every live process below `pid` (walking /proc's parent links)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(d.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def test_window_opens_a_folder_and_shows_the_first_page(
    app_build: dict[str, str], examples_dir: Path, tmp_path: Path, _isolated_home: Path
) -> None:
    # Run the app as the .deb installs it (usr/bin + usr/lib/Labwright), so it
    # finds the frozen sidecar in its bundle resources like an installed copy.
    root = tmp_path / "installed"
    subprocess.run(["dpkg-deb", "-x", app_build["deb"], str(root)], check=True)
    binary = root / "usr" / "bin" / "labwright"
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    env = {
        **os.environ,
        "LABWRIGHT_HOME": str(_isolated_home),
        "LABWRIGHT_PICK_FOLDER": str(folder),
        "WEBKIT_DISABLE_COMPOSITING_MODE": "1",
    }
    env.pop("LABWRIGHT_SIDECAR", None)  # the app must find the sidecar in its own resources
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sidecar_pid: int | None = None
    with xvfb() as display, tauri_driver(display, env) as driver:
        session = Session(
            driver, {"browserName": "wry", "tauri:options": {"application": str(binary)}}
        )
        try:
            deadline = time.monotonic() + 120
            state: dict[str, Any] = {}
            while time.monotonic() < deadline:
                state = session.async_script(STATE)
                if state.get("state") in ("ready", "failed"):
                    break
                time.sleep(0.25)
            assert state.get("state") == "ready", state
            # The token reached the page over IPC, not through its address.
            url = session.script("return window.location.href;")
            assert state["token"] not in url
            sidecar_pid = _sidecar_pid(binary)
            assert sidecar_pid is not None, "no frozen sidecar runs below the app"

            opened = _open_folder(session)
            assert opened, "the page offers no way to open a folder"
            _show_first_page(session, 400)
            session.screenshot(ARTIFACTS / "window-first-page.png")
            assert (ARTIFACTS / "window-first-page.png").stat().st_size > 10_000
        finally:
            session.close()  # closes the window: the app exits and stops its sidecar
    deadline = time.monotonic() + 10
    while sidecar_pid is not None and pid_alive(sidecar_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sidecar_pid is None or not pid_alive(sidecar_pid), "the sidecar outlived the window"
    assert not _app_processes(binary), "the app is still running after its window closed"
    assert leftovers(root, _isolated_home) == []


def _open_folder(session: Session) -> bool:
    """Click the UI's "open folder" control; the shell's picker answers."""
    for css in ('[data-testid="open-folder"]', '[data-testid="drop-zone"] button.primary', "#open"):
        element = session.find(css)
        if element:
            session.click(element)
            return True
    return False


FIRST_PAGE = '[data-testid="pdf"]:not([data-pages="0"]) canvas[data-page="1"]'


def _show_first_page(session: Session, seconds: float) -> None:
    """Wait for the build, open the report tab, and wait for pdf.js to draw page 1."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if session.find(FIRST_PAGE):
            return
        tab = session.find('[data-testid="tab-report"]')
        if (
            tab
            and session.script("return !!document.querySelector('[data-testid=\"pdf\"]');") is False
        ):
            session.click(tab)
        time.sleep(1.0)
    raise AssertionError(
        "the report's first page was not drawn: "
        + str(session.script("return document.body.innerText.slice(0, 800);"))
    )


def _app_processes(binary: Path) -> list[int]:
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.readlink(d / "exe") == str(binary) and pid_alive(int(d.name)):
                    found.append(int(d.name))
            except OSError:
                pass
    return found


def _sidecar_pid(binary: Path) -> int | None:
    for pid in _app_processes(binary):
        for child in _descendants(pid):
            try:
                exe = os.readlink(f"/proc/{child}/exe")
            except OSError:
                continue
            if exe.endswith("/labwright-sidecar"):
                return child
    return None
