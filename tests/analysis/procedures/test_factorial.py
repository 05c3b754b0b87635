"""Two-factor designs from generated data of known truth, and the labelled
folder (ZH) and an English one through the offline analyst."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from labwright.analysis.procedures.factorial import design, levels_of, two_way
from labwright.ingest.types import Column, Dataset, Provenance
from tests.analysis.procedures.folders import (
    build,
    build_offline_record,
    recomputed_values_are_printed,
)
from tests.labset import biology

MEANS = {("60", "A"): 62.0, ("70", "A"): 71.0, ("80", "A"): 74.0,
         ("60", "B"): 65.0, ("70", "B"): 80.0, ("80", "B"): 76.0}  # fmt: skip


def _table(rng: np.random.Generator, reps: int = 3) -> Dataset:
    rows = [
        (float(t), c, MEANS[(t, c)] + rng.normal(0, 1.5)) for t, c in MEANS for _ in range(reps)
    ]
    cols = [
        Column("T", np.array([r[0] for r in rows]), Provenance("d.csv", column="T"), "degC"),
        Column("catalyst", np.array([r[1] for r in rows], dtype=object), Provenance("d.csv", column="catalyst")),
        Column("yield", np.array([r[2] for r in rows]), Provenance("d.csv", column="yield"), "%"),
    ]  # fmt: skip
    return Dataset("d.csv", "d.csv", "table", cols)


def test_cell_means_effects_and_the_best_condition_cover_the_truth() -> None:
    hits = cells = effect_hits = 0
    for seed in range(100):
        found = design(_table(np.random.default_rng(seed)))
        assert found is not None
        a, b, y = found
        assert (a.name, b.name, y.name) == ("T", "catalyst", "yield")
        r = two_way(a, b, y)
        assert r is not None
        assert [row.source for row in r.anova] == ["T", "catalyst", "T × catalyst", "residual"]
        assert r.best.levels == ("70", "B")
        hits += abs(r.best.mean - 80.0) <= 3 * r.best.se
        cells += sum(abs(c.mean - MEANS[c.levels]) <= 3 * c.se for c in r.cells)
        [(col, lo, hi, effect, se)] = r.effects  # the two-level factor
        truth = np.mean([MEANS[(t, "B")] - MEANS[(t, "A")] for t in ("60", "70", "80")])
        effect_hits += col.name == "catalyst" and abs(effect - truth) <= 3 * se
    # With 12 residual df the errors are t-distributed: ~99 % within 3 SE.
    assert hits >= 95 and cells >= 0.95 * 100 * 6 and effect_hits >= 95
    assert r.anova[2].p is not None and r.anova[2].p < 0.01  # the interaction is real


def test_with_a_significant_interaction_the_simple_effects_cover_the_truth() -> None:
    """B − A at each temperature (the truth differs by level: 3, 9, 2), with
    the pooled SE; the main effect alone would say 4.7 everywhere."""
    hits = total = 0
    for seed in range(100):
        a, b, y = design(_table(np.random.default_rng(seed)))  # type: ignore[misc]
        r = two_way(a, b, y)
        assert r is not None
        p = r.anova[2].p
        assert p is not None
        if p >= 0.05:
            assert r.simple == []
            continue
        assert [(e.factor.name, e.lo, e.hi, e.level) for e in r.simple] == [
            ("catalyst", "A", "B", t) for t in ("60", "70", "80")
        ]
        for e in r.simple:
            total += 1
            truth = MEANS[(e.level, "B")] - MEANS[(e.level, "A")]
            hits += abs(e.value - truth) <= 3 * e.se
            assert e.se == pytest.approx(np.sqrt(r.mse * (1 / 3 + 1 / 3)))
    assert total >= 0.9 * 300 and hits >= 0.95 * total
    answers = {x.quantity: x for x in r.answers()}
    named = answers["simple_catalyst_70"]
    assert (named.symbol, named.part) == ("B - A", "70 degC")


def test_without_an_interaction_no_simple_effects_are_given() -> None:
    additive = {k: v for k, v in MEANS.items()}
    for t, base in (("60", 62.0), ("70", 71.0), ("80", 74.0)):
        additive[(t, "A")], additive[(t, "B")] = base, base + 3.0
    rng = np.random.default_rng(5)
    rows = [
        (float(t), c, additive[(t, c)] + rng.normal(0, 0.5)) for t, c in additive for _ in range(3)
    ]
    cols = [
        Column("T", np.array([r[0] for r in rows]), Provenance("d.csv", column="T"), "degC"),
        Column("catalyst", np.array([r[1] for r in rows], dtype=object), Provenance("d.csv", column="catalyst")),
        Column("yield", np.array([r[2] for r in rows]), Provenance("d.csv", column="yield"), "%"),
    ]  # fmt: skip
    a, b, y = design(Dataset("d.csv", "d.csv", "table", cols))  # type: ignore[misc]
    r = two_way(a, b, y)
    assert r is not None and r.anova[2].p is not None and r.anova[2].p > 0.05
    assert r.simple == []


def test_the_lowest_is_best_when_the_notes_ask_for_a_minimum() -> None:
    a, b, y = design(_table(np.random.default_rng(0)))  # type: ignore[misc]
    r = two_way(a, b, y, lowest=True)
    assert r is not None and r.best.levels == ("60", "A")


def test_without_replicates_or_a_second_factor_there_is_no_two_way_anova() -> None:
    ds = _table(np.random.default_rng(1), reps=1)
    found = design(ds)
    assert found is None or two_way(*found) is None
    single = Dataset("s.csv", "s.csv", "table", _table(np.random.default_rng(1)).columns[::2])
    assert design(single) is None
    assert levels_of(Column("x", np.arange(20.0), Provenance("s.csv"))) is None


def test_the_labelled_folder_is_answered_and_its_set_point_is_no_response(tmp_path: Path) -> None:
    from tests.labset.score import score

    make = biology.factorial_zh
    lab = make(np.random.default_rng(zlib.crc32(make.__name__.encode())))
    b = build(lab.write(tmp_path / "a"), "zh")
    assert [a.kind for a in b.analysis.analyses] == ["factorial"]
    assert "双因素方差分析" in b.tex
    assert recomputed_values_are_printed(b, "factorial") >= 20
    record, unsourced = build_offline_record(lab.write(tmp_path / "b"))
    assert not unsourced, unsourced
    fs = score(lab, record)
    assert not fs.harmful and all(ts.within for ts in fs.truths), [t.note for t in fs.truths]


def test_an_english_design_with_text_levels(tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    folder = tmp_path / "fert"
    folder.mkdir()
    lines = ["fertiliser,watering,height (cm)"]
    for fert, base in (("none", 20.0), ("N", 26.0)):
        for water, extra in (("low", 0.0), ("high", 5.0)):
            for _ in range(4):
                lines.append(f"{fert},{water},{base + extra + rng.normal(0, 1.0):.2f}")
    (folder / "plants.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(
        "# Plant growth\n\nA two-factor experiment: fertiliser and watering. Use a two-way "
        "ANOVA with interaction and name the best condition.\n",
        encoding="utf-8",
    )
    b = build(folder, "en")
    assert [a.kind for a in b.analysis.analyses] == ["factorial"]
    [(value, se, unit, _)] = b.answer("best")
    assert abs(value - 31.0) <= 3 * se and unit == "cm"
    effects = {q: v for q, v, *_ in [(a.quantity, a.value) for a in b.analysis.sheet.answers]}
    assert (
        abs(effects["effect_fertiliser"] - 6.0) < 1.5
        and abs(effects["effect_watering"] - 5.0) < 1.5
    )
    assert "Two-way ANOVA" in b.tex or "two-way ANOVA" in b.tex
