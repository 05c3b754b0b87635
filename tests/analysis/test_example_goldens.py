"""Golden expectations for the example folders: the analyses chosen are the
ones the notes ask for, and every parameter recovered from generated data
lies within 3 standard errors of the value the generator used."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import FolderAnalysis, analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder

ROOT = Path(__file__).resolve().parents[2] / "examples"

EXPECTED_KINDS = {
    "station-series": {"timeseries"},
    "sea-surface": {"timeseries"},
    "alloy-hardness": {"groups"},
    "reactor-yield": {"regression"},
    "resistor-repeats": {"repeated"},
    "decay-runs": {"series"},
    "plant-growth-zh": {"groups"},
    "pendulum": {"law", "repeated"},
    "rc-discharge": {"xy"},
    "spectrum": {"peaks", "xy"},
    "heat-plate": {"symmetry", "xy"},
}
EXPECTED_GOALS = {
    "station-series": {"trend", "seasonal"},
    "sea-surface": {"trend", "seasonal"},
    "alloy-hardness": {"groups"},
    "reactor-yield": {"dependence", "outliers"},
    "resistor-repeats": {"error"},
    "decay-runs": {"dependence"},
    "plant-growth-zh": {"groups", "dependence"},
    "pendulum": {"law", "error"},
    "rc-discharge": {"expected"},
    "spectrum": {"peaks"},
    "heat-plate": {"symmetry", "coefficient"},
}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("examples_generate", ROOT / "_generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRUTH = _generator().TRUTH
_CACHE: dict[str, FolderAnalysis] = {}


def _analysis(name: str) -> FolderAnalysis:
    """The shape-based analysis (no request): what a folder whose notes name
    no law gets. `_built` is the offline build's own, with the request."""
    if name not in _CACHE:
        _CACHE[name] = analyse_folder(read_folder(ROOT / name))
    return _CACHE[name]


def _built(name: str) -> FolderAnalysis:
    read = read_folder(ROOT / name)
    return analyse_folder(read, read_request(read, catalogue()))


def test_there_are_nine_shapes_or_more() -> None:
    assert len(EXPECTED_KINDS) >= 9
    assert all((ROOT / name).is_dir() for name in EXPECTED_KINDS)


@pytest.mark.parametrize("name", sorted(EXPECTED_KINDS))
def test_chosen_analyses_are_what_the_notes_ask(name: str) -> None:
    fa = _analysis(name)
    assert set(fa.question.goals) == EXPECTED_GOALS[name], fa.question.goals
    assert fa.kinds() == EXPECTED_KINDS[name]
    assert EXPECTED_GOALS[name] <= fa.goals_answered()


def _within(value: float, se: float, truth: float, what: str) -> None:
    assert se > 0 and abs(value - truth) <= 3 * se, f"{what}: {value} ± {se}, truth {truth}"


def test_time_series_parameters() -> None:
    fa = _analysis("station-series")
    seen = set()
    for a in fa.analyses:
        truth = TRUTH["station-series"][a.source]
        part = a.result.parts[0].result
        _within(part.trend.slope, part.trend.se, truth["slope"], f"{a.source} slope")
        if part.seasonal is not None:
            s = part.seasonal
            _within(s.amplitude, s.amplitude_se, truth["amplitude"], f"{a.source} amplitude")
        seen.add(a.source)
    assert seen == set(TRUTH["station-series"])
    wide = _analysis("sea-surface").analyses[0]
    assert wide.result.wide is not None and len(wide.result.wide.month_columns) == 12
    r = wide.result.parts[0].result
    _within(r.trend.slope, r.trend.se, TRUTH["sea-surface"]["slope"], "sst slope")
    assert r.seasonal is not None
    _within(
        r.seasonal.amplitude,
        r.seasonal.amplitude_se,
        TRUTH["sea-surface"]["amplitude"],
        "sst amplitude",
    )


@pytest.mark.parametrize(
    ("name", "column"), [("alloy-hardness", "hardness"), ("plant-growth-zh", "株高")]
)
def test_group_means(name: str, column: str) -> None:
    a = next(a for a in _analysis(name).analyses if a.kind == "groups")
    g = next(g for g in a.result.results if g.measurement == column)
    truth = TRUTH[name][column]
    assert [s.level for s in g.stats] == list(truth)  # labels from the notes
    for s in g.stats:
        _within(s.mean, s.se, truth[s.level], f"{name} {s.level}")
    assert g.test is not None and g.test.p < 1e-3
    # Which groups differ: every pair, Tukey HSD, difference within 3 SE of the truth.
    assert len(g.pairs) == 3
    for pr in g.pairs:
        _within(pr.diff, pr.se, truth[pr.second] - truth[pr.first], f"{pr.second} - {pr.first}")


def test_regression_coefficients_and_outlier() -> None:
    a = _analysis("reactor-yield").analyses[0]
    truth = TRUTH["reactor-yield"]
    assert a.result.response == "yield"
    for c in a.result.coefficients:
        _within(c.value, c.se, float(truth[c.name]), c.name)
    assert truth["outlier_row"] in [o.row for o in a.result.outliers]
    # "Discuss any outliers": the model again without the flagged rows.
    w = a.result.without_flagged
    assert w is not None and w.n == a.result.n - len(a.result.outliers)
    for c in w.coefficients:
        _within(c.value, c.se, float(truth[c.name]), f"{c.name} without flagged rows")
    # Units stated in the notes ("pressure in bar") are the columns' units.
    assert a.dataset.column("pressure").unit == "bar" and a.dataset.column("yield").unit == "%"


def test_unit_of_a_wide_table_from_its_readme() -> None:
    """ "Monthly mean sea surface temperature in degrees C": the melted series
    (and so its trend and amplitude) is in °C."""
    (a,) = _analysis("sea-surface").analyses
    assert a.result.parts[0].column.unit == "°C"


def test_repeated_mean() -> None:
    s = _analysis("resistor-repeats").analyses[0].result
    _within(s.mean, s.se, TRUTH["resistor-repeats"]["R"], "R")


def test_series_of_files() -> None:
    a = _analysis("decay-runs").analyses[0]
    s = a.result
    truth = TRUTH["decay-runs"]
    assert len(s.series.datasets) == 30 and s.series.parameter_name == "T"
    assert s.series.parameter_unit == "K" and s.mode == "fit"
    k = s.quantities.index(r"\tau")
    for temp, tau, se in zip(s.series.parameters, s.values[:, k], s.errors[:, k], strict=True):
        _within(tau, se, truth["tau0"] * np.exp(-(temp - 280) / truth["scale"]), f"tau at {temp}")


def test_series_dependence_on_the_run_parameter() -> None:
    """ "How does the decay time depend on temperature?": tau is fitted against
    T across the 30 files (tau = tau0 e^{-(T-280)/scale} in the generator, an
    exponential in T with A' = tau0 e^{280/scale}); the amplitude, which does
    not vary, is reported as a mean over the files."""
    s = _analysis("decay-runs").analyses[0].result
    truth = TRUTH["decay-runs"]
    k = s.quantities.index(r"\tau")
    fit = s.across[k]
    assert fit is not None and fit.model.key == "exponential"
    (a, scale), (sa, sscale) = fit.params, fit.sigmas
    _within(scale, sscale, float(truth["scale"]), "scale of tau(T)")
    _within(a, sa, float(truth["tau0"]) * np.exp(280 / float(truth["scale"])), "A' of tau(T)")
    j = s.quantities.index("A")
    assert s.across[j] is None
    mean, se = s.across_mean[j]
    _within(mean, se, float(truth["U0"]), "mean amplitude")


def test_spectral_lines_and_their_reference_values() -> None:
    """ "确定主要谱线的波长，并与标准值比较": the five Hg lines (a blended
    doublet at 577.0/579.1 nm among them) are found, each centre within 3 SE
    of the generator's, and matched to the standard values of calibration.csv."""
    a = next(a for a in _analysis("spectrum").analyses if a.kind == "peaks")
    r = a.result
    truth = TRUTH["spectrum"]
    assert len(r.peaks) == len(truth["lines_nm"])
    fwhm = float(truth["sigma_nm"]) * 2 * np.sqrt(2 * np.log(2))
    for p, line in zip(r.peaks, truth["lines_nm"], strict=True):
        _within(p.centre, p.centre_se, line, f"line at {line} nm")
        _within(p.fwhm, p.fwhm_se, fwhm, f"FWHM of the line at {line} nm")
        assert p.reference == line
    assert r.reference_source == "calibration.csv: 标准波长" and r.unmatched == []


def test_symmetry_of_the_temperature_map() -> None:
    """ "check the temperature map for symmetry": the hot spot's centroid is at
    the generator's centre within 3 SE and the map is its own mirror image."""
    (a,) = [a for a in _analysis("heat-plate").analyses if a.kind == "symmetry"]
    r = a.result
    truth = TRUTH["heat-plate"]
    _within(r.cx, r.cx_se, float(truth["centre_col"]), "centroid column")
    _within(r.cy, r.cy_se, float(truth["centre_row"]), "centroid row")
    assert r.symmetric and r.centred


def test_time_constants_compared_with_rc(tmp_path: Path) -> None:
    """ "compare it with the product RC": each fitted tau (two sheets named by
    their resistor, the scope capture named in the notes' sentence) is set
    beside R C from the notes' components, and lies within 3 SE of the
    generator's R C."""
    import json

    from labwright.agent.offline import build_offline

    fa = _analysis("rc-discharge")
    assert fa.rc is not None and "expected" in fa.goals_answered()
    truth = TRUTH["rc-discharge"]
    c = float(truth["C"])
    want = {**{k: r * c for k, r in truth["R"].items()}, "scope": float(truth["R_scope"]) * c}
    list(build_offline(ROOT / "rc-discharge", tmp_path / "out", tex_available=False))
    record = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    numbers = record["numbers"]
    # Each tau's expected value is R C of its own resistor (the sheet's name,
    # the sentence naming the scope file) and the one capacitor.
    rc = {e["value"] for e in numbers
          if e["computation"].startswith("expected value of time constant")
          and e["computation"].endswith("(R C from the notes)")}  # fmt: skip
    assert len(rc) == 3
    for value in want.values():
        assert any(abs(found - value) < 1e-12 for found in rc), (value, rc)
    built = _built("rc-discharge")
    taus = sorted((a for a in built.sheet.answers if a.quantity == "tau"), key=lambda a: a.value)
    assert len(taus) == 3
    for a, truth_tau in zip(taus, sorted(want.values()), strict=True):
        assert a.se is not None and a.comparison is not None
        _within(a.value, a.se, truth_tau, f"tau of {a.sources[0]}")
        assert abs(a.comparison.value - truth_tau) < 1e-12  # R C of this data set's resistor
    tex = (tmp_path / "out" / "main.tex").read_text(encoding="utf-8")
    assert tex.count("It agrees with the expected") == 3 and "not consistent" not in tex
    assert tex.count("($RC$ of the components in the notes)") == 6  # results table, discussion


def test_law_of_the_pendulum() -> None:
    """The notes' T^2 = (4 pi^2 / g) L is what is tested: T^2 against L, not
    the x-y path's power law of every column against L."""
    fa = _analysis("pendulum")
    (a,) = [a for a in fa.analyses if a.kind == "law"]
    f = a.result
    assert a.source == "periods.csv" and "law" in a.goals
    assert (f.y.name, f.x.name) == ("T^2", "L") or (f.y.name, f.y_power) == ("T", 2.0)
    assert f.x.name == "L" and f.x_power == 1.0
    truth = TRUTH["pendulum"]
    _within(f.slope0, f.slope0_se, float(truth["slope"]), "slope of T^2 on L")
    assert f.relation is not None and f.relation.name == "g"
    assert f.constant is not None and f.constant_se is not None
    _within(f.constant, f.constant_se, float(truth["g"]), "g")
    assert f.supported and f.intercept_p > 0.05
    assert abs(f.exponent - 1.0) < 3 * f.exponent_se


def test_roles_and_question_are_in_the_provenance_record(tmp_path: Path) -> None:
    import json

    from labwright.agent.offline import build_offline

    list(build_offline(ROOT / "reactor-yield", tmp_path / "out", tex_available=False))
    record = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    analysis = record["analysis"]
    assert set(analysis["question"]) == {"dependence", "outliers"}
    (table,) = analysis["tables"]
    roles = {c["name"]: c["role"] for c in table["columns"]}
    assert roles["run"] == "index" and roles["yield"] == "measurement"
    assert all(c["reason"] for c in table["columns"])
    assert [a["kind"] for a in analysis["analyses"]] == ["regression"]


def test_series_files_in_an_appendix_only_when_asked(tmp_path: Path) -> None:
    import shutil

    from labwright.agent.offline import build_offline
    from labwright.agent.offline.analysis_text import is_appendix
    from labwright.agent.offline.kind_writers import analysis_plans

    def appendix_plans(fa: FolderAnalysis) -> list[object]:
        keys = iter(range(1, 1000))
        return [
            p for p in analysis_plans(fa.analyses, lambda: f"fig{next(keys):02d}") if is_appendix(p)
        ]

    assert appendix_plans(_analysis("decay-runs")) == []  # not asked: never drawn one by one
    folder = tmp_path / "asked"
    shutil.copytree(ROOT / "decay-runs" / "runs", folder / "runs")
    (folder / "notes.md").write_text(
        "# Decay runs\n\n## Aim\n\nHow does the decay time depend on temperature? "
        "Show the individual runs in an appendix.\n",
        encoding="utf-8",
    )
    fa = analyse_folder(read_folder(folder))
    assert fa.question.asks("appendix") and "appendix" in fa.goals_answered()
    assert len(appendix_plans(fa)) == 3  # 30 files, twelve to a figure
    list(build_offline(folder, tmp_path / "out", tex_available=False))
    tex = (tmp_path / "out" / "main.tex").read_text(encoding="utf-8")
    appendix = tex[tex.index("section*{Appendix") :]
    assert appendix.count("\\includegraphics") == 3
    assert tex.index("section*{Appendix") > tex.index("section{Discussion")


def test_no_pairwise_comparison_without_a_group_difference() -> None:
    a = next(a for a in _analysis("alloy-hardness").analyses if a.kind == "groups")
    density = next(g for g in a.result.results if g.measurement == "density")
    assert density.test is not None and density.test.p > 0.05 and density.pairs == ()


def test_the_coefficient_the_notes_ask_for(tmp_path: Path) -> None:
    """ "Find the heat-loss coefficient ... from the steady-state temperature
    rise at several heater powers": the fits give dT against P in K/W, the
    coefficient is a quantity in W/K, so it is each slope's reciprocal, and
    it lies within 3 SE of the generator's P/dT for both thermocouples."""
    import json

    from labwright.agent.offline import build_offline

    fa = _analysis("heat-plate")
    assert [a.unit for a in fa.coefficients] == ["W/K"]
    list(build_offline(ROOT / "heat-plate", tmp_path / "out", tex_available=False))
    record = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    numbers = {e["computation"]: e["value"] for e in record["numbers"]}
    truth = TRUTH["heat-plate"]
    for where, key in (("dT centre", "loss_centre"), ("dT edge", "loss_edge")):
        what = f"heat-loss coefficient from the slope of {where} against P in steady_state.json"
        _within(numbers[what], numbers[f"standard uncertainty of {what}"], truth[key], what)


def test_the_pendulum_answers_g_first() -> None:
    """The law the notes name gives g: it is the build's one answer, within
    3 SE of the value the generator used, compared with the catalogue's
    standard gravity in the answer's unit."""
    from labwright.analysis.quantities import factor

    sheet = _built("pendulum").sheet
    (g,) = sheet.answers
    assert (g.quantity, g.latex, g.model) == ("g", "g", "pendulum_small_angle")
    assert g.unit is not None and factor(g.unit, "m/s^2") == pytest.approx(1.0)
    assert g.label.en == "acceleration due to gravity" and g.se is not None
    _within(g.value, g.se, TRUTH["pendulum"]["g"], "g")
    assert g.comparison is not None and g.comparison.source.startswith("standard gravity")
    assert g.z is not None and abs(g.z) < 2
    # The other examples' kinds offer no answers yet: none is invented.
    assert not _analysis("alloy-hardness").sheet.answers


def test_a_quantity_fitted_per_file_is_not_called_not_computed() -> None:
    """decay-runs asks for the decay time; the series of run files gives τ
    for each run (and against T): the sheet must say so, not "not computed"."""
    fa = _built("decay-runs")
    tau = [u for u in fa.sheet.unanswered if "(tau)" in u.what]
    assert tau and all("not computed" not in u.why for u in tau)
    assert "each of the 30 files" in tau[0].why
