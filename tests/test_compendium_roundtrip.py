"""The compendium's round trip (issue 23) as a reader makes it: a FRESH
virtual environment with only the compendium's requirements.txt (and a
notebook runner) installed offline from a wheel cache, then analysis.py run
and analysis.ipynb executed (nbclient, an ipykernel kernel of that
environment) in a folder moved away from the data folder. Every number the
exporter says it recomputes must be printed "ok" by both; one altered number
in the report's record must make both fail (the mutation check).

tests/agent/test_compendium.py checks the same script in this interpreter;
this file checks that nothing of this environment (Labwright, our lock's
extra packages, PYTHONPATH) is needed.

The wheel cache is filled by scripts/_setup.sh's `_compendium_wheels`
(scripts/test.sh calls it). Without it the tests skip, and scripts/test.sh
turns that skip into a failure (tests/_layers.py)."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from labwright.agent.offline.compendium import (
    NOTEBOOK,
    REQUIREMENTS,
    SCRIPT,
    Compendium,
    export_compendium,
)
from tests.ledger_mutation import bump_last_digit

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FOLDERS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_"))
RUNNER_REQUIREMENTS = ROOT / "scripts" / "compendium-runner.txt"
DEFAULT_WHEELS = Path("/var/cache/labwright/compendium-wheels")
FLOOR = json.loads((ROOT / "tests" / "agent" / "compendium_floor.json").read_text("utf-8"))

# The install unpacks ~570 MB of scipy/pandas/statsmodels/matplotlib: on a
# loaded two-core machine it took 45-130 s, and the first test that asks for
# the venv pays it inside pytest's default 300 s (yesterday's run timed out
# there). Each test gets its own, explicit budget.
pytestmark = [pytest.mark.smoke, pytest.mark.slow, pytest.mark.timeout(1200)]

#: A line of the script's comparison: "<printed>  <value> ok  <computation> [<id>]".
_SAID = re.compile(r"\s(ok|DIFFERS)\s\s.*\[([0-9a-f]{10}(?:-[0-9]+)?)\]\s*$")

#: Executes one notebook in the fresh environment; exit 1 when a cell fails.
#: The executed notebook (with its outputs) is written to argv[2].
_RUN_NOTEBOOK = """
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

source, executed = Path(sys.argv[1]), Path(sys.argv[2])
nb = nbformat.read(source, as_version=4)
nbformat.validate(nb)
client = NotebookClient(
    nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(source.parent)}}
)
status = 0
try:
    client.execute()
except CellExecutionError as exc:
    print(exc, file=sys.stderr)
    status = 1
nbformat.write(nb, executed)
sys.exit(status)
"""


def _clean_env(home: Path) -> dict[str, str]:
    """What a reader's shell gives: no PYTHONPATH, no Labwright, a home of its
    own (Jupyter and matplotlib write their runtime files there). Bytecode is
    written: the venv is installed without it (faster), and the first run
    compiles what it imports for the runs after it."""
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "PYTHONIOENCODING": "utf-8",
        "MPLBACKEND": "Agg",
        "LANG": "C.UTF-8",
    }


@pytest.fixture(scope="session")
def fresh_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment holding only what requirements.txt pins,
    installed once per session, offline, from the wheel cache."""
    wheels = Path(os.environ.get("LABWRIGHT_COMPENDIUM_WHEELS", DEFAULT_WHEELS))
    if not any(wheels.glob("*.whl")):
        pytest.skip(
            f"the compendium wheel cache {wheels} is empty "
            "(scripts/_setup.sh's _compendium_wheels fills it)"
        )
    root = tmp_path_factory.mktemp("fresh")
    venv = root / "venv"
    # --without-pip: pip itself is not what the reader's analysis needs, and
    # ensurepip costs seconds; the pip of this environment installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    probe = export_compendium(EXAMPLES / "resistor-repeats", root / "probe")[0]
    requirements = root / REQUIREMENTS
    requirements.write_text(probe.requirements, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
            "--disable-pip-version-check", "--no-index", "--find-links", str(wheels),
            # pip compiles every module of scipy and pandas; the runs compile
            # only what they import (see _clean_env).
            "--no-compile", "-r", str(requirements), "-r", str(RUNNER_REQUIREMENTS),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.rmtree(root / "probe")
    return python


def _export(name: str, where: Path, record: Mapping[str, Any] | None = None) -> Compendium:
    """Export `name`'s compendium and move it away from the data folder."""
    comp, shipped = export_compendium(EXAMPLES / name, where / "out", record=record)
    assert not shipped.left_out
    shutil.move(str(where / "out"), str(where / "moved"))
    return comp


def _run_script(python: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), SCRIPT],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        env=_clean_env(folder.parent / "home"),
    )


def _run_notebook(python: Path, folder: Path) -> tuple[int, str, str]:
    """(exit status, every stream output of the executed notebook, stderr)."""
    executed = folder.parent / "executed.ipynb"
    done = subprocess.run(
        [str(python), "-c", _RUN_NOTEBOOK, str(folder / NOTEBOOK), str(executed)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=900,
        env=_clean_env(folder.parent / "home"),
    )
    text = ""
    if executed.is_file():
        nb = json.loads(executed.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                if out.get("output_type") == "stream":
                    text += "".join(out["text"])
    return done.returncode, text, done.stderr


def _said(output: str) -> dict[str, str]:
    """Ledger id -> "ok" or "DIFFERS", from the comparison lines printed."""
    found: dict[str, str] = {}
    for line in output.splitlines():
        m = _SAID.search(line)
        if m:
            found[m.group(2)] = m.group(1)
    return found


def test_the_fresh_environment_has_no_labwright(fresh_python: Path, tmp_path: Path) -> None:
    code = "import importlib.util as u; print(u.find_spec('labwright'), u.find_spec('pytest'))"
    done = subprocess.run(
        [str(fresh_python), "-c", code],
        capture_output=True,
        text=True,
        env=_clean_env(tmp_path / "home"),
        check=True,
    )
    assert done.stdout.split() == ["None", "None"]


@pytest.mark.parametrize("name", FOLDERS)
def test_script_and_notebook_reproduce_every_recomputed_number(
    name: str, fresh_python: Path, tmp_path: Path
) -> None:
    comp = _export(name, tmp_path)
    folder = tmp_path / "moved"
    assert comp.lines, "the exporter recomputes nothing"
    # The coverage reached is a floor (tests/agent/test_compendium_coverage.py
    # holds both languages to it in this interpreter; here the fresh venv).
    floor = FLOOR[name]["en"]
    assert len(comp.lines) >= floor["numbers"]
    assert len(comp.not_recomputed) <= floor["not_recomputed"], comp.not_recomputed

    done = _run_script(fresh_python, folder)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = _said(done.stdout)
    assert {i: said.get(i) for i in comp.lines} == dict.fromkeys(comp.lines, "ok")

    status, text, err = _run_notebook(fresh_python, folder)
    assert status == 0, err[-3000:]
    said = _said(text)
    assert {i: said.get(i) for i in comp.lines} == dict.fromkeys(comp.lines, "ok")
    assert "Every recomputed number matches the report" in text


def test_one_altered_ledger_number_fails_script_and_notebook(
    fresh_python: Path, tmp_path: Path
) -> None:
    name = "pendulum"
    good = _export(name, tmp_path / "good")
    from labwright.agent.offline.compendium import report_record

    record = report_record(EXAMPLES / name)
    # The entry the script recomputes last: the mutation must be caught at
    # the end of the analysis, not only by the first block.
    target = list(good.lines)[-1]
    altered = copy.deepcopy(record)
    entry = next(e for e in altered["numbers"] if e["id"] == target)
    entry["printed"] = bump_last_digit(str(entry["printed"]))
    bad = _export(name, tmp_path / "bad", record=altered)
    assert target in bad.lines
    folder = tmp_path / "bad" / "moved"

    done = _run_script(fresh_python, folder)
    assert done.returncode == 1
    said = _said(done.stdout)
    assert said[target] == "DIFFERS"
    assert [i for i, s in said.items() if s != "ok"] == [target]

    status, text, err = _run_notebook(fresh_python, folder)
    assert status == 1 and target in err
    assert _said(text)[target] == "DIFFERS"
