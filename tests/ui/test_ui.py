"""The window UI's own test runners, run from pytest so they count in the suite.

- Vitest: the UI's state logic (event reducer, resume, diff, settings, provenance).
- The generated API types are current (ui/scripts/gen-api.mjs --check).
- Playwright e2e (playwright-core driving Debian's Chromium) against a real
  `labwright serve --open` on an example folder; screenshots go to ui/artifacts/.

Each needs what scripts/test.sh installs (npm ci, the build, chromium): a
missing one is a skip naming it, which test.sh turns into a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _node_ready() -> None:
    if shutil.which("node") is None or shutil.which("npx") is None:
        pytest.skip("node and npm are not installed (scripts/test.sh installs them)")
    if not (UI / "node_modules" / ".bin").is_dir():
        pytest.skip("the UI's npm packages are missing: run scripts/test.sh (npm ci)")


def _run(args: list[str], timeout: float, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        args,
        cwd=UI,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", "CI": "1", **(env or {})},
    )
    output = proc.stdout + proc.stderr
    print(output)  # shown with -s or on failure: the e2e timings and the checks
    assert proc.returncode == 0, output[-6000:]
    return output


def test_vitest_state_logic() -> None:
    _node_ready()
    out = _run(["npx", "vitest", "run"], timeout=300)
    assert " passed" in out and " failed" not in out


def test_generated_api_types_are_current() -> None:
    _node_ready()
    _run(
        ["node", "scripts/gen-api.mjs", "--check"],
        timeout=120,
        env={"LABWRIGHT_PYTHON": sys.executable},
    )


def test_typescript_is_strict_and_clean() -> None:
    _node_ready()
    _run(["npx", "tsc", "--noEmit", "-p", "."], timeout=300)


def test_e2e_in_chromium_against_a_real_server() -> None:
    _node_ready()
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("chromium is not installed (scripts/test.sh installs Debian's chromium)")
    if not (UI / "dist" / "index.html").is_file():
        pytest.skip("the UI is not built: run scripts/test.sh (npm run build)")
    if shutil.which("xelatex") is None:
        pytest.skip("xelatex is missing: the e2e renders the report's PDF")
    labwright = Path(sys.executable).with_name("labwright")
    out = _run(
        ["node", "e2e/run.mjs", str(ROOT / "examples" / "pendulum")],
        timeout=900,
        env={
            "LABWRIGHT_BIN": str(labwright),
            "LABWRIGHT_PYTHON": sys.executable,
            "CHROMIUM": CHROMIUM,
        },
    )
    assert "0 failed" in out


def test_daily_use_e2e_in_chromium() -> None:
    """ui/e2e/daily.mjs: a Chinese folder dropped (Chromium's own drag events
    carrying the folder's path) with the UI in 中文, three numbers
    clicked in the PDF to their sources, a rename accepted and a number of the
    new version clicked, a connection cut mid-run and resumed, the engine lost
    for good; screenshots of each step in both languages and themes."""
    _node_ready()
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("chromium is not installed (scripts/test.sh installs Debian's chromium)")
    if not (UI / "dist" / "index.html").is_file():
        pytest.skip("the UI is not built: run scripts/test.sh (npm run build)")
    for tool in ("xelatex", "pdftotext", "pdffonts"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is missing: the daily e2e builds and reads the report's PDF")
    labwright = Path(sys.executable).with_name("labwright")
    out = _run(
        ["node", "e2e/daily.mjs", str(ROOT / "examples" / "plant-growth-zh")],
        timeout=900,
        env={
            "LABWRIGHT_BIN": str(labwright),
            "LABWRIGHT_PYTHON": sys.executable,
            "CHROMIUM": CHROMIUM,
        },
    )
    assert " 0 failed" in out and "FAIL" not in out


def test_the_smaller_things_of_daily_use_in_chromium() -> None:
    """ui/e2e/details.mjs (issue 21, points 7, 8, 10): the cold load paints
    "Starting…"; an empty folder and a folder whose only data file is empty
    each get one sentence (a failed run, not a full bar); a 200-character file
    name overflows nothing; an uploaded folder is not shown by its internal
    path; the PDF leads (zoom, fit, pages, split, collapsible source);
    identical versions say so; chat cards stay in their session; a cancelled
    run says Cancelled; a model provider that cannot be reached gives the
    offline report and one warning with a link to Settings; browser mode
    keeps language and theme across a restart of the engine."""
    _node_ready()
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("chromium is not installed (scripts/test.sh installs Debian's chromium)")
    if not (UI / "dist" / "index.html").is_file():
        pytest.skip("the UI is not built: run scripts/test.sh (npm run build)")
    if shutil.which("xelatex") is None:
        pytest.skip("xelatex is missing: the e2e renders the report's PDF")
    labwright = Path(sys.executable).with_name("labwright")
    out = _run(
        ["node", "e2e/details.mjs", str(ROOT / "examples" / "pendulum")],
        timeout=900,
        env={
            "LABWRIGHT_BIN": str(labwright),
            "LABWRIGHT_PYTHON": sys.executable,
            "CHROMIUM": CHROMIUM,
        },
    )
    assert " 0 failed" in out and "FAIL" not in out
