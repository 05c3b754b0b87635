"""Titration end points from generated pH curves of known truth, and two
labelled folders (EN, ZH) through the offline analyst."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.procedures.common import Given
from labwright.analysis.procedures.titration import analyse_titration, titrate
from labwright.analysis.request import Evidence, GivenConstant
from labwright.ingest.types import Column, Provenance
from tests.analysis.procedures.folders import (
    build,
    build_offline_record,
    recomputed_values_are_printed,
)
from tests.labset import chemistry

KW = 1e-14
# Additions every 2 mL, every 0.5 mL around the end point, then every 2 mL.
VOL = np.concatenate([np.arange(0, 22, 2.0), np.arange(22, 28.01, 0.5), np.arange(29, 41, 2.0)])


def _weak(v: np.ndarray, ca: float, va: float, cb: float, pka: float) -> np.ndarray:
    return chemistry._ph_weak_acid(v, ca, va, cb, 10.0**-pka)


def _strong(v: np.ndarray, ca: float, va: float, cb: float) -> np.ndarray:
    excess = (ca * va - cb * v) / (va + v)
    return -np.log10((excess + np.sqrt(excess**2 + 4 * KW)) / 2)


def _given(value: float, unit: str) -> Given:
    ev = Evidence(source="notes.md", phrase=f"{value} {unit}", reason="given")
    return Given(value, 0.0, unit, GivenConstant(symbol="x", value=value, unit=unit, evidence=ev))


def _col(name: str, values: np.ndarray, unit: str | None = None) -> Column:
    return Column(name, np.asarray(values, dtype=float), Provenance("t.csv", column=name), unit)


def _within(value: float, se: float | None, truth: float) -> bool:
    return se is not None and se > 0 and abs(value - truth) <= 3 * se


def test_a_weak_acid_curve_gives_the_end_point_pka_and_concentration() -> None:
    ca, va, cb, pka = 0.100, 25.0, 0.100, 4.76
    hits = {"V_eq": 0, "pKa": 0, "c": 0}
    for seed in range(20):
        ph = _weak(VOL, ca, va, cb, pka) + np.random.default_rng(seed).normal(0, 0.01, VOL.size)
        r = analyse_titration(_col("V", VOL, "mL"), _col("pH", ph), _given(cb, "mol/L"),
                              _given(va, "mL"))  # fmt: skip
        assert r is not None and r.fit.model == "weak" and r.rising
        assert r.pka is not None and r.c_analyte is not None
        hits["V_eq"] += _within(r.v_eq, r.v_eq_se, ca * va / cb)
        hits["pKa"] += _within(r.pka, r.pka_se, pka)
        hits["c"] += _within(r.c_analyte, r.c_analyte_se, ca)
        assert abs(r.v_eq_derivative - 25.0) < 0.25  # the classical end point agrees
    assert min(hits.values()) >= 18, hits


def test_a_strong_acid_is_told_from_a_weak_one_and_has_no_pka() -> None:
    ca, va, cb = 0.085, 20.0, 0.100
    v = np.concatenate([np.arange(0, 15, 1.0), np.arange(15, 19.01, 0.2), np.arange(20, 26, 1.0)])
    ph = _strong(v, ca, va, cb) + np.random.default_rng(3).normal(0, 0.01, v.size)
    r = analyse_titration(_col("V", v, "mL"), _col("pH", ph), _given(cb, "mol/L"), _given(va, "mL"))
    assert r is not None and r.fit.model == "strong"
    assert r.pka is None and "pKa" not in [a.quantity for a in r.answers()]
    assert _within(r.v_eq, r.v_eq_se, 17.0)
    assert r.c_analyte is not None and _within(r.c_analyte, r.c_analyte_se, ca)
    labels = {a.quantity: a.label.en for a in r.answers()}
    assert labels["c_analyte"] == "concentration of the acid"


def test_a_base_titrated_with_an_acid_falls_and_gives_the_conjugate_acids_pka() -> None:
    cb_, vb, ca, pkb = 0.100, 25.0, 0.100, 4.75  # ammonia with HCl
    ph = 14.0 - _weak(VOL, cb_, vb, ca, pkb) + np.random.default_rng(7).normal(0, 0.01, VOL.size)
    r = analyse_titration(
        _col("V", VOL, "mL"), _col("pH", ph), _given(ca, "mol/L"), _given(vb, "mL")
    )
    assert r is not None and not r.rising
    assert _within(r.v_eq, r.v_eq_se, 25.0)
    assert r.pka is not None and _within(r.pka, r.pka_se, 14.0 - pkb)
    assert {a.label.en for a in r.answers()} >= {"concentration of the base"}


def test_without_the_constants_the_jump_and_the_buffer_region_answer() -> None:
    hits = 0
    for seed in range(10):
        ph = _weak(VOL, 0.1, 25.0, 0.1, 4.76) + np.random.default_rng(seed).normal(
            0, 0.01, VOL.size
        )
        r = analyse_titration(_col("V", VOL, "mL"), _col("pH", ph), None, None)
        assert r is not None and r.fit.model == "sigmoid" and r.c_analyte is None
        assert r.pka is not None and r.pka_method == "Henderson-Hasselbalch"
        hits += _within(r.v_eq, r.v_eq_se, 25.0) and _within(r.pka, r.pka_se, 4.76)
        assert "c_analyte" not in [a.quantity for a in r.answers()]
    assert hits >= 9


def test_a_strong_acid_without_constants_gives_no_pka() -> None:
    v = np.concatenate([np.arange(0, 15, 1.0), np.arange(15, 19.01, 0.2), np.arange(20, 26, 1.0)])
    ph = _strong(v, 0.085, 20.0, 0.1) + np.random.default_rng(1).normal(0, 0.01, v.size)
    r = analyse_titration(_col("V", v, "mL"), _col("pH", ph), None, None)
    assert r is not None and r.pka is None and _within(r.v_eq, r.v_eq_se, 17.0)


def test_too_few_additions_give_no_end_point() -> None:
    assert titrate(np.arange(5.0), np.linspace(3, 11, 5)) is None


def _folder(make: object, tmp_path: Path) -> Path:
    fn = make  # a labset generator: rng -> LabFolder
    folder = fn(np.random.default_rng(zlib.crc32(fn.__name__.encode())))  # type: ignore[attr-defined, operator]
    return folder.write(tmp_path)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("make", "lang", "truths"),
    [
        (chemistry.titration_weak_acid, "en", {"V_eq": 25.0, "pKa": 4.76}),
        (chemistry.titration_strong_zh, "zh", {"V_eq": 17.0}),
    ],
)
def test_a_titration_folder_is_answered_and_written(
    make: object, lang: str, truths: dict[str, float], tmp_path: Path
) -> None:
    b = build(_folder(make, tmp_path), lang)
    assert [a.kind for a in b.analysis.analyses] == ["titration"]
    for quantity, truth in truths.items():
        [(value, se, _, _)] = b.answer(quantity)
        assert _within(value, se, truth), (quantity, value, se)
    uses = b.analysis.record()["analyses"][0]["columns"]
    assert uses["y"] and "pH" in uses["y"][0] and uses["x"] and not uses["summarised"]
    assert ("等当点" if lang == "zh" else "equivalence volume") in b.tex
    assert [p.caption for p in b.plans if p.analysis is not None]
    assert recomputed_values_are_printed(b, "titration") >= 4


@pytest.mark.parametrize(
    ("make", "within"),
    [(chemistry.titration_weak_acid, {"V_eq", "pKa"}), (chemistry.titration_strong_zh, {"V_eq"})],
)
def test_the_offline_build_records_the_answers_the_labset_scores(
    make: object, within: set[str], tmp_path: Path
) -> None:
    from tests.labset.score import score

    fn = make
    lab = fn(np.random.default_rng(zlib.crc32(fn.__name__.encode())))  # type: ignore[attr-defined, operator]
    record, unsourced = build_offline_record(lab.write(tmp_path))
    assert not unsourced, unsourced
    fs = score(lab, record)
    assert not fs.harmful and not fs.unknown_columns
    for ts in fs.truths:
        if ts.truth.names[0] in within:
            assert ts.within, (ts.truth.names[0], ts.note)
