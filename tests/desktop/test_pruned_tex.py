"""The pruned TeX tree, built here from Debian's TeX Live the way the release
workflow builds it from TinyTeX: every example in English and Chinese is
compiled again with kpathsea and fontconfig pointed only at the tree, and no
file may be read from the system's TeX or font folders (strace checks)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.desktop.frozen import ROOT

pytestmark = [
    # Cold builds (Tauri, PyInstaller, the TeX recording) run in these tests' fixtures.
    pytest.mark.timeout(3600),
    pytest.mark.smoke,
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="strace-based recording"),
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="needs XeLaTeX"),
]
TREE = ROOT / "build" / "tex-pruned"


def test_every_example_compiles_in_both_languages_with_only_the_pruned_tree() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "build_scripts" / "prune_tex.py"), "--out", str(TREE)],
        capture_output=True,
        text=True,
        timeout=3000,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    examples = [p for p in (ROOT / "examples").iterdir() if p.is_dir() and p.name[0] not in "_."]
    assert report["verified"] is True and report["projects"] == 2 * len(examples)
    # The tree is self-contained: programs, format, config, and the CJK fonts.
    assert (TREE / "texmf.cnf").is_file() and (TREE / "fonts.conf").is_file()
    assert list(TREE.glob("bin/*/xelatex")) and list(TREE.glob("texmf-var/web2c/xetex/xelatex.fmt"))
    assert list(TREE.rglob("Fandol*.otf")), "the Chinese reports need the Fandol fonts"
