"""make_figure's contract: a PNG path, or an instructional error; and the
parent never trusts what the child left in its work directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from labwright.sandbox import make_figure
from labwright.sandbox.figure import STDERR_TAIL, FigureResult, collect_figure
from labwright.sandbox.limits import Limits
from labwright.sandbox.runner import run_code

from .conftest import requires_confinement

pytestmark = [pytest.mark.smoke, requires_confinement]


def test_success_returns_png_path(fork_server: None, tmp_path: Path) -> None:
    res = make_figure("ok", "plt.plot([1, 2])\nplt.savefig(OUT)", data_root=None, out_dir=tmp_path)
    assert res.ok and res.error is None and res.path == tmp_path / "ok.png"
    assert res.path.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("code", "expect"),
    [
        ("import os", "rule 'import'"),
        ("plt.plot([1])", "saved no figure"),
        ("x = [1][5]", "IndexError"),
        ("plt.savefig(OUT + '.txt')\nplt.plot(", "does not parse"),
    ],
)
def test_errors_are_instructional(
    fork_server: None, tmp_path: Path, code: str, expect: str
) -> None:
    res = make_figure("bad", code, data_root=None, out_dir=tmp_path)
    assert not res.ok and res.path is None and res.error
    assert expect in res.error
    for hint in ("srcpath(", "walkfiles()", "plt.savefig(OUT)", "numpy"):
        assert hint in res.error
    assert not list(tmp_path.iterdir())


def test_stderr_tail_is_bounded(fork_server: None, tmp_path: Path) -> None:
    code = "for i in range(2000):\n    print('noise line', i, file=None)\nx = undefined_name"
    res = make_figure("tail", code, data_root=None, out_dir=tmp_path)
    assert res.error and "NameError" in res.error
    tail = res.error.split("Last lines of stderr:\n", 1)[1]
    assert len(tail) <= STDERR_TAIL


def test_timeout_is_reported(fork_server: None, tmp_path: Path) -> None:
    res = make_figure("spin", "while True:\n    pass", data_root=None, out_dir=tmp_path, timeout=3)
    assert not res.ok and "stopped" in (res.error or "")


def test_invalid_name(tmp_path: Path) -> None:
    res = make_figure("../evil", "plt.savefig(OUT)", data_root=None, out_dir=tmp_path)
    assert not res.ok and "name" in (res.error or "")
    assert not list(tmp_path.iterdir())


def run_unchecked(name: str, code: str, out_dir: Path) -> FigureResult:
    """Code that gets past Layer 1 (as a bypass would), confined, then
    collected by the same parent-side code as make_figure."""
    limits = Limits()
    result = run_code(code, data_root=None, policy=False, confine=True, limits=limits)
    return collect_figure(result, name, out_dir, limits)


def test_out_symlink_to_private_image_is_not_copied(fork_server: None, tmp_path: Path) -> None:
    """Code past the policy still runs confined and plants a symlink at OUT.
    The parent must not follow it."""
    private = tmp_path / "private.png"
    Image.new("RGB", (20, 20), (1, 2, 3)).save(private)
    out = tmp_path / "out"
    code = f"import os\nos.symlink({str(private)!r}, OUT)"
    res = run_unchecked("leak", code, out)
    assert not res.ok
    assert not out.exists() or not any(
        p.read_bytes() == private.read_bytes() for p in out.iterdir()
    )


def test_stderr_symlink_to_secret_is_not_read(fork_server: None, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("lw-canary-stderr-link", encoding="utf-8")
    code = f"import os, sys\nos.unlink('stderr.txt')\nos.symlink({str(secret)!r}, 'stderr.txt')\nsys.exit(1)"
    res = run_unchecked("leak2", code, tmp_path / "out")
    assert not res.ok and "lw-canary-stderr-link" not in (res.error or "")


def test_fifo_as_out_does_not_hang_the_parent(fork_server: None, tmp_path: Path) -> None:
    res = run_unchecked("fifo", "import os\nos.mkfifo(OUT)", tmp_path / "out")
    assert not res.ok
