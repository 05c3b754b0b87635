"""The compendium (issue 23) in this interpreter: for every example folder the
exported script recomputes the report's numbers and exits 0, reads only
data/ beside it, imports nothing of Labwright and is ruff-clean; one altered
number in the report's record makes it exit 1. (The round trip in a fresh
virtual environment, with the notebook, is tests/test_compendium_roundtrip.py.)"""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.agent.offline.compendium import (
    NOTEBOOK,
    REQUIREMENTS,
    SCRIPT,
    export_compendium,
    plain_number,
    report_record,
)
from tests.ledger_mutation import bump_last_digit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FOLDERS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_"))
ROOT = Path(__file__).resolve().parents[2]
#: ruff's rules for the exported script: pyflakes, isort, bugbear, pyupgrade.
RUFF_RULES = "E4,E7,E9,F,I,B,UP"


def _one_figure_recomputed(folder: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Export the compendium of a one-figure folder and run it: every number
    restated, the figure redrawn, nothing differing."""
    comp, _ = export_compendium(folder, out)
    assert comp.lines and not comp.not_recomputed
    assert comp.figures == {"fig01": []} and not comp.not_redrawn
    done = _run(out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "DIFFERS" not in done.stdout
    return done


def _run(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg"},
    )


def test_printed_numbers_are_read_with_their_digits() -> None:
    assert plain_number("1.431") == "1.431"
    assert plain_number("2.5\\times10^{-3}") == "2.5e-3"
    assert plain_number("\\text{n/a}") == "nan"
    assert plain_number("\\text{words}") is None


@pytest.mark.parametrize("name", FOLDERS)
def test_the_script_recomputes_the_report_from_data_alone(name: str, tmp_path: Path) -> None:
    out = tmp_path / "compendium"
    comp, shipped = export_compendium(EXAMPLES / name, out)
    assert comp.lines, "no number is recomputed"
    assert not shipped.left_out
    # Moved away from the folder: it runs from its own data/ only.
    moved = shutil.move(str(out), str(tmp_path / "elsewhere"))
    done = _run(Path(moved))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "DIFFERS" not in done.stdout
    script = (Path(moved) / SCRIPT).read_text(encoding="utf-8")
    assert "labwright" not in script.lower()
    nb = json.loads((Path(moved) / NOTEBOOK).read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4 and nb["cells"]
    assert (Path(moved) / REQUIREMENTS).read_text(encoding="utf-8").count("==") == 6
    # The appendix's line numbers point at the report() lines.
    lines = script.splitlines()
    assert all("report(" in lines[n - 1] for n in comp.lines.values())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_script_is_ruff_clean(lang: str, tmp_path: Path) -> None:
    """`ruff check` and `ruff format --check` (ruff's defaults, as a reader
    runs them) pass on every example's script and notebook: the generator
    lays the code out itself (pyformat), ruff is not needed to write it."""
    # `python -m ruff`, not a `ruff` next to the interpreter: a worktree's light
    # venv (notes/mkvenv.sh) has no bin/ruff and skipped this test silently.
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed in this environment")
    ruff = [sys.executable, "-m", "ruff"]
    files = []
    for name in FOLDERS:
        export_compendium(EXAMPLES / name, tmp_path / name, lang=lang)
        files += [str(tmp_path / name / SCRIPT), str(tmp_path / name / NOTEBOOK)]
    done = subprocess.run(
        [*ruff, "check", "--isolated", "--select", RUFF_RULES, *files],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout
    done = subprocess.run(
        [*ruff, "format", "--isolated", "--check", "--diff", *files],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_one_altered_number_makes_the_script_fail(tmp_path: Path) -> None:
    good, _ = export_compendium(EXAMPLES / "pendulum", tmp_path / "good")
    record = report_record(EXAMPLES / "pendulum")
    target = next(e for e in record["numbers"] if e["id"] in good.lines)
    altered = copy.deepcopy(record)
    for e in altered["numbers"]:
        if e["id"] == target["id"]:
            e["printed"] = bump_last_digit(e["printed"])
    export_compendium(EXAMPLES / "pendulum", tmp_path / "bad", record=altered)
    done = _run(tmp_path / "bad")
    assert done.returncode == 1 and target["id"] in done.stdout


def test_the_command_line_writes_the_compendium(tmp_path: Path) -> None:
    from labwright.cli import EXIT_BAD_INPUT, EXIT_OK, main

    out = tmp_path / "c"
    assert main(["export", str(EXAMPLES / "resistor-repeats"), "--compendium", str(out)]) == EXIT_OK
    assert (out / SCRIPT).is_file() and (out / "data" / "readings.csv").is_file()
    missing = tmp_path / "none"
    assert main(["export", str(missing), "--compendium", str(out)]) == EXIT_BAD_INPUT


@pytest.mark.parametrize("case", ["weak acid", "strong acid (zh)", "no constants"])
def test_a_titration_is_recomputed_and_its_curve_redrawn(case: str, tmp_path: Path) -> None:
    """No example is a titration: the labset's acetic acid (charge-balance
    fit of a weak acid), its strong acid in Chinese, and the acetic acid
    without the notes' constants (a logistic over the jump, pKa by
    Henderson-Hasselbalch). Every number recomputed (the answers, the
    buffer region's edges, the pH at half-equivalence, the notes' constants)
    and the curve redrawn."""
    import zlib

    import numpy as np

    from tests.labset import chemistry

    make = chemistry.titration_strong_zh if "strong" in case else chemistry.titration_weak_acid
    rng = np.random.default_rng(zlib.crc32(make.__name__.encode()))
    folder = make(rng).write(tmp_path)
    if case == "no constants":
        for notes in folder.glob("*.md"):
            notes.write_text("Find the equivalence volume and the pKa of the acid.\n", "utf-8")
    out = tmp_path / "compendium"
    comp, _ = export_compendium(folder, out, lang="zh" if "zh" in case else "en")
    assert comp.lines and not comp.not_recomputed, comp.not_recomputed
    assert comp.figures == {"fig01": []} and not comp.not_redrawn
    done = _run(out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "DIFFERS" not in done.stdout
    if case == "no constants":
        assert "(Henderson-Hasselbalch)" in done.stdout


#: (notes, quarterly, a step in the level): the time-series kind's parts.
_SERIES = {
    "acceleration, cycle, anomalies": (
        "Monthly level. Find the trend, whether the rise is accelerating, "
        "the seasonal cycle and any anomalies (outliers).", False, False),
    "change point": ("Monthly level. Find the change point: when did the level shift?",
                     False, True),
    "quarterly cycle": ("Quarterly gdp. Find the trend per year and the seasonal cycle.",
                        True, False),
    "levels": ("Monthly level. Find the change points (regimes) in the level.", False, True),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", list(_SERIES))
def test_every_part_of_a_time_series_is_recomputed_and_drawn(
    case: str, lang: str, tmp_path: Path
) -> None:
    """No example asks for these: a synthetic monthly (or quarterly) series
    whose notes ask for acceleration, anomalies, a change point, levels or
    the quarterly cycle. Every number recomputed (a zh report prints months
    and quarters as numbers), every figure redrawn, the script ruff-clean."""
    import numpy as np

    notes, quarterly, step = _SERIES[case]
    n = 48 if quarterly else 120
    i = np.arange(n)
    rng = np.random.default_rng(5)
    y = 10 + 0.02 * i + 0.0004 * i**2 + 2 * np.sin(2 * np.pi * i / (4 if quarterly else 12))
    y = (10 + 3 * (i >= 0.6 * n) if step else y) + rng.normal(0, 0.5 if step else 0.3, n)
    y[17] += 6
    y[n - 7] -= 5
    folder = tmp_path / "series"
    folder.mkdir()
    if quarterly:
        rows = [f"{1974 + k // 4}Q{k % 4 + 1},{y[k]:.3f}" for k in range(n)]
        text = "period,gdp\n" + "\n".join(rows)
    else:
        rows = [f"{1990 + k // 12}-{k % 12 + 1:02d}-01,{y[k]:.3f}" for k in range(n)]
        text = "Date,level\n" + "\n".join(rows)
    (folder / "series.csv").write_text(text + "\n", "utf-8")
    (folder / "notes.md").write_text(notes + "\n", "utf-8")
    out = tmp_path / "compendium"
    comp, _ = export_compendium(folder, out, lang=lang)
    assert comp.lines and not comp.not_recomputed, comp.not_recomputed
    assert comp.figures and all(not v for v in comp.figures.values()), comp.figures
    assert not comp.not_redrawn
    done = _run(out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "DIFFERS" not in done.stdout and "(not printed)" not in done.stdout
    ruff = [sys.executable, "-m", "ruff"]
    for args in (["check", "--select", RUFF_RULES], ["format", "--check"]):
        lint = subprocess.run([*ruff, *args, "--isolated", str(out / SCRIPT)],
                              capture_output=True, text=True)  # fmt: skip
        assert lint.returncode == 0, lint.stdout


def test_a_dose_response_is_recomputed_and_its_curve_redrawn(tmp_path: Path) -> None:
    """No example is a bioassay: Finney's rotenone assay (Martin 1942, drc's
    finney71) with notes asking for LC50 and LC90. Every number recomputed,
    fig01 (the proportions, the log-logistic curve, the LC50 lines) redrawn
    with the report's plotted data, the script exits 0."""
    folder = tmp_path / "bioassay"
    folder.mkdir()
    rows = [(0.0, 49, 0), (2.6, 50, 6), (3.8, 48, 16), (5.1, 46, 24), (7.7, 49, 42), (10.2, 50, 44)]
    text = "concentration (mg/L),n tested,affected\n" + "".join(
        f"{d},{n},{k}\n" for d, n, k in rows
    )
    (folder / "bioassay.csv").write_text(text, "utf-8")
    (folder / "notes.md").write_text(
        "Fit a log-logistic dose-response curve to the proportion affected. Report LC50 and LC90.\n",
        "utf-8",
    )
    done = _one_figure_recomputed(folder, tmp_path / "compendium")
    assert "fig01  plotted data   ok" in done.stdout


def test_a_symmetry_check_is_recomputed_and_its_map_redrawn(tmp_path: Path) -> None:
    """No example asks for symmetry: a map in an .npz whose notes ask."""
    import numpy as np

    folder = tmp_path / "plate"
    folder.mkdir()
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:30, 0:40]
    m = 20 + 10 * np.exp(-(((xx - 19.5) / 6) ** 2 + ((yy - 14.5) / 5) ** 2))
    np.savez(folder / "map.npz", temperature=m + rng.normal(0, 0.1, m.shape))
    (folder / "notes.md").write_text("Check the temperature map for symmetry.\n", "utf-8")
    _one_figure_recomputed(folder, tmp_path / "compendium")
