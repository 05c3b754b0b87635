"""Fixtures for the desktop tests (Linux: the frozen sidecar, the window, the package)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT, freeze


@pytest.fixture(scope="session")
def frozen_exe() -> Path:
    if not sys.platform.startswith("linux"):
        pytest.skip(
            "the desktop smoke tests run on Linux here; the release workflow covers the rest"
        )
    return freeze()


@pytest.fixture(scope="session")
def app_build(frozen_exe: Path) -> dict[str, str]:
    """The app built once (release binary + .deb) for the window and package tests."""
    out = subprocess.run(
        ["bash", str(ROOT / "build_scripts" / "build_app.sh")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if out.returncode != 0:
        pytest.fail(f"building the app failed:\n{out.stderr[-4000:]}")
    built: dict[str, str] = json.loads(out.stdout.strip().splitlines()[-1])
    return built
