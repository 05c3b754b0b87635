"""A sandbox child runs the very `labwright` its parent runs.

Children start as `python -I script`, which ignores PYTHONPATH: a checkout
run with PYTHONPATH over another checkout's editable install started its
children on the other checkout's code, which their Landlock rules (the
parent's package folder) refused mid-import, and every figure died.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import labwright
from labwright.sandbox.spawn import bootstrap_text


def test_the_bootstrap_imports_the_parents_package(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_text(bootstrap_text("import labwright\nprint(labwright.__file__)\n"))
    # -S as well: no site-packages, so no editable install's .pth can supply
    # a `labwright`; only the bootstrap's own path can.
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(script)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve() == Path(labwright.__file__).resolve()
