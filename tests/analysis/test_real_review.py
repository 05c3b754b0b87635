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


def test_a_written_formula_no_law_is_is_fitted_with_the_units_it_implies(tmp_path: Path) -> None:
    # stopping distance, cherry trees, DNase: the notes write a formula no
    # catalogue law is; the request said "fitted as written", bound its
    # symbols, and nothing fitted it ("no table binds every variable").
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(5)
    x = np.linspace(0.01, 0.1, 14)
    force = 40.0 * x + x**3 / 2.5e-5 + rng.normal(0, 0.05, x.size)
    (tmp_path / "spring.csv").write_text(
        "x (m),F (N)\n" + "".join(f"{a:.4f},{b:.4f}\n" for a, b in zip(x, force, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "A stiffening spring. Fit F = k x + x^3 / c and report k and c.\n", encoding="utf-8"
    )
    built = build(tmp_path, "en")
    [(k, k_se, k_unit, k_label)] = built.answer("k")
    assert k_se is not None and abs(k - 40.0) <= 3 * k_se, (k, k_se)
    from labwright.analysis.quantities import factor

    # k in the unit of F over that of x, c in x³/F: the formula's dimensions.
    assert factor(k_unit or "", "N/m") == 1.0, k_unit
    [(c, c_se, c_unit, _)] = built.answer("c")
    assert factor(c_unit or "", "m^3/N") is not None, c_unit
    assert c_se is not None and abs(c - 2.5e-5) <= 3 * c_se * factor(c_unit or "", "m^3/N"), c
    assert "parameter" in k_label and "growth" not in built.tex


def test_a_written_formula_with_the_log_of_a_unit_is_fitted_on_the_numbers(tmp_path: Path) -> None:
    # DNase: "ln c" of a concentration in ng/mL balances no units; the notes
    # mean the numbers in the column's unit.
    from tests.analysis.procedures.folders import build

    c = np.repeat(np.geomspace(0.05, 12.0, 8), 2)
    od = 1.8 / (1 + np.exp((0.9 - np.log(c)) / 1.1)) + np.tile([0.01, -0.01], 8)
    (tmp_path / "assay.csv").write_text(
        "c (ng/mL),OD\n" + "".join(f"{a:.4g},{b:.4f}\n" for a, b in zip(c, od, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Assay curve. Fit OD = Amax / (1 + exp((m - ln c)/w)) and report Amax and m.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(m, m_se, _, _)] = built.answer("m")
    assert m_se is not None and abs(m - 0.9) <= 3 * m_se + 1e-3, (m, m_se)
    [(a, a_se, _, _)] = built.answer("Amax")
    assert a_se is not None and abs(a - 1.8) <= 3 * a_se + 1e-3, (a, a_se)


def test_a_written_response_no_column_names_is_the_one_left(tmp_path: Path) -> None:
    # BOD: "y = L0 (1 - exp(-k t))" over the columns t and BOD: y names no
    # column, so the formula was dropped and L0 went to Kohlrausch's law, k
    # to a pharmacokinetic decay fitted to a rising curve. The response is
    # the table's one measurement the formula's other symbols did not take;
    # the rate constant's start is found near 1/t, not from 1 s⁻¹.
    from tests.analysis.procedures.folders import build

    t = np.array([1.0, 2, 3, 4, 5, 7])
    y = 20.0 * (1 - np.exp(-0.5 * t)) + np.array([0.3, -0.4, 0.2, -0.1, 0.3, -0.2])
    (tmp_path / "uptake.csv").write_text(
        "t (day),uptake (mg/L)\n" + "".join(f"{a:g},{b:.3f}\n" for a, b in zip(t, y, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Oxygen uptake of a sample. It rises to a plateau as y = L0 (1 - exp(-k t)). "
        "Find L0 and k.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    assert {a.model for a in built.analysis.sheet.answers} == {"formula"}
    [(top, top_se, _, _)] = built.answer("L0")
    [(k, k_se, k_unit, _)] = built.answer("k")
    assert top_se is not None and abs(top - 20.0) <= 3 * top_se, (top, top_se)
    assert k_se is not None and abs(k - 0.5) <= 3 * k_se, (k, k_se, k_unit)


def test_a_factorial_says_nothing_its_anova_contradicts(tmp_path: Path) -> None:
    # warpbreaks: above the two-way ANOVA the report said no column holds
    # factor A, factor B or the response (the law's variable binding, not
    # how the procedure bound its columns), and the interaction plot drew
    # the wool levels A, B as a 0.0-1.0 axis.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(8)
    means = {("A", "L"): 44.0, ("A", "M"): 24.0, ("A", "H"): 25.0}
    means |= {("B", "L"): 28.0, ("B", "M"): 29.0, ("B", "H"): 19.0}
    lines = ["breaks,wool,tension"] + [
        f"{m + rng.normal(0, 3):.0f},{w},{t}" for (w, t), m in means.items() for _ in range(6)
    ]
    (tmp_path / "looms.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text(
        "Breaks per loom for two wools at three tensions: a two-factor experiment. Test both "
        "factors and their interaction by two-way ANOVA, and say which combination gives the "
        "fewest breaks.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    assert built.answer("best"), built.analysis.sheet.answers
    for u in built.analysis.sheet.unanswered:
        assert u.variable is None and "not computed" not in u.why, u
    [plan] = [p for p in built.plans if p.panels and "wool" in str(p.panels)]
    assert plan.panels is not None
    assert plan.panels["panels"][0]["xticklabels"] == ["A", "B"]


def test_the_line_the_notes_ask_for_gives_the_answer(tmp_path: Path) -> None:
    # mercury: "ln p = -ΔH/(RT) + C" / "由 ln p 对 1/T 作图" ask for the line;
    # ΔH came from the nonlinear fit of p (59.57 ± 0.03 against the line's
    # 60.75 ± 0.15 kJ/mol). Arrhenius here: Ea off the ln k–1/T line.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(11)
    t = np.linspace(300.0, 380.0, 9)
    k = 3e7 * np.exp(-52000 / (8.314462618 * t)) * np.exp(rng.normal(0, 0.08, t.size))
    (tmp_path / "rates.csv").write_text(
        "T (K),k (1/s)\n" + "".join(f"{a:g},{b:.5g}\n" for a, b in zip(t, k, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Rate constant of a reaction at several temperatures (Arrhenius equation). Plot ln k "
        "against 1/T and find the activation energy.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(ea, se, unit, _)] = built.answer("Ea")
    ks = np.array([float(f"{v:.5g}") for v in k])
    slope, _ = np.polyfit(1 / t, np.log(ks), 1)
    from labwright.analysis.quantities import factor

    f = factor(unit or "", "J/mol")
    assert f is not None and abs(ea * f - (-8.314462618 * slope)) <= 1e-6 * abs(ea * f), (ea, unit)
    assert se is not None


def test_a_bare_symbol_is_the_named_laws_subscripted_quantity(tmp_path: Path) -> None:
    # mercury: "ΔH" beside a named Clausius-Clapeyron law also asked van 't
    # Hoff's enthalpy of reaction (the only law with a bare ΔH), binding the
    # vapour pressure as its equilibrium constant.
    t = np.linspace(20.0, 90.0, 8)
    p = 101.325 * np.exp(-40650 / 8.314 * (1 / (t + 273.15) - 1 / 373.15))
    req = _request(
        tmp_path,
        {
            "notes.txt": "Vapour pressure of water. Use the Clausius-Clapeyron equation to find ΔH.\n",
            "water.csv": "T (°C),p (kPa)\n"
            + "".join(f"{a:g},{b:.4f}\n" for a, b in zip(t, p, strict=True)),
        },
    )
    assert {(a.model, a.quantity) for a in req.asked} == {("clausius_clapeyron", "dH_vap")}, (
        req.asked
    )
    assert "van_t_hoff" not in {m.key for m in req.models}


def test_an_asked_linear_trend_is_the_answer(tmp_path: Path) -> None:
    # New Haven: "estimate the linear warming trend ... with its standard
    # error" was computed and printed, yet the report said no asked
    # quantity was determined.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(4)
    years = np.arange(1950, 2000)
    level = 12.0 + 0.05 * (years - 1950) + rng.normal(0, 0.3, years.size)
    (tmp_path / "lake.csv").write_text(
        "year,depth (m)\n" + "".join(f"{a},{b:.3f}\n" for a, b in zip(years, level, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Yearly mean depth of a lake. Estimate the linear trend in metres per year with its "
        "standard error.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(slope, se, unit, _)] = built.answer("trend")
    assert se is not None and abs(slope - 0.05) <= 3 * se, (slope, se)
    assert unit is not None and unit.startswith("m/"), unit
    # lynx: "每年捕获的猞猁数量。求种群数量变化的周期" reads "每年" as a trend
    # cue; the period is asked, so the trend is no answer.
    other = tmp_path / "cycle"
    other.mkdir()
    t = np.arange(1900, 1960)
    (other / "s.csv").write_text(
        "年份,捕获数\n" + "".join(f"{a},{50 + 30 * np.sin(2 * np.pi * a / 9.0):.2f}\n" for a in t),
        encoding="utf-8",
    )
    (other / "说明.txt").write_text("每年捕获的数量。求种群数量变化的周期。\n", encoding="utf-8")
    assert build(other, "zh").answer("P") and not build(other, "zh").answer("trend")


def test_a_header_offset_is_put_back_in_the_asked_mean(tmp_path: Path) -> None:
    # Michelson: "speed - 299000 (km/s)", "report the speed of light with its
    # standard error": the report gave per-experiment statistics and said no
    # quantity was asked.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(6)
    rows = [(g, 450 + rng.normal(0, 20)) for g in (1, 2, 3, 4) for _ in range(12)]
    (tmp_path / "runs.csv").write_text(
        "series,length - 1000 (mm)\n" + "".join(f"{g},{v:.1f}\n" for g, v in rows),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Four series of twelve readings of a rod's length; the column gives the length minus "
        "1000 mm. Report the length with its standard error.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(value, se, unit, label)] = built.answer("mean")
    v = np.array([float(f"{v:.1f}") for _, v in rows])
    assert abs(value - (1000 + v.mean())) < 1e-9 and unit == "mm" and label == "length"
    assert se is not None and abs(se - v.std(ddof=1) / np.sqrt(v.size)) < 1e-9


def test_the_notes_symbol_for_a_laws_parameter_asks_it(tmp_path: Path) -> None:
    # Loblolly: "find the asymptotic height hmax" of h = hmax + (h0 - hmax)
    # exp(-k t): hmax is first_order_offset's A_inf, computed and printed as
    # "not asked".
    t = np.arange(3.0, 28.0, 2.0)
    h = 100 + (2 - 100) * np.exp(-0.04 * t)
    req = _request(
        tmp_path,
        {
            "notes.txt": "Height of a tree against age, h = hmax + (h0 - hmax) exp(-k t). "
            "Find hmax.\n",
            "tree.csv": "age (yr),height (ft)\n"
            + "".join(f"{a:g},{b:.3f}\n" for a, b in zip(t, h, strict=True)),
        },
    )
    assert ("first_order_offset", "A_inf") in {(a.model, a.quantity) for a in req.asked}, req.asked


def test_a_written_t_is_the_one_column_in_a_unit_of_time(tmp_path: Path) -> None:
    # Orange: "C = Cmax / (1 + exp(-(t - t0)/s))" over "age (day)" and
    # "circumference (mm)": neither t nor C names a column, so the formula
    # was dropped and t0 never answered.
    from labwright.analysis.catalogue.custom import symbol_latex
    from tests.analysis.procedures.folders import build

    age = np.arange(5.0, 200.0, 12.0)
    width = 40 / (1 + np.exp(-(age - 90.0) / 20.0)) + np.tile([0.2, -0.2], age.size)[: age.size]
    (tmp_path / "leaf.csv").write_text(
        "age (day),width (mm)\n"
        + "".join(f"{a:g},{b:.3f}\n" for a, b in zip(age, width, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Leaf width against age, W = Wmax / (1 + exp(-(t - t0)/s)). Find Wmax and t0.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(t0, se, unit, _)] = built.answer("t0")
    assert se is not None and abs(t0 - 90.0) <= 3 * se and unit == "d", (t0, se, unit)
    assert symbol_latex("Wmax") == r"W_{\mathrm{max}}"


def test_an_answer_is_named_by_the_notes_symbol_and_words(tmp_path: Path) -> None:
    # Loblolly: the notes ask "the asymptotic height hmax" of h = hmax +
    # (h0 - hmax) exp(-k t); the answer was printed as the catalogue's
    # "final value A_inf", which neither the reader nor the scorer could
    # tell was the asked height. Here a saturating uptake written with its
    # own letters (Michaelis-Menten's Vmax and Km under other names).
    from tests.analysis.procedures.folders import build

    c = np.array([0.5, 1, 2, 4, 8, 16, 32, 64.0])
    r = 9.0 * c / (5.0 + c) * (1 + np.tile([0.01, -0.01], 4))
    (tmp_path / "uptake.csv").write_text(
        "S (mM),v (mM/min)\n" + "".join(f"{a:g},{b:.4f}\n" for a, b in zip(c, r, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Uptake rate against substrate, v = vsat S / (K_s + S). Find the saturating uptake "
        "vsat and the half-saturation point K_s.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    named = {
        a.quantity: (a.symbol, a.label.en, a.latex)
        for a in built.analysis.sheet.answers
        if a.model == "michaelis_menten"
    }
    assert named["Vmax"] == ("vsat", "saturating uptake", r"v_{\mathrm{sat}}"), named
    assert named["Km"] == ("K_s", "half-saturation point", "K_{s}"), named
    assert abs(named_value(built, "Vmax") - 9.0) < 0.3
    # The request list, the results table, the discussion and the
    # conclusion say it so; the catalogue's names are not the reader's.
    assert "maximum rate" not in built.tex and "Michaelis constant" not in built.tex, built.tex
    assert built.tex.count(r"v_{\mathrm{sat}}") >= 3, built.tex


def named_value(built: object, quantity: str) -> float:
    from tests.analysis.procedures.folders import Built

    assert isinstance(built, Built)
    return next(a.value for a in built.analysis.sheet.answers if a.quantity == quantity)


def test_a_law_named_beside_the_fitted_formula_asks_nothing_of_its_own(tmp_path: Path) -> None:
    # DNase: "Fit a logistic curve ..., OD = A / (1 + exp((x0 - ln c)/s))":
    # the logistic growth law, named in passing, bound no column (its time
    # is nobody's) and the report said "Not answered: logistic growth: time;
    # carrying capacity" beside the answered written fit. Here the same
    # class with another law named in passing (an exponential decay) beside
    # a written decay in log dose.
    dose = np.array([0.5, 1, 2, 4, 8, 16, 32, 64.0])
    y = 5.0 * np.exp(-np.log(dose) / 1.5) + np.tile([0.02, -0.02], 4)
    files = {
        "d.csv": "dose (mg),y\n"
        + "".join(f"{a:g},{b:.4f}\n" for a, b in zip(dose, y, strict=True)),
        "notes.txt": "Response against dose. Fit an exponential decay of y against ln(dose), "
        "y = B exp(-ln dose / w), and report the width w.\n",
    }
    req = _request(tmp_path, files)
    assert [m.key for m in req.models] == [None], req.models
    assert {a.quantity for a in req.asked} == {"w"}, req.asked
    assert not req.unanswered, req.unanswered


def test_the_notes_name_of_a_symbol_is_the_words_after_its_article() -> None:
    # DNase: "report the asymptote A and the midpoint x0" named x0 nothing
    # (the symbol A was taken for the article "a").
    from labwright.analysis.request_rules.symbol_name import notes_name
    from labwright.analysis.request_rules.text import clauses_of

    def name(text: str, at: str) -> str | None:
        c = clauses_of("n.txt", text)[0]
        return notes_name(c, c.text.index(at))

    both = "Fit it and report the asymptote A and the midpoint x0."
    assert name(both, "x0") == "midpoint" and name(both, "A and") == "asymptote"
    assert name("Find the asymptotic height hmax and k.", "hmax") == "asymptotic height"
    assert name("Find the asymptotic height hmax and k.", "k.") is None
    assert name("Determine k.", "k") is None
    assert name("求渐近高度 hmax。", "hmax") == "渐近高度" and name("求 hmax。", "hmax") is None


def test_a_parameter_in_units_that_cancel_is_given_in_one_unit(tmp_path: Path) -> None:
    # cars: d = t_r v + v^2/(2a) fitted to v in mph and d in ft gave the
    # reaction time "1.24 ft/mph" and the deceleration "5.5 mph²/ft"; a
    # time is told in seconds, an acceleration in m/s².
    from labwright.analysis.quantities import factor
    from tests.analysis.procedures.folders import build, recomputed_values_are_printed

    rng = np.random.default_rng(11)
    v_mph = np.linspace(5, 30, 30)
    v = v_mph * 0.44704  # m/s
    d_m = 0.8 * v + v**2 / (2 * 4.0) + rng.normal(0, 0.5, v.size)
    (tmp_path / "cars.csv").write_text(
        "v (mph),d (ft)\n"
        + "".join(f"{a:.2f},{b / 0.3048:.3f}\n" for a, b in zip(v_mph, d_m, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Stopping distance against speed, d = t_r v + v^2 / (2 a). "
        "Find the reaction time t_r and the deceleration a.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(t_r, t_se, t_unit, _)] = built.answer("t_r")
    [(a, a_se, a_unit, _)] = built.answer("a")
    assert factor(t_unit or "", "s") == 1.0, t_unit
    assert factor(a_unit or "", "m/s^2") == 1.0, a_unit
    assert t_se is not None and abs(t_r - 0.8) <= 3 * t_se, (t_r, t_se)
    assert a_se is not None and abs(a - 4.0) <= 3 * a_se, (a, a_se)
    assert "mph" not in (t_unit or "") + (a_unit or "")
    assert recomputed_values_are_printed(built, "fit") >= 4


def test_a_rate_in_an_amount_per_time_binds_the_laws_rate(tmp_path: Path) -> None:
    # "v (umol/min)" did not bind Michaelis–Menten's v (typical unit µM/min):
    # the catalogue declares v of any dimension, its unit only typical.
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(2)
    s = np.array([0.5, 1, 2, 4, 8, 16, 32.0])
    v = 10 * s / (3 + s) * (1 + rng.normal(0, 0.02, s.size))
    (tmp_path / "rates.csv").write_text(
        "S (mM),v (umol/min)\n" + "".join(f"{a},{b:.4f}\n" for a, b in zip(s, v, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Fit the Michaelis-Menten equation v = Vmax S/(Km + S); report Vmax and Km.\n",
        encoding="utf-8",
    )
    built = build(tmp_path, "en")
    [(vmax, se, unit, _)] = built.answer("Vmax")
    assert se is not None and abs(vmax - 10) <= 3 * se, (vmax, se)
    from labwright.analysis.quantities import factor

    assert factor(unit or "", "umol/min") == 1.0, unit
    assert not built.analysis.request.unanswered
    # A variable of a stated dimension keeps it: a substrate in mm is no
    # concentration, whatever its name.
    (tmp_path / "rates.csv").write_text(
        "S (mm),v (umol/min)\n" + "".join(f"{a},{b:.4f}\n" for a, b in zip(s, v, strict=True)),
        encoding="utf-8",
    )
    assert not build(tmp_path, "en").answer("Km")


def test_a_lowercase_subscript_word_is_part_of_its_symbol(tmp_path: Path) -> None:
    # "v = rtop S/(Khalf + S)" was read as r·t·o·p and K·h·a·l·f: no law
    # matched and the notes' words ("the half-saturation constant") asked
    # Monod's Ks and the dose-response's top instead.
    from labwright.analysis.catalogue.custom import symbol_latex
    from labwright.analysis.catalogue.match import known_symbols
    from labwright.analysis.catalogue.written import read_formula

    known = known_symbols(catalogue().entries)
    assert read_formula("v = rtop S/(Khalf + S)", known).text == "v = rtop * S / (Khalf + S)"
    assert read_formula("y = kobs t", known).text == "y = kobs * t"
    # Products, Greek names and functions are read as before.
    assert read_formula("p = nRT/V", known).text == "p = n * R * T / V"
    assert read_formula("y = Acos(w t)", known).text == "y = A * cos(w * t)"
    assert read_formula("y = beta x", known).text == "y = beta * x"
    assert symbol_latex("Khalf") == r"K_{\mathrm{half}}"
    s = np.array([0.5, 1, 2, 4, 8, 16, 32.0])
    req = _request(
        tmp_path,
        {
            "notes.txt": "Uptake of a substrate. Fit v = rtop S/(Khalf + S) and report the top "
            "rate rtop and the half-saturation constant Khalf.\n",
            "rates.csv": "S (mM),v (mM/min)\n"
            + "".join(f"{a},{10 * a / (3 + a):.4f}\n" for a in s),
        },
    )
    assert [(a.model, a.quantity) for a in req.asked] == [
        ("michaelis_menten", "Vmax"),
        ("michaelis_menten", "Km"),
    ], req.asked
    assert [a.name for a in req.asked] == ["top rate", "half-saturation constant"]
    assert not req.unanswered, req.unanswered


def test_a_written_formula_that_reparametrises_the_named_law_is_one_fit(tmp_path: Path) -> None:
    # Orange: "Fit the logistic growth curve C = Cmax / (1 + exp(-(t - t0)/s))"
    # fitted the catalogue's logistic (K, N0, r) and the written curve: two
    # fits, two tables, of one request.
    t = np.arange(100.0, 1600.0, 100.0)
    c = 190 / (1 + np.exp(-(t - 730) / 350))
    table = "age (day),circumference (mm)\n" + "".join(
        f"{a:.0f},{b:.2f}\n" for a, b in zip(t, c, strict=True)
    )
    req = _request(
        tmp_path,
        {
            "notes.txt": "Fit the logistic growth curve C = Cmax / (1 + exp(-(t - t0)/s)) "
            "and report the asymptotic circumference Cmax and the age t0.\n",
            "trees.csv": table,
        },
    )
    assert [m.key for m in req.models] == [None], req.models
    assert {b.model for b in req.bindings} == {"formula"}
    assert [a.quantity for a in req.asked] == ["Cmax", "t0"]
    # A law with other parameters beside the formula is another request:
    # the exponential growth (two parameters) is not the three-parameter curve.
    other = tmp_path / "other"
    other.mkdir()
    req = _request(
        other,
        {
            "notes.txt": "Fit the exponential growth law and the curve "
            "C = Cmax / (1 + exp(-(t - t0)/s)); report Cmax and t0.\n",
            "trees.csv": table,
        },
    )
    assert "exponential_growth" in {m.key for m in req.models}, req.models


def test_a_law_whose_quantity_the_written_formula_asks_is_kept(tmp_path: Path) -> None:
    # The second-order law beside its linearised form "1/c = 1/c0 + k t": the
    # asked k is the law's own; dropping the law lost it (labset second-order).
    t = np.arange(0.0, 30.0, 3.0)
    c = 0.05 / (1 + 0.25 * 0.05 * t)
    req = _request(
        tmp_path,
        {
            "notes.txt": "A second-order reaction, 1/c = 1/c0 + k t. Find the rate constant k.\n",
            "c.csv": "t (min),c (mol/L)\n"
            + "".join(f"{a:.1f},{b:.5f}\n" for a, b in zip(t, c, strict=True)),
        },
    )
    assert "rate_second_order" in {m.key for m in req.models}, req.models


def test_the_lines_of_a_saved_figure_bind_a_laws_variables(tmp_path: Path) -> None:
    # heat-plate: the notes name the cooling curve saved as cooling.fig,
    # whose x data is the time in s, yet "no column holds the time" was
    # said: a figure's lines were never bound. Each line is its own pair.
    import shutil

    from tests.analysis.procedures.folders import build

    root = Path(__file__).resolve().parents[2] / "examples" / "heat-plate"
    shutil.copytree(root, tmp_path / "f")
    built = build(tmp_path / "f", "en")
    req = built.analysis.request
    assert not any(u.variable == "t" for u in req.unanswered), req.unanswered
    # line1 is "measured"; line2, "model, tau = 240 s", is a drawn curve.
    pairs = {(b.variable, b.column) for b in req.bindings if b.model == "newton_cooling"}
    assert pairs == {("t", "line1.x"), ("T", "line1.y")}
    [(tau, se, unit, _)] = built.answer("tau")
    assert unit == "s" and se is not None and abs(tau - 240.0) <= 3 * se, (tau, se)


def test_log_scales_the_notes_ask_for_are_the_figures(tmp_path: Path) -> None:
    # cherry trees: "Fit V = a G^b H^c on log scales" was drawn on linear axes.
    from labwright.analysis.presentation import asks_log_axes
    from tests.analysis.procedures.folders import build

    assert asks_log_axes("plot it on a log-log scale") and asks_log_axes("用双对数坐标作图")
    assert not asks_log_axes("the log of the rate") and not asks_log_axes("a catalogue scale")
    rng = np.random.default_rng(4)
    g = rng.uniform(8, 20, 25)
    h = rng.uniform(60, 90, 25)
    v = 0.002 * g**2 * h * np.exp(rng.normal(0, 0.05, g.size))
    rows = "".join(f"{a:.2f},{b:.1f},{c:.3f}\n" for a, b, c in zip(g, h, v, strict=True))
    (tmp_path / "trees.csv").write_text("G (in),H (ft),V (ft^3)\n" + rows, encoding="utf-8")
    notes = "Fit V = a G^b H^c {} and report the exponent b.\n"
    (tmp_path / "notes.txt").write_text(notes.format("on log scales"), encoding="utf-8")
    fits = [p for p in build(tmp_path, "en").plans if p.panels and p.analysis.kind == "fit"]
    assert fits and fits[0].panels["panels"][0].get("xlog") and fits[0].panels["panels"][0]["ylog"]
    (tmp_path / "notes.txt").write_text(notes.format(""), encoding="utf-8")
    fits = [p for p in build(tmp_path, "en").plans if p.panels and p.analysis.kind == "fit"]
    assert fits and not fits[0].panels["panels"][0].get("xlog")


def test_a_law_the_notes_write_is_stated_in_their_letters(tmp_path: Path) -> None:
    # Loblolly: "h = hmax + (h0 - hmax) exp(-k t)" matched the catalogue's
    # first-order decay to a level, and the fit was stated as
    # "A = (A_0 - A_inf) e^{-kt} + A_inf ...; A is height".
    from tests.analysis.procedures.folders import build

    t = np.arange(3.0, 30.0, 2.0)
    h = 100 + (2 - 100) * np.exp(-0.04 * t)
    (tmp_path / "pines.csv").write_text(
        "age (yr),height (ft)\n" + "".join(f"{a},{b:.3f}\n" for a, b in zip(t, h, strict=True)),
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text(
        "Height against age approaches a maximum as h = hmax + (h0 - hmax) exp(-k t). "
        "Find the asymptotic height hmax and the rate constant k.\n",
        encoding="utf-8",
    )
    tex = build(tmp_path, "en").tex
    sentence = next(line for line in tex.splitlines() if "was fitted to" in line)
    assert r"h_{\mathrm{max}}" in sentence and "$h$ is" in sentence, sentence
    assert "A_" not in sentence, sentence


def test_the_notes_ask_line_names_the_quantity_and_the_comparison(tmp_path: Path) -> None:
    # Michelson: "Report the speed of light with its standard error and
    # compare it with the accepted value" was summed up as "The notes ask
    # for: the uncertainty of the measurement".
    from tests.analysis.procedures.folders import build

    rng = np.random.default_rng(8)
    runs = "".join(f"{i % 5 + 1},{i + 1},{850 + rng.normal(0, 80):.0f}\n" for i in range(60))
    (tmp_path / "light.csv").write_text(
        "experiment,run,speed - 299000 (km/s)\n" + runs, encoding="utf-8"
    )
    (tmp_path / "notes.txt").write_text(
        "Measurements of the speed of light in air. Report the speed of light with its "
        "standard error and compare it with the accepted value 299792.458 km/s.\n",
        encoding="utf-8",
    )
    tex = build(tmp_path, "en").tex
    line = next(x for x in tex.splitlines() if x.startswith("The notes ask for:"))
    assert "speed" in line and "accepted value" in line and "uncertainty" in line, line
