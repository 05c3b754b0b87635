"""A series of run files, one per parameter value: the quantity of each run,
then the law across the runs (labelled folders, EN and ZH)."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from tests.analysis.procedures.folders import build, build_offline_record
from tests.labset import chemistry, mechanics


@pytest.mark.parametrize(
    ("make", "lang"),
    [(mechanics.pendulum_runs, "en"), (chemistry.rates_at_temperatures_zh, "zh")],
)
def test_each_run_gives_its_quantity_and_the_law_is_fitted_across(
    make: object, lang: str, tmp_path: Path
) -> None:
    from tests.labset.score import score

    fn = make
    lab = fn(np.random.default_rng(zlib.crc32(fn.__name__.encode())))  # type: ignore[attr-defined, operator]
    b = build(lab.write(tmp_path / "a"), lang)
    [series] = [a for a in b.analysis.analyses if a.kind == "run_series"]
    assert len(series.result.runs) == len(series.job.datasets) >= 5
    assert all(r.se > 0 for r in series.result.runs)
    record, unsourced = build_offline_record(lab.write(tmp_path / "b"))
    assert not unsourced, unsourced
    fs = score(lab, record)
    # The bath set-point repeated in every run file is never a response.
    assert not fs.harmful, fs.harmful
    assert all(ts.within for ts in fs.truths), [t.note for t in fs.truths]
    cols = next(a for a in record["analyses"] if a["kind"] == "run_series")["columns"]
    assert cols["y"] and not cols["summarised"]
