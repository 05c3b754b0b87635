"""What the README's two set-up commands install, checked by running the real
shell functions with apt-get and dpkg-query replaced by recorders on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
# What a newcomer's first command (the main job) has no use for.
NOT_FOR_THE_MAIN_JOB = ("webkit", "gtk", "chromium", "xvfb", "xauth", "xdotool", "strace", "-dev")


def _packages(list_name: str) -> list[str]:
    lines = (SCRIPTS / list_name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _installed_by(function_call: str, tmp_path: Path) -> list[str]:
    """Run `function_call` from _setup.sh as root with nothing installed; return
    the packages it asked apt-get to install."""
    if shutil.which("bash") is None or os.geteuid() != 0:
        pytest.skip("needs bash, run as root (the set-up installs packages only then)")
    stubs = tmp_path / "bin"
    stubs.mkdir()
    record = tmp_path / "apt.log"
    (stubs / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> "{record}"\n', encoding="utf-8")
    (stubs / "dpkg-query").write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    for stub in stubs.iterdir():
        stub.chmod(0o755)
    root = tmp_path / "checkout"  # no tinytex/ here, so no bundled engine
    shutil.copytree(SCRIPTS, root / "scripts")
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    subprocess.run(
        ["bash", "-c", f'source "{root}/scripts/_setup.sh"; {function_call}'],
        check=True,
        env=env,
        timeout=60,
    )
    calls = [line.split() for line in record.read_text(encoding="utf-8").splitlines()]
    return [word for call in calls if call[0] == "install" for word in call[1:] if word[0] != "-"]


def test_the_main_job_installs_only_tex_poppler_and_fonts(tmp_path: Path) -> None:
    asked = _installed_by("_ensure_tex", tmp_path)
    assert "texlive-xetex" in asked and "poppler-utils" in asked
    unwanted = [pkg for pkg in asked if any(word in pkg for word in NOT_FOR_THE_MAIN_JOB)]
    assert unwanted == []
    assert set(asked) <= set(_packages("apt-report.txt"))


def test_the_test_command_installs_both_lists(tmp_path: Path) -> None:
    asked = set(_installed_by("_install_system_packages apt-report.txt apt-tests.txt", tmp_path))
    assert set(_packages("apt-report.txt")) | set(_packages("apt-tests.txt")) <= asked
    assert "webkit2gtk-driver" in asked and "xvfb" in asked


def test_the_lists_do_not_overlap() -> None:
    assert not set(_packages("apt-report.txt")) & set(_packages("apt-tests.txt"))
