"""The labelled lab folders and their scorer, tested before they judge the
analyst: a perfect record scores perfectly, a wrong one does not, units are
converted, an invented value for an unanswerable request is caught, and a fit
of a controlled variable is harmful."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.labset import all_folders, score
from tests.labset.folder import LabFolder, Truth
from tests.labset.score import convert

FOLDERS = all_folders()


def _folder(*truths: Truth, controlled: tuple[str, ...] = ()) -> LabFolder:
    return LabFolder("f", "x", "en", {}, truths, controlled)


def _answer(quantity: str, value: float, se: float | None, unit: str = "") -> dict[str, Any]:
    return {"quantity": quantity, "label": quantity, "value": value, "se": se, "unit": unit}


def test_the_set_is_as_large_and_varied_as_the_issue_asks() -> None:
    assert len(FOLDERS) >= 40
    assert len({f.experiment for f in FOLDERS}) >= 30
    assert sum(f.lang == "zh" for f in FOLDERS) >= 10
    shapes = {s for f in FOLDERS for s in f.shapes}
    for needed in ("csv-units-in-header", "semicolon-decimal-comma", "xlsx-several-sheets", "mat",
                   "json", "logger-txt-comments", "background-file", "standards-and-unknowns",
                   "many-run-files", "repeat-scans"):  # fmt: skip
        assert needed in shapes, needed


def test_generation_is_deterministic() -> None:
    again = all_folders()
    assert [f.files for f in again] == [f.files for f in FOLDERS]


def test_every_folder_has_notes_and_data() -> None:
    for f in FOLDERS:
        assert f.truths, f.name
        assert len(f.files) >= 2, f.name  # the notes and at least one data file


def test_a_perfect_record_scores_perfectly() -> None:
    folder = _folder(Truth(("g", "gravitational acceleration"), 9.81, "m/s^2"))
    fs = score(folder, {"answers": [_answer("g", 9.80, 0.01, "m/s²")]})
    assert fs.truths[0].answered and fs.truths[0].within


def test_a_value_four_standard_errors_off_is_not_within() -> None:
    folder = _folder(Truth(("g",), 9.81, "m/s^2"))
    fs = score(folder, {"answers": [_answer("g", 9.85, 0.01, "m/s^2")]})
    assert fs.truths[0].answered and not fs.truths[0].within


def test_a_value_without_standard_error_is_never_within() -> None:
    folder = _folder(Truth(("g",), 9.81, "m/s^2"))
    assert not score(folder, {"answers": [_answer("g", 9.81, None, "m/s^2")]}).truths[0].within


@pytest.mark.parametrize(
    ("value", "se", "unit", "truth_unit", "truth"),
    [
        (52.1, 0.5, "kJ/mol", "J/mol", 52000.0),
        (2.5, 0.1, "mmol/L", "mM", 2.5),
        (12.0, 0.2, "µM", "mol/L", 12e-6),
        (-273.0, 0.5, "°C", "degC", -273.15),
        (0.27, 0.01, "h⁻¹", "1/h", 0.2773),
        (100.0, 2.0, "µF", "F", 1e-4),
    ],
)
def test_units_are_converted_before_comparing(
    value: float, se: float, unit: str, truth_unit: str, truth: float
) -> None:
    folder = _folder(Truth(("q",), truth, truth_unit))
    assert score(folder, {"answers": [_answer("q", value, se, unit)]}).truths[0].within


def test_another_dimension_is_not_a_match() -> None:
    assert convert(1.0, "s", "m") is None
    folder = _folder(Truth(("q",), 1.0, "m"))
    assert not score(folder, {"answers": [_answer("q", 1.0, 0.1, "s")]}).truths[0].within


def test_names_match_by_label_with_case_and_punctuation_ignored() -> None:
    folder = _folder(Truth(("half-life", "t_half"), 5.0, "min"))
    answer = {"quantity": "t12", "label": "Half life", "value": 5.1, "se": 0.1, "unit": "min"}
    assert score(folder, {"answers": [answer]}).truths[0].within


def test_an_unanswerable_request_needs_the_report_to_say_so() -> None:
    folder = _folder(Truth(("Ea", "activation energy"), 0.0, "J/mol", answerable=False))
    silent = score(folder, {"answers": []})
    said = score(
        folder, {"answers": [], "unanswered": [{"what": "activation energy", "why": "one T"}]}
    )
    invented = score(folder, {"answers": [_answer("Ea", 5e4, 1e3, "J/mol")],
                              "unanswered": [{"what": "activation energy", "why": "one T"}]})  # fmt: skip
    assert not silent.truths[0].answered
    assert said.truths[0].answered
    assert not invented.truths[0].answered


def test_a_fit_of_a_set_point_is_harmful_and_unrecorded_columns_are_counted() -> None:
    folder = _folder(Truth(("k",), 1.0), controlled=("T20C.csv: bath (°C)",))
    record = {"analyses": [
        {"kind": "fit", "columns": {"x": ["T20C.csv: t (min)"], "y": ["T20C.csv: bath (°C)"]}},
        {"kind": "fit", "columns": {"x": ["T20C.csv: bath (°C)"], "y": ["T20C.csv: A"]}},
        {"kind": "xy"},
    ]}  # fmt: skip
    fs = score(folder, record)
    assert len(fs.harmful) == 1 and fs.unknown_columns == 1


def test_the_data_carry_their_truth() -> None:
    """An independent check of the generator: a few folders fitted by plain
    scipy give their true parameters back within 3 SE."""
    from scipy.optimize import curve_fit

    by_name = {f.name: f for f in FOLDERS}
    import io

    import pandas as pd

    pend = pd.read_csv(io.BytesIO(by_name["pendulum-g"].files["pendulum.csv"]))
    length, period = pend.iloc[:, 0].to_numpy(), pend.iloc[:, 1].to_numpy()
    (slope,), cov = curve_fit(lambda x, a: a * x, length, period**2)
    g, g_se = 4 * np.pi**2 / slope, 4 * np.pi**2 / slope**2 * np.sqrt(cov[0, 0])
    assert abs(g - 9.81) < 3 * g_se

    mm = pd.read_csv(io.BytesIO(by_name["michaelis-menten-zh"].files["初速度.csv"]))
    s, v = mm.iloc[:, 0].to_numpy(), mm.iloc[:, 1:].mean(axis=1).to_numpy()
    (vmax, km), cov = curve_fit(lambda x, a, b: a * x / (b + x), s, v, p0=(2, 2))
    assert abs(km - 2.5) < 3 * np.sqrt(cov[1, 1]) and abs(vmax - 1.8) < 3 * np.sqrt(cov[0, 0])
