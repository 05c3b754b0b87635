"""Frozen self-dispatch: LABWRIGHT_PYRUN makes the entry point run one script
and exit before the CLI/server is imported. A frozen build is simulated by
running `python -m labwright` (the same __main__ the bundle starts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from labwright import __main__ as entry
from labwright.sandbox import spawn
from labwright.sandbox.env import scrubbed_env
from labwright.sandbox.job import Job
from labwright.sandbox.runner import read_roots_for

from .conftest import requires_confinement


def test_env_var_name_matches_sandbox() -> None:
    assert entry.PYRUN_ENV == spawn.PYRUN_ENV


def test_dispatch_runs_script_and_skips_cli(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    out = tmp_path / "ran.txt"
    script.write_text(
        "import sys\n"
        f"open({str(out)!r}, 'w').write(str('labwright.cli' in sys.modules) + ' ' + sys.argv[0])\n",
        encoding="utf-8",
    )
    env = {**os.environ, spawn.PYRUN_ENV: str(script)}
    proc = subprocess.run(
        [sys.executable, "-m", "labwright", "serve", "--port", "0"],
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    cli_loaded, argv0 = out.read_text(encoding="utf-8").split(" ", 1)
    assert cli_loaded == "False" and argv0 == str(script)


def test_without_env_var_dispatch_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(spawn.PYRUN_ENV, raising=False)
    assert entry._dispatch_pyrun() is False


def test_env_var_is_not_inherited_by_the_script(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    out = tmp_path / "env.txt"
    script.write_text(
        f"import os\nopen({str(out)!r}, 'w').write(repr(os.environ.get({spawn.PYRUN_ENV!r})))\n",
        encoding="utf-8",
    )
    env = {**os.environ, spawn.PYRUN_ENV: str(script)}
    subprocess.run([sys.executable, "-m", "labwright"], env=env, check=True, timeout=120)
    assert out.read_text(encoding="utf-8") == "None"


def test_frozen_command_uses_env_var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    env: dict[str, str] = {}
    cmd = spawn.python_command(tmp_path / "x.py", env)
    assert cmd == [sys.executable] and env[spawn.PYRUN_ENV] == str(tmp_path / "x.py")
    monkeypatch.setattr(sys, "frozen", False)
    env = {}
    assert spawn.python_command(tmp_path / "x.py", env) == [
        sys.executable,
        "-I",
        str(tmp_path / "x.py"),
    ]
    assert spawn.PYRUN_ENV not in env


@pytest.mark.smoke
@requires_confinement
def test_confined_figure_through_the_dispatch(tmp_path: Path) -> None:
    """The whole cold child path, started the way a frozen app starts it."""
    work = tmp_path / "work"
    work.mkdir()
    (work / ".mpl").mkdir()
    (work / "code.py").write_text(
        "plt.plot([1, 3, 2])\nplt.savefig(OUT)\nprint(np.loadtxt('/etc/hostname', dtype=str))",
        encoding="utf-8",
    )
    job = Job(work_dir=str(work), data_root=None, read_roots=read_roots_for(None, []))
    script = spawn.write_bootstrap(work, job_path=job.save())
    env = scrubbed_env(work)
    env[spawn.PYRUN_ENV] = str(script)
    proc = subprocess.run(
        [sys.executable, "-m", "labwright"], env=env, cwd=work, capture_output=True, timeout=180
    )
    # The figure was saved, then the read outside the roots failed (confined).
    assert job.out_path.stat().st_size > 0
    assert proc.returncode == 1 and b"PermissionError" in proc.stderr
