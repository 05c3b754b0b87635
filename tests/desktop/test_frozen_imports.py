"""Everything our code imports, and everything model code may import, imports in
the frozen sidecar too.

The spec leaves parts of the stack out to keep the bundle small
(build_scripts/labwright-sidecar.spec, slim_bundle.py). An over-eager
exclusion must fail here, loudly, not in a user's build. The list is derived,
not written down: every module named by an import statement anywhere in
`sidecar/labwright` (also inside functions), and the public modules of the
packages the sandbox lets model code import (sandbox/policy.py
ALLOWED_IMPORTS). Whatever imports in the venv must import in the frozen
binary, except modules the spec excludes by name on purpose. Every shared
library in the bundle must also load (a stripped library that glibc refuses
fails here).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.sandbox.policy import ALLOWED_IMPORTS
from tests.desktop.frozen import ROOT

pytestmark = [pytest.mark.timeout(3600), pytest.mark.smoke, pytest.mark.slow]

PROBE = Path(__file__).with_name("import_probe.py")
SPEC = ROOT / "build_scripts" / "labwright-sidecar.spec"
PACKAGE = ROOT / "sidecar" / "labwright"

#: Packages model code may import whose public submodules are all checked.
WALKED = ("numpy", "scipy", "pandas", "matplotlib", "mpl_toolkits")
#: Not shipped on purpose, beyond the spec's `excludes`: build tools and
#: matplotlib's backends other than the three the bundle carries.
NOT_SHIPPED = (
    "numpy.f2py",
    "numpy.distutils",
    "numpy.typing.mypy_plugin",
    "numpy.ma.testutils",
    "matplotlib.sphinxext",
    "matplotlib.backends.",
)
MATPLOTLIB_BACKENDS = (
    "matplotlib.backends.backend_agg",
    "matplotlib.backends.backend_pdf",
    "matplotlib.backends.backend_svg",
    "matplotlib.pyplot",
    "mpl_toolkits.mplot3d",
)


def spec_excludes() -> list[str]:
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "excludes" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(v) for v in value]
    raise AssertionError("the spec has no `excludes` list")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_by_our_code() -> set[str]:
    """Our modules and every module their import statements name."""
    names: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if module.startswith("labwright.testing"):
            continue  # test helpers; the spec leaves them out
        names.add(module)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names.add(target)
                # `from pkg import name`: name may be a submodule; the venv
                # run drops the ones that are not.
                names.update(f"{target}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                # The compendium's import lines, written as strings: the
                # build runs each script block in-process, so what they
                # import must import in the bundle too (statsmodels.api did
                # not, and `build --zip` wrote no compendium).
                names.update(_imports_in_text(node.value))
    return {n for n in names if n and not n.startswith("labwright.testing")}


_IMPORT_LINE = re.compile(r"^\s*(?:import\s+([\w.]+)|from\s+([\w.]+)\s+import\s+([\w, ]+))\s*$")


def _imports_in_text(text: str) -> set[str]:
    """Modules named by lines of a string that are whole import statements."""
    out: set[str] = set()
    for line in text.splitlines():
        m = _IMPORT_LINE.match(
            line.split(" as ")[0] if line.lstrip().startswith("import ") else line
        )
        if m is None:
            continue
        if m.group(1):
            out.add(m.group(1))
        else:
            out.add(m.group(2))
            out.update(f"{m.group(2)}.{n.strip()}" for n in m.group(3).split(",") if n.strip())
    return out


def _probe(cmd: list[str], spec: dict[str, list[str]], tmp: Path) -> dict[str, object]:
    spec_file = tmp / f"probe-in-{len(list(tmp.iterdir()))}.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    env = {**os.environ, "LW_PROBE_IN": str(spec_file), "MPLBACKEND": "agg"}
    if cmd[0] != sys.executable:
        env["LABWRIGHT_PYRUN"] = str(PROBE)
    done = subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=tmp, timeout=900, check=False
    )
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"the probe gave no answer (exit {done.returncode}):\n{done.stderr[-3000:]}"
    result: dict[str, object] = json.loads(lines[-1])
    return result


def _shipped(name: str, excludes: list[str]) -> bool:
    if name in MATPLOTLIB_BACKENDS:
        return True
    for ex in excludes:
        if name == ex or name.startswith(ex + "."):
            return False
    return not any(
        name == n or name.startswith(n if n.endswith(".") else n + ".") for n in NOT_SHIPPED
    )


def test_frozen_sidecar_imports_what_our_code_and_model_code_import(
    frozen_exe: Path, tmp_path: Path
) -> None:
    excludes = spec_excludes()
    ours = imported_by_our_code()
    allowed = sorted(ALLOWED_IMPORTS)
    request = {"modules": sorted(ours) + allowed + list(MATPLOTLIB_BACKENDS), "walk": list(WALKED)}
    venv = _probe([sys.executable, str(PROBE)], request, tmp_path)
    venv_failed = venv["failed"]
    assert isinstance(venv_failed, dict) and isinstance(venv["modules"], list)
    wanted = sorted(
        m for m in venv["modules"] if m not in venv_failed and _shipped(str(m), excludes)
    )
    # What our code uses that is platform-specific fails in the venv too and
    # drops out; the list must still cover the stack, or the test proves nothing.
    for must in (
        "labwright.server.app",
        "labwright.ingest.read_matlab",
        "h5py",
        "keyring",
        "statsmodels.tsa.seasonal",
        "statsmodels.stats.outliers_influence",
        "scipy.optimize",
        "scipy.io.matlab",
        "pandas.plotting",
        "matplotlib.backends.backend_pdf",
    ):
        assert must in wanted, f"{must} is missing from the checked list"

    frozen = _probe([str(frozen_exe)], {"modules": wanted}, tmp_path)
    failed = frozen["failed"]
    assert isinstance(failed, dict)
    assert failed == {}, (
        f"{len(failed)} of {len(wanted)} modules do not import frozen: "
        + json.dumps(failed, indent=1)[:6000]
    )
    assert isinstance(frozen["libs"], int) and frozen["libs"] > 100
    assert frozen["libs_failed"] == {}, frozen["libs_failed"]
