"""Calibration lines, inverse prediction, LOD/LOQ and standard addition
from generated data of known truth, and the labelled folders (EN, ZH)
through the offline analyst."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.procedures.calibration import (
    fit_line,
    inverse,
    limits,
    unknown_groups,
    x_intercept,
)
from labwright.ingest.types import Column, Dataset, Provenance
from tests.analysis.procedures.folders import (
    build,
    build_offline_record,
    recomputed_values_are_printed,
)
from tests.labset import chemistry

A, B, SD = 0.002, 0.031, 0.0015
X = np.array([0.5, 1, 2, 4, 6, 8, 10.0])


def _within(value: float, se: float, truth: float) -> bool:
    return se > 0 and abs(value - truth) <= 3 * se


def test_inverse_prediction_is_the_textbook_formula_and_covers_the_truth() -> None:
    hits = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        y = A + B * X + rng.normal(0, SD, X.size)
        line = fit_line(X, y)
        assert line is not None and not line.weighted
        readings = A + B * 5.3 + rng.normal(0, SD, 3)
        x0, se = inverse(line, readings)
        # s_x0 = s_y/b sqrt(1/m + 1/n + (ȳ0 - ȳ)²/(b² Σ(x - x̄)²))
        sxx = float(np.sum((X - X.mean()) ** 2))
        book = (
            line.s_y
            / abs(line.b)
            * np.sqrt(1 / 3 + 1 / X.size + (readings.mean() - y.mean()) ** 2 / (line.b**2 * sxx))
        )
        assert se == pytest.approx(book, rel=1e-9)
        hits += _within(x0, se, 5.3)
    assert hits >= 37


def test_replicated_standards_are_weighted_by_their_spread() -> None:
    rng = np.random.default_rng(2)
    x = np.repeat([1.0, 2, 4, 8, 16], 4)
    sd = 0.002 + 0.01 * x  # the spread grows with the signal
    y = A + B * x + rng.normal(0, 1, x.size) * sd
    line = fit_line(x, y)
    assert line is not None and line.weighted
    assert _within(line.b, float(np.sqrt(line.cov[1, 1])), B)


def test_lod_and_loq_follow_the_residual_spread() -> None:
    rng = np.random.default_rng(4)
    line = fit_line(X, A + B * X + rng.normal(0, SD, X.size))
    assert line is not None
    lod, lod_se, loq, loq_se = limits(line)
    assert lod == pytest.approx(3.3 * line.s_y / line.b) and loq == pytest.approx(lod * 10 / 3.3)
    assert _within(lod, lod_se, 3.3 * SD / B) and loq_se > lod_se > 0


def test_standard_addition_is_the_x_intercept_with_its_se() -> None:
    hits = 0
    added = np.array([0, 2, 4, 6, 8, 10.0])
    for seed in range(40):
        y = 0.055 * (4.2 + added) + np.random.default_rng(seed).normal(0, 0.003, added.size)
        line = fit_line(added, y)
        assert line is not None
        c, se = x_intercept(line)
        sxx = float(np.sum((added - added.mean()) ** 2))
        book = line.s_y / line.b * np.sqrt(1 / added.size + y.mean() ** 2 / (line.b**2 * sxx))
        assert se == pytest.approx(book, rel=1e-9)
        hits += _within(c, se, 4.2)
    assert hits >= 37


def _table(cols: dict[str, list[float]]) -> tuple[Dataset, Column]:
    columns = [Column(k, np.asarray(v, dtype=float), Provenance("u.csv", column=k))
               for k, v in cols.items()]  # fmt: skip
    return Dataset("u.csv", "u.csv", "table", columns), columns[-1]


def test_unknowns_are_grouped_by_their_label_never_fitted() -> None:
    ds, y = _table({"sample": [1, 1, 2, 3], "A": [0.1, 0.11, 0.2, 0.3]})
    groups = unknown_groups(ds, y)
    assert [g[0].en for g in groups] == [f"concentration of sample {i}" for i in (1, 2, 3)]
    assert groups[0][1].size == 2
    ds, y = _table({"replicate": [1, 2, 3], "F": [0.1, 0.11, 0.12]})
    [(label, readings)] = unknown_groups(ds, y)
    assert label.en == "sample concentration" and readings.size == 3
    # Row numbers (编号 1, 2, 3) number the readings of one sample only when
    # the notes say it was measured repeatedly.
    ds, y = _table({"编号": [1, 2, 3], "吸光度 A": [0.23, 0.22, 0.23]})
    assert len(unknown_groups(ds, y)) == 3
    [(label, readings)] = unknown_groups(ds, y, replicated=True)
    assert readings.size == 3


def test_standards_beside_a_sample_file_measured_in_parallel_give_one_concentration() -> None:
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.plan import analyse_folder
    from labwright.analysis.request_rules import read_request
    from labwright.ingest.types import DocumentText, ReadResult
    from tests.analysis.request.tables import table

    rng = np.random.default_rng(4)
    c = np.array([0.0, 0.4, 0.8, 1.2, 1.6, 2.0])
    std = table(
        "标准系列.csv",
        {"铁含量 c/(μg·mL⁻¹)": c, "吸光度 A": 0.004 + 0.197 * c + rng.normal(0, 0.003, c.size)},
    )
    sample = table(
        "试样.csv",
        {"编号": [1.0, 2.0, 3.0], "吸光度 A": 0.004 + 0.197 * 1.137 + rng.normal(0, 0.003, 3)},
    )
    notes = ("邻二氮菲分光光度法测定水样中的微量铁\n标准系列见 标准系列.csv。\n"
             "水样平行测定三次，见 试样.csv（吸光度），显色、定容与标准相同。\n"
             "求：水样中铁的含量 c_x（μg/mL）\n")  # fmt: skip
    read = ReadResult(datasets=[std, sample], documents=[DocumentText("要求.txt", notes)])
    req = read_request(read, catalogue())
    assert {(f.file, f.role) for f in req.files} >= {("试样.csv", "unknowns")}
    fa = analyse_folder(read, req)
    (x0,) = [a for a in fa.sheet.answers if a.quantity == "x0"]
    assert x0.model == "calibration_line" and x0.symbol == "c_x"
    assert x0.se is not None and abs(x0.value - 1.137) <= 3 * x0.se


def _lab(make: object) -> object:
    fn = make
    return fn(np.random.default_rng(zlib.crc32(fn.__name__.encode())))  # type: ignore[attr-defined, operator]


@pytest.mark.parametrize(
    ("make", "lang", "names"),
    [
        (chemistry.calibration_lod, "en", {"sample concentration"}),
        (chemistry.beer_lambert_unknowns, "en",
         {"concentration of sample 1", "concentration of sample 2", "concentration of sample 3",
          "molar absorptivity"}),
        (chemistry.standard_addition_zh, "zh", {"sample concentration"}),
    ],
)  # fmt: skip
def test_a_calibration_folder_is_answered_and_written(
    make: object, lang: str, names: set[str], tmp_path: Path
) -> None:
    from tests.labset.score import score

    lab = _lab(make)
    b = build(lab.write(tmp_path), lang)  # type: ignore[attr-defined]
    assert [a.kind for a in b.analysis.analyses] == ["calibration"]
    record = b.ledger.analysis
    fs = score(lab, record)  # type: ignore[arg-type]
    assert not fs.harmful, fs.harmful
    labels = {a.label.en for a in b.analysis.sheet.answers}
    assert names <= labels
    for ts in fs.truths:
        if any(n in names for n in ts.truth.names):
            assert ts.within, (ts.truth.names, ts.note)
    assert recomputed_values_are_printed(b, "calibration") >= 7
    assert ("校准直线" if lang == "zh" else "calibration line") in b.tex


@pytest.mark.parametrize("make", [chemistry.calibration_lod, chemistry.standard_addition_zh])
def test_the_offline_build_scores_the_calibration(make: object, tmp_path: Path) -> None:
    from tests.labset.score import score

    lab = _lab(make)
    record, unsourced = build_offline_record(lab.write(tmp_path))  # type: ignore[attr-defined]
    assert not unsourced, unsourced
    fs = score(lab, record)  # type: ignore[arg-type]
    assert not fs.harmful and all(ts.within for ts in fs.truths), [t.note for t in fs.truths]
