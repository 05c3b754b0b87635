"""Every example folder builds to a clean PDF that shows every readable data file,
with every number in the text accounted for in provenance.json."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.agent.offline.provenance import unsourced_numbers
from labwright.agent.offline.tables import src_file
from labwright.analysis.fits import MODELS
from labwright.ingest.read import read_folder
from labwright.latex.diagnose import diagnose
from labwright.latex.engine import resolve_engine

EXAMPLES = ("pendulum", "rc-discharge", "spectrum", "heat-plate")
EXPECTED_LANG = {"pendulum": "en", "rc-discharge": "en", "spectrum": "zh", "heat-plate": "en"}

needs_tex = pytest.mark.skipif(
    not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
)


def _cells(path: Path) -> dict[str, list[tuple[object, ...]]]:
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True)
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Done, Path]]:
    root = Path(__file__).resolve().parent.parent / "examples"
    out: dict[str, tuple[Done, Path]] = {}
    for name in EXAMPLES:
        build_dir = tmp_path_factory.mktemp(f"build-{name}")
        events = list(build_offline(root / name, build_dir))
        done = events[-1]
        assert isinstance(done, Done)
        out[name] = (done, build_dir)
    return out


def test_examples_exist_and_are_small(examples_dir: Path) -> None:
    for name in EXAMPLES:
        folder = examples_dir / name
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        assert 0 < size < 200_000, (name, size)


def _same_value(a: object, b: object) -> bool:
    """Deep equality for what scipy.io.loadmat(simplify_cells=True) returns."""
    import numpy as np

    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        if a.dtype == object or b.dtype == object:
            return a.shape == b.shape and all(
                _same_value(x, y) for x, y in zip(a.ravel(), b.ravel(), strict=True)
            )
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype.kind in "fc":
            return _same_floats(a, b)
        return bool(np.array_equal(a, b))
    if isinstance(a, bytes) and isinstance(b, bytes) and a != b:
        return _same_text(a, b)
    return type(a) is type(b) and bool(a == b)


# Regenerated floats are compared to a few units in the last place, not exactly:
# numpy's exp() and friends take another SIMD path on a CPU without AVX-512, and
# on such a machine 24 of 500 samples came out 8.9e-16 (4 ulp of 1.0) away. A
# real change of the generator (a seed, a formula, a step) moves values by many
# orders of magnitude more, and test_content_comparison_sees_a_changed_value
# checks that a 1e-9 change is still a difference.
_ULPS = 16


def _same_floats(a: object, b: object) -> bool:
    import numpy as np

    x, y = np.asarray(a), np.asarray(b)
    if not np.array_equal(np.isnan(x), np.isnan(y)):
        return False
    scale = np.nanmax(np.abs(x)) if x.size and not np.all(np.isnan(x)) else 0.0
    tolerance = _ULPS * np.finfo(x.dtype).eps * max(float(scale), np.finfo(x.dtype).tiny)
    return bool(np.all(np.abs(np.nan_to_num(x) - np.nan_to_num(y)) <= tolerance))


_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _decimals(number: bytes) -> int:
    return len(number.partition(b".")[2])


def _same_text(a: bytes, b: bytes) -> bool:
    """Text files print rounded values: a value a few ulp away can round the other
    way at a tie, so a printed number may differ by one unit in its last digit.
    Everything else (the words, the number of digits, every other value) is equal."""
    nums_a, nums_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if _NUMBER.split(a) != _NUMBER.split(b) or len(nums_a) != len(nums_b):
        return False
    for m, n in zip(nums_a, nums_b, strict=True):
        if m == n:
            continue
        places = _decimals(m)
        if places != _decimals(n) or b"e" in m.lower() or b"e" in n.lower():
            return False
        if abs(float(m) - float(n)) > 1.5 * 10.0**-places:
            return False
    return True


def _content(path: Path) -> object:
    """What a file means, not how a library version happened to compress it.

    The .mat/.fig files are zlib-compressed and the PNG is deflated: their bytes
    change with the zlib, scipy or Pillow release, while the data must not. The
    dependencies are locked (requirements.lock), but a reader of this test should
    not have to know that for it to hold.
    """
    import numpy as np

    suffix = path.suffix.lower()
    if suffix == ".xlsx":  # a zip container: compare the cells
        return _cells(path)
    if suffix in (".mat", ".fig"):
        import scipy.io

        raw = scipy.io.loadmat(path, simplify_cells=True)
        return {k: v for k, v in raw.items() if not k.startswith("__")}
    if suffix == ".npy":
        return np.load(path, allow_pickle=False)
    if suffix == ".png":
        from PIL import Image

        with Image.open(path) as img:
            return {"mode": img.mode, "size": img.size, "pixels": np.asarray(img)}
    return path.read_bytes()


def test_examples_are_reproducible_from_the_script(examples_dir: Path, tmp_path: Path) -> None:
    shutil.copy(examples_dir / "_generate.py", tmp_path / "_generate.py")
    subprocess.run([sys.executable, str(tmp_path / "_generate.py")], check=True, timeout=120)
    for name in EXAMPLES:
        committed = sorted(
            p.relative_to(examples_dir / name) for p in (examples_dir / name).rglob("*")
        )
        fresh = sorted(p.relative_to(tmp_path / name) for p in (tmp_path / name).rglob("*"))
        assert committed == fresh
        for rel in committed:
            a, b = _content(examples_dir / name / rel), _content(tmp_path / name / rel)
            assert _same_value(a, b), f"{name}/{rel} differs in content"


def test_content_comparison_sees_a_changed_value(examples_dir: Path, tmp_path: Path) -> None:
    """The comparison above must be able to fail: one changed sample is a difference."""
    import numpy as np
    import scipy.io

    src = examples_dir / "rc-discharge" / "scope_capture.mat"
    data = {k: v for k, v in scipy.io.loadmat(src).items() if not k.startswith("__")}
    key = next(k for k, v in data.items() if isinstance(v, np.ndarray) and v.dtype.kind == "f")
    changed = data[key].copy()
    changed.flat[0] += 1e-9
    scipy.io.savemat(tmp_path / "same.mat", data, do_compression=True)
    scipy.io.savemat(tmp_path / "changed.mat", {**data, key: changed}, do_compression=True)
    assert _same_value(_content(src), _content(tmp_path / "same.mat"))
    assert not _same_value(_content(src), _content(tmp_path / "changed.mat"))
    # A few ulp (another CPU's exp()) is the same value; 1e-9 above is not.
    ulps = {**data, key: data[key] + 4 * np.spacing(np.abs(data[key]).max())}
    scipy.io.savemat(tmp_path / "ulps.mat", ulps, do_compression=True)
    assert _same_value(_content(src), _content(tmp_path / "ulps.mat"))


def test_text_comparison_allows_one_last_digit_and_nothing_more() -> None:
    assert _same_value(b"t,U\n0.10,4.9875\n", b"t,U\n0.10,4.9876\n")
    assert not _same_value(b"t,U\n0.10,4.9875\n", b"t,U\n0.10,4.9878\n")
    assert not _same_value(b"t,U\n0.10,4.9875\n", b"t,V\n0.10,4.9875\n")
    assert not _same_value(b"t,U\n0.10,4.9875\n", b"t,U\n0.10,4.987\n")
    assert not _same_value(b"t,U\n0.10,4.9875\n", b"t,U\n0.10,4.9875\n1,2\n")


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_builds_clean(built: dict[str, tuple[Done, Path]], name: str) -> None:
    done, build_dir = built[name]
    assert done.ok, done.problems
    assert done.pdf_path and Path(done.pdf_path).read_bytes()[:5] == b"%PDF-"
    diag = diagnose((build_dir / "main.log").read_text(encoding="utf-8", errors="replace"))
    assert diag.error_count == 0 and not diag.degraded


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_readable_data_file_is_a_figure_or_table(
    built: dict[str, tuple[Done, Path]], name: str, examples_dir: Path
) -> None:
    _, build_dir = built[name]
    tex = (build_dir / "main.tex").read_text(encoding="utf-8")
    captions = re.findall(r"\\caption\{(.*)\}", tex)
    read = read_folder(examples_dir / name)
    sources = {d.source for d in read.datasets} | {i.source for i in read.images}
    assert sources and not read.skipped
    for source in sources:
        assert any(src_file(source) in c for c in captions), source
    for fig in re.findall(r"\\includegraphics\[[^\]]*\]\{([^}]+)\}", tex):
        assert (build_dir / fig).is_file()


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("name", EXAMPLES)
def test_provenance_accounts_for_every_number(
    built: dict[str, tuple[Done, Path]], name: str
) -> None:
    _, build_dir = built[name]
    tex = (build_dir / "main.tex").read_text(encoding="utf-8")
    record = json.loads((build_dir / "provenance.json").read_text(encoding="utf-8"))
    assert record["numbers"] and record["quotes"]
    assert unsourced_numbers(tex, record, tuple(m.formula for m in MODELS.values())) == []
    for entry in record["numbers"]:
        assert entry["computation"]
    assert EXPECTED_LANG[name] == ("zh" if "\\documentclass[zh]" in tex else "en")


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_traced_number_is_a_link_over_that_number(
    built: dict[str, tuple[Done, Path]], name: str
) -> None:
    """What the window reads (issue 21): one link annotation named
    `lwnum.<id>` per tag the writer emitted, each over the number it prints,
    each id an entry of the record; no link for anything else."""
    from collections import Counter

    from labwright.verify.tags import find_tags
    from tests.pdf_links import covered_text, digits, number_links, words

    done, build_dir = built[name]
    assert done.pdf_path is not None
    tex = (build_dir / "main.tex").read_text(encoding="utf-8")
    record = json.loads((build_dir / "provenance.json").read_text(encoding="utf-8"))
    printed = {e["id"]: e["printed"] for e in record["numbers"]}
    tags = find_tags(tex)
    assert tags and {t.id for t in tags} <= set(printed)
    links = number_links(Path(done.pdf_path))
    assert Counter(link.id for link in links) == Counter(t.id for t in tags)
    all_words = words(Path(done.pdf_path))
    for link in links:
        mantissa = printed[link.id].split("\\times")[0]
        assert digits(mantissa) in digits(covered_text(link, all_words)), (link, mantissa)


@needs_tex
@pytest.mark.smoke
def test_pendulum_fit_is_physical(built: dict[str, tuple[Done, Path]]) -> None:
    """The notes name the simple pendulum (g = 9.81 in the generator): the
    catalogue's law is fitted to T against L and g is the build's answer,
    printed from the ledger."""
    _, build_dir = built["pendulum"]
    record = json.loads((build_dir / "provenance.json").read_text(encoding="utf-8"))
    (g,) = [a for a in record["analysis"]["answers"] if a["quantity"] == "g"]
    assert g["model"] == "pendulum_small_angle" and g["asked"]
    assert 9.6 < g["value"] < 10.0 and 0 < g["se"] < 0.1
    printed = [
        e for e in record["numbers"] if e["computation"].startswith("g, pendulum_small_angle")
    ]
    assert printed and abs(printed[0]["value"] - g["value"]) < 1e-9


def test_examples_cover_every_figure_kind() -> None:
    """Between them, the examples exercise each deterministic figure choice."""
    from labwright.agent.offline.figures import plan_figures

    root = Path(__file__).resolve().parent.parent / "examples"
    kinds = set()
    for name in EXAMPLES:
        read = read_folder(root / name)
        kinds |= {p.kind for p in plan_figures(read.datasets, read.images)}
    assert kinds == {"xy", "line", "histogram", "heatmap", "image", "redraw"}


@needs_tex
@pytest.mark.smoke
def test_rc_time_constants_match_rc(built: dict[str, tuple[Done, Path]]) -> None:
    """tau = R C: 10 kOhm and 22 kOhm with 100 uF, and 1 kOhm on the scope;
    each sheet's discharge is fitted by the catalogue's RC law."""
    _, build_dir = built["rc-discharge"]
    record = json.loads((build_dir / "provenance.json").read_text(encoding="utf-8"))
    taus = {
        (e.get("sheet"), e["file"]): e["value"]
        for e in record["numbers"]
        # "time constant (R10k) (tau, rc_discharge): ...": each answer names its sheet.
        if e["computation"].startswith("time constant")
        and "(tau, rc_discharge):" in e["computation"]
    }
    assert taus[("R10k", "discharge.xlsx")] == pytest.approx(1.0, rel=0.05)
    assert taus[("R22k", "discharge.xlsx")] == pytest.approx(2.2, rel=0.05)
    assert taus[(None, "scope_capture.mat")] == pytest.approx(0.1, rel=0.05)
