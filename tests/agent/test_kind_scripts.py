"""The compendium's blocks (`script` of every kind writer) recompute what the
report prints: run against the data as the report read it, every value a
block states is a number the report's ledger holds for the same computation.

The harness gives the blocks the names the compendium defines (`table`,
`report`, `matrix`, and `DATA`, here the example folder, whose files the
compendium ships under data/ in the same layout). A block never imports Labwright.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from labwright.agent.offline.compendium import dataset_named
from labwright.agent.offline.figures import plan_figures
from labwright.agent.offline.kind_writers import WRITERS, scripts
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.text import ReportInput, assemble
from labwright.analysis.kinds import KINDS
from labwright.analysis.plan import analyse_folder
from labwright.ingest.read import read_folder
from labwright.ingest.types import ReadResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FOLDERS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_"))


def test_both_tables_have_the_same_kinds() -> None:
    assert [k.name for k in KINDS] == list(WRITERS)


def _run(read: ReadResult, source: str, data: Path | None = None) -> list[tuple[str, float]]:
    said: list[tuple[str, float]] = []

    def table(file: str, part: str | None = None) -> pd.DataFrame:
        ds = dataset_named(read, file, part)
        return pd.DataFrame({c.name: c.values for c in ds.columns})

    def matrix(file: str, part: str | None = None) -> np.ndarray:
        found = dataset_named(read, file, part).matrix
        assert found is not None
        return np.asarray(found)

    def report(computation: str, value: float, source: str | None = None) -> None:
        said.append((computation, float(value)))

    exec(
        compile(source, "<compendium>", "exec"),
        {"table": table, "matrix": matrix, "report": report, "DATA": data},
    )  # noqa: S102
    return said


@pytest.mark.parametrize("name", FOLDERS)
def test_every_recomputed_value_is_one_the_report_prints(name: str) -> None:
    read = read_folder(EXAMPLES / name)
    fa = analyse_folder(read)
    plans = plan_figures(read.datasets, read.images, analysis=fa)
    # A block states what its analysis computes in either language (a zh
    # report prints a date's month as a number, an en one names it); the
    # compendium keeps the lines its report prints (compendium._printed_only).
    printed: dict[str, list[float]] = {}
    for lang in ("en", "zh"):
        ledger = Ledger()
        assemble(ReportInput(lang, name, read, plans, analysis=fa), ledger)
        for e in ledger.entries:
            printed.setdefault(e.computation, []).append(e.value)
    for a, block in zip(fa.analyses, scripts(fa.analyses), strict=True):
        source = block.source()
        assert "labwright" not in source, a.kind
        said = _run(read, source, EXAMPLES / name)
        # Every kind that prints a number it computed recomputes some (the
        # wide kind draws its columns and computes nothing).
        assert said or a.kind == "wide", (a.kind, a.source)
        for computation, value in said:
            floor = f"reporting floor of {computation} (constant)"
            if floor in printed:  # printed as "< 0.001"
                assert value < min(printed[floor]), (computation, value)
                continue
            assert computation in printed, (a.kind, computation)
            assert any(
                math.isclose(value, v, rel_tol=1e-6, abs_tol=1e-9) for v in printed[computation]
            ), (a.kind, computation, value, printed[computation])


def _quarterly_text(n: int, y: np.ndarray) -> str:
    return "period,gdp\n" + "\n".join(f"{1974 + i // 4}Q{i % 4 + 1},{y[i]:.3f}" for i in range(n))


def _year_quarter(n: int, y: np.ndarray) -> str:
    return "year,quarter,gdp\n" + "\n".join(
        f"{1974 + i // 4},{i % 4 + 1},{y[i]:.3f}" for i in range(n)
    )


def _yyyymmdd(n: int, y: np.ndarray) -> str:
    return "date,gdp\n" + "\n".join(
        f"{1990 + i // 12}{i % 12 + 1:02d}15,{y[i]:.3f}" for i in range(n)
    )


def _iso_dates(n: int, y: np.ndarray) -> str:
    return "Date,gdp\n" + "\n".join(
        f"{1990 + i // 12}-{i % 12 + 1:02d}-01,{y[i]:.3f}" for i in range(n)
    )


@pytest.mark.parametrize("write", [_quarterly_text, _year_quarter, _yyyymmdd, _iso_dates])
def test_time_axes_are_read_back_by_the_script(tmp_path: Path, write: object) -> None:
    """The trend's time axis is recomputed from the file as written: text
    quarters, a year and a quarter column, YYYYMMDD integers, ISO dates."""
    assert callable(write)
    n = 48
    rng = np.random.default_rng(3)
    y = 10 + 0.1 * np.arange(n) + np.tile([1.0, 0.0, -1.0, 0.0], n // 4) + rng.normal(0, 0.05, n)
    (tmp_path / "q.csv").write_text(write(n, y) + "\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Trend per year and seasonal cycle.\n", encoding="utf-8")
    read = read_folder(tmp_path)
    fa = analyse_folder(read)
    assert fa.kinds() == {"timeseries"}
    ledger = Ledger()
    assemble(ReportInput("en", "q", read, [], analysis=fa), ledger)
    (block,) = scripts(fa.analyses)
    said = dict(_run(read, block.source()))
    what = "trend of gdp per year (OLS, HAC errors)"
    printed = {e.computation: e.value for e in ledger.entries}
    assert said[what] == pytest.approx(printed[what], rel=1e-9)
    assert said["standard uncertainty of " + what] == pytest.approx(
        printed["standard uncertainty of " + what], rel=1e-9
    )
