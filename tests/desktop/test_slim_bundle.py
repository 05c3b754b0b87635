"""build_scripts/slim_bundle.py's "same code" links: libraries whose code and
exports are equal under different names become one file; anything else stays."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="ELF only: the bundle is slimmed on Linux"
)


def _slim():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "slim_bundle", ROOT / "build_scripts" / "slim_bundle.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _site() -> Path:
    import scipy

    return Path(scipy.__file__).resolve().parents[1]


def test_scipy_and_scipy_openblas32_carry_the_same_openblas(tmp_path: Path) -> None:
    site = _site()
    vendored = sorted((site / "scipy.libs").glob("libscipy_openblas*.so"))
    pypi = site / "scipy_openblas32" / "lib" / "libscipy_openblas.so"
    if not vendored or not pypi.exists():
        pytest.skip("scipy's wheel or scipy-openblas32 is not the Linux x86_64 one")
    slim = _slim()
    # The pinned scipy-openblas32 is the build scipy's wheel vendors: if either
    # moves, this fails and the pin in pyproject.toml must follow scipy.
    assert vendored[0].read_bytes() != pypi.read_bytes()  # auditwheel rewrote one
    assert slim.code_key(vendored[0]) == slim.code_key(pypi)
    other = next((site / "scipy.libs").glob("libgfortran-*"))
    assert slim.code_key(other) != slim.code_key(pypi)

    bundle = tmp_path / "bundle"
    for src, rel in ((vendored[0], "a.libs"), (pypi, "b/lib"), (other, "c.libs")):
        (bundle / rel).mkdir(parents=True)
        shutil.copy2(src, bundle / rel / src.name)
    saved, links = slim.link_same_code(bundle)
    assert [(d.relative_to(bundle), f.relative_to(bundle)) for d, f in links] == [
        (Path("b/lib/libscipy_openblas.so"), Path("a.libs") / vendored[0].name)
    ]
    assert saved == pypi.stat().st_size
    link = bundle / "b/lib/libscipy_openblas.so"
    assert link.is_symlink() and link.resolve() == (bundle / "a.libs" / vendored[0].name)
    assert not (bundle / "c.libs" / other.name).is_symlink()
