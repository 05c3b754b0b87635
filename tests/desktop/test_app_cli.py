"""The desktop binary's command line, run as built (issue 21: `labwright
--help` panicked with a backtrace). `--help` and `--version` print and exit 0
before any window exists, an unknown option is one sentence and exit 2, and
started with no display at all the binary says so in one sentence instead of
GTK's panic (src-tauri/src/args.rs)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT

# Cold builds (Tauri, PyInstaller) run in the app_build fixture.
pytestmark = [pytest.mark.smoke, pytest.mark.slow, pytest.mark.timeout(3600)]


def _run(binary: str, *args: str, display: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    # A panic would print its backtrace: the output is checked for one.
    env["RUST_BACKTRACE"] = "1"
    if display is not None:
        # A display no server listens on: anything that tried to open a
        # window would fail (GTK's panic), so exiting 0 means no window was tried.
        env["DISPLAY"] = display
    return subprocess.run([binary, *args], env=env, capture_output=True, text=True, timeout=30)


def _no_panic(done: subprocess.CompletedProcess[str]) -> None:
    both = done.stdout + done.stderr
    assert "panicked" not in both and "backtrace" not in both, both


def _version() -> str:
    conf = json.loads((ROOT / "src-tauri" / "tauri.conf.json").read_text(encoding="utf-8"))
    version: str = conf["version"]
    return version


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("display", [None, ":7731"])
def test_help_prints_the_usage_and_exits_0_without_a_window(
    app_build: dict[str, str], flag: str, display: str | None
) -> None:
    done = _run(app_build["binary"], flag, display=display)
    _no_panic(done)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Labwright {_version()}:"), done.stdout
    assert "Usage: labwright [--help | --version]" in done.stdout
    assert "--version" in done.stdout and "LABWRIGHT_HOME" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_app_version_and_exits_0(app_build: dict[str, str], flag: str) -> None:
    done = _run(app_build["binary"], flag, display=":7731")
    _no_panic(done)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"Labwright {_version()}\n", "")


@pytest.mark.parametrize("arg", ["--bogus", "build"])
def test_an_unknown_option_is_one_sentence_and_exit_2(app_build: dict[str, str], arg: str) -> None:
    done = _run(app_build["binary"], arg, display=":7731")
    _no_panic(done)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and f'"{arg}"' in lines[0] and "labwright --help" in lines[0], lines


def test_no_display_is_one_sentence_not_a_panic(app_build: dict[str, str], tmp_path: Path) -> None:
    done = subprocess.run(
        [app_build["binary"]],
        env={
            **{k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")},
            "RUST_BACKTRACE": "1",
            "LABWRIGHT_HOME": str(tmp_path / "home"),
        },
        capture_output=True,
        text=True,
        timeout=30,
    )
    _no_panic(done)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "no graphical display" in lines[0], lines
    # Nothing was started: no data folder, no sidecar log.
    assert not (tmp_path / "home").exists()
