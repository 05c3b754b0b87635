"""lmfit imported without matplotlib in the build's own process
(analysis/lmfit_import.py), and nothing else changed by it."""

from __future__ import annotations

import subprocess
import sys

_CHECK = """
import sys
from labwright.analysis.lmfit_import import import_lmfit

lmfit = import_lmfit()
assert import_lmfit() is lmfit is sys.modules["lmfit"]
assert "matplotlib" not in sys.modules, "lmfit's import brought matplotlib in"
params = lmfit.Parameters()
params.add("a", value=1.0)
out = lmfit.minimize(lambda p: [p["a"].value - 2.0, p["a"].value - 2.0], params)
assert abs(out.params["a"].value - 2.0) < 1e-6
import matplotlib  # still importable afterwards

assert matplotlib.__version__
print("ok")
"""


def test_lmfit_comes_without_matplotlib_which_stays_importable() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CHECK], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_an_imported_matplotlib_is_left_alone() -> None:
    code = (
        "import matplotlib, sys\n"
        "from labwright.analysis.lmfit_import import import_lmfit\n"
        "import_lmfit()\n"
        "import lmfit.model\n"
        "assert lmfit.model._HAS_MATPLOTLIB and sys.modules['matplotlib'] is matplotlib\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
