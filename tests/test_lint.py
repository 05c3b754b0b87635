"""The code stays as clean as the conventions say: ruff (lint and format) and mypy.

In the suite rather than only in a pre-commit habit because parallel streams
merging into one main left a dead import behind that only mypy saw.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900
    )


def test_ruff_check() -> None:
    result = _run("ruff", "check", "sidecar", "tests", "benchmarks", "build_scripts")
    assert result.returncode == 0, result.stdout[-4000:]


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", "sidecar", "tests")
    assert result.returncode == 0, result.stdout[-4000:]


def test_mypy() -> None:
    # pyproject.toml holds the settings (strict for agent/, llm/, server/, edit/, analysis/).
    result = _run("mypy", "sidecar/labwright")
    assert result.returncode == 0, result.stdout[-4000:]
