"""The README's test command fails when a smoke layer is missing instead of skipping it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._layers import is_missing_layer

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "reason",
    [
        "needs XeLaTeX (see labwright doctor)",
        "XeLaTeX is not installed",
        "no xdvipdfmx beside xelatex",
        "no OS confinement: Landlock unavailable",
        "fork-server not available on this platform",
        "no Chinese font known to fontconfig",
        "Chromium is not installed",
    ],
)
def test_layer_reasons_are_recognised(reason: str) -> None:
    assert is_missing_layer(reason)


@pytest.mark.parametrize(
    "reason",
    [
        "job objects run only on Windows",
        "Seatbelt runs only on macOS",
        "live test: pass --run-live and set provider keys",
        "no TeX distribution sources under /usr/share on this machine",
        "needs symlinks",
        "cold/os-only runs this payload with strictly fewer defences",
    ],
)
def test_other_skips_stay_skips(reason: str) -> None:
    assert not is_missing_layer(reason)


def _run(tmp_path: Path, extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_probe.py"
    test.write_text(
        "import pytest\n\n"
        "@pytest.mark.skipif(True, reason='needs XeLaTeX (see labwright doctor)')\n"
        "def test_tex():\n    pass\n\n"
        "def test_windows():\n    pytest.skip('job objects run only on Windows')\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("LABWRIGHT_")}
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests._layers",
         str(test)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_required_layer_skip_fails_the_run(tmp_path: Path) -> None:
    result = _run(tmp_path, {"LABWRIGHT_REQUIRE_LAYERS": "1"})
    assert result.returncode == 1, result.stdout
    assert "1 error" in result.stdout or "1 failed" in result.stdout, result.stdout
    assert "1 skipped" in result.stdout  # the Windows-only test still just skips
    assert "scripts/test.sh" in result.stdout


def test_developer_can_allow_missing_layers(tmp_path: Path) -> None:
    result = _run(
        tmp_path, {"LABWRIGHT_REQUIRE_LAYERS": "1", "LABWRIGHT_ALLOW_MISSING_LAYERS": "1"}
    )
    assert result.returncode == 0, result.stdout
    assert "2 skipped" in result.stdout


def test_plain_pytest_still_skips(tmp_path: Path) -> None:
    assert _run(tmp_path, {}).returncode == 0
