"""Every example builds through the frozen sidecar to the same Overleaf project
as through the venv.

The import check (test_frozen_imports.py) sees modules that fail at import;
this sees what fails only when a function runs (statsmodels and scipy import
inside functions, and the analysis skips a section it cannot compute). The
offline build is deterministic, so the two projects must be equal byte for
byte, except the creation date matplotlib writes into each figure PDF.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT

pytestmark = [pytest.mark.timeout(3600), pytest.mark.smoke, pytest.mark.slow]

EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir() and p.name[0] != "_")
_CREATION_DATE = re.compile(rb"/CreationDate \(D:\d+Z?\)")


def _build(cmd: list[str], folder: Path, out: Path) -> dict[str, bytes]:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "LABWRIGHT_HOME": str(out / "home")}
    zip_path = out / f"{folder.name}.zip"
    done = subprocess.run(
        [*cmd, "build", str(folder), "-o", str(out / f"{folder.name}.pdf"), "--zip", str(zip_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (
        f"{folder.name}: {' '.join(cmd[:1])} failed:\n{done.stderr[-3000:]}"
    )
    with zipfile.ZipFile(zip_path) as archive:
        return {
            name: _CREATION_DATE.sub(b"", archive.read(name))
            for name in archive.namelist()
            if not name.endswith("/")
        }


def test_every_example_builds_the_same_project_frozen_as_in_the_venv(
    frozen_exe: Path, tmp_path: Path
) -> None:
    assert len(EXAMPLES) >= 5
    for folder in EXAMPLES:
        venv = _build([sys.executable, "-m", "labwright"], folder, tmp_path / "venv")
        frozen = _build([str(frozen_exe)], folder, tmp_path / "frozen")
        assert sorted(frozen) == sorted(venv), folder.name
        differ = [name for name in venv if frozen[name] != venv[name]]
        assert differ == [], f"{folder.name}: {differ}"
