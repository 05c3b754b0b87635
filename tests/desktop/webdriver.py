"""Just enough of the W3C WebDriver protocol (over httpx) to drive the Tauri
window through tauri-driver, and an Xvfb display to show it on."""

from __future__ import annotations

import base64
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

W3C_ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


@contextmanager
def xvfb() -> Iterator[str]:
    """A private X display; yields its name (":N")."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Session:
    def __init__(self, driver: str, capabilities: dict[str, Any]) -> None:
        self.http = httpx.Client(base_url=driver, timeout=120)
        reply = self.http.post("/session", json={"capabilities": {"alwaysMatch": capabilities}})
        reply.raise_for_status()
        self.id: str = reply.json()["value"]["sessionId"]

    def _cmd(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        reply = self.http.request(method, f"/session/{self.id}{path}", json=body)
        value = reply.json().get("value")
        if reply.status_code >= 400:
            raise RuntimeError(f"WebDriver {path}: {value}")
        return value

    def script(self, source: str, *args: Any) -> Any:
        return self._cmd("POST", "/execute/sync", {"script": source, "args": list(args)})

    def async_script(self, source: str, *args: Any) -> Any:
        return self._cmd("POST", "/execute/async", {"script": source, "args": list(args)})

    def find(self, css: str) -> str | None:
        found = self._cmd("POST", "/elements", {"using": "css selector", "value": css})
        return found[0][W3C_ELEMENT] if found else None

    def click(self, element: str) -> None:
        self._cmd("POST", f"/element/{element}/click", {})

    def type(self, element: str, text: str) -> None:
        """Typed into the element as keystrokes (Element Send Keys)."""
        self._cmd("POST", f"/element/{element}/value", {"text": text})

    def wait_for(self, css: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                found = self.find(css)
            except RuntimeError as e:
                # WebKitWebDriver answers a find with "stale element reference"
                # when a node it matched is re-rendered before it makes the
                # handle (a run's log grows many times a second): not found
                # yet, so look again. Any other error is real.
                if "stale element reference" not in str(e):
                    raise
                found = None
            if found:
                return found
            time.sleep(0.25)
        raise TimeoutError(f"no element matches {css!r} after {seconds}s")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._cmd("GET", "/screenshot")))

    def close(self) -> None:
        try:
            self.http.delete(f"/session/{self.id}")
        finally:
            self.http.close()


@contextmanager
def tauri_driver(display: str, env: dict[str, str]) -> Iterator[str]:
    """tauri-driver in front of Debian's WebKitWebDriver; yields its URL."""
    exe = shutil.which("tauri-driver", path=env.get("PATH"))
    if exe is None:
        raise RuntimeError("tauri-driver is not installed (scripts/test.sh installs it)")
    port, native = free_port(), free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--native-port", str(native),
         "--native-driver", shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"],
        env={**env, "DISPLAY": display},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_port(port, 60)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
