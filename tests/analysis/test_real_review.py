"""Defects the page-by-page review of the real folders (tests/realdata,
docs/review/2026-12-02-real-folders.md) found, each held as a class on
small hand-made folders rather than on the real folder itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder


def _request(tmp_path: Path, files: dict[str, str]) -> AnalysisRequest:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return read_request(read_folder(tmp_path), catalogue())


def _series(header: str) -> str:
    t = np.arange(1900, 1960)
    y = 50 + 30 * np.sin(2 * np.pi * t / 9.0)
    return header + "\n" + "".join(f"{a},{b:.2f}\n" for a, b in zip(t, y, strict=True))


def test_the_period_of_a_variation_asks_for_the_periodogram(tmp_path: Path) -> None:
    # "求种群数量变化的周期" (lynx): "周期" alone is shared by many laws and
    # never chooses one; the period of a variation is a periodic signal's.
    for i, (notes, header) in enumerate(
        [
            ("每年捕获的猞猁数量。求种群数量变化的周期。", "年份,捕获数"),
            ("逐年水位记录。求水位波动的周期。", "年份,水位 (m)"),
            ("Yearly counts. Find the period of the variation.", "year,count"),
        ]
    ):
        d = tmp_path / str(i)
        d.mkdir()
        req = _request(d, {"notes.txt": notes, "s.csv": _series(header)})
        assert req.procedure == "periodogram", (notes, req)
        assert [(a.model, a.quantity) for a in req.asked] == [("periodic_signal", "P")], notes


def test_the_fewest_of_a_count_is_the_best_cell(tmp_path: Path) -> None:
    # warpbreaks: "say which combination gives the fewest breaks" was
    # answered with the cell of the most breaks.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(3)
    means = {("A", "L"): 44.0, ("A", "H"): 25.0, ("B", "L"): 28.0, ("B", "H"): 18.0}
    lines = ["breaks,wool,tension"] + [
        f"{m + rng.normal(0, 2):.0f},{w},{t}" for (w, t), m in means.items() for _ in range(6)
    ]
    (tmp_path / "warp.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text(
        "Breaks per loom for two wools at two tensions: a two-factor experiment. Test both "
        "factors by two-way ANOVA and say which combination gives the fewest breaks.\n",
        encoding="utf-8",
    )
    [(value, se, _, _)] = build(tmp_path, "en").answer("best")
    assert abs(value - 18.0) <= 3 * se, value


def test_a_chinese_year_axis_gives_the_period_in_years() -> None:
    # lynx (zh): the time column "年份" has no unit in its header; the
    # period came out unitless.
    from labwright.analysis.procedures.periodogram import time_unit
    from labwright.ingest.types import Column, Provenance

    def col(name: str) -> Column:
        return Column(name, np.arange(5.0), Provenance("s.csv", column=name), None)

    assert [time_unit(col(n)) for n in ("年份", "天", "year", "捕获数")] == [
        "year",
        "day",
        "year",
        None,
    ]


def test_a_subscript_word_is_part_of_its_symbol(tmp_path: Path) -> None:
    # Orange: "C = Cmax / (1 + exp(-(t - t0)/s))" was read as C·m·a·x and
    # matched Planck's law (t0 -> c_light); Loblolly's "hmax" as h·m·a·x.
    from labwright.analysis.catalogue.match import known_symbols
    from labwright.analysis.catalogue.written import read_formula

    known = known_symbols(catalogue().entries)
    assert read_formula("y = ymax x / (K + x)", known).text == "y = ymax * x / (K + x)"
    assert read_formula("T = Tmin + a t", known).text == "T = Tmin + a * t"
    assert read_formula("p = p0 exp(-Ea/RT)", known).text == "p = p0 * exp(-Ea / (R * T))"
    t = np.arange(100.0, 1600.0, 150.0)
    w = 150 / (1 + np.exp(-(t - 700) / 300))
    req = _request(
        tmp_path,
        {
            "notes.txt": "Width of the leaves against age. Fit W = Wmax / (1 + exp(-(t - t0)/s)) "
            "and report Wmax and t0.\n",
            "leaves.csv": "age (day),width (mm)\n"
            + "".join(f"{a:.0f},{b:.2f}\n" for a, b in zip(t, w, strict=True)),
        },
    )
    assert "planck_spectrum" not in {m.key for m in req.models}, req.models


def test_a_logarithm_on_the_written_left_side_is_kept(tmp_path: Path) -> None:
    # mercury: "ln p = -ΔH/(R T) + C" was read as p = -ΔH/(RT) + C (the ln
    # before the left-hand symbol dropped), a law no data follow. Kept, the
    # linearised Arrhenius line is the Arrhenius law.
    t = np.arange(300.0, 400.0, 10.0)
    k = 1e6 * np.exp(-50000 / (8.314 * t))
    req = _request(
        tmp_path,
        {
            "notes.txt": "Rate constant against temperature. Use ln k = ln A - Ea/(R T) to "
            "find the activation energy Ea.\n",
            "k.csv": "T (K),k (1/s)\n"
            + "".join(f"{a},{b:.5g}\n" for a, b in zip(t, k, strict=True)),
        },
    )
    [named] = req.models
    assert (named.key, named.how) == ("arrhenius", "formula"), req.models
    assert named.formula is not None and named.formula.startswith("log(k) ="), named.formula
