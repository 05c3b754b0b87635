"""What the size work changed inside the frozen sidecar still works there.

- One OpenBLAS: numpy is built against scipy's LP64 OpenBLAS
  (scripts/numpy_openblas.sh) and slim_bundle.py links scipy's identical copy
  to it, so after importing numpy and scipy.linalg exactly one OpenBLAS is
  mapped, and numpy's and scipy's linear algebra agree and are right.
- cryptography is left out (the spec says why): API keys go to the 0600 key
  file and round-trip; AES-encrypted PDFs are skipped with one sentence while
  RC4-encrypted and plain PDFs are still read.
- Bytecode is compiled with -OO: docstrings are gone from the bundle, yet the
  interpreter itself keeps asserts for code compiled at run time (model code).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ingest.conftest import write_pdf

pytestmark = [pytest.mark.timeout(600), pytest.mark.smoke]

PROBE = r"""
import json, os, stat, sys
from pathlib import Path
out = {}
import numpy as np
import scipy.linalg as sl
rng = np.random.default_rng(7)
a = rng.standard_normal((200, 200)); b = rng.standard_normal(200)
x = np.linalg.solve(a, b)
y = sl.solve(a, b)
s = a + a.T
out["linalg"] = bool(
    np.allclose(a @ x, b) and np.allclose(x, y)
    and np.allclose(np.linalg.eigvalsh(s), sl.eigh(s, eigvals_only=True))
    and np.allclose(np.linalg.inv(a) @ a, np.eye(200))
    and np.allclose(sl.lu_factor(a)[0].shape, (200, 200))
)
maps = [line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line]
out["openblas_files"] = sorted(set(os.path.realpath(p) for p in maps))
try:
    import secretstorage  # noqa: F401
    out["secretstorage"] = True
except ImportError:
    out["secretstorage"] = False
from labwright.llm import keys
out["storage"] = keys.set_api_key("openai", "sk-test-frozen")
out["key_back"] = keys.get_api_key("openai") == "sk-test-frozen"
out["key_mode"] = oct(stat.S_IMODE(keys.key_file().stat().st_mode))
from labwright.ingest import DocumentText, read_file
for name in sys.argv[1:] or os.environ["LW_PDFS"].split(os.pathsep):
    (item,) = read_file(Path(name), Path(name).name)
    out[Path(name).name] = item.text if isinstance(item, DocumentText) else "skipped: " + item.reason
out["numpy_doc"] = np.linalg.solve.__doc__
try:
    exec(compile("assert False", "<model>", "exec"))
    out["runtime_asserts"] = False
except AssertionError:
    out["runtime_asserts"] = True
print(json.dumps(out))
"""


def _encrypt(src: Path, dst: Path, algorithm: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(src))
    writer.encrypt(user_password="", owner_password="owner-secret", algorithm=algorithm)
    with dst.open("wb") as handle:
        writer.write(handle)
    return dst


def test_one_openblas_keys_and_pdfs_in_the_frozen_sidecar(frozen_exe: Path, tmp_path: Path) -> None:
    plain = write_pdf(tmp_path / "plain.pdf", "Aim: measure the period of a pendulum")
    pdfs = [plain, _encrypt(plain, tmp_path / "aes.pdf", "AES-128")]
    pdfs.append(_encrypt(plain, tmp_path / "rc4.pdf", "RC4-128"))
    script = tmp_path / "probe.py"
    script.write_text(PROBE, encoding="utf-8")
    home = tmp_path / "home"
    env = {
        **os.environ,
        "LABWRIGHT_PYRUN": str(script),
        "LABWRIGHT_HOME": str(home),
        "LW_PDFS": os.pathsep.join(map(str, pdfs)),
        # No session bus: whatever keyring finds, it must not be a desktop's.
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + str(tmp_path / "no-bus"),
    }
    env.pop("OPENAI_API_KEY", None)
    env.pop("LABWRIGHT_API_KEY", None)
    done = subprocess.run(
        [str(frozen_exe)], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"the probe gave no answer (exit {done.returncode}):\n{done.stderr[-3000:]}"
    out = json.loads(lines[-1])

    assert out["linalg"] is True
    (blas,) = out["openblas_files"]  # one OpenBLAS file mapped, not two
    assert Path(blas).is_relative_to(frozen_exe.parent.resolve()), blas

    assert out["secretstorage"] is False
    assert out["storage"] == "file" and out["key_back"] is True
    assert out["key_mode"] == "0o600"

    assert "period of a pendulum" in out["plain.pdf"]
    assert "period of a pendulum" in out["rc4.pdf"]
    assert out["aes.pdf"].startswith("skipped: aes.pdf is AES-encrypted")

    assert out["numpy_doc"] is None  # -OO bytecode in the bundle
    assert out["runtime_asserts"] is True  # model code keeps its asserts


# statsmodels' formula engine and matplotlib's font metrics, both slimmed out
# of the bundle (the spec says why): a two-factor formula fit runs on patsy,
# even when the user's environment asks statsmodels for formulaic, and gives
# the venv's numbers; a PDF figure with text saves with no AFM metrics present.
FORMULA_AND_FIGURE = r"""
import io, json, sys
import numpy as np, pandas as pd
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
rng = np.random.default_rng(3)
df = pd.DataFrame({"A": np.repeat(["a1", "a2"], 6), "B": np.tile(np.repeat(["b1", "b2"], 3), 2)})
df["y"] = rng.normal(10, 1, len(df)) + (df["A"] == "a2") * 2 + (df["B"] == "b2") * 1.5
fit = smf.ols("y ~ C(A) * C(B)", data=df).fit()
out = {"params": [round(float(v), 12) for v in fit.params],
       "F": [round(float(v), 9) for v in anova_lm(fit, typ=2)["F"].iloc[:3]]}
try:
    import formulaic  # noqa: F401
    out["formulaic"] = True
except ImportError:
    out["formulaic"] = False
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
fig, ax = plt.subplots()
ax.plot([1, 2], [3, 4], label="label")
ax.set_xlabel("t (s)")
ax.legend()
buf = io.BytesIO()
fig.savefig(buf, format="pdf")
out["pdf"] = buf.getvalue().startswith(b"%PDF") and b"DejaVu" in buf.getvalue()
# matplotlib's own metrics only: the system's fonts may have AFM files too.
out["afm"] = sum(f.fname.startswith(matplotlib.get_data_path()) for f in font_manager.fontManager.afmlist)
print(json.dumps(out))
"""


def test_the_formula_fit_and_a_figure_without_the_slimmed_parts(
    frozen_exe: Path, tmp_path: Path
) -> None:
    script = tmp_path / "probe.py"
    script.write_text(FORMULA_AND_FIGURE, encoding="utf-8")
    env = {**os.environ, "LABWRIGHT_HOME": str(tmp_path / "home"), "MPLCONFIGDIR": str(tmp_path)}
    env["SM_FORMULA_ENGINE"] = "formulaic"  # a user's environment; the bundle pins patsy
    frozen = subprocess.run(
        [str(frozen_exe)],
        capture_output=True,
        text=True,
        env={**env, "LABWRIGHT_PYRUN": str(script)},
        timeout=300,
        check=False,
    )
    lines = [ln for ln in frozen.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"the probe gave no answer (exit {frozen.returncode}):\n{frozen.stderr[-3000:]}"
    got = json.loads(lines[-1])
    env.pop("SM_FORMULA_ENGINE")
    venv = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert venv.returncode == 0, venv.stderr[-3000:]
    want = json.loads(venv.stdout.splitlines()[-1])
    assert got["formulaic"] is False  # left out of the bundle
    assert got["params"] == want["params"] and got["F"] == want["F"]
    assert got["pdf"] is True
    # matplotlib's metrics are gone from the bundle (not from the venv), the figure is not.
    assert got["afm"] == 0 and want["afm"] > 0
