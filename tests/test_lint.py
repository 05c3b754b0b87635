"""The code stays as clean as the conventions say: ruff (lint and format) and mypy.

In the suite rather than only in a pre-commit habit because parallel streams
merging into one main left a dead import behind that only mypy saw.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
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


#: The packages issue 22 holds to `mypy --strict`.
STRICT_PACKAGES = ("agent", "llm", "server", "edit", "analysis")


def _strict_flags() -> set[str]:
    """The options `--strict` enables, as this mypy lists them in its help."""
    text = " ".join(_run("mypy", "--help").stdout.split())
    marker = "--strict Strict mode; enables the following flags: "
    assert marker in text, "mypy --help no longer lists what --strict enables"
    # The help wraps flag names at hyphens ("--warn-\n redundant-casts").
    rest = re.sub(r"(?<=[a-z])- (?=[a-z])", "-", text.split(marker, 1)[1])
    listed = re.match(r"(?:--[a-z-]+, )*--[a-z-]+", rest)
    assert listed
    return {f.replace("-", "_") for f in re.findall(r"--([a-z-]+)", listed.group(0))}


def test_mypy_gate_is_strict_for_the_strict_packages() -> None:
    """The gate above (one `mypy sidecar/labwright`) equals `mypy --strict`
    on the five packages: every flag --strict sets is in their override, or
    global where mypy allows it only there."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    override = next(o for o in config["overrides"] if "labwright.agent.*" in o["module"])
    for pkg in STRICT_PACKAGES:
        assert f"labwright.{pkg}.*" in override["module"], pkg
    set_true = {k for k, v in {**config, **override}.items() if v is True}
    flags = _strict_flags()
    assert len(flags) >= 10, flags
    assert flags <= set_true, f"--strict flags missing from the mypy config: {flags - set_true}"
