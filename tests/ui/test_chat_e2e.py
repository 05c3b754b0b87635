"""The chat panel end to end (ui/e2e/chat.mjs), run from pytest so it counts in the suite.

Playwright (playwright-core driving Debian's Chromium) against a real
`labwright serve --open`: for English and Chinese, a built report, a request,
its proposal card with the diff, accept (version 2, re-rendered PDF), another
request rejected (nothing changes). Needs what scripts/test.sh installs (npm
ci, the UI build, chromium, XeLaTeX); a missing one is a skip naming it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

pytestmark = pytest.mark.smoke


def test_chat_panel_end_to_end_in_english_and_chinese() -> None:
    if shutil.which("node") is None:
        pytest.skip("node and npm are not installed (scripts/test.sh installs them)")
    if (
        not (UI / "node_modules" / "playwright-core").is_dir()
        or not (UI / "dist" / "index.html").is_file()
    ):
        pytest.skip(
            "the UI's npm packages or its build are missing: run scripts/test.sh (npm ci, build)"
        )
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium is not installed at {CHROMIUM}")
    if shutil.which("xelatex") is None:
        pytest.skip("needs XeLaTeX")
    proc = subprocess.run(
        ["node", "e2e/chat.mjs"],
        cwd=UI,
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "NO_COLOR": "1"},
    )
    output = proc.stdout + proc.stderr
    print(output)
    assert proc.returncode == 0, output[-6000:]
    assert "FAIL" not in proc.stdout and "chat e2e: all checks passed" in proc.stdout
